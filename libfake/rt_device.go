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

// Exports of the runtime's rt* device family (rt/device.go).

//export npu_rtSetDevice
func npu_rtSetDevice(t *C.npu_thread, devId C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetDevice(th, int32(devId))))
}

//export npu_rtGetDevice
func npu_rtGetDevice(t *C.npu_thread, devId *C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetDevice(th, (*int32)(unsafe.Pointer(devId)))))
}

//export npu_rtDeviceReset
func npu_rtDeviceReset(t *C.npu_thread, devId C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceReset(th, int32(devId))))
}

//export npu_rtDeviceSynchronize
func npu_rtDeviceSynchronize(t *C.npu_thread) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceSynchronize(th)))
}

//export npu_rtGetDeviceCount
func npu_rtGetDeviceCount(t *C.npu_thread, cnt *C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetDeviceCount(th, (*int32)(unsafe.Pointer(cnt)))))
}
