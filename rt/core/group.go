package core

import (
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// Group is one core group: the fields of rtGroupInfo_t that
// aclrtGetGroupInfoDetail reads.
type Group struct {
	ID        int32
	AICores   uint32
	AICPUs    uint32
	AIVectors uint32
	SDMAs     uint32
	ActiveASQ uint32
}

// GroupBinding is the group aclrtSetGroup bound each context to.
var GroupBinding struct {
	Mu  sync.Mutex
	Ctx map[*Context]Group // guarded by mu
}

// groupCaps returns the AI Core and vector core caps of the group c is
// bound to, zeros when it is bound to none.
func groupCaps(c *Context) (cube, vector uint32) {
	GroupBinding.Mu.Lock()
	defer GroupBinding.Mu.Unlock()
	g, ok := GroupBinding.Ctx[c]
	if !ok {
		return 0, 0
	}
	return g.AICores, g.AIVectors
}

// withinGroup lowers the launch caps cube and vector (0: none) to the
// cores of the group c is bound to.
func withinGroup(c *Context, cube, vector uint32) (uint32, uint32) {
	gc, gv := groupCaps(c)
	lower := func(v, g uint32) uint32 {
		if g != 0 && (v == 0 || g < v) {
			return g
		}
		return v
	}
	return lower(cube, gc), lower(vector, gv)
}

// String describes a group for messages.
func (g Group) String() string {
	return fmt.Sprintf("group %d (%d AI Cores, %d vector cores, %d AI CPUs, %d SDMA)", g.ID, g.AICores, g.AIVectors, g.AICPUs, g.SDMAs)
}

// GroupASQ is the number of streams a group runs at once.
const GroupASQ = 32

// GroupInfo is one aclrtGroupInfo: room for the device's groups.
type GroupInfo struct {
	Groups []Group
}

var GroupInfos = NewTable[GroupInfo](KindGroupInfo)

// ResolveGroupInfo resolves an aclrtGroupInfo handle.
func ResolveGroupInfo(fn string, h Handle) (*GroupInfo, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: groupInfo must not be NULL", fn)
	}
	if k, _, _ := h.Parts(); k != KindGroupInfo {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %#x is not an aclrtGroupInfo", fn, uintptr(h))
	}
	g, err := GroupInfos.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: aclrtGroupInfo %#x was destroyed or never created", fn, uintptr(h))
	}
	return g, nil
}

// EnvCoreGroups is the number of core groups each 310P device has.
const EnvCoreGroups = "NPUEMU_CORE_GROUPS"

// layoutGroups splits s's resources into n groups.
func layoutGroups(s emu.SoC, n int) []Group {
	share := func(total, i int) uint32 {
		v := total / n
		if i < total%n {
			v++
		}
		return uint32(v)
	}
	gs := make([]Group, n)
	for i := range gs {
		gs[i] = Group{
			ID:        int32(i),
			AICores:   share(s.AICores, i),
			AICPUs:    share(s.AICPUs, i),
			AIVectors: share(s.VectorCores, i),
			SDMAs:     share(s.SDMAEngines, i),
			ActiveASQ: GroupASQ,
		}
	}
	return gs
}

// DeviceGroups returns the group layout of the current context's device
// for fn, refusing SoCs without core groups.
func DeviceGroups(t *Thread, fn string) (*Context, []Group, error) {
	if err := CheckSoC(fn); err != nil {
		return nil, nil, err
	}
	c, err := Current(t, fn)
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
func GetGroupCount(t *Thread, count *uint32) error {
	const fn = "aclrtGetGroupCount"
	if count == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: count must not be NULL", fn)
	}
	_, gs, err := DeviceGroups(t, fn)
	if err != nil {
		return err
	}
	*count = uint32(len(gs))
	return nil
}

// SetGroup implements aclrtSetGroup: the current context runs its later
// kernels on group groupId's cores.
func SetGroup(t *Thread, groupID int32) error {
	const fn = "aclrtSetGroup"
	c, gs, err := DeviceGroups(t, fn)
	if err != nil {
		return err
	}
	if groupID < 0 || int(groupID) >= len(gs) {
		return abi.Errorf(abi.ACL_ERROR_RT_GROUP_NOT_CREATE, "%s: group %d does not exist on device %d (ids 0..%d)", fn, groupID, c.Dev.ID, len(gs)-1)
	}
	GroupBinding.Mu.Lock()
	if GroupBinding.Ctx == nil {
		GroupBinding.Ctx = map[*Context]Group{}
	}
	for old := range GroupBinding.Ctx {
		if old.Dead.Load() {
			delete(GroupBinding.Ctx, old)
		}
	}
	GroupBinding.Ctx[c] = gs[groupID]
	GroupBinding.Mu.Unlock()
	NoteResLimit() // the launch path now reads the caps (kernel_reslimit.go)
	return nil
}

// CurrentGroups returns the groups of the current context's device (the
// rt* layer's rtGetGroupInfo).
func CurrentGroups(t *Thread, fn string) ([]Group, error) {
	_, gs, err := DeviceGroups(t, fn)
	return gs, err
}

// SetGroupMissing is the error of a group id the device does not have.
func SetGroupMissing(fn string, id int32, n int) error {
	return abi.Errorf(abi.ACL_ERROR_RT_GROUP_NOT_CREATE, "%s: group %d does not exist (ids 0..%d)", fn, id, n-1)
}
