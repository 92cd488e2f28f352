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

// Exports of the event family (acl/event.go).

//export npu_aclrtCreateEvent
func npu_aclrtCreateEvent(t *C.npu_thread, event *C.aclrtEvent) C.aclError {
	th := thread(t)
	return ret(th, acl.CreateEvent(th, handleOut(unsafe.Pointer(event))))
}

//export npu_aclrtCreateEventWithFlag
func npu_aclrtCreateEventWithFlag(t *C.npu_thread, event *C.aclrtEvent, flag C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.CreateEventWithFlag(th, handleOut(unsafe.Pointer(event)), uint32(flag)))
}

//export npu_aclrtCreateEventExWithFlag
func npu_aclrtCreateEventExWithFlag(t *C.npu_thread, event *C.aclrtEvent, flag C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.CreateEventExWithFlag(th, handleOut(unsafe.Pointer(event)), uint32(flag)))
}

//export npu_aclrtDestroyEvent
func npu_aclrtDestroyEvent(t *C.npu_thread, event C.aclrtEvent) C.aclError {
	th := thread(t)
	return ret(th, acl.DestroyEvent(th, handle(unsafe.Pointer(event))))
}

//export npu_aclrtRecordEvent
func npu_aclrtRecordEvent(t *C.npu_thread, event C.aclrtEvent, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.RecordEvent(th, handle(unsafe.Pointer(event)), handle(unsafe.Pointer(stream)), C.ACL_EVENT_RECORD_DEFAULT))
}

//export npu_aclrtRecordEventWithFlag
func npu_aclrtRecordEventWithFlag(t *C.npu_thread, event C.aclrtEvent, stream C.aclrtStream, flag C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.RecordEventWithFlag(th, handle(unsafe.Pointer(event)), handle(unsafe.Pointer(stream)), uint32(flag)))
}

//export npu_aclrtResetEvent
func npu_aclrtResetEvent(t *C.npu_thread, event C.aclrtEvent, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.ResetEvent(th, handle(unsafe.Pointer(event)), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtQueryEvent
func npu_aclrtQueryEvent(t *C.npu_thread, event C.aclrtEvent, status *C.aclrtEventStatus) C.aclError {
	th := thread(t)
	return ret(th, acl.QueryEvent(th, handle(unsafe.Pointer(event)), (*int32)(unsafe.Pointer(status))))
}

//export npu_aclrtQueryEventStatus
func npu_aclrtQueryEventStatus(t *C.npu_thread, event C.aclrtEvent, status *C.aclrtEventRecordedStatus) C.aclError {
	th := thread(t)
	return ret(th, acl.QueryEventStatus(th, handle(unsafe.Pointer(event)), (*int32)(unsafe.Pointer(status))))
}

//export npu_aclrtSynchronizeEvent
func npu_aclrtSynchronizeEvent(t *C.npu_thread, event C.aclrtEvent) C.aclError {
	th := thread(t)
	return ret(th, acl.SynchronizeEvent(th, handle(unsafe.Pointer(event)), -1))
}

//export npu_aclrtSynchronizeEventWithTimeout
func npu_aclrtSynchronizeEventWithTimeout(t *C.npu_thread, event C.aclrtEvent, timeout C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SynchronizeEvent(th, handle(unsafe.Pointer(event)), int32(timeout)))
}

//export npu_aclrtEventElapsedTime
func npu_aclrtEventElapsedTime(t *C.npu_thread, ms *C.float, startEvent, endEvent C.aclrtEvent) C.aclError {
	th := thread(t)
	return ret(th, acl.EventElapsedTime(th, (*float32)(unsafe.Pointer(ms)), handle(unsafe.Pointer(startEvent)), handle(unsafe.Pointer(endEvent))))
}

//export npu_aclrtEventGetTimestamp
func npu_aclrtEventGetTimestamp(t *C.npu_thread, event C.aclrtEvent, timestamp *C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.EventGetTimestamp(th, handle(unsafe.Pointer(event)), (*uint64)(unsafe.Pointer(timestamp))))
}

//export npu_aclrtStreamWaitEvent
func npu_aclrtStreamWaitEvent(t *C.npu_thread, stream C.aclrtStream, event C.aclrtEvent) C.aclError {
	th := thread(t)
	return ret(th, acl.StreamWaitEvent(th, handle(unsafe.Pointer(stream)), handle(unsafe.Pointer(event))))
}

//export npu_aclrtGetEventId
func npu_aclrtGetEventId(t *C.npu_thread, event C.aclrtEvent, eventId *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetEventID(th, handle(unsafe.Pointer(event)), (*uint32)(unsafe.Pointer(eventId))))
}

//export npu_aclrtGetEventAvailNum
func npu_aclrtGetEventAvailNum(t *C.npu_thread, eventCount *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetEventAvailNum(th, (*uint32)(unsafe.Pointer(eventCount))))
}

//export npu_aclrtQueryEventWaitStatus
func npu_aclrtQueryEventWaitStatus(t *C.npu_thread, event C.aclrtEvent, status *C.aclrtEventWaitStatus) C.aclError {
	th := thread(t)
	return ret(th, acl.QueryEventWaitStatus(th, handle(unsafe.Pointer(event)), (*int32)(unsafe.Pointer(status))))
}

//export npu_aclrtStreamWaitEventWithTimeout
func npu_aclrtStreamWaitEventWithTimeout(t *C.npu_thread, stream C.aclrtStream, event C.aclrtEvent, timeout C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.StreamWaitEventWithTimeout(th, handle(unsafe.Pointer(stream)), handle(unsafe.Pointer(event)), int32(timeout)))
}
