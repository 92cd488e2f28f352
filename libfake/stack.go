package main

/*
#include "stack.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/stack"
)

// The stack wiring (rt/stack, stack.c): at the first call into npuemu the
// boundary symbols are resolved once; for each one another library
// interposed, the matching field of stack.RT / stack.HAL is set to a
// trampoline that calls it. Nothing is set when nothing is interposed:
// every call stays a direct Go call. (The ACL functions that are one rt*
// call are routed in their C shims: shimgen's routes.)

var stackOnce sync.Once

func wireStack() {
	if C.npu_stack_resolve() != 0 {
		stack.Current = stack.Split
	}
	set := func(i C.int) bool { return C.npu_cross[i] != nil }
	if set(C.NPU_X_rtMalloc) {
		stack.RT.Malloc = func(out *uintptr, size uint64, typ uint32, module uint16) error {
			return crossed(C.NPU_X_rtMalloc, int32(C.npu_x_rtMalloc((*unsafe.Pointer)(unsafe.Pointer(out)), C.uint64_t(size), C.uint32_t(typ), C.uint16_t(module))))
		}
	}
	if set(C.NPU_X_rtFree) {
		stack.RT.Free = func(p uintptr) error {
			return crossed(C.NPU_X_rtFree, int32(C.npu_x_rtFree(C.uintptr_t(p))))
		}
	}
	if set(C.NPU_X_rtMemGetInfoEx) {
		stack.RT.MemGetInfoEx = func(typ uint32, free, total *uint64) error {
			var f, t C.size_t
			r := int32(C.npu_x_rtMemGetInfoEx(C.uint32_t(typ), &f, &t))
			*free, *total = uint64(f), uint64(t)
			return crossed(C.NPU_X_rtMemGetInfoEx, r)
		}
	}
	wirePeerCalls(set)
	if set(C.NPU_X_halMemAlloc) {
		stack.HAL.MemAlloc = func(pp *uintptr, size, flag uint64) error {
			return crossedDrv(C.NPU_X_halMemAlloc, int32(C.npu_x_halMemAlloc((*unsafe.Pointer)(unsafe.Pointer(pp)), C.uint64_t(size), C.uint64_t(flag))))
		}
	}
	if set(C.NPU_X_halMemFree) {
		stack.HAL.MemFree = func(p uintptr) error {
			return crossedDrv(C.NPU_X_halMemFree, int32(C.npu_x_halMemFree(C.uintptr_t(p))))
		}
	}
	if set(C.NPU_X_halMemGetInfo) {
		stack.HAL.MemGetInfo = func(dev, typ uint32, info *hal.MemPhyInfo) error {
			var phy [6]C.uint64_t
			r := int32(C.npu_x_halMemGetInfo(C.uint32_t(dev), C.uint32_t(typ), &phy[0]))
			*info = hal.MemPhyInfo{Total: uint64(phy[0]), Free: uint64(phy[1]), Huge_total: uint64(phy[2]),
				Huge_free: uint64(phy[3]), Giant_total: uint64(phy[4]), Giant_free: uint64(phy[5])}
			return crossedDrv(C.NPU_X_halMemGetInfo, r)
		}
	}
	if set(C.NPU_X_halGetMemUsageInfo) {
		stack.HAL.GetMemUsageInfo = func(dev uint32, out []hal.MemModuleUsage, n *uint64) error {
			var got C.size_t
			var p unsafe.Pointer
			if len(out) > 0 {
				p = unsafe.Pointer(&out[0])
			}
			r := int32(C.npu_x_halGetMemUsageInfo(C.uint32_t(dev), p, C.size_t(len(out)), &got))
			*n = uint64(got)
			return crossedDrv(C.NPU_X_halGetMemUsageInfo, r)
		}
	}
	if set(C.NPU_X_halGetDeviceInfo) {
		stack.HAL.GetDeviceInfo = func(dev uint32, module, info int32, val *int64) error {
			v := C.int64_t(*val) // a driver that refuses leaves the caller's value as it was
			r := int32(C.npu_x_halGetDeviceInfo(C.uint32_t(dev), C.int32_t(module), C.int32_t(info), &v))
			*val = int64(v)
			return crossedDrv(C.NPU_X_halGetDeviceInfo, r)
		}
	}
	if set(C.NPU_X_halMemCreate) {
		stack.HAL.MemCreate = func(ph *uint64, size uint64, prop *hal.MemProp, flag uint64) error {
			var h C.uint64_t
			r := int32(C.npu_x_halMemCreate(&h, C.size_t(size), unsafe.Pointer(prop), C.uint64_t(flag)))
			*ph = uint64(h)
			return crossedDrv(C.NPU_X_halMemCreate, r)
		}
	}
	if set(C.NPU_X_halMemRelease) {
		stack.HAL.MemRelease = func(h uint64) error {
			return crossedDrv(C.NPU_X_halMemRelease, int32(C.npu_x_halMemRelease(C.uint64_t(h))))
		}
	}
	if set(C.NPU_X_halMemAddressReserve) {
		stack.HAL.AddressReserve = func(pp *uintptr, size, alignment uint64, addr uintptr, flag uint64) error {
			var p C.uintptr_t
			r := int32(C.npu_x_halMemAddressReserve(&p, C.size_t(size), C.size_t(alignment), C.uintptr_t(addr), C.uint64_t(flag)))
			*pp = uintptr(p)
			return crossedDrv(C.NPU_X_halMemAddressReserve, r)
		}
	}
	if set(C.NPU_X_halMemAddressFree) {
		stack.HAL.AddressFree = func(p uintptr) error {
			return crossedDrv(C.NPU_X_halMemAddressFree, int32(C.npu_x_halMemAddressFree(C.uintptr_t(p))))
		}
	}
	if set(C.NPU_X_halMemMap) {
		stack.HAL.MemMap = func(p uintptr, size, offset, h, flag uint64) error {
			return crossedDrv(C.NPU_X_halMemMap, int32(C.npu_x_halMemMap(C.uintptr_t(p), C.size_t(size), C.size_t(offset), C.uint64_t(h), C.uint64_t(flag))))
		}
	}
	if set(C.NPU_X_halMemUnmap) {
		stack.HAL.MemUnmap = func(p uintptr) error {
			return crossedDrv(C.NPU_X_halMemUnmap, int32(C.npu_x_halMemUnmap(C.uintptr_t(p))))
		}
	}
	if set(C.NPU_X_halDeviceEnableP2P) {
		stack.HAL.DeviceEnableP2P = func(dev, peer, flag uint32) error {
			return crossedDrv(C.NPU_X_halDeviceEnableP2P, int32(C.npu_x_halDeviceEnableP2P(C.uint32_t(dev), C.uint32_t(peer), C.uint32_t(flag))))
		}
	}
	if set(C.NPU_X_halDeviceDisableP2P) {
		stack.HAL.DeviceDisableP2P = func(dev, peer, flag uint32) error {
			return crossedDrv(C.NPU_X_halDeviceDisableP2P, int32(C.npu_x_halDeviceDisableP2P(C.uint32_t(dev), C.uint32_t(peer), C.uint32_t(flag))))
		}
	}
	if set(C.NPU_X_halDeviceCanAccessPeer) {
		stack.HAL.DeviceCanAccessPeer = func(can *int32, dev, peer uint32) error {
			var c C.int32_t
			r := int32(C.npu_x_halDeviceCanAccessPeer(&c, C.uint32_t(dev), C.uint32_t(peer)))
			*can = int32(c)
			return crossedDrv(C.NPU_X_halDeviceCanAccessPeer, r)
		}
	}
	wireHALMbuf() // libfake/hal_mbuf.go
	wireStackCopy()
	wireStackVMM()
	wireStackInfo()
	wireStackHost(set)
}

// crossed is the error of an interposed rt* call's result.
func crossed(i C.int, code int32) error {
	if code == 0 {
		return nil
	}
	return abi.Errorf(abi.Code(code), "%s (interposed) returned %d", C.GoString(C.npu_stack_name(i)), code)
}

// crossedDrv is the error of an interposed hal* call's drvError_t.
func crossedDrv(i C.int, code int32) error {
	if code == 0 {
		return nil
	}
	return abi.DrvErrorf(abi.DrvCode(code), "%s (interposed) returned %d", C.GoString(C.npu_stack_name(i)), code)
}

// wirePeerCalls sets the peer-access rt* calls of stack.RT that another
// library interposed (split layout).
func wirePeerCalls(set func(C.int) bool) {
	if set(C.NPU_X_rtGetDevice) {
		stack.RT.GetDevice = func(dev *int32) error {
			var d C.int32_t
			r := int32(C.npu_x_rtGetDevice(&d))
			*dev = int32(d)
			return crossed(C.NPU_X_rtGetDevice, r)
		}
	}
	if set(C.NPU_X_rtGetDevicePhyIdByIndex) {
		stack.RT.GetDevicePhyIDByIndex = func(index uint32, phy *uint32) error {
			var p C.uint32_t
			r := int32(C.npu_x_rtGetDevicePhyIdByIndex(C.uint32_t(index), &p))
			*phy = uint32(p)
			return crossed(C.NPU_X_rtGetDevicePhyIdByIndex, r)
		}
	}
	if set(C.NPU_X_rtDeviceCanAccessPeer) {
		stack.RT.DeviceCanAccessPeer = func(can *int32, dev, peer uint32) error {
			var c C.int32_t
			r := int32(C.npu_x_rtDeviceCanAccessPeer(&c, C.uint32_t(dev), C.uint32_t(peer)))
			*can = int32(c)
			return crossed(C.NPU_X_rtDeviceCanAccessPeer, r)
		}
	}
	if set(C.NPU_X_rtEnableP2P) {
		stack.RT.EnableP2P = func(dev, peer, flag uint32) error {
			return crossed(C.NPU_X_rtEnableP2P, int32(C.npu_x_rtEnableP2P(C.uint32_t(dev), C.uint32_t(peer), C.uint32_t(flag))))
		}
	}
	if set(C.NPU_X_rtDisableP2P) {
		stack.RT.DisableP2P = func(dev, peer uint32) error {
			return crossed(C.NPU_X_rtDisableP2P, int32(C.npu_x_rtDisableP2P(C.uint32_t(dev), C.uint32_t(peer))))
		}
	}
	if set(C.NPU_X_rtMallocPhysical) {
		stack.RT.MallocPhysical = func(out *uint64, size uint64, prop *hal.MemProp, flags uint64) error {
			var h C.uint64_t
			r := int32(C.npu_x_rtMallocPhysical(&h, C.size_t(size), unsafe.Pointer(prop), C.uint64_t(flags)))
			if r == 0 {
				*out = uint64(h)
			}
			return crossed(C.NPU_X_rtMallocPhysical, r)
		}
	}
	if set(C.NPU_X_rtsGetP2PStatus) {
		stack.RT.GetP2PStatus = func(dev, peer uint32, status *uint32) error {
			var st C.uint32_t
			r := int32(C.npu_x_rtsGetP2PStatus(C.uint32_t(dev), C.uint32_t(peer), &st))
			*status = uint32(st)
			return crossed(C.NPU_X_rtsGetP2PStatus, r)
		}
	}
}
