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

// Exports of conditional tasks in model run instances (acl/cond.go).

//export npu_aclmdlRICondHandleCreate
func npu_aclmdlRICondHandleCreate(t *C.npu_thread, modelRI C.aclmdlRI, defaultLaunchValue C.uint32_t, flag C.aclmdlRICondHandleFlag, h *C.aclmdlRICondHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.CondHandleCreate(th, handle(unsafe.Pointer(modelRI)), uint32(defaultLaunchValue), int32(flag), handleOut(unsafe.Pointer(h))))
}

//export npu_aclmdlRICondHandleGetCondPtr
func npu_aclmdlRICondHandleGetCondPtr(t *C.npu_thread, h C.aclmdlRICondHandle, ptr **C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.CondHandleGetCondPtr(th, handle(unsafe.Pointer(h)), (*uintptr)(unsafe.Pointer(ptr))))
}

//export npu_aclmdlRIAddCondTask
func npu_aclmdlRIAddCondTask(t *C.npu_thread, params C.aclmdlRICondTaskParams, stream C.aclrtStream, flags C.uint32_t) C.aclError {
	th := thread(t)
	p := condTaskParams(unsafe.Pointer(params.handle), int32(params._type), uint32(params.size), unsafe.Pointer(params.modelRIArray))
	return ret(th, acl.AddCondTask(th, p, handle(unsafe.Pointer(stream)), uint32(flags)))
}

//export npu_aclmdlRICaptureToModelRIBegin
func npu_aclmdlRICaptureToModelRIBegin(t *C.npu_thread, stream C.aclrtStream, modelRI C.aclmdlRI, mode C.aclmdlRICaptureMode) C.aclError {
	th := thread(t)
	return ret(th, acl.CaptureToModelRIBegin(th, handle(unsafe.Pointer(stream)), handle(unsafe.Pointer(modelRI)), int32(mode)))
}

// condTaskParams reads a condition task's parameters (aclmdlRICondTaskParams
// and rtCondTaskParams have the same fields). The array receives the
// sub-graphs; its length is the declared size (bounded so that a wild size
// cannot make a huge view).
func condTaskParams(h unsafe.Pointer, typ int32, size uint32, subs unsafe.Pointer) core.CondTaskParams {
	p := core.CondTaskParams{Handle: handle(h), Type: typ, Size: size}
	if subs != nil && size > 0 && size <= 1<<16 {
		p.Subs = unsafe.Slice((*core.Handle)(subs), int(size))
	}
	return p
}
