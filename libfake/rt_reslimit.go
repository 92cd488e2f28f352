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

// Exports of the runtime's rt* res-limit family (rt/reslimit.go).

//export npu_rtsSetDeviceResLimit
func npu_rtsSetDeviceResLimit(t *C.npu_thread, devId C.int32_t, typ C.rtDevResLimitType_t, value C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetDeviceResLimit(th, int32(devId), int32(typ), uint32(value))))
}

//export npu_rtsGetDeviceResLimit
func npu_rtsGetDeviceResLimit(t *C.npu_thread, devId C.int32_t, typ C.rtDevResLimitType_t, value *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetDeviceResLimit(th, int32(devId), int32(typ), (*uint32)(unsafe.Pointer(value)))))
}

//export npu_rtsResetDeviceResLimit
func npu_rtsResetDeviceResLimit(t *C.npu_thread, devId C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ResetDeviceResLimit(th, int32(devId))))
}

//export npu_rtsSetStreamResLimit
func npu_rtsSetStreamResLimit(t *C.npu_thread, stm C.rtStream_t, typ C.rtDevResLimitType_t, value C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetStreamResLimit(th, handle(unsafe.Pointer(stm)), int32(typ), uint32(value))))
}

//export npu_rtsGetStreamResLimit
func npu_rtsGetStreamResLimit(t *C.npu_thread, stm C.rtStream_t, typ C.rtDevResLimitType_t, value *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetStreamResLimit(th, handle(unsafe.Pointer(stm)), int32(typ), (*uint32)(unsafe.Pointer(value)))))
}

//export npu_rtsResetStreamResLimit
func npu_rtsResetStreamResLimit(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ResetStreamResLimit(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtsUseStreamResInCurrentThread
func npu_rtsUseStreamResInCurrentThread(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.UseStreamResInCurrentThread(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtsNotUseStreamResInCurrentThread
func npu_rtsNotUseStreamResInCurrentThread(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.NotUseStreamResInCurrentThread(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtsGetResInCurrentThread
func npu_rtsGetResInCurrentThread(t *C.npu_thread, typ C.rtDevResLimitType_t, value *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetResInCurrentThread(th, int32(typ), (*uint32)(unsafe.Pointer(value)))))
}
