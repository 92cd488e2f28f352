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

// Exports of the runtime's rt* device family, round 9 (rt/device_more.go).

//export npu_rtsGetDevice
func npu_rtsGetDevice(t *C.npu_thread, devId *C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SGetDevice(th, (*int32)(unsafe.Pointer(devId)))))
}

//export npu_rtSetDeviceWithoutTsd
func npu_rtSetDeviceWithoutTsd(t *C.npu_thread, devId C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetDeviceWithoutTsd(th, int32(devId))))
}

//export npu_rtDeviceResetWithoutTsd
func npu_rtDeviceResetWithoutTsd(t *C.npu_thread, devId C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceResetWithoutTsd(th, int32(devId))))
}

//export npu_rtSetDefaultDeviceId
func npu_rtSetDefaultDeviceId(t *C.npu_thread, deviceId C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetDefaultDeviceID(th, int32(deviceId))))
}

//export npu_rtSetTSDevice
func npu_rtSetTSDevice(t *C.npu_thread, tsId C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetTSDevice(th, uint32(tsId))))
}

//export npu_rtsDeviceGetCapability
func npu_rtsDeviceGetCapability(t *C.npu_thread, deviceId C.int32_t, devFeatureType C.int32_t, val *C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceGetCapability(th, int32(deviceId), int32(devFeatureType), (*int32)(unsafe.Pointer(val)))))
}

//export npu_rtsGetPairDevicesInfo
func npu_rtsGetPairDevicesInfo(t *C.npu_thread, devId C.uint32_t, otherDevId C.uint32_t, infoType C.int32_t, val *C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetPairDevicesInfo(th, uint32(devId), uint32(otherDevId), int32(infoType), (*uint64)(unsafe.Pointer(val)))))
}

//export npu_rtGetAllUtilizations
func npu_rtGetAllUtilizations(t *C.npu_thread, devId C.int32_t, kind C.rtTypeUtil_t, util *C.uint8_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetAllUtilizations(th, int32(devId), int32(kind), (*uint8)(unsafe.Pointer(util)))))
}

//export npu_rtGetDeviceInfo
func npu_rtGetDeviceInfo(t *C.npu_thread, deviceId C.uint32_t, moduleType C.int32_t, infoType C.int32_t, val *C.int64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetDeviceInfo(th, uint32(deviceId), int32(moduleType), int32(infoType), (*int64)(unsafe.Pointer(val)))))
}
