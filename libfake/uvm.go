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

// Exports of the HAL SVM/UVM family (hal/uvm.go).

var (
	_ [unsafe.Sizeof(hal.UVMLocation{}) - C.sizeof_struct_drv_uvm_location]byte
	_ [C.sizeof_struct_drv_uvm_location - unsafe.Sizeof(hal.UVMLocation{})]byte
)

func uvmLoc(l C.struct_drv_uvm_location) hal.UVMLocation {
	return hal.UVMLocation{Type: uint32(l._type), Id: int32(l.id)}
}

//export npu_halMemAdvise
func npu_halMemAdvise(t *C.npu_thread, ptr C.DVdeviceptr, count C.size_t, typ C.uint, device C.DVdevice) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.MemAdvise(uintptr(ptr), uint64(count), uint32(typ), uint32(device)))
}

//export npu_drvMemPrefetchToDevice
func npu_drvMemPrefetchToDevice(t *C.npu_thread, devPtr C.DVdeviceptr, length C.size_t, device C.DVdevice) C.DVresult {
	th := thread(t)
	return retDrv(th, hal.PrefetchToDevice(uintptr(devPtr), uint64(length), uint32(device)))
}

//export npu_halMemManagedAdvise
func npu_halMemManagedAdvise(t *C.npu_thread, ptr C.DVdeviceptr, size C.size_t, advise C.uint32_t, location C.struct_drv_uvm_location) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.ManagedAdvise(uintptr(ptr), uint64(size), uint32(advise), uvmLoc(location)))
}

//export npu_halMemManagedPrefetch
func npu_halMemManagedPrefetch(t *C.npu_thread, ptr C.DVdeviceptr, size C.size_t, location C.struct_drv_uvm_location, flags C.uint) C.DVresult {
	th := thread(t)
	return retDrv(th, hal.ManagedPrefetch(uintptr(ptr), uint64(size), uvmLoc(location), uint32(flags)))
}

//export npu_halMemManagedPrefetchBatch
func npu_halMemManagedPrefetchBatch(t *C.npu_thread, ptrs *C.DVdeviceptr, sizes *C.size_t, count C.size_t, prefetchLocs *C.struct_drv_uvm_location, prefetchLocIdxs *C.size_t, numPrefetchLocs C.size_t, flags C.ulonglong) C.DVresult {
	th := thread(t)
	var ps []uintptr
	var ss, idxs []uint64
	var locs []hal.UVMLocation
	if ptrs != nil && sizes != nil && count > 0 && count < 1<<24 {
		ps = unsafe.Slice((*uintptr)(unsafe.Pointer(ptrs)), int(count))
		ss = unsafe.Slice((*uint64)(unsafe.Pointer(sizes)), int(count))
	}
	if prefetchLocs != nil && prefetchLocIdxs != nil && numPrefetchLocs > 0 && numPrefetchLocs < 1<<24 {
		locs = unsafe.Slice((*hal.UVMLocation)(unsafe.Pointer(prefetchLocs)), int(numPrefetchLocs))
		idxs = unsafe.Slice((*uint64)(unsafe.Pointer(prefetchLocIdxs)), int(numPrefetchLocs))
	}
	return retDrv(th, hal.ManagedPrefetchBatch(ps, ss, locs, idxs, uint64(flags), ""))
}
