package main

/*
#include <stdlib.h>
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// Exports of the device family (acl/device.go, acl/devinfo.go).

// socNames holds the runtime-owned C strings aclrtGetSocName returns, one
// per name ever reported, so a returned pointer stays valid for the process.
var socNames struct {
	mu sync.Mutex
	m  map[string]*C.char
}

//export npu_aclrtGetSocName
func npu_aclrtGetSocName(t *C.npu_thread) *C.char {
	th := thread(t)
	name, err := acl.SocName(th)
	if err != nil {
		ret(th, err)
		return nil
	}
	socNames.mu.Lock()
	defer socNames.mu.Unlock()
	if socNames.m == nil {
		socNames.m = map[string]*C.char{}
	}
	p, ok := socNames.m[name]
	if !ok {
		p = C.CString(name)
		socNames.m[name] = p
	}
	return p
}

//export npu_aclrtSetDevice
func npu_aclrtSetDevice(t *C.npu_thread, deviceId C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SetDevice(th, int32(deviceId)))
}

//export npu_aclrtResetDevice
func npu_aclrtResetDevice(t *C.npu_thread, deviceId C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ResetDevice(th, int32(deviceId)))
}

//export npu_aclrtResetDeviceForce
func npu_aclrtResetDeviceForce(t *C.npu_thread, deviceId C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ResetDeviceForce(th, int32(deviceId)))
}

//export npu_aclrtGetDevice
func npu_aclrtGetDevice(t *C.npu_thread, deviceId *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetDevice(th, (*int32)(unsafe.Pointer(deviceId))))
}

//export npu_aclrtGetDeviceCount
func npu_aclrtGetDeviceCount(t *C.npu_thread, count *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetDeviceCount(th, (*uint32)(unsafe.Pointer(count))))
}

//export npu_aclrtGetRunMode
func npu_aclrtGetRunMode(t *C.npu_thread, runMode *C.aclrtRunMode) C.aclError {
	th := thread(t)
	return ret(th, acl.GetRunMode(th, (*int32)(unsafe.Pointer(runMode))))
}

//export npu_aclrtSynchronizeDevice
func npu_aclrtSynchronizeDevice(t *C.npu_thread) C.aclError {
	th := thread(t)
	return ret(th, acl.SynchronizeDevice(th))
}

//export npu_aclrtSynchronizeDeviceWithTimeout
func npu_aclrtSynchronizeDeviceWithTimeout(t *C.npu_thread, timeout C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SynchronizeDeviceWithTimeout(th, int32(timeout)))
}

//export npu_aclrtQueryDeviceStatus
func npu_aclrtQueryDeviceStatus(t *C.npu_thread, deviceId C.int32_t, deviceStatus *C.aclrtDeviceStatus) C.aclError {
	th := thread(t)
	return ret(th, acl.QueryDeviceStatus(th, int32(deviceId), (*int32)(unsafe.Pointer(deviceStatus))))
}

//export npu_aclrtGetDeviceInfo
func npu_aclrtGetDeviceInfo(t *C.npu_thread, deviceId C.uint32_t, attr C.aclrtDevAttr, value *C.int64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetDeviceInfo(th, uint32(deviceId), int32(attr), (*int64)(unsafe.Pointer(value))))
}

//export npu_aclGetDeviceCapability
func npu_aclGetDeviceCapability(t *C.npu_thread, deviceId C.uint32_t, deviceInfo C.aclDeviceInfo, value *C.int64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetDeviceCapabilityLegacy(th, uint32(deviceId), int32(deviceInfo), (*int64)(unsafe.Pointer(value))))
}

//export npu_aclrtGetDeviceCapability
func npu_aclrtGetDeviceCapability(t *C.npu_thread, deviceId C.int32_t, devFeatureType C.aclrtDevFeatureType, value *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetDeviceCapability(th, int32(deviceId), int32(devFeatureType), (*int32)(unsafe.Pointer(value))))
}

//export npu_aclrtGetDeviceUtilizationRate
func npu_aclrtGetDeviceUtilizationRate(t *C.npu_thread, deviceId C.int32_t, info *C.aclrtUtilizationInfo) C.aclError {
	th := thread(t)
	return ret(th, acl.GetDeviceUtilizationRate(th, int32(deviceId), (*acl.UtilizationInfo)(unsafe.Pointer(info))))
}

//export npu_aclrtDeviceGetStreamPriorityRange
func npu_aclrtDeviceGetStreamPriorityRange(t *C.npu_thread, least, greatest *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.DeviceGetStreamPriorityRange(th, (*int32)(unsafe.Pointer(least)), (*int32)(unsafe.Pointer(greatest))))
}

//export npu_aclrtDeviceCanAccessPeer
func npu_aclrtDeviceCanAccessPeer(t *C.npu_thread, can *C.int32_t, deviceId, peerDeviceId C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.DeviceCanAccessPeer(th, (*int32)(unsafe.Pointer(can)), int32(deviceId), int32(peerDeviceId)))
}

//export npu_aclrtDeviceEnablePeerAccess
func npu_aclrtDeviceEnablePeerAccess(t *C.npu_thread, peerDeviceId C.int32_t, flags C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.DeviceEnablePeerAccess(th, int32(peerDeviceId), uint32(flags)))
}

//export npu_aclrtDeviceDisablePeerAccess
func npu_aclrtDeviceDisablePeerAccess(t *C.npu_thread, peerDeviceId C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.DeviceDisablePeerAccess(th, int32(peerDeviceId)))
}

//export npu_aclrtDevicePeerAccessStatus
func npu_aclrtDevicePeerAccessStatus(t *C.npu_thread, deviceId, peerDeviceId C.int32_t, status *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.DevicePeerAccessStatus(th, int32(deviceId), int32(peerDeviceId), (*int32)(unsafe.Pointer(status))))
}

//export npu_aclrtDeviceGetBareTgid
func npu_aclrtDeviceGetBareTgid(t *C.npu_thread, pid *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.DeviceGetBareTgid(th, (*int32)(unsafe.Pointer(pid))))
}

//export npu_aclrtCheckArchCompatibility
func npu_aclrtCheckArchCompatibility(t *C.npu_thread, socVersion *C.char, canCompatible *C.int32_t) C.aclError {
	th := thread(t)
	name := ""
	if socVersion != nil {
		name = C.GoString(socVersion)
	}
	return ret(th, acl.CheckArchCompatibility(th, name, socVersion != nil, (*int32)(unsafe.Pointer(canCompatible))))
}

//export npu_aclrtGetErrorVerbose
func npu_aclrtGetErrorVerbose(t *C.npu_thread, deviceId C.int32_t, errorInfo *C.aclrtErrorInfo) C.aclError {
	th := thread(t)
	return ret(th, acl.GetErrorVerbose(th, int32(deviceId), (*acl.ErrorInfo)(unsafe.Pointer(errorInfo))))
}

//export npu_aclrtSetDeviceSatMode
func npu_aclrtSetDeviceSatMode(t *C.npu_thread, mode C.aclrtFloatOverflowMode) C.aclError {
	th := thread(t)
	return ret(th, acl.SetDeviceSatMode(th, int32(mode)))
}

//export npu_aclrtGetDeviceSatMode
func npu_aclrtGetDeviceSatMode(t *C.npu_thread, mode *C.aclrtFloatOverflowMode) C.aclError {
	th := thread(t)
	return ret(th, acl.GetDeviceSatMode(th, (*int32)(unsafe.Pointer(mode))))
}

//export npu_aclrtDeviceSetLimit
func npu_aclrtDeviceSetLimit(t *C.npu_thread, limit C.aclrtDeviceLimit, value C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.DeviceSetLimit(th, int32(limit), uint64(value)))
}

//export npu_aclrtDeviceGetLimit
func npu_aclrtDeviceGetLimit(t *C.npu_thread, limit C.aclrtDeviceLimit, value *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.DeviceGetLimit(th, int32(limit), (*uint64)(unsafe.Pointer(value))))
}

//export npu_aclrtSetDeviceResLimit
func npu_aclrtSetDeviceResLimit(t *C.npu_thread, deviceId C.int32_t, typ C.aclrtDevResLimitType, value C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SetDeviceResLimit(th, int32(deviceId), int32(typ), uint32(value)))
}

//export npu_aclrtGetDeviceResLimit
func npu_aclrtGetDeviceResLimit(t *C.npu_thread, deviceId C.int32_t, typ C.aclrtDevResLimitType, value *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetDeviceResLimit(th, int32(deviceId), int32(typ), (*uint32)(unsafe.Pointer(value))))
}

//export npu_aclrtResetDeviceResLimit
func npu_aclrtResetDeviceResLimit(t *C.npu_thread, deviceId C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ResetDeviceResLimit(th, int32(deviceId)))
}

//export npu_aclrtGetResInCurrentThread
func npu_aclrtGetResInCurrentThread(t *C.npu_thread, typ C.aclrtDevResLimitType, value *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetResInCurrentThread(th, int32(typ), (*uint32)(unsafe.Pointer(value))))
}

//export npu_aclrtSetSysParamOpt
func npu_aclrtSetSysParamOpt(t *C.npu_thread, opt C.aclSysParamOpt, value C.int64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SetSysParamOpt(th, int32(opt), int64(value)))
}

//export npu_aclrtGetSysParamOpt
func npu_aclrtGetSysParamOpt(t *C.npu_thread, opt C.aclSysParamOpt, value *C.int64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetSysParamOpt(th, int32(opt), (*int64)(unsafe.Pointer(value))))
}
