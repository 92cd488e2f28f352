package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the context family (acl/context.go). Handles (aclrtContext,
// aclrtStream, aclrtEvent) cross as opaque integers: acl.Handle values
// stored in the C pointer slot, never Go pointers.

// handle converts a C handle argument to an acl.Handle.
func handle(p unsafe.Pointer) core.Handle { return core.Handle(uintptr(p)) }

// handleOut views a C handle output slot as an *acl.Handle (nil stays nil).
func handleOut(p unsafe.Pointer) *core.Handle { return (*core.Handle)(p) }

//export npu_aclrtCreateContext
func npu_aclrtCreateContext(t *C.npu_thread, context *C.aclrtContext, deviceId C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.CreateContext(th, handleOut(unsafe.Pointer(context)), int32(deviceId)))
}

//export npu_aclrtDestroyContext
func npu_aclrtDestroyContext(t *C.npu_thread, context C.aclrtContext) C.aclError {
	th := thread(t)
	return ret(th, acl.DestroyContext(th, handle(unsafe.Pointer(context))))
}

//export npu_aclrtSetCurrentContext
func npu_aclrtSetCurrentContext(t *C.npu_thread, context C.aclrtContext) C.aclError {
	th := thread(t)
	return ret(th, acl.SetCurrentContext(th, handle(unsafe.Pointer(context))))
}

//export npu_aclrtGetCurrentContext
func npu_aclrtGetCurrentContext(t *C.npu_thread, context *C.aclrtContext) C.aclError {
	th := thread(t)
	return ret(th, acl.GetCurrentContext(th, handleOut(unsafe.Pointer(context))))
}

//export npu_aclrtCtxGetCurrentDefaultStream
func npu_aclrtCtxGetCurrentDefaultStream(t *C.npu_thread, stream *C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.CtxGetCurrentDefaultStream(th, handleOut(unsafe.Pointer(stream))))
}

//export npu_aclrtGetPrimaryCtxState
func npu_aclrtGetPrimaryCtxState(t *C.npu_thread, deviceId C.int32_t, flags *C.uint32_t, active *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetPrimaryCtxState(th, int32(deviceId), (*uint32)(unsafe.Pointer(flags)), (*int32)(unsafe.Pointer(active))))
}

//export npu_aclrtCtxSetSysParamOpt
func npu_aclrtCtxSetSysParamOpt(t *C.npu_thread, opt C.aclSysParamOpt, value C.int64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.CtxSetSysParamOpt(th, int32(opt), int64(value)))
}

//export npu_aclrtCtxGetSysParamOpt
func npu_aclrtCtxGetSysParamOpt(t *C.npu_thread, opt C.aclSysParamOpt, value *C.int64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.CtxGetSysParamOpt(th, int32(opt), (*int64)(unsafe.Pointer(value))))
}
