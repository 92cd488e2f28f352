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

// Exports of the runtime's 2D copies and 32-bit fills (rt/memcpy.go).

//export npu_rtMemcpy2d
func npu_rtMemcpy2d(t *C.npu_thread, dst unsafe.Pointer, dstPitch C.uint64_t, src unsafe.Pointer, srcPitch, width, height C.uint64_t, kind C.rtMemcpyKind_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.Memcpy2d(th, uintptr(dst), uint64(dstPitch), uintptr(src), uint64(srcPitch), uint64(width), uint64(height), int32(kind))))
}

//export npu_rtMemcpy2dAsync
func npu_rtMemcpy2dAsync(t *C.npu_thread, dst unsafe.Pointer, dstPitch C.uint64_t, src unsafe.Pointer, srcPitch, width, height C.uint64_t, kind C.rtMemcpyKind_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.Memcpy2dAsync(th, uintptr(dst), uint64(dstPitch), uintptr(src), uint64(srcPitch), uint64(width), uint64(height), int32(kind), handle(unsafe.Pointer(stm)))))
}

//export npu_rtMemsetD32
func npu_rtMemsetD32(t *C.npu_thread, dst unsafe.Pointer, destMax C.uint64_t, value C.uint32_t, count C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemsetD32(th, uintptr(dst), uint64(destMax), uint32(value), uint64(count))))
}

//export npu_rtMemsetD32Async
func npu_rtMemsetD32Async(t *C.npu_thread, dst unsafe.Pointer, destMax C.uint64_t, value C.uint32_t, count C.uint64_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemsetD32Async(th, uintptr(dst), uint64(destMax), uint32(value), uint64(count), handle(unsafe.Pointer(stm)))))
}
