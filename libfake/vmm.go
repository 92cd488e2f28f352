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

// Exports of the virtual-memory-management family, ACL (acl/vmm.go,
// acl/vmm_ipc.go) and HAL (hal/vmm.go). Physical memory handles are opaque
// 64-bit values (never addresses) that cross as the pointer-typed
// aclrtDrvMemHandle / drv_mem_handle_t*: they are read as integers and
// written through the caller's slot viewed as a uint64.

// Layouts the Go side mirrors; a mismatch fails to compile.
var (
	_ [unsafe.Sizeof(acl.PhysicalMemProp{}) - C.sizeof_aclrtPhysicalMemProp]byte
	_ [C.sizeof_aclrtPhysicalMemProp - unsafe.Sizeof(acl.PhysicalMemProp{})]byte
	_ [unsafe.Sizeof(acl.MemLocation{}) - C.sizeof_aclrtMemLocation]byte
	_ [C.sizeof_aclrtMemLocation - unsafe.Sizeof(acl.MemLocation{})]byte
	_ [unsafe.Sizeof(acl.MemAccessDesc{}) - C.sizeof_aclrtMemAccessDesc]byte
	_ [C.sizeof_aclrtMemAccessDesc - unsafe.Sizeof(acl.MemAccessDesc{})]byte
	_ [unsafe.Sizeof(hal.MemProp{}) - C.sizeof_struct_drv_mem_prop]byte
	_ [C.sizeof_struct_drv_mem_prop - unsafe.Sizeof(hal.MemProp{})]byte
	_ [unsafe.Sizeof(hal.MemLocation{}) - C.sizeof_struct_drv_mem_location]byte
	_ [C.sizeof_struct_drv_mem_location - unsafe.Sizeof(hal.MemLocation{})]byte
	_ [unsafe.Sizeof(hal.MemAccessDesc{}) - C.sizeof_struct_drv_mem_access_desc]byte
	_ [C.sizeof_struct_drv_mem_access_desc - unsafe.Sizeof(hal.MemAccessDesc{})]byte
	_ [unsafe.Sizeof(hal.MemShareHandle{}) - C.sizeof_struct_MemShareHandle]byte
	_ [C.sizeof_struct_MemShareHandle - unsafe.Sizeof(hal.MemShareHandle{})]byte
)

// memHandle reads a handle argument.
func memHandle(p unsafe.Pointer) uint64 { return uint64(uintptr(p)) }

// memHandleOut views a handle output slot (nil stays nil).
func memHandleOut(p unsafe.Pointer) *uint64 { return (*uint64)(p) }

// pidList views a C array of n pids (nil for a NULL array or n 0).
func pidList(p unsafe.Pointer, n uint64) []int32 {
	if p == nil || n == 0 || n > 1<<20 {
		return nil
	}
	return unsafe.Slice((*int32)(p), n)
}

//export npu_aclrtReserveMemAddress
func npu_aclrtReserveMemAddress(t *C.npu_thread, virPtr *unsafe.Pointer, size, alignment C.size_t, expectPtr unsafe.Pointer, flags C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ReserveMemAddress(th, addrOut(virPtr), uint64(size), uint64(alignment), uintptr(expectPtr), uint64(flags), false))
}

//export npu_aclrtReserveMemAddressNoUCMemory
func npu_aclrtReserveMemAddressNoUCMemory(t *C.npu_thread, virPtr *unsafe.Pointer, size, alignment C.size_t, expectPtr unsafe.Pointer, flags C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ReserveMemAddress(th, addrOut(virPtr), uint64(size), uint64(alignment), uintptr(expectPtr), uint64(flags), true))
}

//export npu_aclrtReleaseMemAddress
func npu_aclrtReleaseMemAddress(t *C.npu_thread, virPtr unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.ReleaseMemAddress(th, uintptr(virPtr)))
}

//export npu_aclrtMallocPhysical
func npu_aclrtMallocPhysical(t *C.npu_thread, handle *C.aclrtDrvMemHandle, size C.size_t, prop *C.aclrtPhysicalMemProp, flags C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MallocPhysical(th, memHandleOut(unsafe.Pointer(handle)), uint64(size), (*acl.PhysicalMemProp)(unsafe.Pointer(prop)), uint64(flags)))
}

//export npu_aclrtFreePhysical
func npu_aclrtFreePhysical(t *C.npu_thread, handle C.aclrtDrvMemHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.FreePhysical(th, memHandle(unsafe.Pointer(handle))))
}

