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

// Exports of the runtime's rt* timeout family (rt/timeout.go).

//export npu_rtSetOpWaitTimeOut
func npu_rtSetOpWaitTimeOut(t *C.npu_thread, timeout C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetOpWaitTimeOut(th, uint32(timeout))))
}

//export npu_rtSetOpExecuteTimeOut
func npu_rtSetOpExecuteTimeOut(t *C.npu_thread, timeout C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetOpExecuteTimeOut(th, uint32(timeout))))
}

//export npu_rtGetOpTimeOutInterval
func npu_rtGetOpTimeOutInterval(t *C.npu_thread, interval *C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetOpTimeOutInterval(th, (*uint64)(unsafe.Pointer(interval)))))
}

//export npu_rtSetOpExecuteTimeOutV2
func npu_rtSetOpExecuteTimeOutV2(t *C.npu_thread, timeout C.uint64_t, actualTimeout *C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetOpExecuteTimeOutV2(th, uint64(timeout), (*uint64)(unsafe.Pointer(actualTimeout)))))
}

//export npu_rtGetOpExecuteTimeoutV2
func npu_rtGetOpExecuteTimeoutV2(t *C.npu_thread, timeout *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetOpExecuteTimeoutV2(th, (*uint32)(unsafe.Pointer(timeout)))))
}
