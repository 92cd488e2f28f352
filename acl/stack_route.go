package acl

import (
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
)

// What the split layout's routes (libfake/stack_route.c) read from ACL's
// own arguments to make the vendor's rt* call: an ACL function whose
// argument is an ACL object or record hands the rt* function what is in
// it. ok false: ACL refuses the argument itself (its own checks), so the
// call makes no rt* call and the ACL work answers.

// DrvMemPropOf builds the rtDrvMemProp_t (hal.MemProp's layout) that
// aclrtMallocPhysical and aclrtMemGetAllocationGranularity hand the
// runtime for prop (side, device, module APP, page and memory type of
// memAttr), as MallocPhysical's route does.
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

// RawBinaryBytes returns the bytes of the aclrtBinary h (a view of the
// caller's memory given to aclrtCreateBinary, which the object keeps: no
// copy is made), which aclrtBinaryLoad passes to
// rtBinaryLoadWithoutTilingKey.
func RawBinaryBytes(h core.Handle) ([]byte, bool) {
	r, err := resolveRawBinary("aclrtBinaryLoad", h)
	if err != nil || len(r.Data) == 0 {
		return nil, false
	}
	return r.Data, true
}
