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

// Exports of the HAL plain-memory family (hal/mem.go). Addresses cross as
// uintptr: they lie in the emulated HBM or pinned ranges or in the
// application's memory, never in the Go heap.

// Layouts the Go side mirrors; a mismatch fails to compile.
var (
	_ [unsafe.Sizeof(hal.MemcpyInfo{}) - C.sizeof_struct_memcpy_info]byte
	_ [C.sizeof_struct_memcpy_info - unsafe.Sizeof(hal.MemcpyInfo{})]byte
	_ [unsafe.Sizeof(hal.DVAttribute{}) - C.sizeof_struct_DVattribute]byte
	_ [C.sizeof_struct_DVattribute - unsafe.Sizeof(hal.DVAttribute{})]byte
)

//export npu_halMemAlloc
func npu_halMemAlloc(t *C.npu_thread, pp *unsafe.Pointer, size, flag C.ulonglong) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.MemAlloc((*uintptr)(unsafe.Pointer(pp)), uint64(size), uint64(flag)))
}

//export npu_halMemFree
func npu_halMemFree(t *C.npu_thread, pp unsafe.Pointer) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.MemFree(uintptr(pp)))
}

// memInfo is halMemGetInfo / halMemGetInfoEx: the size types fill the
// MemPhyInfo member at the start of the union.
func memInfo(t *C.npu_thread, fn string, device C.DVdevice, typ C.uint, info *C.struct_MemInfo) C.DVresult {
	th := thread(t)
	var phy *hal.MemPhyInfo
	if m := (*hal.MemInfo)(unsafe.Pointer(info)); m != nil {
		phy = &m.Phy_info
	}
	return retDrv(th, hal.MemGetInfo(fn, uint32(device), uint32(typ), phy))
}

//export npu_halMemGetInfo
func npu_halMemGetInfo(t *C.npu_thread, device C.DVdevice, typ C.uint, info *C.struct_MemInfo) C.DVresult {
	return memInfo(t, "halMemGetInfo", device, typ, info)
}

//export npu_halMemGetInfoEx
func npu_halMemGetInfoEx(t *C.npu_thread, device C.DVdevice, typ C.uint, info *C.struct_MemInfo) C.DVresult {
	return memInfo(t, "halMemGetInfoEx", device, typ, info)
}

//export npu_drvMemcpy
func npu_drvMemcpy(t *C.npu_thread, dst C.DVdeviceptr, dest_max C.size_t, src C.DVdeviceptr, byte_count C.size_t) C.DVresult {
	th := thread(t)
	return retDrv(th, hal.Memcpy(uintptr(dst), uint64(dest_max), uintptr(src), uint64(byte_count)))
}

//export npu_halMemcpy
func npu_halMemcpy(t *C.npu_thread, dst unsafe.Pointer, dst_size C.size_t, src unsafe.Pointer, count C.size_t, info *C.struct_memcpy_info) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.HalMemcpy(uintptr(dst), uint64(dst_size), uintptr(src), uint64(count), (*hal.MemcpyInfo)(unsafe.Pointer(info))))
}

//export npu_halSdmaCopy
func npu_halSdmaCopy(t *C.npu_thread, dst C.DVdeviceptr, dst_size C.size_t, src C.DVdeviceptr, n C.size_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.SdmaCopy(uintptr(dst), uint64(dst_size), uintptr(src), uint64(n)))
}

//export npu_drvMemsetD8
func npu_drvMemsetD8(t *C.npu_thread, dst C.DVdeviceptr, destMax C.size_t, value C.UINT8, num C.size_t) C.DVresult {
	th := thread(t)
	return retDrv(th, hal.MemsetD8(uintptr(dst), uint64(destMax), byte(value), uint64(num)))
}

//export npu_drvMemGetAttribute
func npu_drvMemGetAttribute(t *C.npu_thread, vptr C.DVdeviceptr, attr *C.struct_DVattribute) C.DVresult {
	th := thread(t)
	return retDrv(th, hal.MemGetAttribute(uintptr(vptr), (*hal.DVAttribute)(unsafe.Pointer(attr))))
}

//export npu_halMemGetAddressRange
func npu_halMemGetAddressRange(t *C.npu_thread, ptr C.DVdeviceptr, pbase *C.DVdeviceptr, psize *C.size_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.AddressRange(uintptr(ptr), (*uintptr)(unsafe.Pointer(pbase)), (*uint64)(unsafe.Pointer(psize))))
}
