package main

/*
#include <stdlib.h>
#include "stack.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/stack"
)

// wireStackVMM sets the stack.HAL fields of the VMM queries, sharing,
// managed-memory and host-pointer driver calls that another library
// interposed (stack_vmm.c has the trampolines).
func wireStackVMM() {
	set := func(i C.int) bool { return C.npu_cross[i] != nil }
	if set(C.NPU_X_halMemSetAccess) {
		stack.HAL.SetAccess = func(p uintptr, size uint64, desc []hal.MemAccessDesc) error {
			var d unsafe.Pointer
			if len(desc) > 0 {
				d = unsafe.Pointer(&desc[0])
			}
			return crossedDrv(C.NPU_X_halMemSetAccess, int32(C.npu_x_halMemSetAccess(C.uintptr_t(p), C.size_t(size), d, C.size_t(len(desc)))))
		}
	}
	if set(C.NPU_X_halMemGetAccess) {
		stack.HAL.GetAccess = func(p uintptr, loc *hal.MemLocation, flags *uint64) error {
			var f C.uint64_t
			r := int32(C.npu_x_halMemGetAccess(C.uintptr_t(p), unsafe.Pointer(loc), &f))
			*flags = uint64(f)
			return crossedDrv(C.NPU_X_halMemGetAccess, r)
		}
	}
	if set(C.NPU_X_halMemGetAllocationGranularity) {
		stack.HAL.AllocationGranularity = func(prop *hal.MemProp, option uint32, g *uint64) error {
			var v C.uint64_t
			r := int32(C.npu_x_halMemGetAllocationGranularity(unsafe.Pointer(prop), C.uint32_t(option), &v))
			*g = uint64(v)
			return crossedDrv(C.NPU_X_halMemGetAllocationGranularity, r)
		}
	}
	if set(C.NPU_X_halMemRetainAllocationHandle) {
		stack.HAL.RetainAllocationHandle = func(ph *uint64, p uintptr) error {
			var h C.uint64_t
			r := int32(C.npu_x_halMemRetainAllocationHandle(&h, C.uintptr_t(p)))
			*ph = uint64(h)
			return crossedDrv(C.NPU_X_halMemRetainAllocationHandle, r)
		}
	}
	if set(C.NPU_X_halMemGetAddressRange) {
		stack.HAL.AddressRange = func(p uintptr, pbase *uintptr, psize *uint64) error {
			var b C.uintptr_t
			var s C.uint64_t
			r := int32(C.npu_x_halMemGetAddressRange(C.uintptr_t(p), &b, &s, cBool(pbase != nil), cBool(psize != nil)))
			if pbase != nil {
				*pbase = uintptr(b)
			}
			if psize != nil {
				*psize = uint64(s)
			}
			return crossedDrv(C.NPU_X_halMemGetAddressRange, r)
		}
	}
	if set(C.NPU_X_halMemGetAllocationPropertiesFromHandle) {
		stack.HAL.AllocationPropertiesFromHandle = func(prop *hal.MemProp, h uint64) error {
			return crossedDrv(C.NPU_X_halMemGetAllocationPropertiesFromHandle, int32(C.npu_x_halMemGetAllocationPropertiesFromHandle(unsafe.Pointer(prop), C.uint64_t(h))))
		}
	}
	wireStackShare(set)
	wireStackManaged(set)
	if set(C.NPU_X_halMemHostGetDevPointer) {
		stack.HAL.HostGetDevPointer = func(src uintptr, dev uint32, dst *uintptr) error {
			var d C.uintptr_t
			r := int32(C.npu_x_halMemHostGetDevPointer(C.uintptr_t(src), C.uint32_t(dev), &d))
			*dst = uintptr(d)
			return crossedDrv(C.NPU_X_halMemHostGetDevPointer, r)
		}
	}
}

// wireStackShare sets the shareable-handle driver calls.
func wireStackShare(set func(C.int) bool) {
	if set(C.NPU_X_halMemExportToShareableHandle) {
		stack.HAL.ExportToShareableHandle = func(h uint64, typ uint32, flags uint64, out *uint64) error {
			var s C.uint64_t
			r := int32(C.npu_x_halMemExportToShareableHandle(C.uint64_t(h), C.uint32_t(typ), C.uint64_t(flags), &s))
			*out = uint64(s)
			return crossedDrv(C.NPU_X_halMemExportToShareableHandle, r)
		}
	}
	if set(C.NPU_X_halMemExportToShareableHandleV2) {
		stack.HAL.ExportToShareableHandleV2 = func(h uint64, typ uint32, flags uint64, out *hal.MemShareHandle) error {
			return crossedDrv(C.NPU_X_halMemExportToShareableHandleV2, int32(C.npu_x_halMemExportToShareableHandleV2(C.uint64_t(h), C.uint32_t(typ), C.uint64_t(flags), unsafe.Pointer(out))))
		}
	}
	if set(C.NPU_X_halMemImportFromShareableHandle) {
		stack.HAL.ImportFromShareableHandle = func(s uint64, dev uint32, out *uint64) error {
			var h C.uint64_t
			r := int32(C.npu_x_halMemImportFromShareableHandle(C.uint64_t(s), C.uint32_t(dev), &h))
			*out = uint64(h)
			return crossedDrv(C.NPU_X_halMemImportFromShareableHandle, r)
		}
	}
	if set(C.NPU_X_halMemImportFromShareableHandleV2) {
		stack.HAL.ImportFromShareableHandleV2 = func(typ uint32, sh *hal.MemShareHandle, dev uint32, out *uint64) error {
			var h C.uint64_t
			r := int32(C.npu_x_halMemImportFromShareableHandleV2(C.uint32_t(typ), unsafe.Pointer(sh), C.uint32_t(dev), &h))
			*out = uint64(h)
			return crossedDrv(C.NPU_X_halMemImportFromShareableHandleV2, r)
		}
	}
	if set(C.NPU_X_halMemSetPidToShareableHandle) {
		stack.HAL.SetPidToShareableHandle = func(s uint64, pids []int32) error {
			var p *C.int32_t
			if len(pids) > 0 {
				p = (*C.int32_t)(unsafe.Pointer(&pids[0]))
			}
			return crossedDrv(C.NPU_X_halMemSetPidToShareableHandle, int32(C.npu_x_halMemSetPidToShareableHandle(C.uint64_t(s), p, C.uint32_t(len(pids)))))
		}
	}
}

// wireStackManaged sets the managed-memory driver calls.
func wireStackManaged(set func(C.int) bool) {
	if set(C.NPU_X_halMemManagedAdvise) {
		stack.HAL.ManagedAdvise = func(p uintptr, size uint64, advise uint32, l hal.UVMLocation) error {
			return crossedDrv(C.NPU_X_halMemManagedAdvise, int32(C.npu_x_halMemManagedAdvise(C.uintptr_t(p), C.size_t(size), C.uint32_t(advise), C.uint32_t(l.Type), C.int32_t(l.Id))))
		}
	}
	if set(C.NPU_X_halMemManagedRangeGetAttributes) {
		stack.HAL.ManagedRangeGetAttributes = rangeAttrsCrossed
	}
}

// rangeAttrsCrossed calls an interposed halMemManagedRangeGetAttributes
// with C copies of the buffers (C may not keep Go pointers in C memory)
// and copies the answers back when it succeeds.
func rangeAttrsCrossed(data [][]byte, attrs []uint32, p uintptr, count uint64) error {
	n := len(attrs)
	if n == 0 || len(data) != n {
		return crossedDrv(C.NPU_X_halMemManagedRangeGetAttributes, int32(C.npu_x_halMemManagedRangeGetAttributes(nil, nil, nil, 0, C.uintptr_t(p), C.size_t(count))))
	}
	ptrs := unsafe.Slice((*unsafe.Pointer)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(unsafe.Pointer(nil))))), n)
	sizes := unsafe.Slice((*C.size_t)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.size_t(0))))), n)
	as := unsafe.Slice((*C.uint32_t)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.uint32_t(0))))), n)
	defer func() {
		for _, q := range ptrs {
			C.free(q)
		}
		C.free(unsafe.Pointer(&ptrs[0]))
		C.free(unsafe.Pointer(&sizes[0]))
		C.free(unsafe.Pointer(&as[0]))
	}()
	for i := range n {
		as[i] = C.uint32_t(attrs[i])
		sizes[i] = C.size_t(len(data[i]))
		if data[i] != nil {
			ptrs[i] = C.calloc(C.size_t(len(data[i])+1), 1)
		}
	}
	r := int32(C.npu_x_halMemManagedRangeGetAttributes(&ptrs[0], &sizes[0], &as[0], C.size_t(n), C.uintptr_t(p), C.size_t(count)))
	for i := range n {
		if ptrs[i] != nil && r == 0 { // a refusal leaves the program's buffers alone
			copy(data[i], unsafe.Slice((*byte)(ptrs[i]), len(data[i])))
		}
	}
	return crossedDrv(C.NPU_X_halMemManagedRangeGetAttributes, r)
}

// cBool is 1 for true.
func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
