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

// Exports of the runtime's shareable-handle, handle-property and
// link-selection calls (rt/vmm_share.go). A DEFAULT shareable handle is a
// uint64_t; the V2 calls pass its address.

//export npu_rtsMemExportToShareableHandle
func npu_rtsMemExportToShareableHandle(t *C.npu_thread, handle C.rtDrvMemHandle, handleType C.rtDrvMemHandleType, flags C.uint64_t, shareableHandle *C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemExportToShareableHandle(th, memHandle(unsafe.Pointer(handle)), uint32(handleType), uint64(flags), (*uint64)(unsafe.Pointer(shareableHandle)))))
}

//export npu_rtMemExportToShareableHandleV2
func npu_rtMemExportToShareableHandleV2(t *C.npu_thread, handle C.rtDrvMemHandle, handleType C.rtMemSharedHandleType, flags C.uint64_t, shareableHandle unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemExportToShareableHandleV2(th, memHandle(unsafe.Pointer(handle)), uint32(handleType), uint64(flags), (*uint64)(shareableHandle))))
}

//export npu_rtMemImportFromShareableHandle
func npu_rtMemImportFromShareableHandle(t *C.npu_thread, shareableHandle C.uint64_t, devId C.int32_t, handle *C.rtDrvMemHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemImportFromShareableHandle(th, uint64(shareableHandle), int32(devId), memHandleOut(unsafe.Pointer(handle)))))
}

//export npu_rtMemImportFromShareableHandleV2
func npu_rtMemImportFromShareableHandleV2(t *C.npu_thread, shareableHandle unsafe.Pointer, handleType C.rtMemSharedHandleType, flags C.uint64_t, devId C.int32_t, handle *C.rtDrvMemHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemImportFromShareableHandleV2(th, (*uint64)(shareableHandle), uint32(handleType), uint64(flags), int32(devId), memHandleOut(unsafe.Pointer(handle)))))
}

//export npu_rtMemSetPidToShareableHandle
func npu_rtMemSetPidToShareableHandle(t *C.npu_thread, shareableHandle C.uint64_t, pid *C.int, pidNum C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemSetPidToShareableHandle(th, uint64(shareableHandle), callerSlice[int32]("pidNum", unsafe.Pointer(pid), uint64(pidNum)))))
}

//export npu_rtMemSetPidToShareableHandleV2
func npu_rtMemSetPidToShareableHandleV2(t *C.npu_thread, shareableHandle unsafe.Pointer, handleType C.rtMemSharedHandleType, pid *C.int, pidNum C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemSetPidToShareableHandleV2(th, (*uint64)(shareableHandle), uint32(handleType), callerSlice[int32]("pidNum", unsafe.Pointer(pid), uint64(pidNum)))))
}

//export npu_rtMemGetAllocationPropertiesFromHandle
func npu_rtMemGetAllocationPropertiesFromHandle(t *C.npu_thread, handle C.rtDrvMemHandle, prop *C.rtDrvMemProp_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemGetAllocationPropertiesFromHandle(th, memHandle(unsafe.Pointer(handle)), (*rt.DrvMemProp)(unsafe.Pointer(prop)))))
}

//export npu_rtMemMapSelectedLink
func npu_rtMemMapSelectedLink(t *C.npu_thread, virPtrDst unsafe.Pointer, size C.size_t, virPtrSrc unsafe.Pointer, linkIdx C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemMapSelectedLink(th, uintptr(virPtrDst), uint64(size), uintptr(virPtrSrc), uint32(linkIdx))))
}
