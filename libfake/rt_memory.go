package main

/*
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt"
	"github.com/npuemu/npuemu/rt/core"
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

//export npu_rtMallocCached
func npu_rtMallocCached(t *C.npu_thread, devPtr *unsafe.Pointer, size C.uint64_t, typ C.rtMemType_t, moduleId C.uint16_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MallocCached(th, addrOut(devPtr), uint64(size), uint32(typ), uint16(moduleId))))
}

//export npu_rtFreeWithDevSync
func npu_rtFreeWithDevSync(t *C.npu_thread, devPtr unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FreeWithDevSync(th, uintptr(devPtr))))
}

//export npu_rtFreeHostWithDevSync
func npu_rtFreeHostWithDevSync(t *C.npu_thread, hostPtr unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FreeHostWithDevSync(th, uintptr(hostPtr))))
}

// core.MemUsageInfo has rtMemUsageInfo_t's layout (compile-time checks).
var (
	_ [unsafe.Sizeof(core.MemUsageInfo{}) - C.sizeof_rtMemUsageInfo_t]byte
	_ [C.sizeof_rtMemUsageInfo_t - unsafe.Sizeof(core.MemUsageInfo{})]byte
	_ [unsafe.Offsetof(core.MemUsageInfo{}.Cur) - unsafe.Offsetof(C.rtMemUsageInfo_t{}.curMemSize)]byte
	_ [unsafe.Offsetof(C.rtMemUsageInfo_t{}.curMemSize) - unsafe.Offsetof(core.MemUsageInfo{}.Cur)]byte
	_ [unsafe.Offsetof(core.MemUsageInfo{}.Peak) - unsafe.Offsetof(C.rtMemUsageInfo_t{}.memPeakSize)]byte
	_ [unsafe.Offsetof(C.rtMemUsageInfo_t{}.memPeakSize) - unsafe.Offsetof(core.MemUsageInfo{}.Peak)]byte
)

//export npu_rtGetMemUsageInfo
func npu_rtGetMemUsageInfo(t *C.npu_thread, deviceId C.uint32_t, infos *C.rtMemUsageInfo_t, inputNum C.size_t, outputNum *C.size_t) C.rtError_t {
	th := thread(t)
	var out []core.MemUsageInfo
	if infos != nil && inputNum > 0 {
		out = callerSlice[core.MemUsageInfo]("inputNum", unsafe.Pointer(infos), uint64(inputNum))
	}
	return C.rtError_t(ret(th, rt.GetMemUsageInfo(th, uint32(deviceId), out, (*uint64)(unsafe.Pointer(outputNum)))))
}

//export npu_rtHostRegisterV2
func npu_rtHostRegisterV2(t *C.npu_thread, ptr unsafe.Pointer, size C.uint64_t, flag C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.HostRegisterV2(th, uintptr(ptr), uint64(size), uint32(flag))))
}

//export npu_rtsHostUnregister
func npu_rtsHostUnregister(t *C.npu_thread, ptr unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.HostUnregister(th, uintptr(ptr))))
}

//export npu_rtHostGetDevicePointer
func npu_rtHostGetDevicePointer(t *C.npu_thread, pHost unsafe.Pointer, pDevice *unsafe.Pointer, flag C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.HostGetDevicePointer(th, uintptr(pHost), addrOut(pDevice), uint32(flag))))
}

//export npu_rtsHostRegister
func npu_rtsHostRegister(t *C.npu_thread, ptr unsafe.Pointer, size C.uint64_t, typ C.rtHostRegisterType, devPtr *unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.HostRegister(th, uintptr(ptr), uint64(size), uint32(typ), addrOut(devPtr))))
}
