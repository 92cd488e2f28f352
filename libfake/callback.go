package main

/*
#include "acl/acl.h"
#include "npu.h"
#include "callback.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// Exports of the callback family (acl/callback.go). Application function
// pointers become Go closures that call them through the C trampolines of
// callback.c; a callback run by aclrtProcessReport runs on the calling C
// thread, since a cgo call made inside an export stays on its thread.

// hostFn wraps fn(arg) as a Go function; nil for a NULL fn.
func hostFn(fn, arg unsafe.Pointer) func() {
	if fn == nil {
		return nil
	}
	f, a := C.uintptr_t(uintptr(fn)), C.uintptr_t(uintptr(arg))
	return func() { C.npu_call_hostfn(f, a) }
}

//export npu_aclrtLaunchHostFunc
func npu_aclrtLaunchHostFunc(t *C.npu_thread, stream C.aclrtStream, fn C.aclrtHostFunc, args unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.LaunchHostFunc(th, handle(unsafe.Pointer(stream)), hostFn(unsafe.Pointer(fn), args)))
}

//export npu_aclrtLaunchCallback
func npu_aclrtLaunchCallback(t *C.npu_thread, fn C.aclrtCallback, userData unsafe.Pointer, blockType C.aclrtCallbackBlockType, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.LaunchCallback(th, hostFn(unsafe.Pointer(fn), userData), int32(blockType), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtSubscribeReport
func npu_aclrtSubscribeReport(t *C.npu_thread, threadId C.uint64_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.SubscribeReport(th, uint64(threadId), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtUnSubscribeReport
func npu_aclrtUnSubscribeReport(t *C.npu_thread, threadId C.uint64_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.UnSubscribeReport(th, uint64(threadId), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtProcessReport
func npu_aclrtProcessReport(t *C.npu_thread, timeout C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ProcessReport(th, uint64(C.npu_pthread_self()), int32(timeout)))
}
