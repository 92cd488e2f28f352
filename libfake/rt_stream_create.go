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

// Exports of the runtime's configured stream creation, persistent-task
// clean, stream memory operations and fault-event query
// (rt/stream_create.go, rt/stream_memop.go, rt/fault_event.go, round 9).

//export npu_rtsStreamCreate
func npu_rtsStreamCreate(t *C.npu_thread, stream *C.rtStream_t, config *C.rtStreamCreateConfig_t) C.rtError_t {
	th := thread(t)
	var attrs []rt.StreamCreateAttr
	bad := false
	if config != nil && config.numAttrs > 0 {
		cs := callerSlice[C.rtStreamCreateAttr_t]("config->numAttrs", unsafe.Pointer(config.attrs), uint64(config.numAttrs))
		bad = cs == nil
		for i := range cs {
			// The value is the union's first 32-bit word (flags or priority).
			v := *(*C.uint32_t)(unsafe.Pointer(&cs[i].value))
			attrs = append(attrs, rt.StreamCreateAttr{ID: int32(cs[i].id), Value: uint32(v)})
		}
	}
	return C.rtError_t(ret(th, rt.StreamsCreate(th, handleOut(unsafe.Pointer(stream)), attrs, bad)))
}

//export npu_rtStreamCreateWithConfig
func npu_rtStreamCreateWithConfig(t *C.npu_thread, stm *C.rtStream_t, cfg *C.rtStreamConfigHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamCreateWithConfig(th, handleOut(unsafe.Pointer(stm)), (*rt.StreamConfigHandle)(unsafe.Pointer(cfg)))))
}

//export npu_rtsPersistentTaskClean
func npu_rtsPersistentTaskClean(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.PersistentTaskClean(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtsValueWrite
func npu_rtsValueWrite(t *C.npu_thread, devAddr unsafe.Pointer, value C.uint64_t, flag C.uint32_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ValueWrite(th, uintptr(devAddr), uint64(value), uint32(flag), handle(unsafe.Pointer(stm)))))
}

//export npu_rtsValueWait
func npu_rtsValueWait(t *C.npu_thread, devAddr unsafe.Pointer, value C.uint64_t, flag C.uint32_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ValueWait(th, uintptr(devAddr), uint64(value), uint32(flag), handle(unsafe.Pointer(stm)))))
}

//export npu_rtGetFaultEvent
func npu_rtGetFaultEvent(t *C.npu_thread, deviceID C.int32_t, filter *C.rtDmsEventFilter, dmsEvent *C.rtDmsFaultEvent, n C.uint32_t, eventCount *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetFaultEvent(th, int32(deviceID), filter != nil, dmsEvent != nil, uint32(n), (*uint32)(unsafe.Pointer(eventCount)))))
}
