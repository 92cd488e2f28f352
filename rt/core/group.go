package core

import (
	"fmt"
	"sync"

	"github.com/npuemu/npuemu/abi"
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
