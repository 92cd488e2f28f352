package rt

import (
	"math"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// SetDevice implements rtSetDevice: open device id (on first use) and make
// its primary context the thread's current one.
func SetDevice(t *core.Thread, id int32) error {
	return wrap("rtSetDevice", core.RuntimeSetDevice(t, id))
}

// GetDevice implements rtGetDevice.
func GetDevice(t *core.Thread, id *int32) error {
	if id == nil {
		return invalid("rtGetDevice", "devId must not be NULL")
	}
	return wrap("rtGetDevice", core.GetDevice(t, id))
}

// DeviceReset implements rtDeviceReset.
func DeviceReset(t *core.Thread, id int32) error {
	return wrap("rtDeviceReset", core.ResetDevice(t, id))
}

// DeviceSynchronize implements rtDeviceSynchronize: wait for every stream
// of the current device.
func DeviceSynchronize(t *core.Thread) error {
	return wrap("rtDeviceSynchronize", core.SynchronizeDevice(t))
}

// GetDeviceCount implements rtGetDeviceCount.
func GetDeviceCount(t *core.Thread, n *int32) error {
	if n == nil {
		return invalid("rtGetDeviceCount", "cnt must not be NULL")
	}
	var c uint32
	if err := core.GetDeviceCount(t, &c); err != nil {
		return wrap("rtGetDeviceCount", err)
	}
	*n = int32(c)
	return nil
}

// DeviceSynchronizeWithTimeout implements rtDeviceSynchronizeWithTimeout
// (milliseconds, -1 = forever).
func DeviceSynchronizeWithTimeout(t *core.Thread, timeoutMs int32) error {
	if timeoutMs < -1 {
		return invalid("rtDeviceSynchronizeWithTimeout", "timeout %d: -1 (forever) or more", timeoutMs)
	}
	return wrap("rtDeviceSynchronizeWithTimeout", core.SynchronizeDeviceWithTimeout(t, timeoutMs))
}

// GetSocVersion implements rtGetSocVersion: the SoC name, NUL-terminated,
// into a buffer of maxLen bytes (the caller copies it; libfake writes it).
func GetSocVersion(t *core.Thread, maxLen uint32) (string, error) {
	const fn = "rtGetSocVersion"
	name, err := core.SocName(t)
	if err != nil {
		return "", wrap(fn, err)
	}
	if uint32(len(name)) >= maxLen {
		return "", invalid(fn, "maxLen %d cannot hold %q and its NUL", maxLen, name)
	}
	return name, nil
}

// GetSocVersionNil is rtGetSocVersion's answer to a NULL buffer.
func GetSocVersionNil() error { return invalid("rtGetSocVersion", "ver must not be NULL") }

// GetRunMode implements rtGetRunMode: the emulated devices are attached
// to the host, RT_RUN_MODE_ONLINE (aclrtGetRunMode's ACL_HOST; the
// runtime's RT_RUN_MODE_OFFLINE is ACL_DEVICE).
func GetRunMode(t *core.Thread, mode *int32) error {
	const fn = "rtGetRunMode"
	if mode == nil {
		return invalid(fn, "runMode must not be NULL")
	}
	var m int32
	if err := acl.GetRunMode(t, &m); err != nil {
		return wrap(fn, err)
	}
	*mode = abi.RT_RUN_MODE_OFFLINE
	if m == abi.ACL_HOST {
		*mode = abi.RT_RUN_MODE_ONLINE
	}
	return nil
}

// DeviceStatusQuery implements rtDeviceStatusQuery: an emulated device is
// RT_DEVICE_STATUS_NORMAL (numbered as aclrtDeviceStatus).
func DeviceStatusQuery(t *core.Thread, id uint32, status *int32) error {
	const fn = "rtDeviceStatusQuery"
	if status == nil {
		return invalid(fn, "deviceStatus must not be NULL")
	}
	if id > math.MaxInt32 {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range", fn, id)
	}
	return wrap(fn, acl.QueryDeviceStatus(t, int32(id), status))
}

// DeviceResetForce implements rtDeviceResetForce: release the device's
// primary context whatever its reference count, once.
func DeviceResetForce(t *core.Thread, id int32) error {
	return wrap("rtDeviceResetForce", acl.ResetDeviceForce(t, id))
}

// DeviceGetBareTgid implements rtDeviceGetBareTgid: the process id as the
// device sees it (no container namespace here).
func DeviceGetBareTgid(t *core.Thread, pid *uint32) error {
	const fn = "rtDeviceGetBareTgid"
	if pid == nil {
		return invalid(fn, "pid must not be NULL")
	}
	var p int32
	if err := acl.DeviceGetBareTgid(t, &p); err != nil {
		return wrap(fn, err)
	}
	*pid = uint32(p)
	return nil
}

// DeviceGetInfo implements rtsDeviceGetInfo: rtDevAttr numbers the
// attributes as aclrtDevAttr, and the values are aclrtGetDeviceInfo's.
func DeviceGetInfo(t *core.Thread, id uint32, attr int32, value *int64) error {
	const fn = "rtsDeviceGetInfo"
	if value == nil {
		return invalid(fn, "val must not be NULL")
	}
	if id > math.MaxInt32 {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range", fn, id)
	}
	return wrap(fn, acl.GetDeviceInfo(t, id, attr, value))
}

// GetAiCoreCount implements rtGetAiCoreCount: the AI cores of the
// emulated SoC (every device of a node has the same SoC).
func GetAiCoreCount(t *core.Thread, n *uint32) error {
	const fn = "rtGetAiCoreCount"
	if n == nil {
		return invalid(fn, "aiCoreCnt must not be NULL")
	}
	s, _, err := core.SoC(fn)
	if err != nil {
		return wrap(fn, err)
	}
	*n = uint32(s.AICores)
	return nil
}

// GetDeviceUUID implements rtGetDeviceUuid: aclrtDeviceGetUuid's
// name-based UUID of the device (rtUuid_t is 16 bytes).
func GetDeviceUUID(t *core.Thread, id int32, out *[16]byte) error {
	if out == nil {
		return invalid("rtGetDeviceUuid", "uuid must not be NULL")
	}
	return wrap("rtGetDeviceUuid", acl.DeviceGetUuid(t, id, out))
}

// The device id maps: a "logic" id of the rts* calls is the user id
// (after ASCEND_RT_VISIBLE_DEVICES), as for the aclrt* calls that call
// them; the physical id is the node's.

// GetLogicDevIdByPhyDevId implements rtsGetLogicDevIdByPhyDevId.
func GetLogicDevIdByPhyDevId(t *core.Thread, phy int32, logic *int32) error {
	if logic == nil {
		return invalid("rtsGetLogicDevIdByPhyDevId", "logicDevId must not be NULL")
	}
	return wrap("rtsGetLogicDevIdByPhyDevId", acl.GetLogicDevIdByPhyDevId(t, phy, logic))
}

// GetPhyDevIdByLogicDevId implements rtsGetPhyDevIdByLogicDevId.
func GetPhyDevIdByLogicDevId(t *core.Thread, logic int32, phy *int32) error {
	if phy == nil {
		return invalid("rtsGetPhyDevIdByLogicDevId", "phyDevId must not be NULL")
	}
	return wrap("rtsGetPhyDevIdByLogicDevId", acl.GetPhyDevIdByLogicDevId(t, logic, phy))
}

// GetLogicDevIdByUserDevId implements rtsGetLogicDevIdByUserDevId.
func GetLogicDevIdByUserDevId(t *core.Thread, user int32, logic *int32) error {
	if logic == nil {
		return invalid("rtsGetLogicDevIdByUserDevId", "logicDevId must not be NULL")
	}
	return wrap("rtsGetLogicDevIdByUserDevId", acl.GetLogicDevIdByUserDevId(t, user, logic))
}

// GetUserDevIdByLogicDevId implements rtsGetUserDevIdByLogicDevId.
func GetUserDevIdByLogicDevId(t *core.Thread, logic int32, user *int32) error {
	if user == nil {
		return invalid("rtsGetUserDevIdByLogicDevId", "userDevId must not be NULL")
	}
	return wrap("rtsGetUserDevIdByLogicDevId", acl.GetUserDevIdByLogicDevId(t, logic, user))
}

// CheckArchCompatibility implements rtCheckArchCompatibility: 1 when a
// binary built for omSocVersion runs here (its NPU architecture is the
// emulated SoC's); an unknown SoC name is ACL_ERROR_RT_PARAM_INVALID.
func CheckArchCompatibility(t *core.Thread, soc string, haveSoc bool, can *int32) error {
	const fn = "rtCheckArchCompatibility"
	if !haveSoc || can == nil {
		return invalid(fn, "omSocVersion and canCompatible must not be NULL")
	}
	return wrap(fn, acl.CheckArchCompatibility(t, soc, true, can))
}

// DeviceGetPCIBusID implements rtDeviceGetPCIBusId: the device's bus id
// ("0000:3d:00.0" form, as aclrtDeviceGetPCIBusId), which libfake writes
// NUL-terminated into the caller's buffer of length bytes.
func DeviceGetPCIBusID(t *core.Thread, id int32, haveBuf bool, length int32) (string, error) {
	const fn = "rtDeviceGetPCIBusId"
	if !haveBuf {
		return "", invalid(fn, "pciBusId must not be NULL")
	}
	s, err := acl.DeviceGetPCIBusId(t, id, true, length)
	return s, wrap(fn, err)
}

// DeviceGetByPCIBusID implements rtDeviceGetByPCIBusId: the device whose
// bus id is busID (case-insensitive hex).
func DeviceGetByPCIBusID(t *core.Thread, busID string, haveBus bool, id *int32) error {
	const fn = "rtDeviceGetByPCIBusId"
	if !haveBus || id == nil {
		return invalid(fn, "pciBusId and devId must not be NULL")
	}
	return wrap(fn, acl.DeviceGetByPCIBusId(t, busID, true, id))
}

// deviceLimit converts an rtLimitType_t to the aclrtDeviceLimit of the same
// name (ACL numbers them from 0 without the low-power timeout, so the rest
// differ by one). RT_LIMIT_TYPE_LOW_POWER_TIMEOUT has no ACL counterpart.
func deviceLimit(fn string, typ int32) (int32, error) {
	switch typ {
	case abi.RT_LIMIT_TYPE_SIMT_STACK_SIZE:
		return abi.ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, nil
	case abi.RT_LIMIT_TYPE_SIMT_DVG_WARP_STACK_SIZE:
		return abi.ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, nil
	case abi.RT_LIMIT_TYPE_STACK_SIZE:
		return abi.ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, nil
	case abi.RT_LIMIT_TYPE_SIMD_PRINTF_FIFO_SIZE_PER_CORE:
		return abi.ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, nil
	case abi.RT_LIMIT_TYPE_SIMT_PRINTF_FIFO_SIZE:
		return abi.ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, nil
	case abi.RT_LIMIT_TYPE_LOW_POWER_TIMEOUT:
		return 0, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: RT_LIMIT_TYPE_LOW_POWER_TIMEOUT: npuemu models no device low-power state", fn)
	}
	return 0, invalid(fn, "type %d: not an rtLimitType_t", typ)
}

// DeviceSetLimit implements rtDeviceSetLimit: as aclrtDeviceSetLimit
// (process-wide, the SIMD stack rounded up, SIMT limits on 950 only);
// devId must name a device.
func DeviceSetLimit(t *core.Thread, dev, typ int32, value uint32) error {
	const fn = "rtDeviceSetLimit"
	limit, err := deviceLimit(fn, typ)
	if err != nil {
		return err
	}
	if err := core.CheckKnownDeviceID(fn, dev); err != nil { // the vendor's rtDeviceSetLimit asks no driver
		return wrap(fn, err)
	}
	return wrap(fn, acl.DeviceSetLimit(t, limit, uint64(value)))
}

// DeviceGetLimit implements rtDeviceGetLimit: the value in force, the
// default while unset.
func DeviceGetLimit(t *core.Thread, typ int32, value *uint32) error {
	const fn = "rtDeviceGetLimit"
	if value == nil {
		return invalid(fn, "val must not be NULL")
	}
	limit, err := deviceLimit(fn, typ)
	if err != nil {
		return err
	}
	var v uint64
	if err := acl.DeviceGetLimit(t, limit, &v); err != nil {
		return wrap(fn, err)
	}
	*value = uint32(min(v, math.MaxUint32))
	return nil
}

// DeviceTaskAbort implements rtDeviceTaskAbort: the tasks of every stream
// of the device are aborted between the registered abort callbacks' PRE
// and POST calls, as aclrtDeviceTaskAbort (950/A3/A2); timeout (ms) is
// only validated, the emulated abort takes no time.
func DeviceTaskAbort(t *core.Thread, dev int32, timeout uint32) error {
	return wrap("rtDeviceTaskAbort", acl.DeviceTaskAbort(t, dev, timeout))
}
