package main

/*
#include "stack.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/stack"
)

// wireStackInfo sets the stack.HAL fields of the driver's information
// calls (stack_info.c) that another library interposed.
func wireStackInfo() {
	set := func(i C.int) bool { return C.npu_cross[i] != nil }
	if set(C.NPU_X_drvGetDevNum) {
		stack.HAL.GetDevNum = func(num *uint32) error {
			var n C.uint32_t
			r := int32(C.npu_x_drvGetDevNum(&n))
			*num = uint32(n)
			return crossedDrv(C.NPU_X_drvGetDevNum, r)
		}
	}
	if set(C.NPU_X_drvDeviceGetPhyIdByIndex) {
		stack.HAL.DeviceGetPhyIDByIndex = func(index uint32, phy *uint32) error {
			var p C.uint32_t
			r := int32(C.npu_x_drvDeviceGetPhyIdByIndex(C.uint32_t(index), &p))
			*phy = uint32(p)
			return crossedDrv(C.NPU_X_drvDeviceGetPhyIdByIndex, r)
		}
	}
	if set(C.NPU_X_drvDeviceGetIndexByPhyId) {
		stack.HAL.DeviceGetIndexByPhyID = func(phy uint32, index *uint32) error {
			var i C.uint32_t
			r := int32(C.npu_x_drvDeviceGetIndexByPhyId(C.uint32_t(phy), &i))
			*index = uint32(i)
			return crossedDrv(C.NPU_X_drvDeviceGetIndexByPhyId, r)
		}
	}
	if set(C.NPU_X_drvGetPlatformInfo) {
		stack.HAL.GetPlatformInfo = func(info *uint32) error {
			var v C.uint32_t
			r := int32(C.npu_x_drvGetPlatformInfo(&v))
			*info = uint32(v)
			return crossedDrv(C.NPU_X_drvGetPlatformInfo, r)
		}
	}
	if set(C.NPU_X_halGetSocVersion) {
		stack.HAL.GetSocVersion = func(dev uint32, buf []byte) error {
			var p *C.char
			if len(buf) > 0 {
				p = (*C.char)(unsafe.Pointer(&buf[0]))
			}
			return crossedDrv(C.NPU_X_halGetSocVersion, int32(C.npu_x_halGetSocVersion(C.uint32_t(dev), p, C.uint32_t(len(buf)))))
		}
	}
	if set(C.NPU_X_halResourceInfoQuery) {
		stack.HAL.ResourceInfoQuery = func(dev, ts uint32, typ int32, out *hal.ResourceInfo) error {
			var info hal.ResourceInfo
			r := int32(C.npu_x_halResourceInfoQuery(C.uint32_t(dev), C.uint32_t(ts), C.int32_t(typ), unsafe.Pointer(&info)))
			*out = info
			return crossedDrv(C.NPU_X_halResourceInfoQuery, r)
		}
	}
	if set(C.NPU_X_halGetDeviceSplitMode) {
		stack.HAL.GetDeviceSplitMode = func(dev uint32, mode *uint32) error {
			var m C.uint32_t
			r := int32(C.npu_x_halGetDeviceSplitMode(C.uint32_t(dev), &m))
			*mode = uint32(m)
			return crossedDrv(C.NPU_X_halGetDeviceSplitMode, r)
		}
	}
}
