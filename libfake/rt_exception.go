package main

/*
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import "github.com/npuemu/npuemu/rt"

// Exports of the runtime's last-error calls (rt/exception.go, round 8).
// Their result is the last error itself, not the call's status.

//export npu_rtGetLastError
func npu_rtGetLastError(t *C.npu_thread, level C.rtLastErrLevel_t) C.rtError_t {
	th := thread(t)
	c, err := rt.LastError(th, int32(level), true)
	if err != nil {
		return C.rtError_t(ret(th, err))
	}
	return C.rtError_t(c)
}

//export npu_rtPeekAtLastError
func npu_rtPeekAtLastError(t *C.npu_thread, level C.rtLastErrLevel_t) C.rtError_t {
	th := thread(t)
	c, err := rt.LastError(th, int32(level), false)
	if err != nil {
		return C.rtError_t(ret(th, err))
	}
	return C.rtError_t(c)
}
