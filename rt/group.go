package rt

import (
	"github.com/npuemu/npuemu/rt/core"
)

// The runtime's core-group calls (310P only; acl/group.go has the layout
// and docs/groups.md the decisions).

// GetGroupCount implements rtGetGroupCount.
func GetGroupCount(t *core.Thread, cnt *uint32) error {
	return wrap("rtGetGroupCount", core.GetGroupCount(t, cnt))
}

// SetGroup implements rtSetGroup.
func SetGroup(t *core.Thread, id int32) error {
	return wrap("rtSetGroup", core.SetGroup(t, id))
}

// GetGroupInfo implements rtGetGroupInfo: groupId -1 fills out with every
// group (out has room for cnt, at least the group count), else out[0]
// with group groupId.
func GetGroupInfo(t *core.Thread, id int32, out []GroupInfo) error {
	const fn = "rtGetGroupInfo"
	if out == nil {
		return invalid(fn, "groupInfo must not be NULL and cnt must be > 0")
	}
	gs, err := core.CurrentGroups(t, fn)
	if err != nil {
		return wrap(fn, err)
	}
	fill := func(o *GroupInfo, g core.Group) {
		*o = GroupInfo{GroupId: g.ID, AicoreNum: g.AICores, AicpuNum: g.AICPUs, AivectorNum: g.AIVectors, SdmaNum: g.SDMAs, ActiveStreamNum: g.ActiveASQ}
	}
	if id == -1 {
		if len(out) < len(gs) {
			return invalid(fn, "cnt %d: the device has %d groups", len(out), len(gs))
		}
		for i, g := range gs {
			fill(&out[i], g)
		}
		return nil
	}
	if id < 0 || int(id) >= len(gs) {
		return wrap(fn, core.SetGroupMissing(fn, id, len(gs)))
	}
	fill(&out[0], gs[id])
	return nil
}
