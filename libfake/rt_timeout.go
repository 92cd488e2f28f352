package main

/*
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
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
