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

// Exports of the runtime's memory-pool calls (rt/mempool.go).

//export npu_rtMemPoolCreate
func npu_rtMemPoolCreate(t *C.npu_thread, memPool *C.rtMemPool_t, props *C.rtMemPoolProps) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemPoolCreate(th, handleOut(unsafe.Pointer(memPool)), (*rt.MemPoolProps)(unsafe.Pointer(props)))))
}

//export npu_rtMemPoolDestroy
func npu_rtMemPoolDestroy(t *C.npu_thread, memPool C.rtMemPool_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemPoolDestroy(th, handle(unsafe.Pointer(memPool)))))
}

//export npu_rtMemPoolSetAttr
func npu_rtMemPoolSetAttr(t *C.npu_thread, memPool C.rtMemPool_t, attr C.rtMemPoolAttr, value unsafe.Pointer) C.rtError_t {
	th := thread(t)
	var v *uint64
	if value != nil {
		x := uint64(0)
		switch rt.MemPoolAttrWidth(int32(attr)) {
		case 4:
			x = uint64(*(*uint32)(value))
		case 8:
			x = *(*uint64)(value)
		}
		v = &x
	}
	return C.rtError_t(ret(th, rt.MemPoolSetAttr(th, handle(unsafe.Pointer(memPool)), int32(attr), v)))
}

//export npu_rtMemPoolGetAttr
func npu_rtMemPoolGetAttr(t *C.npu_thread, memPool C.rtMemPool_t, attr C.rtMemPoolAttr, value unsafe.Pointer) C.rtError_t {
	th := thread(t)
	var x uint64
	v := &x
	if value == nil {
		v = nil
	}
	if err := rt.MemPoolGetAttr(th, handle(unsafe.Pointer(memPool)), int32(attr), v); err != nil {
		return C.rtError_t(ret(th, err))
	}
	if rt.MemPoolAttrWidth(int32(attr)) == 4 {
		*(*uint32)(value) = uint32(x)
	} else {
		*(*uint64)(value) = x
	}
	return 0
}

//export npu_rtMemPoolMallocAsync
func npu_rtMemPoolMallocAsync(t *C.npu_thread, ptr *unsafe.Pointer, size C.uint64_t, memPool C.rtMemPool_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemPoolMallocAsync(th, addrOut(ptr), uint64(size), handle(unsafe.Pointer(memPool)), handle(unsafe.Pointer(stm)))))
}

//export npu_rtMemPoolFreeAsync
func npu_rtMemPoolFreeAsync(t *C.npu_thread, ptr unsafe.Pointer, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemPoolFreeAsync(th, uintptr(ptr), handle(unsafe.Pointer(stm)))))
}

//export npu_rtMemPoolTrimTo
func npu_rtMemPoolTrimTo(t *C.npu_thread, memPool C.rtMemPool_t, minBytesToKeep C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemPoolTrimTo(th, handle(unsafe.Pointer(memPool)), uint64(minBytesToKeep))))
}
