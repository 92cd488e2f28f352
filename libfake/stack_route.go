package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/abi"
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

// npuRouteRawBinary writes where the bytes of the aclrtBinary binary are
// and their length (acl.RawBinaryBytes: the caller's own memory, never Go
// memory) and returns 1, or returns 0 for a handle ACL refuses.
//
//export npuRouteRawBinary
func npuRouteRawBinary(binary unsafe.Pointer, data *unsafe.Pointer, length *C.uint64_t) C.int {
	b, ok := acl.RawBinaryBytes(handle(binary))
	if !ok {
		return 0
	}
	*data, *length = unsafe.Pointer(unsafe.SliceData(b)), C.uint64_t(len(b))
	return 1
}

// npuRouteInvalid records msg as the calling thread's failure with
// ACL_ERROR_INVALID_PARAM (aclGetRecentErrMsg) and returns that code: ACL's
// own check of what an interposed rt* function answered.
//
//export npuRouteInvalid
func npuRouteInvalid(msg *C.char) C.int32_t {
	return C.int32_t(thread(C.npu_self()).Fail(abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s", C.GoString(msg))))
}
