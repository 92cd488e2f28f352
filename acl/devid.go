package acl

import (
	"fmt"
	"strings"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// Device-id mapping, PCI bus ids and UUIDs.
//
// npuemu emulates a bare-metal node (no container), so logical == physical.
// ASCEND_RT_VISIBLE_DEVICES (emu.EnvVisible) renumbers the listed physical
// devices 0..n−1: those are the user ids every other ACL call takes. As the
// spec notes, the "logic" id of aclrtGetLogicDevIdByPhyDevId and
// aclrtGetPhyDevIdByLogicDevId is really the user id, so those two behave
// like the user/physical pair. A physical (or logical) id that is not
// visible is ACL_ERROR_RT_INVALID_DEVICEID.

// The maps ask the driver where the vendor's runtime does (rt-to-hal.tsv):
// npuemu's driver numbers the node's devices 0..n−1 and gives each its
// own number as physical id (hal/device.go), because ASCEND_RT_VISIBLE_DEVICES
// is applied below it, when the node is built. So a physical id of these
// calls is the driver's physical id mapped to the machine's by the node's
// table (emu.Config.PhysicalID / NodeID): the driver's answer (or an
// interposed driver's) decides, the table only renames.

// userToLogic maps a user id to its logical (== physical) id
// (rtsGetLogicDevIdByUserDevId): the id is checked against the driver's
// device count (drvGetDevNum), the runtime's table renames it.
func userToLogic(fn, inName string, user int32, out *int32) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: output pointer must not be NULL", fn)
	}
	_, n, err := core.SoC(fn)
	if err != nil {
		return err
	}
	c, err := core.DeviceCount(fn)
	if err != nil {
		return err
	}
	if user < 0 || int(user) >= c {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: %s %d out of range (%d devices are visible)", fn, inName, user, c)
	}
	*out = int32(n.Config().PhysicalID(int(user)))
	return nil
}

// userToPhy maps a user id to its physical id (rtsGetPhyDevIdByLogicDevId):
// the driver's drvDeviceGetPhyIdByIndex, renamed by the node's table.
func userToPhy(fn, inName string, user int32, out *int32) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: output pointer must not be NULL", fn)
	}
	_, n, err := core.SoC(fn)
	if err != nil {
		return err
	}
	if user < 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: %s %d out of range", fn, inName, user)
	}
	var p uint32
	if err := stack.DeviceGetPhyIDByIndex(uint32(user), &p); err != nil {
		return core.DriverErr(fn, err)
	}
	*out = int32(n.Config().PhysicalID(int(p)))
	return nil
}

// phyToUser maps a physical id to its user id (rtsGetLogicDevIdByPhyDevId):
// the node's table gives the driver's physical id, the driver's
// drvDeviceGetIndexByPhyId the device index (the user id).
func phyToUser(fn, inName string, phy int32, out *int32) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: output pointer must not be NULL", fn)
	}
	u, err := phyInTable(fn, inName, phy)
	if err != nil {
		return err
	}
	var index uint32
	if err := stack.DeviceGetIndexByPhyID(uint32(u), &index); err != nil {
		return core.DriverErr(fn, err)
	}
	*out = int32(index)
	return nil
}

// logicToUser maps a logical (== physical) id to its user id
// (rtsGetUserDevIdByLogicDevId): the runtime's table alone.
func logicToUser(fn, inName string, logic int32, out *int32) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: output pointer must not be NULL", fn)
	}
	u, err := phyInTable(fn, inName, logic)
	if err != nil {
		return err
	}
	*out = int32(u)
	return nil
}

// phyInTable is the node id of machine physical id phy (the node's table).
func phyInTable(fn, inName string, phy int32) (int, error) {
	_, n, err := core.SoC(fn)
	if err != nil {
		return 0, err
	}
	cfg := n.Config()
	u, ok := cfg.NodeID(int(phy))
	if !ok {
		if cfg.Visible != nil && phy >= 0 && int(phy) < cfg.PhysicalCount() {
			return 0, abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: %s %d is not in %s=%v", fn, inName, phy, emu.EnvVisible, cfg.Visible)
		}
		return 0, abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: %s %d out of range (the node has %d devices)", fn, inName, phy, cfg.PhysicalCount())
	}
	return u, nil
}

// GetLogicDevIdByUserDevId implements aclrtGetLogicDevIdByUserDevId.
func GetLogicDevIdByUserDevId(t *core.Thread, user int32, logic *int32) error {
	return userToLogic("aclrtGetLogicDevIdByUserDevId", "userDevid", user, logic)
}

// GetUserDevIdByLogicDevId implements aclrtGetUserDevIdByLogicDevId.
func GetUserDevIdByLogicDevId(t *core.Thread, logic int32, user *int32) error {
	return logicToUser("aclrtGetUserDevIdByLogicDevId", "logicDevId", logic, user)
}

// GetLogicDevIdByPhyDevId implements aclrtGetLogicDevIdByPhyDevId (its
// "logic" id is the user id).
func GetLogicDevIdByPhyDevId(t *core.Thread, phy int32, logic *int32) error {
	return phyToUser("aclrtGetLogicDevIdByPhyDevId", "phyDevId", phy, logic)
}

