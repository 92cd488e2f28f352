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

// Exports of the runtime's CMO descriptor calls and L2 flush
// (rt/cmo_rest.go).

//export npu_rtsGetCmoDescSize
func npu_rtsGetCmoDescSize(t *C.npu_thread, size *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetCmoDescSize(th, (*uint64)(unsafe.Pointer(size)))))
}

//export npu_rtsSetCmoDesc
func npu_rtsSetCmoDesc(t *C.npu_thread, cmoDesc C.rtCmoDesc_t, srcAddr unsafe.Pointer, srcLen C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetCmoDesc(th, uintptr(cmoDesc), uintptr(srcAddr), uint64(srcLen))))
}

//export npu_rtsLaunchCmoAddrTask
func npu_rtsLaunchCmoAddrTask(t *C.npu_thread, cmoDesc C.rtCmoDesc_t, stm C.rtStream_t, cmoOpCode C.rtCmoOpCode, reserve unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.LaunchCmoAddrTask(th, uintptr(cmoDesc), handle(unsafe.Pointer(stm)), int32(cmoOpCode), uintptr(reserve))))
}

//export npu_rtDeviceL2CacheFlush
func npu_rtDeviceL2CacheFlush(t *C.npu_thread, rsv unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceL2CacheFlush(th, uintptr(rsv))))
}
