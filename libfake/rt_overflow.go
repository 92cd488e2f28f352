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

// Exports of the runtime's float overflow calls (rt/overflow.go, round 8).

//export npu_rtSetStreamOverflowSwitch
func npu_rtSetStreamOverflowSwitch(t *C.npu_thread, stm C.rtStream_t, flags C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetStreamOverflowSwitch(th, handle(unsafe.Pointer(stm)), uint32(flags))))
}

//export npu_rtGetStreamOverflowSwitch
func npu_rtGetStreamOverflowSwitch(t *C.npu_thread, stm C.rtStream_t, flags *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetStreamOverflowSwitch(th, handle(unsafe.Pointer(stm)), (*uint32)(unsafe.Pointer(flags)))))
}

//export npu_rtGetDeviceSatStatus
func npu_rtGetDeviceSatStatus(t *C.npu_thread, outputAddrPtr unsafe.Pointer, outputSize C.uint64_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetDeviceSatStatus(th, uintptr(outputAddrPtr), uint64(outputSize), handle(unsafe.Pointer(stm)))))
}

//export npu_rtCleanDeviceSatStatus
func npu_rtCleanDeviceSatStatus(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CleanDeviceSatStatus(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtsCtxGetFloatOverflowAddr
func npu_rtsCtxGetFloatOverflowAddr(t *C.npu_thread, overflowAddr *unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CtxGetFloatOverflowAddr(th, addrOut(overflowAddr))))
}

//export npu_rtSetDeviceSatMode
func npu_rtSetDeviceSatMode(t *C.npu_thread, floatOverflowMode C.rtFloatOverflowMode_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetDeviceSatMode(th, int32(floatOverflowMode))))
}

//export npu_rtGetDeviceSatMode
func npu_rtGetDeviceSatMode(t *C.npu_thread, floatOverflowMode *C.rtFloatOverflowMode_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetDeviceSatMode(th, (*int32)(unsafe.Pointer(floatOverflowMode)))))
}

//export npu_rtsGetFloatOverflowStatus
func npu_rtsGetFloatOverflowStatus(t *C.npu_thread, outputAddrPtr unsafe.Pointer, outputSize C.uint64_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetFloatOverflowStatus(th, uintptr(outputAddrPtr), uint64(outputSize), handle(unsafe.Pointer(stm)))))
}

//export npu_rtsResetFloatOverflowStatus
func npu_rtsResetFloatOverflowStatus(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ResetFloatOverflowStatus(th, handle(unsafe.Pointer(stm)))))
}
