package main

/*
#include <string.h>
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt"
)

// Exports of the runtime's rt* context family and the remaining simple
// device/stream/event/memory calls (rt/context.go, rt/device.go, ...).

//export npu_rtCtxCreateEx
func npu_rtCtxCreateEx(t *C.npu_thread, createCtx *C.rtContext_t, flags C.uint32_t, devId C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CtxCreateEx(th, handleOut(unsafe.Pointer(createCtx)), uint32(flags), int32(devId))))
}

//export npu_rtCtxDestroyEx
func npu_rtCtxDestroyEx(t *C.npu_thread, destroyCtx C.rtContext_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CtxDestroyEx(th, handle(unsafe.Pointer(destroyCtx)))))
}

//export npu_rtCtxSetCurrent
func npu_rtCtxSetCurrent(t *C.npu_thread, currentCtx C.rtContext_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CtxSetCurrent(th, handle(unsafe.Pointer(currentCtx)))))
}

//export npu_rtCtxGetCurrent
func npu_rtCtxGetCurrent(t *C.npu_thread, currentCtx *C.rtContext_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CtxGetCurrent(th, handleOut(unsafe.Pointer(currentCtx)))))
}

//export npu_rtStreamQuery
func npu_rtStreamQuery(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamQuery(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtStreamSynchronizeWithTimeout
func npu_rtStreamSynchronizeWithTimeout(t *C.npu_thread, stm C.rtStream_t, timeout C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamSynchronizeWithTimeout(th, handle(unsafe.Pointer(stm)), int32(timeout))))
}

//export npu_rtDeviceSynchronizeWithTimeout
func npu_rtDeviceSynchronizeWithTimeout(t *C.npu_thread, timeout C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceSynchronizeWithTimeout(th, int32(timeout))))
}

//export npu_rtGetSocVersion
func npu_rtGetSocVersion(t *C.npu_thread, ver *C.char_t, maxLen C.uint32_t) C.rtError_t {
	th := thread(t)
	if ver == nil {
		return C.rtError_t(ret(th, rt.GetSocVersionNil()))
	}
	name, err := rt.GetSocVersion(th, uint32(maxLen))
	if err != nil {
		return C.rtError_t(ret(th, err))
	}
	buf := unsafe.Slice((*byte)(unsafe.Pointer(ver)), int(maxLen))
	n := copy(buf, name)
	buf[n] = 0
	return 0
}

//export npu_rtEventQueryWaitStatus
func npu_rtEventQueryWaitStatus(t *C.npu_thread, evt C.rtEvent_t, status *C.rtEventWaitStatus_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EventQueryWaitStatus(th, handle(unsafe.Pointer(evt)), (*int32)(unsafe.Pointer(status)))))
}

//export npu_rtMallocHost
func npu_rtMallocHost(t *C.npu_thread, hostPtr *unsafe.Pointer, size C.uint64_t, moduleId C.uint16_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MallocHost(th, addrOut(hostPtr), uint64(size), uint16(moduleId))))
}

//export npu_rtFreeHost
func npu_rtFreeHost(t *C.npu_thread, hostPtr unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FreeHost(th, uintptr(hostPtr))))
}

//export npu_rtMemset
func npu_rtMemset(t *C.npu_thread, devPtr unsafe.Pointer, destMax C.uint64_t, val C.uint32_t, cnt C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.Memset(th, uintptr(devPtr), uint64(destMax), uint32(val), uint64(cnt))))
}

//export npu_rtMemsetAsync
func npu_rtMemsetAsync(t *C.npu_thread, ptr unsafe.Pointer, destMax C.uint64_t, val C.uint32_t, cnt C.uint64_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemsetAsync(th, uintptr(ptr), uint64(destMax), uint32(val), uint64(cnt), handle(unsafe.Pointer(stm)))))
}

//export npu_rtsCtxGetCurrentDefaultStream
func npu_rtsCtxGetCurrentDefaultStream(t *C.npu_thread, stm *C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CtxGetCurrentDefaultStream(th, handleOut(unsafe.Pointer(stm)))))
}

//export npu_rtsGetPrimaryCtxState
func npu_rtsGetPrimaryCtxState(t *C.npu_thread, devId C.int32_t, flags *C.uint32_t, active *C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetPrimaryCtxState(th, int32(devId), (*uint32)(unsafe.Pointer(flags)), (*int32)(unsafe.Pointer(active)))))
}

//export npu_rtCtxSetSysParamOpt
func npu_rtCtxSetSysParamOpt(t *C.npu_thread, configOpt C.rtSysParamOpt, configVal C.int64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CtxSetSysParamOpt(th, int32(configOpt), int64(configVal))))
}

//export npu_rtCtxGetSysParamOpt
func npu_rtCtxGetSysParamOpt(t *C.npu_thread, configOpt C.rtSysParamOpt, configVal *C.int64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CtxGetSysParamOpt(th, int32(configOpt), (*int64)(unsafe.Pointer(configVal)))))
}