//export npu_aclrtMapMem
func npu_aclrtMapMem(t *C.npu_thread, virPtr unsafe.Pointer, size, offset C.size_t, handle C.aclrtDrvMemHandle, flags C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MapMem(th, uintptr(virPtr), uint64(size), uint64(offset), memHandle(unsafe.Pointer(handle)), uint64(flags), false))
}

//export npu_aclrtMemMapNoAccess
func npu_aclrtMemMapNoAccess(t *C.npu_thread, virPtr unsafe.Pointer, size, offset C.size_t, handle C.aclrtDrvMemHandle, flags C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MapMem(th, uintptr(virPtr), uint64(size), uint64(offset), memHandle(unsafe.Pointer(handle)), uint64(flags), true))
}

//export npu_aclrtUnmapMem
func npu_aclrtUnmapMem(t *C.npu_thread, virPtr unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.UnmapMem(th, uintptr(virPtr)))
}

//export npu_aclrtMemSetAccess
func npu_aclrtMemSetAccess(t *C.npu_thread, virPtr unsafe.Pointer, size C.size_t, desc *C.aclrtMemAccessDesc, count C.size_t) C.aclError {
	th := thread(t)
	var ds []acl.MemAccessDesc
	if desc != nil && count > 0 && count <= 1<<16 {
		ds = unsafe.Slice((*acl.MemAccessDesc)(unsafe.Pointer(desc)), int(count))
	}
	return ret(th, acl.MemSetAccess(th, uintptr(virPtr), uint64(size), ds))
}

//export npu_aclrtMemGetAccess
func npu_aclrtMemGetAccess(t *C.npu_thread, virPtr unsafe.Pointer, location *C.aclrtMemLocation, flag *C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MemGetAccess(th, uintptr(virPtr), (*acl.MemLocation)(unsafe.Pointer(location)), (*uint64)(unsafe.Pointer(flag))))
}

//export npu_aclrtMemGetAllocationGranularity
func npu_aclrtMemGetAllocationGranularity(t *C.npu_thread, prop *C.aclrtPhysicalMemProp, option C.aclrtMemGranularityOptions, granularity *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MemGetAllocationGranularity(th, (*acl.PhysicalMemProp)(unsafe.Pointer(prop)), uint32(option), (*uint64)(unsafe.Pointer(granularity))))
}

//export npu_aclrtMemRetainAllocationHandle
func npu_aclrtMemRetainAllocationHandle(t *C.npu_thread, virPtr unsafe.Pointer, handle *C.aclrtDrvMemHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.MemRetainAllocationHandle(th, uintptr(virPtr), memHandleOut(unsafe.Pointer(handle))))
}

//export npu_aclrtMemGetAllocationPropertiesFromHandle
func npu_aclrtMemGetAllocationPropertiesFromHandle(t *C.npu_thread, handle C.aclrtDrvMemHandle, prop *C.aclrtPhysicalMemProp) C.aclError {
	th := thread(t)
	return ret(th, acl.MemGetAllocationPropertiesFromHandle(th, memHandle(unsafe.Pointer(handle)), (*acl.PhysicalMemProp)(unsafe.Pointer(prop))))
}

//export npu_aclrtMemGetAddressRange
func npu_aclrtMemGetAddressRange(t *C.npu_thread, ptr unsafe.Pointer, pbase *unsafe.Pointer, psize *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MemGetAddressRange(th, uintptr(ptr), addrOut(pbase), (*uint64)(unsafe.Pointer(psize))))
}

//export npu_aclrtMemExportToShareableHandle
func npu_aclrtMemExportToShareableHandle(t *C.npu_thread, handle C.aclrtDrvMemHandle, handleType C.aclrtMemHandleType, flags C.uint64_t, shareableHandle *C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MemExportToShareableHandle(th, "aclrtMemExportToShareableHandle", memHandle(unsafe.Pointer(handle)), uint32(handleType), uint64(flags), (*uint64)(unsafe.Pointer(shareableHandle))))
}

