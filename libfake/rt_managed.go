package main

/*
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt"
)

// Exports of the runtime's managed-memory calls (rt/managed.go).

//export npu_rtMemAllocManaged
func npu_rtMemAllocManaged(t *C.npu_thread, ptr *unsafe.Pointer, size C.uint64_t, flag C.uint32_t, moduleId C.uint16_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemAllocManaged(th, addrOut(ptr), uint64(size), uint32(flag), uint16(moduleId))))
}

//export npu_rtMemManagedPrefetchAsync
func npu_rtMemManagedPrefetchAsync(t *C.npu_thread, ptr unsafe.Pointer, size C.size_t, location C.rtMemManagedLocation, flags C.uint32_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	loc := acl.ManagedLocation{Type: uint32(location._type), Id: int32(location.id)}
	return C.rtError_t(ret(th, rt.MemManagedPrefetchAsync(th, uintptr(ptr), uint64(size), loc, uint32(flags), handle(unsafe.Pointer(stm)))))
}
