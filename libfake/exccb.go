package main

/*
#include "acl/acl.h"
#include "npu.h"
#include "callback.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of exception reporting (acl/exception.go): exception callbacks,
// the aclrtGet*FromExceptionInfo accessors over callback.h's layout, the
// thread's last task id, and stream abort/stop.

// cExcInfo lays info out as callback.h's struct npu_exception_info.
func cExcInfo(info *core.ExceptionInfo) C.struct_npu_exception_info {
	var c C.struct_npu_exception_info
	c.taskid = C.uint32_t(info.TaskID)
	c.streamid = C.uint32_t(info.StreamID)
	c.tid = C.uint32_t(info.ThreadID)
	c.deviceid = C.uint32_t(info.DeviceID)
	c.retcode = C.uint32_t(info.ErrorCode)
	c.args_len = C.uint32_t(info.ArgsLen)
	c.args = C.uint64_t(info.Args)
	c.func_handle = C.uint64_t(info.Func)
	return c
}

// excInfo returns info as callback.h's layout when it is an info npuemu
// handed to a running callback (callback.c keeps the set), nil otherwise:
// a garbage, stale or foreign pointer is never dereferenced.
func excInfo(info *C.aclrtExceptionInfo) *C.struct_npu_exception_info {
	if info == nil {
		return nil
	}
	if C.npu_exc_live(unsafe.Pointer(info)) == 0 {
		return nil
	}
	return (*C.struct_npu_exception_info)(unsafe.Pointer(info))
}

// checkExcInfo refuses a non-NULL info that excInfo does not know.
func checkExcInfo(fn string, info *C.aclrtExceptionInfo) error {
	if info != nil && excInfo(info) == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: info %p is not the exception info of a running exception callback", fn, unsafe.Pointer(info))
	}
	return nil
}

// goExcInfo reads callback.h's layout back (nil for an info that is not
// live; the acl accessors answer that with ACL_ERROR_INVALID_PARAM).
func goExcInfo(info *C.aclrtExceptionInfo) *core.ExceptionInfo {
	c := excInfo(info)
	if c == nil {
		return nil
	}
	return &core.ExceptionInfo{
		TaskID: uint32(c.taskid), StreamID: uint32(c.streamid), ThreadID: uint32(c.tid),
		DeviceID: uint32(c.deviceid), ErrorCode: uint32(c.retcode),
		ArgsLen: uint32(c.args_len), Args: uintptr(c.args), Func: uintptr(c.func_handle),
	}
}

// excCallback wraps an aclrtExceptionInfoCallback.
func excCallback(cb unsafe.Pointer) core.ExceptionCallback {
	f := C.uintptr_t(uintptr(cb))
	return func(info *core.ExceptionInfo) {
		c := cExcInfo(info)
		C.npu_call_exccb(f, &c)
	}
}

// opExcCallback wraps an aclrtOpExceptionCallback and its userData.
func opExcCallback(cb, userData unsafe.Pointer) core.ExceptionCallback {
	f, u := C.uintptr_t(uintptr(cb)), C.uintptr_t(uintptr(userData))
	return func(info *core.ExceptionInfo) {
		c := cExcInfo(info)
		C.npu_call_opexccb(f, &c, u)
	}
}

//export npu_aclrtBinarySetExceptionCallback
func npu_aclrtBinarySetExceptionCallback(t *C.npu_thread, binHandle C.aclrtBinHandle, callback C.aclrtOpExceptionCallback, userData unsafe.Pointer) C.aclError {
	th := thread(t)
	var fn core.ExceptionCallback
	if p := unsafe.Pointer(callback); p != nil {
		fn = opExcCallback(p, userData)
	}
	return ret(th, acl.BinarySetExceptionCallback(th, handle(unsafe.Pointer(binHandle)), fn))
}

//export npu_aclrtGetArgsFromExceptionInfo
func npu_aclrtGetArgsFromExceptionInfo(t *C.npu_thread, info *C.aclrtExceptionInfo, devArgsPtr *unsafe.Pointer, devArgsLen *C.uint32_t) C.aclError {
	th := thread(t)
	if err := checkExcInfo("aclrtGetArgsFromExceptionInfo", info); err != nil {
		return ret(th, err)
	}
	var args uintptr
	var n uint32
	var pa *uintptr
	var pn *uint32
	if devArgsPtr != nil {
		pa = &args
	}
	if devArgsLen != nil {
		pn = &n
	}
	if err := acl.GetArgsFromExceptionInfo(th, goExcInfo(info), pa, pn); err != nil {
		return ret(th, err)
	}
	*(*uintptr)(unsafe.Pointer(devArgsPtr)) = args
	*devArgsLen = C.uint32_t(n)
	return 0
}

//export npu_aclrtGetFuncHandleFromExceptionInfo
func npu_aclrtGetFuncHandleFromExceptionInfo(t *C.npu_thread, info *C.aclrtExceptionInfo, fn *C.aclrtFuncHandle) C.aclError {
	th := thread(t)
	if err := checkExcInfo("aclrtGetFuncHandleFromExceptionInfo", info); err != nil {
		return ret(th, err)
	}
	var h uintptr
	var ph *uintptr
	if fn != nil {
		ph = &h
	}
	if err := acl.GetFuncHandleFromExceptionInfo(th, goExcInfo(info), ph); err != nil {
		return ret(th, err)
	}
	*(*uintptr)(unsafe.Pointer(fn)) = h
	return 0
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
	var fn core.ExceptionCallback
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

// excInfoNone is what the accessors return for a NULL info, or one that
// is not live (excInfo).
const excInfoNone = 0xFFFFFFFF

//export npu_aclrtGetTaskIdFromExceptionInfo
func npu_aclrtGetTaskIdFromExceptionInfo(t *C.npu_thread, info *C.aclrtExceptionInfo) C.uint32_t {
	c := excInfo(info)
	if c == nil {
		return excInfoNone
	}
	return c.taskid
}

//export npu_aclrtGetStreamIdFromExceptionInfo
func npu_aclrtGetStreamIdFromExceptionInfo(t *C.npu_thread, info *C.aclrtExceptionInfo) C.uint32_t {
	c := excInfo(info)
	if c == nil {
		return excInfoNone
	}
	return c.streamid
}

//export npu_aclrtGetThreadIdFromExceptionInfo
func npu_aclrtGetThreadIdFromExceptionInfo(t *C.npu_thread, info *C.aclrtExceptionInfo) C.uint32_t {
	c := excInfo(info)
	if c == nil {
		return excInfoNone
	}
	return c.tid
}

//export npu_aclrtGetDeviceIdFromExceptionInfo
func npu_aclrtGetDeviceIdFromExceptionInfo(t *C.npu_thread, info *C.aclrtExceptionInfo) C.uint32_t {
	c := excInfo(info)
	if c == nil {
		return excInfoNone
	}
	return c.deviceid
}

//export npu_aclrtGetErrorCodeFromExceptionInfo
func npu_aclrtGetErrorCodeFromExceptionInfo(t *C.npu_thread, info *C.aclrtExceptionInfo) C.uint32_t {
	c := excInfo(info)
	if c == nil {
		return excInfoNone
	}
	return c.retcode
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
