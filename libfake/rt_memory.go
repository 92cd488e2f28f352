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

// Exports of the runtime's rt* memory family (rt/memory.go). rt* results
// are ACL_ERROR_RT_* codes, recorded like aclError ones by ret.

//export npu_rtMalloc
func npu_rtMalloc(t *C.npu_thread, devPtr *unsafe.Pointer, size C.uint64_t, typ C.rtMemType_t, moduleId C.uint16_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.Malloc(th, addrOut(devPtr), uint64(size), uint32(typ), uint16(moduleId))))
}

//export npu_rtFree
func npu_rtFree(t *C.npu_thread, devPtr unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.Free(th, uintptr(devPtr))))
}

//export npu_rtMemGetInfoEx
func npu_rtMemGetInfoEx(t *C.npu_thread, typ C.rtMemInfoType_t, freeSize, totalSize *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemGetInfoEx(th, uint32(typ), (*uint64)(unsafe.Pointer(freeSize)), (*uint64)(unsafe.Pointer(totalSize)))))
}

//export npu_rtMemcpy
func npu_rtMemcpy(t *C.npu_thread, dst unsafe.Pointer, destMax C.uint64_t, src unsafe.Pointer, cnt C.uint64_t, kind C.rtMemcpyKind_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.Memcpy(th, uintptr(dst), uint64(destMax), uintptr(src), uint64(cnt), int32(kind))))
}

//export npu_rtMemcpyAsync
func npu_rtMemcpyAsync(t *C.npu_thread, dst unsafe.Pointer, destMax C.uint64_t, src unsafe.Pointer, cnt C.uint64_t, kind C.rtMemcpyKind_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemcpyAsync(th, uintptr(dst), uint64(destMax), uintptr(src), uint64(cnt), int32(kind), handle(unsafe.Pointer(stm)))))
}

//export npu_rtMallocPhysical
func npu_rtMallocPhysical(t *C.npu_thread, handle *C.rtDrvMemHandle, size C.size_t, prop *C.rtDrvMemProp_t, flags C.uint64_t) C.rtError_t {
	th := thread(t)
	// rt.DrvMemProp mirrors struct DrvMemProp (32 bytes; zabi_rt.c pins it).
	return C.rtError_t(ret(th, rt.MallocPhysical(th, memHandleOut(unsafe.Pointer(handle)), uint64(size), (*rt.DrvMemProp)(unsafe.Pointer(prop)), uint64(flags))))
}

//export npu_rtFreePhysical
func npu_rtFreePhysical(t *C.npu_thread, handle C.rtDrvMemHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FreePhysical(th, memHandle(unsafe.Pointer(handle)))))
}