//export npu_aclrtMemExportToShareableHandleV2
func npu_aclrtMemExportToShareableHandleV2(t *C.npu_thread, handle C.aclrtDrvMemHandle, flags C.uint64_t, shareType C.aclrtMemSharedHandleType, shareableHandle unsafe.Pointer) C.aclError {
	th := thread(t)
	const fn = "aclrtMemExportToShareableHandleV2"
	if err := acl.CheckShareType(fn, uint32(shareType)); err != nil {
		return ret(th, err)
	}
	return ret(th, acl.MemExportToShareableHandle(th, fn, memHandle(unsafe.Pointer(handle)), 0, uint64(flags), (*uint64)(shareableHandle)))
}

//export npu_aclrtMemImportFromShareableHandle
func npu_aclrtMemImportFromShareableHandle(t *C.npu_thread, shareableHandle C.uint64_t, deviceId C.int32_t, handle *C.aclrtDrvMemHandle) C.aclError {
	th := thread(t)
	const fn = "aclrtMemImportFromShareableHandle"
	if deviceId < 0 {
		deviceId = C.int32_t(1 << 30) // out of range: reported as an invalid device
	}
	return ret(th, acl.MemImportFromShareableHandle(th, fn, uint64(shareableHandle), int32(deviceId), 0, memHandleOut(unsafe.Pointer(handle))))
}

//export npu_aclrtMemImportFromShareableHandleV2
func npu_aclrtMemImportFromShareableHandleV2(t *C.npu_thread, shareableHandle unsafe.Pointer, shareType C.aclrtMemSharedHandleType, flags C.uint64_t, handle *C.aclrtDrvMemHandle) C.aclError {
	th := thread(t)
	const fn = "aclrtMemImportFromShareableHandleV2"
	if err := acl.CheckShareType(fn, uint32(shareType)); err != nil {
		return ret(th, err)
	}
	if shareableHandle == nil {
		return ret(th, acl.MemImportFromShareableHandle(th, fn, 0, -1, uint64(flags), nil))
	}
	return ret(th, acl.MemImportFromShareableHandle(th, fn, *(*uint64)(shareableHandle), -1, uint64(flags), memHandleOut(unsafe.Pointer(handle))))
}

//export npu_aclrtMemSetPidToShareableHandle
func npu_aclrtMemSetPidToShareableHandle(t *C.npu_thread, shareableHandle C.uint64_t, pid *C.int32_t, pidNum C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MemSetPidToShareableHandle(th, "aclrtMemSetPidToShareableHandle", uint64(shareableHandle), pidList(unsafe.Pointer(pid), uint64(pidNum))))
}

//export npu_aclrtMemSetPidToShareableHandleV2
func npu_aclrtMemSetPidToShareableHandleV2(t *C.npu_thread, shareableHandle unsafe.Pointer, shareType C.aclrtMemSharedHandleType, pid *C.int32_t, pidNum C.size_t) C.aclError {
	th := thread(t)
	const fn = "aclrtMemSetPidToShareableHandleV2"
	if err := acl.CheckShareType(fn, uint32(shareType)); err != nil {
		return ret(th, err)
	}
	var s uint64
	if shareableHandle != nil {
		s = *(*uint64)(shareableHandle)
	}
	return ret(th, acl.MemSetPidToShareableHandle(th, fn, s, pidList(unsafe.Pointer(pid), uint64(pidNum))))
}

// HAL.

//export npu_halMemAddressReserve
func npu_halMemAddressReserve(t *C.npu_thread, ptr *unsafe.Pointer, size, alignment C.size_t, addr unsafe.Pointer, flag C.uint64_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.AddressReserve(addrOut(ptr), uint64(size), uint64(alignment), uintptr(addr), uint64(flag)))
}

//export npu_halMemAddressFree
func npu_halMemAddressFree(t *C.npu_thread, ptr unsafe.Pointer) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.AddressFree(uintptr(ptr)))
}

//export npu_halMemCreate
func npu_halMemCreate(t *C.npu_thread, handle **C.drv_mem_handle_t, size C.size_t, prop *C.struct_drv_mem_prop, flag C.uint64_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.MemCreate(memHandleOut(unsafe.Pointer(handle)), uint64(size), (*hal.MemProp)(unsafe.Pointer(prop)), uint64(flag)))
}

//export npu_halMemRelease
func npu_halMemRelease(t *C.npu_thread, handle *C.drv_mem_handle_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.MemRelease(memHandle(unsafe.Pointer(handle))))
}

//export npu_halMemRetainAllocationHandle
func npu_halMemRetainAllocationHandle(t *C.npu_thread, handle **C.drv_mem_handle_t, ptr unsafe.Pointer) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.RetainAllocationHandle(memHandleOut(unsafe.Pointer(handle)), uintptr(ptr)))
}