// GetPhyDevIdByLogicDevId implements aclrtGetPhyDevIdByLogicDevId (its
// "logic" id is the user id).
func GetPhyDevIdByLogicDevId(t *core.Thread, logic int32, phy *int32) error {
	return userToPhy("aclrtGetPhyDevIdByLogicDevId", "logicDevId", logic, phy)
}

// GetUserDevIdByPhyDevId implements aclrtGetUserDevIdByPhyDevId.
func GetUserDevIdByPhyDevId(t *core.Thread, phy int32, user *int32) error {
	return phyToUser("aclrtGetUserDevIdByPhyDevId", "phyDevId", phy, user)
}

// GetPhyDevIdByUserDevId implements aclrtGetPhyDevIdByUserDevId.
func GetPhyDevIdByUserDevId(t *core.Thread, user int32, phy *int32) error {
	return userToPhy("aclrtGetPhyDevIdByUserDevId", "userDevId", user, phy)
}

// pciBusLen is the size of "0000:3d:00.0" plus its terminating NUL.
const pciBusLen = 13

// pciBusBase is the bus of device 0; device i sits on bus pciBusBase+i. The
// numbers are npuemu's choice (a plausible slot layout), fixed so that
// programs see the same ids on every run.
const pciBusBase = 0x3d

// needPCI refuses the PCI calls on the SoC families where the spec marks
// them unsupported.
func needPCI(fn string) (*emu.Node, error) {
	s, n, err := core.SoC(fn)
	if err != nil {
		return nil, err
	}
	switch s.Family {
	case emu.Family950, emu.FamilyA3, emu.FamilyA2:
		return n, nil
	}
	return nil, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not supported on %s", fn, s.Name)
}

// pciBusID is the bus id string of user device id: the slot belongs to the
// physical device, so it does not change with ASCEND_RT_VISIBLE_DEVICES.
func pciBusID(n *emu.Node, id int32) string {
	return fmt.Sprintf("0000:%02x:00.0", pciBusBase+n.Config().PhysicalID(int(id)))
}

// DeviceGetPCIBusId implements aclrtDeviceGetPCIBusId: it returns the id
// string (without NUL); the caller copies it into the C buffer.
func DeviceGetPCIBusId(t *core.Thread, id int32, haveBuf bool, length int32) (string, error) {
	const fn = "aclrtDeviceGetPCIBusId"
	if !haveBuf {
		return "", abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pciBusId must not be NULL", fn)
	}
	if length < pciBusLen {
		return "", abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: len %d is below %d", fn, length, pciBusLen)
	}
	n, err := needPCI(fn)
	if err != nil {
		return "", err
	}
	if err := core.CheckDeviceID(fn, id); err != nil {
		return "", err
	}
	return pciBusID(n, id), nil
}

// DeviceGetByPCIBusId implements aclrtDeviceGetByPCIBusId: the inverse of
// DeviceGetPCIBusId (case-insensitive hex).
func DeviceGetByPCIBusId(t *core.Thread, busID string, haveBus bool, id *int32) error {
	const fn = "aclrtDeviceGetByPCIBusId"
	if !haveBus || id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pciBusId and deviceId must not be NULL", fn)
	}
	n, err := needPCI(fn)
	if err != nil {
		return err
	}
	c, err := core.DeviceCount(fn) // the driver's count (drvGetDevNum)
	if err != nil {
		return err
	}
	want := strings.ToLower(busID)
	for i := 0; i < min(c, n.DeviceCount()); i++ {
		if pciBusID(n, int32(i)) == want {
			*id = int32(i)
			return nil
		}
	}
	return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: no device has PCI bus id %q", fn, busID)
}

// uuidSpace is the name space of device UUIDs (a fixed random v4 UUID,
// 0f6d0a43-7a3c-4b62-9a57-5c2f0e9a1d18).
var uuidSpace = [16]byte{0x0f, 0x6d, 0x0a, 0x43, 0x7a, 0x3c, 0x4b, 0x62, 0x9a, 0x57, 0x5c, 0x2f, 0x0e, 0x9a, 0x1d, 0x18}

// uuidV5 is RFC 9562's name-based UUID with SHA-1 (version 5) of name in
// space. Written here rather than taken from a UUID package: that one
// brings the net package (and crypto/rand) into every process's library,
// data the loader must relocate at every start (and SHA-1 likewise,
// devid_sha1.go).
func uuidV5(space [16]byte, name []byte) (u [16]byte) {
	sum := sha1Sum(space[:], name)
	copy(u[:], sum[:])
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // RFC 9562 variant
	return u
}

// DeviceGetUuid implements aclrtDeviceGetUuid: a name-based (SHA-1, v5)
// UUID of "<SoC name>/<physical device id>", stable across runs and
// distinct per device and SoC (and the same whatever
// ASCEND_RT_VISIBLE_DEVICES says).
func DeviceGetUuid(t *core.Thread, id int32, out *[16]byte) error {
	const fn = "aclrtDeviceGetUuid"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: uuid must not be NULL", fn)
	}
	s, n, err := core.SoC(fn)
	if err != nil {
		return err
	}
	if _, err := needPCI(fn); err != nil {
		return err
	}
	if err := core.CheckDeviceID(fn, id); err != nil { // the driver's count
		return err
	}
	*out = uuidV5(uuidSpace, fmt.Appendf(nil, "%s/%d", s.Name, n.Config().PhysicalID(int(id))))
	return nil
}
