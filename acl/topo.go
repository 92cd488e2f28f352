package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

// Node topology, task-scheduler selection and task-scheduler memory.
//
// The spec defines the ACL_RT_DEVS_TOPOLOGY_* values but not which one a
// given server reports, so npuemu fixes one model per SoC family, on
// physical device ids (ASCEND_RT_VISIBLE_DEVICES does not change how two
// devices are wired), consistent with aclrtDeviceCanAccessPeer (every pair
// can, except on 310B):
//
//	A2, 950  HCCS between every pair (one full-mesh server)
//	A3       SIO between the two dies of one chip (physical 2k, 2k+1),
//	         HCCS_SW between chips (HCCS through the switch)
//	A1       HCCS inside each group of four (physical 0-3, 4-7, ...),
//	         SYS between groups (PCIe across the host's CPUs)
//	310P     PHB (PCIe cards meeting at the host bridge)
//	310B     SYS (single-device boards; no peer-to-peer)

// topology returns the link between physical devices a and b (a ≠ b).
func topology(family string, a, b int) uint64 {
	switch family {
	case emu.FamilyA3:
		if a/2 == b/2 {
			return abi.ACL_RT_DEVS_TOPOLOGY_SIO
		}
		return abi.ACL_RT_DEVS_TOPOLOGY_HCCS_SW
	case emu.FamilyA1:
		if a/4 == b/4 {
			return abi.ACL_RT_DEVS_TOPOLOGY_HCCS
		}
		return abi.ACL_RT_DEVS_TOPOLOGY_SYS
	case emu.Family310P:
		return abi.ACL_RT_DEVS_TOPOLOGY_PHB
	case emu.Family310B:
		return abi.ACL_RT_DEVS_TOPOLOGY_SYS
	}
	return abi.ACL_RT_DEVS_TOPOLOGY_HCCS
}

// GetDevicesTopo implements aclrtGetDevicesTopo: how user devices dev and
// other are connected. The two must differ (a device has no link to
// itself).
func GetDevicesTopo(t *core.Thread, dev, other uint32, value *uint64) error {
	const fn = "aclrtGetDevicesTopo"
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	s, n, err := core.SoC(fn)
	if err != nil {
		return err
	}
	for _, id := range []uint32{dev, other} {
		if uint64(id) >= uint64(n.DeviceCount()) {
			return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range (%d devices are visible)", fn, id, n.DeviceCount())
		}
	}
	if dev == other {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: deviceId and otherDeviceId are both %d: want two different devices", fn, dev)
	}
	cfg := n.Config()
	*value = topology(s.Family, cfg.PhysicalID(int(dev)), cfg.PhysicalID(int(other)))
	return nil
}

// SetTsDevice implements aclrtSetTsDevice: it selects the AI Core or the
// AI Vector task scheduler for the calling thread's later tasks. Every
// emulated SoC has one task scheduler per device serving both kinds of
// core, so a valid choice is accepted and changes nothing; anything but
// ACL_TS_ID_AICORE / ACL_TS_ID_AIVECTOR (ACL_TS_ID_RESERVED included) is
// refused.
func SetTsDevice(t *core.Thread, tsID int32) error {
	switch tsID {
	case abi.ACL_TS_ID_AICORE, abi.ACL_TS_ID_AIVECTOR:
		return nil
	}
	return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtSetTsDevice: tsId %d: want ACL_TS_ID_AICORE (%d) or ACL_TS_ID_AIVECTOR (%d)",
		tsID, abi.ACL_TS_ID_AICORE, abi.ACL_TS_ID_AIVECTOR)
}

// MallocForTaskScheduler implements aclrtMallocForTaskScheduler: device
// memory the task scheduler may read. The emulated scheduler reads the
// device's HBM like any engine, so this is aclrtMallocWithCfg (same size
// rounding, policies and cfg attributes); aclrtFree releases it.
func MallocForTaskScheduler(t *core.Thread, out *uintptr, size uint64, policy uint32, attrs []core.MallocConfigAttr) error {
	return Malloc(t, out, size, policy, core.MallocOpts{Fn: "aclrtMallocForTaskScheduler", WithCfg: true, CfgAttrs: attrs})
}
