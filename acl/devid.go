package acl

import (
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// Device-id mapping, PCI bus ids and UUIDs.
//
// npuemu emulates a bare-metal node: no container, and the device count does
// not honour ASCEND_RT_VISIBLE_DEVICES, so user, logical and physical ids are
// the same number. Each mapping checks the id against the node's device count.

// mapDevID is the identity mapping shared by the six aclrtGet*DevIdBy* calls.
func mapDevID(fn, inName string, in int32, out *int32) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: output pointer must not be NULL", fn)
	}
	_, n, err := soc(fn)
	if err != nil {
		return err
	}
	if in < 0 || int(in) >= n.DeviceCount() {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: %s %d out of range (the node has %d devices)", fn, inName, in, n.DeviceCount())
	}
	*out = in
	return nil
}

// GetLogicDevIdByUserDevId implements aclrtGetLogicDevIdByUserDevId.
func GetLogicDevIdByUserDevId(t *Thread, user int32, logic *int32) error {
	return mapDevID("aclrtGetLogicDevIdByUserDevId", "userDevid", user, logic)
}

// GetUserDevIdByLogicDevId implements aclrtGetUserDevIdByLogicDevId.
func GetUserDevIdByLogicDevId(t *Thread, logic int32, user *int32) error {
	return mapDevID("aclrtGetUserDevIdByLogicDevId", "logicDevId", logic, user)
}

// GetLogicDevIdByPhyDevId implements aclrtGetLogicDevIdByPhyDevId.
func GetLogicDevIdByPhyDevId(t *Thread, phy int32, logic *int32) error {
	return mapDevID("aclrtGetLogicDevIdByPhyDevId", "phyDevId", phy, logic)
}

// GetPhyDevIdByLogicDevId implements aclrtGetPhyDevIdByLogicDevId.
func GetPhyDevIdByLogicDevId(t *Thread, logic int32, phy *int32) error {
	return mapDevID("aclrtGetPhyDevIdByLogicDevId", "logicDevId", logic, phy)
}

// GetUserDevIdByPhyDevId implements aclrtGetUserDevIdByPhyDevId.
func GetUserDevIdByPhyDevId(t *Thread, phy int32, user *int32) error {
	return mapDevID("aclrtGetUserDevIdByPhyDevId", "phyDevId", phy, user)
}

// GetPhyDevIdByUserDevId implements aclrtGetPhyDevIdByUserDevId.
func GetPhyDevIdByUserDevId(t *Thread, user int32, phy *int32) error {
	return mapDevID("aclrtGetPhyDevIdByUserDevId", "userDevId", user, phy)
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
	s, n, err := soc(fn)
	if err != nil {
		return nil, err
	}
	switch s.Family {
	case emu.Family950, emu.FamilyA3, emu.FamilyA2:
		return n, nil
	}
	return nil, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not supported on %s", fn, s.Name)
}

// pciBusID is the bus id string of device id.
func pciBusID(id int32) string {
	return fmt.Sprintf("0000:%02x:00.0", pciBusBase+int(id))
}

// DeviceGetPCIBusId implements aclrtDeviceGetPCIBusId: it returns the id
// string (without NUL); the caller copies it into the C buffer.
func DeviceGetPCIBusId(t *Thread, id int32, haveBuf bool, length int32) (string, error) {
	const fn = "aclrtDeviceGetPCIBusId"
	if !haveBuf {
		return "", abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pciBusId must not be NULL", fn)
	}
	if length < pciBusLen {
		return "", abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: len %d is below %d", fn, length, pciBusLen)
	}
	if _, err := needPCI(fn); err != nil {
		return "", err
	}
	if err := checkDeviceID(fn, id); err != nil {
		return "", err
	}
	return pciBusID(id), nil
}

// DeviceGetByPCIBusId implements aclrtDeviceGetByPCIBusId: the inverse of
// DeviceGetPCIBusId (case-insensitive hex).
func DeviceGetByPCIBusId(t *Thread, busID string, haveBus bool, id *int32) error {
	const fn = "aclrtDeviceGetByPCIBusId"
	if !haveBus || id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pciBusId and deviceId must not be NULL", fn)
	}
	n, err := needPCI(fn)
	if err != nil {
		return err
	}
	want := strings.ToLower(busID)
	for i := 0; i < n.DeviceCount(); i++ {
		if pciBusID(int32(i)) == want {
			*id = int32(i)
			return nil
		}
	}
	return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: no device has PCI bus id %q", fn, busID)
}

// uuidSpace is the name space of device UUIDs (a fixed random v4 UUID).
var uuidSpace = uuid.MustParse("0f6d0a43-7a3c-4b62-9a57-5c2f0e9a1d18")

// DeviceGetUuid implements aclrtDeviceGetUuid: a name-based (SHA-1, v5)
// UUID of "<SoC name>/<device id>", stable across runs and distinct per
// device and SoC.
func DeviceGetUuid(t *Thread, id int32, out *[16]byte) error {
	const fn = "aclrtDeviceGetUuid"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: uuid must not be NULL", fn)
	}
	s, n, err := soc(fn)
	if err != nil {
		return err
	}
	if _, err := needPCI(fn); err != nil {
		return err
	}
	if id < 0 || int(id) >= n.DeviceCount() {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range (the node has %d devices)", fn, id, n.DeviceCount())
	}
	u := uuid.NewSHA1(uuidSpace, fmt.Appendf(nil, "%s/%d", s.Name, id))
	*out = u
	return nil
}
