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

// Exports of exception reporting (acl/exception.go): exception callbacks,
// the aclrtGet*FromExceptionInfo accessors over callback.h's layout, the
// thread's last task id, and stream abort/stop.

// excCallback wraps an aclrtExceptionInfoCallback.
func excCallback(cb unsafe.Pointer) acl.ExceptionCallback {
	f := C.uintptr_t(uintptr(cb))
	return func(info *acl.ExceptionInfo) {
		var c C.struct_rtExceptionInfo
		c.taskid = C.uint32_t(info.TaskID)
		c.streamid = C.uint32_t(info.StreamID)
		c.tid = C.uint32_t(info.ThreadID)
		c.deviceid = C.uint32_t(info.DeviceID)
		c.retcode = C.uint32_t(info.ErrorCode)
		c.args_len = C.uint32_t(info.ArgsLen)
		c.args = C.uint64_t(info.Args)
		c.func_handle = C.uint64_t(info.Func)
		C.npu_call_exccb(f, &c)
	}
}

//export npu_aclrtSetExceptionInfoCallback
func npu_aclrtSetExceptionInfoCallback(t *C.npu_thread, callback C.aclrtExceptionInfoCallback) C.aclError {
	th := thread(t)
	p := unsafe.Pointer(callback)
	return ret(th, acl.SetExceptionInfoCallback(th, uintptr(p), excCallback(p)))
}

//export npu_aclrtExceptionInfoCallbackRegister
func npu_aclrtExceptionInfoCallbackRegister(t *C.npu_thread, callback C.aclrtExceptionInfoCallback) C.aclError {
	th := thread(t)
	p := unsafe.Pointer(callback)
	var fn acl.ExceptionCallback
	if p != nil {
		fn = excCallback(p)
	}
	return ret(th, acl.ExceptionInfoCallbackRegister(th, uintptr(p), fn))
}

//export npu_aclrtExceptionInfoCallbackUnregister
func npu_aclrtExceptionInfoCallbackUnregister(t *C.npu_thread, callback C.aclrtExceptionInfoCallback) C.aclError {
	th := thread(t)
	return ret(th, acl.ExceptionInfoCallbackUnregister(th, uintptr(unsafe.Pointer(callback))))
}

// excInfoNone is what the accessors return for a NULL info.
const excInfoNone = 0xFFFFFFFF

//export npu_aclrtGetTaskIdFromExceptionInfo
func npu_aclrtGetTaskIdFromExceptionInfo(t *C.npu_thread, info *C.aclrtExceptionInfo) C.uint32_t {
	if info == nil {
		return excInfoNone
	}
	return (*C.struct_rtExceptionInfo)(unsafe.Pointer(info)).taskid
}

//export npu_aclrtGetStreamIdFromExceptionInfo
func npu_aclrtGetStreamIdFromExceptionInfo(t *C.npu_thread, info *C.aclrtExceptionInfo) C.uint32_t {
	if info == nil {
		return excInfoNone
	}
	return (*C.struct_rtExceptionInfo)(unsafe.Pointer(info)).streamid
}

//export npu_aclrtGetThreadIdFromExceptionInfo
func npu_aclrtGetThreadIdFromExceptionInfo(t *C.npu_thread, info *C.aclrtExceptionInfo) C.uint32_t {
	if info == nil {
		return excInfoNone
	}
	return (*C.struct_rtExceptionInfo)(unsafe.Pointer(info)).tid
}

//export npu_aclrtGetDeviceIdFromExceptionInfo
func npu_aclrtGetDeviceIdFromExceptionInfo(t *C.npu_thread, info *C.aclrtExceptionInfo) C.uint32_t {
	if info == nil {
		return excInfoNone
	}
	return (*C.struct_rtExceptionInfo)(unsafe.Pointer(info)).deviceid
}

//export npu_aclrtGetErrorCodeFromExceptionInfo
func npu_aclrtGetErrorCodeFromExceptionInfo(t *C.npu_thread, info *C.aclrtExceptionInfo) C.uint32_t {
	if info == nil {
		return excInfoNone
	}
	return (*C.struct_rtExceptionInfo)(unsafe.Pointer(info)).retcode
}

//export npu_aclrtGetThreadLastTaskId
func npu_aclrtGetThreadLastTaskId(t *C.npu_thread, taskId *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetThreadLastTaskID(th, (*uint32)(unsafe.Pointer(taskId))))
}

//export npu_aclrtStreamAbort
func npu_aclrtStreamAbort(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.StreamAbort(th, handle(unsafe.Pointer(stream))))
}

//export npu_aclrtStreamStop
func npu_aclrtStreamStop(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.StreamStop(th, handle(unsafe.Pointer(stream))))
}
