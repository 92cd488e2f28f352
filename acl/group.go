package acl

import (
	"encoding/binary"
	"os"
	"strconv"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
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

// EnvCoreGroups is the number of core groups each 310P device has.
const EnvCoreGroups = "NPUEMU_CORE_GROUPS"

// layoutGroups splits s's resources into n groups.
func layoutGroups(s emu.SoC, n int) []core.Group {
	share := func(total, i int) uint32 {
		v := total / n
		if i < total%n {
			v++
		}
		return uint32(v)
	}
	gs := make([]core.Group, n)
	for i := range gs {
		gs[i] = core.Group{
			ID:        int32(i),
			AICores:   share(s.AICores, i),
			AICPUs:    share(s.AICPUs, i),
			AIVectors: share(s.VectorCores, i),
			SDMAs:     share(s.SDMAEngines, i),
			ActiveASQ: core.GroupASQ,
		}
	}
	return gs
}

// deviceGroups returns the group layout of the current context's device
// for fn, refusing SoCs without core groups.
func deviceGroups(t *core.Thread, fn string) (*core.Context, []core.Group, error) {
	if err := CheckSoC(fn); err != nil {
		return nil, nil, err
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return nil, nil, err
	}
	s := c.Dev.Emu.SoC
	n := 1
	if v := os.Getenv(EnvCoreGroups); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 || k > s.AICores {
			return nil, nil, abi.Errorf(abi.ACL_ERROR_RT_GROUP_NOT_CREATE, "%s: %s=%q: want 1..%d (the %s's AI Cores)", fn, EnvCoreGroups, v, s.AICores, s.Name)
		}
		n = k
	}
	return c, layoutGroups(s, n), nil
}

// GetGroupCount implements aclrtGetGroupCount.
func GetGroupCount(t *core.Thread, count *uint32) error {
	const fn = "aclrtGetGroupCount"
	if count == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: count must not be NULL", fn)
	}
	_, gs, err := deviceGroups(t, fn)
	if err != nil {
		return err
	}
	*count = uint32(len(gs))
	return nil
}

// CreateGroupInfo implements aclrtCreateGroupInfo: room for every group of
// the current device, zero until aclrtGetAllGroupInfo fills it.
func CreateGroupInfo(t *core.Thread) (core.Handle, error) {
	_, gs, err := deviceGroups(t, "aclrtCreateGroupInfo")
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
	_, gs, err := deviceGroups(t, fn)
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

// SetGroup implements aclrtSetGroup: the current context runs its later
// kernels on group groupId's cores.
func SetGroup(t *core.Thread, groupID int32) error {
	const fn = "aclrtSetGroup"
	c, gs, err := deviceGroups(t, fn)
	if err != nil {
		return err
	}
	if groupID < 0 || int(groupID) >= len(gs) {
		return abi.Errorf(abi.ACL_ERROR_RT_GROUP_NOT_CREATE, "%s: group %d does not exist on device %d (ids 0..%d)", fn, groupID, c.Dev.ID, len(gs)-1)
	}
	core.GroupBinding.Mu.Lock()
	if core.GroupBinding.Ctx == nil {
		core.GroupBinding.Ctx = map[*core.Context]core.Group{}
	}
	for old := range core.GroupBinding.Ctx {
		if old.Dead.Load() {
			delete(core.GroupBinding.Ctx, old)
		}
	}
	core.GroupBinding.Ctx[c] = gs[groupID]
	core.GroupBinding.Mu.Unlock()
	noteResLimit() // the launch path now reads the caps (kernel_reslimit.go)
	return nil
}

// CurrentGroups returns the groups of the current context's device (the
// rt* layer's rtGetGroupInfo).
func CurrentGroups(t *core.Thread, fn string) ([]core.Group, error) {
	_, gs, err := deviceGroups(t, fn)
	return gs, err
}

// SetGroupMissing is the error of a group id the device does not have.
func SetGroupMissing(fn string, id int32, n int) error {
	return abi.Errorf(abi.ACL_ERROR_RT_GROUP_NOT_CREATE, "%s: group %d does not exist (ids 0..%d)", fn, id, n-1)
}
