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

// Exports of the HAL peer-to-peer switch, the memory module's device open
// (hal/p2p.go) and the managed range attribute query (hal/uvm_range.go).

//export npu_halDeviceCanAccessPeer
func npu_halDeviceCanAccessPeer(t *C.npu_thread, canAccessPeer *C.int, dev C.uint32_t, peer_dev C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.DeviceCanAccessPeer((*int32)(unsafe.Pointer(canAccessPeer)), uint32(dev), uint32(peer_dev)))
}

//export npu_halDeviceEnableP2P
func npu_halDeviceEnableP2P(t *C.npu_thread, dev C.uint32_t, peer_dev C.uint32_t, flag C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.DeviceEnableP2P(uint32(dev), uint32(peer_dev), uint32(flag)))
}

//export npu_halDeviceDisableP2P
func npu_halDeviceDisableP2P(t *C.npu_thread, dev C.uint32_t, peer_dev C.uint32_t, flag C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.DeviceDisableP2P(uint32(dev), uint32(peer_dev), uint32(flag)))
}

//export npu_drvMemDeviceOpen
func npu_drvMemDeviceOpen(t *C.npu_thread, devid C.uint, devfd C.int) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MemDeviceOpen(uint32(devid), int32(devfd))))
}

//export npu_drvMemDeviceClose
func npu_drvMemDeviceClose(t *C.npu_thread, devid C.uint) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MemDeviceClose(uint32(devid))))
}

// maxRangeAttrs bounds numAttributes before slices are built over the
// caller's arrays (DEVMM_MEM_RANGE_ATTRIBUTE has 8 ids; a caller may
// repeat them).
const maxRangeAttrs = 1 << 16

//export npu_halMemManagedRangeGetAttributes
func npu_halMemManagedRangeGetAttributes(t *C.npu_thread, data *unsafe.Pointer, dataSizes *C.size_t, attributes *C.uint32_t, numAttributes C.size_t, devPtr C.DVdeviceptr, count C.size_t) C.DVresult {
	th := thread(t)
	var bufs [][]byte
	var attrs []uint32
	if data != nil && dataSizes != nil && attributes != nil && numAttributes > 0 && numAttributes <= maxRangeAttrs {
		n := int(numAttributes)
		ptrs := unsafe.Slice(data, n)
		sizes := unsafe.Slice((*uint64)(unsafe.Pointer(dataSizes)), n)
		attrs = unsafe.Slice((*uint32)(unsafe.Pointer(attributes)), n)
		bufs = make([][]byte, n)
		for i := range bufs {
			if ptrs[i] != nil && sizes[i] > 0 && sizes[i] <= 1<<20 {
				bufs[i] = unsafe.Slice((*byte)(ptrs[i]), int(sizes[i]))
			} else if ptrs[i] != nil {
				bufs[i] = []byte{} // not NULL, but an unusable size
			}
		}
	}
	return retDrv(th, hal.ManagedRangeGetAttributes(bufs, attrs, uintptr(devPtr), uint64(count)))
}
