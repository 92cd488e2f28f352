package main

/*
#include "acl/acl.h"
#include "ascend_hal.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/hal"
)

// Exports of host memory registration, ACL (acl/hostreg.go) and HAL
// (hal/hostreg.go).

//export npu_aclrtHostRegister
func npu_aclrtHostRegister(t *C.npu_thread, ptr unsafe.Pointer, size C.uint64_t, typ C.aclrtHostRegisterType, devPtr *unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.HostRegister(th, uintptr(ptr), uint64(size), uint32(typ), addrOut(devPtr)))
}

//export npu_aclrtHostRegisterV2
func npu_aclrtHostRegisterV2(t *C.npu_thread, ptr unsafe.Pointer, size C.uint64_t, flag C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.HostRegisterV2(th, uintptr(ptr), uint64(size), uint32(flag)))
}

//export npu_aclrtHostGetDevicePointer
func npu_aclrtHostGetDevicePointer(t *C.npu_thread, pHost unsafe.Pointer, pDevice *unsafe.Pointer, flag C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.HostGetDevicePointer(th, uintptr(pHost), addrOut(pDevice), uint32(flag)))
}

//export npu_aclrtHostUnregister
func npu_aclrtHostUnregister(t *C.npu_thread, ptr unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.HostUnregister(th, uintptr(ptr)))
}

//export npu_aclrtHostMemMapCapabilities
func npu_aclrtHostMemMapCapabilities(t *C.npu_thread, deviceId C.uint32_t, hacType C.aclrtHacType, capabilities *C.aclrtHostMemMapCapability) C.aclError {
	th := thread(t)
	return ret(th, acl.HostMemMapCapabilities(th, uint32(deviceId), uint32(hacType), (*uint32)(unsafe.Pointer(capabilities))))
}

//export npu_halHostRegister
func npu_halHostRegister(t *C.npu_thread, srcPtr unsafe.Pointer, size C.UINT64, flag, devid C.UINT32, dstPtr *unsafe.Pointer) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.HostRegister(uintptr(srcPtr), uint64(size), uint32(flag), uint32(devid), addrOut(dstPtr)))
}

//export npu_halHostUnregister
func npu_halHostUnregister(t *C.npu_thread, srcPtr unsafe.Pointer, devid C.UINT32) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.HostUnregister("halHostUnregister", uintptr(srcPtr), uint32(devid), 0, false))
}

//export npu_halHostUnregisterEx
func npu_halHostUnregisterEx(t *C.npu_thread, srcPtr unsafe.Pointer, devid, flag C.UINT32) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.HostUnregister("halHostUnregisterEx", uintptr(srcPtr), uint32(devid), uint32(flag), true))
}

//export npu_halMemHostGetDevPointer
func npu_halMemHostGetDevPointer(t *C.npu_thread, srcPtr unsafe.Pointer, devid C.uint32_t, dstPtr *unsafe.Pointer) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.HostGetDevPointer(uintptr(srcPtr), uint32(devid), addrOut(dstPtr)))
}

//export npu_halHostRegisterCapabilities
func npu_halHostRegisterCapabilities(t *C.npu_thread, devid, accModuleType C.uint32_t, memMapCap *C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.HostRegisterCapabilities(uint32(devid), uint32(accModuleType), (*uint32)(unsafe.Pointer(memMapCap))))
}
