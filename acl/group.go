package acl

import (
	"encoding/binary"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Core groups (aclrtGetGroupCount, aclrtCreateGroupInfo,
// aclrtGetAllGroupInfo, aclrtGetGroupInfoDetail, aclrtSetGroup,
// aclrtDestroyGroupInfo): on Ascend 310P a device's compute resources (AI
// Cores, vector cores, AI CPUs, SDMA channels) are split into groups, and a
// context bound to one with aclrtSetGroup runs its kernels on that group's
// cores only. The other SoCs refuse every group call with
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT (the spec's support column).
//
// Decisions (docs/groups.md):
//   - On hardware an administrator creates the groups with DCMI
//     (dcmi_create_capability_group); npuemu has no such call, so every
//     310P device starts with a fixed layout: NPUEMU_CORE_GROUPS groups
//     (default 1, at most the AI Core count), ids 0..n-1, each resource
//     split evenly with the remainder going to the lowest ids, and
//     ASQNUM (streams a group can run at once) 32 each (semantics.md §19).
//   - The documentation limits the calls to programs on the device's own
//     CPU (not the EP form); npuemu runs every program on the host and
//     does not enforce that restriction.
//   - aclrtSetGroup binds the calling thread's current context; kernels
//     launched on its streams afterwards use at most the group's AI Cores
//     and vector cores at once (as a resource limit would, kernel_reslimit.go).
//   - aclrtGroupInfo is npuemu's own object (acl-types.md: its layout is
//     the runtime's choice): a handle to the group array of the context's
//     device, filled by aclrtGetAllGroupInfo.

// CreateGroupInfo implements aclrtCreateGroupInfo: room for every group of
// the current device, zero until aclrtGetAllGroupInfo fills it.
func CreateGroupInfo(t *core.Thread) (core.Handle, error) {
	_, gs, err := core.DeviceGroups(t, "aclrtCreateGroupInfo")
	if err != nil {
		return 0, err
	}
	return core.GroupInfos.Add(&core.GroupInfo{Groups: make([]core.Group, len(gs))}), nil
}

// DestroyGroupInfo implements aclrtDestroyGroupInfo.
func DestroyGroupInfo(t *core.Thread, h core.Handle) error {
	const fn = "aclrtDestroyGroupInfo"
	if _, err := core.ResolveGroupInfo(fn, h); err != nil {
		return err
	}
	if !core.GroupInfos.Remove(h) {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: groupInfo %#x was destroyed concurrently", fn, uintptr(h))
	}
	return nil
}

// GetAllGroupInfo implements aclrtGetAllGroupInfo: every group of the
// current device into groupInfo.
func GetAllGroupInfo(t *core.Thread, h core.Handle) error {
	const fn = "aclrtGetAllGroupInfo"
	info, err := core.ResolveGroupInfo(fn, h)
	if err != nil {
		return err
	}
	_, gs, err := core.DeviceGroups(t, fn)
	if err != nil {
		return err
	}
	core.GroupInfos.Mu.Lock() // the table lock also guards the infos' contents
	defer core.GroupInfos.Mu.Unlock()
	if len(info.Groups) != len(gs) {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: groupInfo has room for %d groups, the device has %d (create it on this device)", fn, len(info.Groups), len(gs))
	}
	copy(info.Groups, gs)
	return nil
}

// GetGroupInfoDetail implements aclrtGetGroupInfoDetail: one attribute of
// group index idx, an int (4 bytes) each.
func GetGroupInfoDetail(t *core.Thread, h core.Handle, idx int32, attr int32, value []byte, retSize *uint64) error {
	const fn = "aclrtGetGroupInfoDetail"
	info, err := core.ResolveGroupInfo(fn, h)
	if err != nil {
		return err
	}
	if value == nil || retSize == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attrValue and paramRetSize must not be NULL", fn)
	}
	core.GroupInfos.Mu.RLock()
	defer core.GroupInfos.Mu.RUnlock()
	if idx < 0 || int(idx) >= len(info.Groups) {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: groupIndex %d: want 0..%d", fn, idx, len(info.Groups)-1)
	}
	if len(value) < 4 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: valueLen %d: the attribute is an int (4 bytes)", fn, len(value))
	}
	g := info.Groups[idx]
	var v uint32
	switch attr {
	case abi.ACL_GROUP_AICORE_INT:
		v = g.AICores
	case abi.ACL_GROUP_AIV_INT:
		v = g.AIVectors
	case abi.ACL_GROUP_AIC_INT:
		v = g.AICPUs
	case abi.ACL_GROUP_SDMANUM_INT:
		v = g.SDMAs
	case abi.ACL_GROUP_ASQNUM_INT:
		v = g.ActiveASQ
	case abi.ACL_GROUP_GROUPID_INT:
		v = uint32(g.ID)
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attr %d is not an aclrtGroupAttr (0..5)", fn, attr)
	}
	binary.LittleEndian.PutUint32(value, v)
	*retSize = 4
	return nil
}

// GetGroupCount implements aclrtGetGroupCount; the runtime does the work
// (core.GetGroupCount, which the rt* API calls too).
func GetGroupCount(t *core.Thread, count *uint32) error { return core.GetGroupCount(t, count) }

// SetGroup implements aclrtSetGroup; the runtime does the work
// (core.SetGroup, which the rt* API calls too).
func SetGroup(t *core.Thread, groupID int32) error { return core.SetGroup(t, groupID) }
