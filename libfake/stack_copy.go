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

// wireStackCopy sets the driver's synchronous copy calls of stack.HAL
// that another library interposed (rtMemcpy's halSdmaCopy, halMemcpy and
// drvMemcpy, rtMemset's drvMemsetD8, rtMemcpy2d's halMemcpy2D;
// libfake/stack_copy.c), and stack.HAL.SyncCopy when any of the three
// copy calls is: the runtime's synchronous copy then goes through the
// driver's calls (rt/core/copy_driver.go).
func wireStackCopy() {
	set := func(i C.int) bool { return C.npu_cross[i] != nil }
	if set(C.NPU_X_halSdmaCopy) {
		stack.HAL.SdmaCopy = func(dst uintptr, dstSize uint64, src uintptr, n uint64) error {
			return crossedDrv(C.NPU_X_halSdmaCopy, int32(C.npu_x_halSdmaCopy(C.uintptr_t(dst), C.size_t(dstSize), C.uintptr_t(src), C.size_t(n))))
		}
	}
	if set(C.NPU_X_halMemcpy) {
		stack.HAL.HalMemcpy = func(dst uintptr, dstSize uint64, src uintptr, n uint64, info *hal.MemcpyInfo) error {
			return crossedDrv(C.NPU_X_halMemcpy, int32(C.npu_x_halMemcpy(C.uintptr_t(dst), C.size_t(dstSize), C.uintptr_t(src), C.size_t(n), C.uint32_t(info.Dir), C.uint32_t(info.Devid))))
		}
	}
	if set(C.NPU_X_drvMemcpy) {
		stack.HAL.DrvMemcpy = func(dst uintptr, destMax uint64, src uintptr, n uint64) error {
			return crossedDrv(C.NPU_X_drvMemcpy, int32(C.npu_x_drvMemcpy(C.uintptr_t(dst), C.size_t(destMax), C.uintptr_t(src), C.size_t(n))))
		}
	}
	if set(C.NPU_X_drvMemsetD8) {
		stack.HAL.MemsetD8 = func(dst uintptr, destMax uint64, value byte, n uint64) error {
			return crossedDrv(C.NPU_X_drvMemsetD8, int32(C.npu_x_drvMemsetD8(C.uintptr_t(dst), C.size_t(destMax), C.uint8_t(value), C.size_t(n))))
		}
	}
	if set(C.NPU_X_halMemcpy2D) {
		stack.HAL.Memcpy2D = func(p *hal.Memcpy2D) error {
			return crossedDrv(C.NPU_X_halMemcpy2D, int32(C.npu_x_halMemcpy2D(unsafe.Pointer(p))))
		}
	}
	stack.HAL.SyncCopy = stack.HAL.SdmaCopy != nil || stack.HAL.HalMemcpy != nil || stack.HAL.DrvMemcpy != nil
}
