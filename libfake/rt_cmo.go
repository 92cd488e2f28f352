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

// Exports of the runtime's cache maintenance calls (rt/cmo.go).

//export npu_rtFlushCache
func npu_rtFlushCache(t *C.npu_thread, base unsafe.Pointer, n C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FlushCache(th, uintptr(base), uint64(n))))
}

//export npu_rtInvalidCache
func npu_rtInvalidCache(t *C.npu_thread, base unsafe.Pointer, n C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.InvalidCache(th, uintptr(base), uint64(n))))
}

//export npu_rtCmoAsync
func npu_rtCmoAsync(t *C.npu_thread, src unsafe.Pointer, n C.size_t, op C.rtCmoOpCode_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CmoAsync(th, uintptr(src), uint64(n), int32(op), handle(unsafe.Pointer(stm)))))
}
