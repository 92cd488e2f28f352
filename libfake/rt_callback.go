package main

/*
#include "runtime/rt.h"
#include "npu.h"
#include "callback.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt"
)

// Exports of the runtime's callback calls (rt/callback.go, round 8).
// Function pointers become Go closures through hostFn (callback.go); a
// callback run by rtProcessReport runs on the calling C thread.

//export npu_rtSubscribeReport
func npu_rtSubscribeReport(t *C.npu_thread, threadId C.uint64_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SubscribeReport(th, uint64(threadId), handle(unsafe.Pointer(stm)))))
}

//export npu_rtUnSubscribeReport
func npu_rtUnSubscribeReport(t *C.npu_thread, threadId C.uint64_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.UnSubscribeReport(th, uint64(threadId), handle(unsafe.Pointer(stm)))))
}

//export npu_rtProcessReport
func npu_rtProcessReport(t *C.npu_thread, timeout C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ProcessReport(th, uint64(C.npu_pthread_self()), int32(timeout))))
}

//export npu_rtCallbackLaunch
func npu_rtCallbackLaunch(t *C.npu_thread, callBackFunc C.rtCallback_t, fnData unsafe.Pointer, stm C.rtStream_t, isBlock C.bool) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CallbackLaunch(th, hostFn(unsafe.Pointer(callBackFunc), fnData), handle(unsafe.Pointer(stm)), bool(isBlock))))
}

//export npu_rtsLaunchHostFunc
func npu_rtsLaunchHostFunc(t *C.npu_thread, stm C.rtStream_t, callBackFunc C.rtCallback_t, fnData unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.LaunchHostFunc(th, handle(unsafe.Pointer(stm)), hostFn(unsafe.Pointer(callBackFunc), fnData))))
}
