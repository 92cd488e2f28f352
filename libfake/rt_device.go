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

//export npu_rtGetRunMode
func npu_rtGetRunMode(t *C.npu_thread, runMode *C.rtRunMode) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetRunMode(th, (*int32)(unsafe.Pointer(runMode)))))
}

//export npu_rtDeviceStatusQuery
func npu_rtDeviceStatusQuery(t *C.npu_thread, devId C.uint32_t, deviceStatus *C.rtDeviceStatus) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceStatusQuery(th, uint32(devId), (*int32)(unsafe.Pointer(deviceStatus)))))
}

//export npu_rtDeviceResetForce
func npu_rtDeviceResetForce(t *C.npu_thread, devId C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceResetForce(th, int32(devId))))
}

//export npu_rtDeviceGetBareTgid
func npu_rtDeviceGetBareTgid(t *C.npu_thread, pid *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceGetBareTgid(th, (*uint32)(unsafe.Pointer(pid)))))
}

//export npu_rtSetSysParamOpt
func npu_rtSetSysParamOpt(t *C.npu_thread, configOpt C.rtSysParamOpt, configVal C.int64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetSysParamOpt(th, int32(configOpt), int64(configVal))))
}

//export npu_rtGetSysParamOpt
func npu_rtGetSysParamOpt(t *C.npu_thread, configOpt C.rtSysParamOpt, configVal *C.int64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetSysParamOpt(th, int32(configOpt), (*int64)(unsafe.Pointer(configVal)))))
}

//export npu_rtsDeviceGetInfo
func npu_rtsDeviceGetInfo(t *C.npu_thread, deviceId C.uint32_t, attr C.rtDevAttr, val *C.int64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceGetInfo(th, uint32(deviceId), int32(attr), (*int64)(unsafe.Pointer(val)))))
}

//export npu_rtGetAiCoreCount
func npu_rtGetAiCoreCount(t *C.npu_thread, aiCoreCnt *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetAiCoreCount(th, (*uint32)(unsafe.Pointer(aiCoreCnt)))))
}

//export npu_rtGetDeviceUuid
func npu_rtGetDeviceUuid(t *C.npu_thread, devId C.int32_t, uuid *C.rtUuid_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetDeviceUUID(th, int32(devId), (*[16]byte)(unsafe.Pointer(uuid)))))
}

//export npu_rtsGetLogicDevIdByPhyDevId
func npu_rtsGetLogicDevIdByPhyDevId(t *C.npu_thread, phyDevId C.int32_t, logicDevId *C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetLogicDevIdByPhyDevId(th, int32(phyDevId), (*int32)(unsafe.Pointer(logicDevId)))))
}

//export npu_rtsGetPhyDevIdByLogicDevId
func npu_rtsGetPhyDevIdByLogicDevId(t *C.npu_thread, logicDevId C.int32_t, phyDevId *C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetPhyDevIdByLogicDevId(th, int32(logicDevId), (*int32)(unsafe.Pointer(phyDevId)))))
}

//export npu_rtsGetLogicDevIdByUserDevId
func npu_rtsGetLogicDevIdByUserDevId(t *C.npu_thread, userDevId C.int32_t, logicDevId *C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetLogicDevIdByUserDevId(th, int32(userDevId), (*int32)(unsafe.Pointer(logicDevId)))))
}

//export npu_rtsGetUserDevIdByLogicDevId
func npu_rtsGetUserDevIdByLogicDevId(t *C.npu_thread, logicDevId C.int32_t, userDevId *C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetUserDevIdByLogicDevId(th, int32(logicDevId), (*int32)(unsafe.Pointer(userDevId)))))
}

//export npu_rtCheckArchCompatibility
func npu_rtCheckArchCompatibility(t *C.npu_thread, omSocVersion *C.char_t, canCompatible *C.int32_t) C.rtError_t {
	th := thread(t)
	name := ""
	if omSocVersion != nil {
		name = C.GoString((*C.char)(unsafe.Pointer(omSocVersion)))
	}
	return C.rtError_t(ret(th, rt.CheckArchCompatibility(th, name, omSocVersion != nil, (*int32)(unsafe.Pointer(canCompatible)))))
}

//export npu_rtDeviceGetPCIBusId
func npu_rtDeviceGetPCIBusId(t *C.npu_thread, devId C.int32_t, pciBusId *C.char, length C.int32_t) C.rtError_t {
	th := thread(t)
	s, err := rt.DeviceGetPCIBusID(th, int32(devId), pciBusId != nil, int32(length))
	if err != nil {
		return C.rtError_t(ret(th, err))
	}
	buf := unsafe.Slice((*byte)(unsafe.Pointer(pciBusId)), len(s)+1)
	copy(buf, s)
	buf[len(s)] = 0
	return 0
}

//export npu_rtDeviceGetByPCIBusId
func npu_rtDeviceGetByPCIBusId(t *C.npu_thread, pciBusId *C.char, devId *C.int32_t) C.rtError_t {
	th := thread(t)
	var s string
	if pciBusId != nil {
		s = C.GoStringN(pciBusId, C.int(C.strnlen(pciBusId, 64)))
	}
	return C.rtError_t(ret(th, rt.DeviceGetByPCIBusID(th, s, pciBusId != nil, (*int32)(unsafe.Pointer(devId)))))
}

//export npu_rtDeviceSetLimit
func npu_rtDeviceSetLimit(t *C.npu_thread, devId C.int32_t, typ C.rtLimitType_t, val C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceSetLimit(th, int32(devId), int32(typ), uint32(val))))
}

//export npu_rtDeviceGetLimit
func npu_rtDeviceGetLimit(t *C.npu_thread, typ C.rtLimitType_t, val *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceGetLimit(th, int32(typ), (*uint32)(unsafe.Pointer(val)))))
}

//export npu_rtDeviceTaskAbort
func npu_rtDeviceTaskAbort(t *C.npu_thread, devId C.int32_t, timeout C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceTaskAbort(th, int32(devId), uint32(timeout))))
}
