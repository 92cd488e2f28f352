package main

/*
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt"
)

// Exports of the runtime's flagged, timed and IPC event calls (rt/event.go,
// round 8). Handles are the ACL ones (rtEvent_t == aclrtEvent).

//export npu_rtEventCreateWithFlag
func npu_rtEventCreateWithFlag(t *C.npu_thread, evt *C.rtEvent_t, flag C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventCreateWithFlag(th, handleOut(unsafe.Pointer(evt)), uint32(flag))))
}

//export npu_rtEventCreateExWithFlag
func npu_rtEventCreateExWithFlag(t *C.npu_thread, evt *C.rtEvent_t, flag C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventCreateExWithFlag(th, handleOut(unsafe.Pointer(evt)), uint32(flag))))
}

//export npu_rtEventSynchronizeWithTimeout
func npu_rtEventSynchronizeWithTimeout(t *C.npu_thread, evt C.rtEvent_t, timeout C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventSynchronizeWithTimeout(th, handle(unsafe.Pointer(evt)), int32(timeout))))
}

//export npu_rtEventGetTimeStamp
func npu_rtEventGetTimeStamp(t *C.npu_thread, timeStamp *C.uint64_t, evt C.rtEvent_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventGetTimeStamp(th, (*uint64)(unsafe.Pointer(timeStamp)), handle(unsafe.Pointer(evt)))))
}

//export npu_rtsEventGetId
func npu_rtsEventGetId(t *C.npu_thread, evt C.rtEvent_t, evtId *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventGetID(th, handle(unsafe.Pointer(evt)), (*uint32)(unsafe.Pointer(evtId)))))
}

//export npu_rtsEventWait
func npu_rtsEventWait(t *C.npu_thread, stream C.rtStream_t, evt C.rtEvent_t, timeout C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventWait(th, handle(unsafe.Pointer(stream)), handle(unsafe.Pointer(evt)), uint32(timeout))))
}

//export npu_rtsEventGetAvailNum
func npu_rtsEventGetAvailNum(t *C.npu_thread, eventCount *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventGetAvailNum(th, (*uint32)(unsafe.Pointer(eventCount)))))
}

//export npu_rtEventRecordWithFlag
func npu_rtEventRecordWithFlag(t *C.npu_thread, evt C.rtEvent_t, stm C.rtStream_t, flag C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventRecordWithFlag(th, handle(unsafe.Pointer(evt)), handle(unsafe.Pointer(stm)), uint32(flag))))
}

//export npu_rtStreamWaitEventWithFlag
func npu_rtStreamWaitEventWithFlag(t *C.npu_thread, stm C.rtStream_t, evt C.rtEvent_t, timeout, flag C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamWaitEventWithFlag(th, handle(unsafe.Pointer(stm)), handle(unsafe.Pointer(evt)), uint32(timeout), uint32(flag))))
}

//export npu_rtIpcGetEventHandle
func npu_rtIpcGetEventHandle(t *C.npu_thread, event C.rtEvent_t, h *C.rtIpcEventHandle_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.IpcGetEventHandle(th, handle(unsafe.Pointer(event)), (*rt.IpcEventHandle)(unsafe.Pointer(h)))))
}

//export npu_rtIpcOpenEventHandle
func npu_rtIpcOpenEventHandle(t *C.npu_thread, h C.rtIpcEventHandle_t, event *C.rtEvent_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.IpcOpenEventHandle(th, *(*rt.IpcEventHandle)(unsafe.Pointer(&h)), handleOut(unsafe.Pointer(event)))))
}
