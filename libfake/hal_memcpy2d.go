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

// Exports of the HAL 2-D copy, memory agents and per-module memory usage
// (hal/memcpy2d.go, hal/memagent.go, hal/memusage_info.go).

//export npu_halMemcpy2D
func npu_halMemcpy2D(t *C.npu_thread, p_copy *C.struct_MEMCPY2D) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.HalMemcpy2D((*hal.Memcpy2D)(unsafe.Pointer(p_copy))))
}

//export npu_halMemAgentOpen
func npu_halMemAgentOpen(t *C.npu_thread, devid, flag C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.MemAgentOpen(uint32(devid), uint32(flag)))
}

//export npu_halMemAgentClose
func npu_halMemAgentClose(t *C.npu_thread, devid, flag C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.MemAgentClose(uint32(devid), uint32(flag)))
}

//export npu_halGetMemUsageInfo
func npu_halGetMemUsageInfo(t *C.npu_thread, dev_id C.uint32_t, mem_usage *C.struct_mem_module_usage, in_num C.size_t, out_num *C.size_t) C.drvError_t {
	th := thread(t)
	var recs []hal.MemModuleUsage
	if mem_usage != nil {
		recs = unsafe.Slice((*hal.MemModuleUsage)(unsafe.Pointer(mem_usage)), int(min(in_num, 1<<20)))
	}
	return retDrv(th, hal.GetMemUsageInfo(uint32(dev_id), recs, (*uint64)(unsafe.Pointer(out_num))))
}
