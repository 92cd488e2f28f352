package main

/*
#include "acl/acl.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/hal"
)

// npuRouteDrvMemProp writes into out the rtDrvMemProp_t the ACL builds
// from prop for its rt* call (acl.DrvMemPropOf) and returns 1, or returns 0
// when ACL refuses prop (libfake/stack_route.c: the ACL work then runs and
// answers with ACL's code). out is an rtDrvMemProp_t, which has
// hal.MemProp's layout (struct DrvMemProp is drv_mem_prop: acl.MallocPhysical's
// route relies on it too).
//
//export npuRouteDrvMemProp
func npuRouteDrvMemProp(prop *C.aclrtPhysicalMemProp, out unsafe.Pointer) C.int {
	p, ok := acl.DrvMemPropOf((*acl.PhysicalMemProp)(unsafe.Pointer(prop)))
	if !ok {
		return 0
	}
	*(*hal.MemProp)(out) = p
	return 1
}
