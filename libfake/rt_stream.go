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

// Exports of the runtime's rt* stream and event families (rt/stream.go,
// rt/event.go). Handles are the ACL ones (rtStream_t == aclrtStream).

//export npu_rtStreamCreate
func npu_rtStreamCreate(t *C.npu_thread, stm *C.rtStream_t, priority C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamCreate(th, handleOut(unsafe.Pointer(stm)), int32(priority))))
}

//export npu_rtStreamDestroy
func npu_rtStreamDestroy(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamDestroy(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtStreamSynchronize
func npu_rtStreamSynchronize(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamSynchronize(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtStreamWaitEvent
func npu_rtStreamWaitEvent(t *C.npu_thread, stm C.rtStream_t, evt C.rtEvent_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamWaitEvent(th, handle(unsafe.Pointer(stm)), handle(unsafe.Pointer(evt)))))
}

//export npu_rtStreamGetCaptureInfo
func npu_rtStreamGetCaptureInfo(t *C.npu_thread, stm C.rtStream_t, status *C.rtStreamCaptureStatus, captureMdl *C.rtModel_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamGetCaptureInfo(th, handle(unsafe.Pointer(stm)), (*int32)(unsafe.Pointer(status)), handleOut(unsafe.Pointer(captureMdl)))))
}

//export npu_rtEventCreate
func npu_rtEventCreate(t *C.npu_thread, evt *C.rtEvent_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventCreate(th, handleOut(unsafe.Pointer(evt)))))
}

//export npu_rtEventDestroy
func npu_rtEventDestroy(t *C.npu_thread, evt C.rtEvent_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventDestroy(th, handle(unsafe.Pointer(evt)))))
}

//export npu_rtEventRecord
func npu_rtEventRecord(t *C.npu_thread, evt C.rtEvent_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventRecord(th, handle(unsafe.Pointer(evt)), handle(unsafe.Pointer(stm)))))
}

//export npu_rtEventReset
func npu_rtEventReset(t *C.npu_thread, evt C.rtEvent_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventReset(th, handle(unsafe.Pointer(evt)), handle(unsafe.Pointer(stm)))))
}

//export npu_rtEventSynchronize
func npu_rtEventSynchronize(t *C.npu_thread, evt C.rtEvent_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventSynchronize(th, handle(unsafe.Pointer(evt)))))
}

//export npu_rtEventQuery
func npu_rtEventQuery(t *C.npu_thread, evt C.rtEvent_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventQuery(th, handle(unsafe.Pointer(evt)))))
}

//export npu_rtEventQueryStatus
func npu_rtEventQueryStatus(t *C.npu_thread, evt C.rtEvent_t, status *C.rtEventStatus_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventQueryStatus(th, handle(unsafe.Pointer(evt)), (*int32)(unsafe.Pointer(status)))))
}

//export npu_rtEventElapsedTime
func npu_rtEventElapsedTime(t *C.npu_thread, timeInterval *C.float32_t, startEvent, endEvent C.rtEvent_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventElapsedTime(th, (*float32)(unsafe.Pointer(timeInterval)), handle(unsafe.Pointer(startEvent)), handle(unsafe.Pointer(endEvent)))))
}

//export npu_rtStreamGetPriority
func npu_rtStreamGetPriority(t *C.npu_thread, stm C.rtStream_t, priority *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamGetPriority(th, handle(unsafe.Pointer(stm)), (*uint32)(unsafe.Pointer(priority)))))
}

//export npu_rtStreamGetFlags
func npu_rtStreamGetFlags(t *C.npu_thread, stm C.rtStream_t, flags *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamGetFlags(th, handle(unsafe.Pointer(stm)), (*uint32)(unsafe.Pointer(flags)))))
}

//export npu_rtsStreamGetId
func npu_rtsStreamGetId(t *C.npu_thread, stm C.rtStream_t, streamId *C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamGetID(th, handle(unsafe.Pointer(stm)), (*int32)(unsafe.Pointer(streamId)))))
}

//export npu_rtsStreamGetAvailableNum
func npu_rtsStreamGetAvailableNum(t *C.npu_thread, streamCount *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamGetAvailableNum(th, (*uint32)(unsafe.Pointer(streamCount)))))
}

//export npu_rtsDeviceGetStreamPriorityRange
func npu_rtsDeviceGetStreamPriorityRange(t *C.npu_thread, leastPriority, greatestPriority *C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceGetStreamPriorityRange(th, (*int32)(unsafe.Pointer(leastPriority)), (*int32)(unsafe.Pointer(greatestPriority)))))
}

//export npu_rtStreamDestroyForce
func npu_rtStreamDestroyForce(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamDestroyForce(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtStreamSetMode
func npu_rtStreamSetMode(t *C.npu_thread, stm C.rtStream_t, stmMode C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamSetMode(th, handle(unsafe.Pointer(stm)), uint64(stmMode))))
}

//export npu_rtStreamAbort
func npu_rtStreamAbort(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamAbort(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtsStreamStop
func npu_rtsStreamStop(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamStop(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtsStreamSetAttribute
func npu_rtsStreamSetAttribute(t *C.npu_thread, stm C.rtStream_t, stmAttrId C.rtStreamAttr, attrValue *C.rtStreamAttrValue_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamSetAttribute(th, handle(unsafe.Pointer(stm)), int32(stmAttrId), (*rt.StreamAttrValue)(unsafe.Pointer(attrValue)))))
}

//export npu_rtsStreamGetAttribute
func npu_rtsStreamGetAttribute(t *C.npu_thread, stm C.rtStream_t, stmAttrId C.rtStreamAttr, attrValue *C.rtStreamAttrValue_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamGetAttribute(th, handle(unsafe.Pointer(stm)), int32(stmAttrId), (*rt.StreamAttrValue)(unsafe.Pointer(attrValue)))))
}

//export npu_rtsActiveStream
func npu_rtsActiveStream(t *C.npu_thread, activeStream, stream C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ActiveStream(th, handle(unsafe.Pointer(activeStream)), handle(unsafe.Pointer(stream)))))
}

//export npu_rtsSwitchStream
func npu_rtsSwitchStream(t *C.npu_thread, leftValue unsafe.Pointer, cond C.rtCondition_t, rightValue unsafe.Pointer, dataType C.rtSwitchDataType_t, trueStream, falseStream, stream C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SwitchStream(th, uintptr(leftValue), int32(cond), uintptr(rightValue), int32(dataType),
		handle(unsafe.Pointer(trueStream)), handle(unsafe.Pointer(falseStream)), handle(unsafe.Pointer(stream)))))
}
