package acl

import "github.com/npuemu/npuemu/hal"

// DrvMemPropOf builds the rtDrvMemProp_t (hal.MemProp's layout) that
// aclrtMallocPhysical and aclrtMemGetAllocationGranularity hand the
// runtime for prop (side, device, module APP, page and memory type of
// memAttr), as MallocPhysical's route does. ok is false when ACL refuses
// the prop itself (its own argument checks): the call makes no rt* call.
// The split layout's route of aclrtMemGetAllocationGranularity
// (libfake/stack_route.c) uses it.
func DrvMemPropOf(prop *PhysicalMemProp) (hal.MemProp, bool) {
	if prop == nil {
		return hal.MemProp{}, false
	}
	p, err := physPropOf("aclrtMemGetAllocationGranularity", prop)
	if err != nil {
		return hal.MemProp{}, false
	}
	return hal.PropOf(p), true
}