//export npu_halMemMap
func npu_halMemMap(t *C.npu_thread, ptr unsafe.Pointer, size, offset C.size_t, handle *C.drv_mem_handle_t, flag C.uint64_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.MemMap(uintptr(ptr), uint64(size), uint64(offset), memHandle(unsafe.Pointer(handle)), uint64(flag)))
}

//export npu_halMemUnmap
func npu_halMemUnmap(t *C.npu_thread, ptr unsafe.Pointer) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.MemUnmap(uintptr(ptr)))
}

//export npu_halMemSetAccess
func npu_halMemSetAccess(t *C.npu_thread, ptr unsafe.Pointer, size C.size_t, desc *C.struct_drv_mem_access_desc, count C.size_t) C.drvError_t {
	th := thread(t)
	var ds []hal.MemAccessDesc
	if desc != nil && count > 0 && count <= 1<<16 {
		ds = unsafe.Slice((*hal.MemAccessDesc)(unsafe.Pointer(desc)), int(count))
	}
	return retDrv(th, hal.SetAccess(uintptr(ptr), uint64(size), ds))
}

//export npu_halMemGetAccess
func npu_halMemGetAccess(t *C.npu_thread, ptr unsafe.Pointer, location *C.struct_drv_mem_location, flags *C.uint64_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.GetAccess(uintptr(ptr), (*hal.MemLocation)(unsafe.Pointer(location)), (*uint64)(unsafe.Pointer(flags))))
}

//export npu_halMemGetAllocationGranularity
func npu_halMemGetAllocationGranularity(t *C.npu_thread, prop *C.struct_drv_mem_prop, option C.drv_mem_granularity_options, granularity *C.size_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.AllocationGranularity((*hal.MemProp)(unsafe.Pointer(prop)), uint32(option), (*uint64)(unsafe.Pointer(granularity))))
}

//export npu_halMemGetAllocationPropertiesFromHandle
func npu_halMemGetAllocationPropertiesFromHandle(t *C.npu_thread, prop *C.struct_drv_mem_prop, handle *C.drv_mem_handle_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.AllocationPropertiesFromHandle((*hal.MemProp)(unsafe.Pointer(prop)), memHandle(unsafe.Pointer(handle))))
}

//export npu_halMemExportToShareableHandle
func npu_halMemExportToShareableHandle(t *C.npu_thread, handle *C.drv_mem_handle_t, handleType C.drv_mem_handle_type, flags C.uint64_t, shareableHandle *C.uint64_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.ExportToShareableHandle(memHandle(unsafe.Pointer(handle)), uint32(handleType), uint64(flags), (*uint64)(unsafe.Pointer(shareableHandle))))
}

//export npu_halMemExportToShareableHandleV2
func npu_halMemExportToShareableHandleV2(t *C.npu_thread, handle *C.drv_mem_handle_t, handleType C.drv_mem_handle_type, flags C.uint64_t, shareHandle *C.struct_MemShareHandle) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.ExportToShareableHandleV2(memHandle(unsafe.Pointer(handle)), uint32(handleType), uint64(flags), (*hal.MemShareHandle)(unsafe.Pointer(shareHandle))))
}

//export npu_halMemImportFromShareableHandle
func npu_halMemImportFromShareableHandle(t *C.npu_thread, shareableHandle C.uint64_t, devid C.uint32_t, handle **C.drv_mem_handle_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.ImportFromShareableHandle(uint64(shareableHandle), uint32(devid), memHandleOut(unsafe.Pointer(handle))))
}

//export npu_halMemImportFromShareableHandleV2
func npu_halMemImportFromShareableHandleV2(t *C.npu_thread, handleType C.drv_mem_handle_type, shareHandle *C.struct_MemShareHandle, devid C.uint32_t, handle **C.drv_mem_handle_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.ImportFromShareableHandleV2(uint32(handleType), (*hal.MemShareHandle)(unsafe.Pointer(shareHandle)), uint32(devid), memHandleOut(unsafe.Pointer(handle))))
}

//export npu_halMemSetPidToShareableHandle
func npu_halMemSetPidToShareableHandle(t *C.npu_thread, shareableHandle C.uint64_t, pid *C.int, pidNum C.uint32_t) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.SetPidToShareableHandle(uint64(shareableHandle), pidList(unsafe.Pointer(pid), uint64(pidNum))))
}
