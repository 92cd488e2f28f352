package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// Exports of the extended event, timeout and IPC event families
// (acl/event_flag_timeout_ipc.go).

//export npu_aclrtStreamWaitEventWithFlag
func npu_aclrtStreamWaitEventWithFlag(t *C.npu_thread, stream C.aclrtStream, event C.aclrtEvent, timeout, flag C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.StreamWaitEventWithFlag(th, handle(unsafe.Pointer(stream)), handle(unsafe.Pointer(event)), uint32(timeout), uint32(flag)))
}

//export npu_aclrtSetOpWaitTimeout
func npu_aclrtSetOpWaitTimeout(t *C.npu_thread, timeout C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SetOpWaitTimeout(th, uint32(timeout)))
}

//export npu_aclrtSetOpExecuteTimeOut
func npu_aclrtSetOpExecuteTimeOut(t *C.npu_thread, timeout C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SetOpExecuteTimeOut(th, uint32(timeout)))
}

//export npu_aclrtGetOpExecuteTimeout
func npu_aclrtGetOpExecuteTimeout(t *C.npu_thread, timeoutMs *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetOpExecuteTimeout(th, (*uint32)(unsafe.Pointer(timeoutMs))))
}

//export npu_aclrtIpcGetEventHandle
func npu_aclrtIpcGetEventHandle(t *C.npu_thread, event C.aclrtEvent, h *C.aclrtIpcEventHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.IpcGetEventHandle(th, handle(unsafe.Pointer(event)), (*acl.IpcEventHandle)(unsafe.Pointer(h))))
}

//export npu_aclrtIpcOpenEventHandle
func npu_aclrtIpcOpenEventHandle(t *C.npu_thread, h C.aclrtIpcEventHandle, event *C.aclrtEvent) C.aclError {
	th := thread(t)
	return ret(th, acl.IpcOpenEventHandle(th, *(*acl.IpcEventHandle)(unsafe.Pointer(&h)), handleOut(unsafe.Pointer(event))))
}
