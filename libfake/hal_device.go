package main

/*
#include "ascend_hal.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/hal"
)

// Exports of the HAL device family (hal/device.go).

// Layouts and values the Go side mirrors; a mismatch fails to compile
// (a negative or non-zero-length array size).
var (
	_ [unsafe.Sizeof(hal.ChipInfo{}) - C.sizeof_halChipInfo]byte
	_ [C.sizeof_halChipInfo - unsafe.Sizeof(hal.ChipInfo{})]byte
	_ [unsafe.Sizeof(hal.ResourceInfo{}) - C.sizeof_struct_halResourceInfo]byte
	_ [C.sizeof_struct_halResourceInfo - unsafe.Sizeof(hal.ResourceInfo{})]byte
	_ [hal.HALAPIVersion - C.__HAL_API_VERSION]byte
	_ [C.__HAL_API_VERSION - hal.HALAPIVersion]byte
)

// u32s views the caller's uint32_t array (nil for NULL).
func u32s(p *C.uint32_t, n C.uint32_t) []uint32 {
	if p == nil {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(p)), int(n))
}

//export npu_drvGetDevNum
func npu_drvGetDevNum(t *C.npu_thread, num_dev *C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.GetDevNum((*uint32)(unsafe.Pointer(num_dev))))
}

//export npu_drvGetDevIDs
func npu_drvGetDevIDs(t *C.npu_thread, devices *C.uint32_t, n C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.GetDevIDs("drvGetDevIDs", u32s(devices, n)))
}

//export npu_drvGetDeviceLocalIDs
func npu_drvGetDeviceLocalIDs(t *C.npu_thread, devices *C.uint32_t, n C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.GetDevIDs("drvGetDeviceLocalIDs", u32s(devices, n)))
}

//export npu_drvDeviceGetPhyIdByIndex
func npu_drvDeviceGetPhyIdByIndex(t *C.npu_thread, devIndex C.uint32_t, phyId *C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.PhyIDByIndex(uint32(devIndex), (*uint32)(unsafe.Pointer(phyId))))
}

//export npu_drvDeviceGetIndexByPhyId
func npu_drvDeviceGetIndexByPhyId(t *C.npu_thread, phyId C.uint32_t, devIndex *C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.IndexByPhyID(uint32(phyId), (*uint32)(unsafe.Pointer(devIndex))))
}

//export npu_drvGetPlatformInfo
func npu_drvGetPlatformInfo(t *C.npu_thread, info *C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.PlatformInfo((*uint32)(unsafe.Pointer(info))))
}

//export npu_halGetAPIVersion
func npu_halGetAPIVersion(t *C.npu_thread, halAPIVersion *C.int) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.APIVersion((*int32)(unsafe.Pointer(halAPIVersion))))
}

//export npu_halGetDeviceInfo
func npu_halGetDeviceInfo(t *C.npu_thread, devId C.uint32_t, moduleType, infoType C.int32_t, value *C.int64_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.DeviceInfo(uint32(devId), int32(moduleType), int32(infoType), (*int64)(unsafe.Pointer(value))))
}

//export npu_halGetSocVersion
func npu_halGetSocVersion(t *C.npu_thread, devId C.uint32_t, socVersion *C.char, n C.uint32_t) C.drvError_t {
	th := thread(t)
	var buf []byte
	if socVersion != nil {
		buf = unsafe.Slice((*byte)(unsafe.Pointer(socVersion)), int(n))
	}
	return retDrv(th, hal.SocVersion(uint32(devId), buf))
}

//export npu_halGetChipInfo
func npu_halGetChipInfo(t *C.npu_thread, devId C.uint, chipInfo *C.halChipInfo) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.GetChipInfo(uint32(devId), (*hal.ChipInfo)(unsafe.Pointer(chipInfo))))
}

//export npu_halGetDevNumEx
func npu_halGetDevNumEx(t *C.npu_thread, hw_type C.uint32_t, devNum *C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.DevNumEx(uint32(hw_type), (*uint32)(unsafe.Pointer(devNum))))
}

//export npu_halGetVdevNum
func npu_halGetVdevNum(t *C.npu_thread, num_dev *C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.VdevNum((*uint32)(unsafe.Pointer(num_dev))))
}

//export npu_halSupportFeature
func npu_halSupportFeature(t *C.npu_thread, devId C.uint32_t, typ C.drvFeature_t) C.bool {
	th := thread(t)
	ok, err := hal.SupportFeature(uint32(devId), int32(typ))
	if err != nil {
		retDrv(th, err)
		return false
	}
	return C.bool(ok)
}

//export npu_halResourceInfoQuery
func npu_halResourceInfoQuery(t *C.npu_thread, devId, tsId C.uint32_t, typ C.drvResourceType_t, info *C.struct_halResourceInfo) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.ResourceInfoQuery(uint32(devId), uint32(tsId), int32(typ), (*hal.ResourceInfo)(unsafe.Pointer(info))))
}

//export npu_halGetDeviceSplitMode
func npu_halGetDeviceSplitMode(t *C.npu_thread, dev_id C.uint, mode *C.uint) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.DeviceSplitMode(uint32(dev_id), (*uint32)(unsafe.Pointer(mode))))
}
