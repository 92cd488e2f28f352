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

// Exports of the runtime's rt* virtual memory family (rt/vmm.go).

//export npu_rtReserveMemAddress
func npu_rtReserveMemAddress(t *C.npu_thread, devPtr *unsafe.Pointer, size, alignment C.size_t, devAddr unsafe.Pointer, flags C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ReserveMemAddress(th, addrOut(devPtr), uint64(size), uint64(alignment), uintptr(devAddr), uint64(flags))))
}

//export npu_rtReleaseMemAddress
func npu_rtReleaseMemAddress(t *C.npu_thread, devPtr unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ReleaseMemAddress(th, uintptr(devPtr))))
}

//export npu_rtMapMem
func npu_rtMapMem(t *C.npu_thread, devPtr unsafe.Pointer, size, offset C.size_t, handle C.rtDrvMemHandle, flags C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MapMem(th, uintptr(devPtr), uint64(size), uint64(offset), memHandle(unsafe.Pointer(handle)), uint64(flags), false)))
}

//export npu_rtMemMapNoAccess
func npu_rtMemMapNoAccess(t *C.npu_thread, virPtr unsafe.Pointer, size, offset C.size_t, handle C.rtDrvMemHandle, flags C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MapMem(th, uintptr(virPtr), uint64(size), uint64(offset), memHandle(unsafe.Pointer(handle)), uint64(flags), true)))
}

//export npu_rtUnmapMem
func npu_rtUnmapMem(t *C.npu_thread, devPtr unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.UnmapMem(th, uintptr(devPtr))))
}

//export npu_rtMemSetAccess
func npu_rtMemSetAccess(t *C.npu_thread, virPtr unsafe.Pointer, size C.size_t, desc *C.rtMemAccessDesc, count C.size_t) C.rtError_t {
	th := thread(t)
	var ds []rt.MemAccessDesc
	if desc != nil && count > 0 && count <= 1<<16 {
		ds = unsafe.Slice((*rt.MemAccessDesc)(unsafe.Pointer(desc)), int(count))
	}
	return C.rtError_t(ret(th, rt.MemSetAccess(th, uintptr(virPtr), uint64(size), ds)))
}

//export npu_rtMemGetAccess
func npu_rtMemGetAccess(t *C.npu_thread, virPtr unsafe.Pointer, location *C.rtMemLocation, flags *C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemGetAccess(th, uintptr(virPtr), (*rt.MemLocation)(unsafe.Pointer(location)), (*uint64)(unsafe.Pointer(flags)))))
}

//export npu_rtMemGetAllocationGranularity
func npu_rtMemGetAllocationGranularity(t *C.npu_thread, prop *C.rtDrvMemProp_t, option C.rtDrvMemGranularityOptions, granularity *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemGetAllocationGranularity(th, (*rt.DrvMemProp)(unsafe.Pointer(prop)), uint32(option), (*uint64)(unsafe.Pointer(granularity)))))
}

//export npu_rtMemRetainAllocationHandle
func npu_rtMemRetainAllocationHandle(t *C.npu_thread, virPtr unsafe.Pointer, handle *C.rtDrvMemHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemRetainAllocationHandle(th, uintptr(virPtr), memHandleOut(unsafe.Pointer(handle)))))
}

//export npu_rtMemGetAddressRange
func npu_rtMemGetAddressRange(t *C.npu_thread, ptr unsafe.Pointer, pbase *unsafe.Pointer, psize *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemGetAddressRange(th, uintptr(ptr), addrOut(pbase), (*uint64)(unsafe.Pointer(psize)))))
}
