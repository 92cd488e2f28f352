package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// Host memory registration (semantics.md §9) through the driver's
// halHostRegister family, across the library boundary (rt/core/hostreg.go,
// rt/stack): registered host memory is read and written by kernels without
// a copy. The device pointer
// is the host pointer itself (the emulated devices share this process's
// page tables); copies treat registered memory as pinned host memory.

// HostRegister implements aclrtHostRegister: ptr page aligned, type
// ACL_HOST_REGISTER_MAPPED; *devPtr is the address kernels use.
func HostRegister(t *core.Thread, p uintptr, size uint64, typ uint32, devPtr *uintptr) error {
	const fn = "aclrtHostRegister"
	switch {
	case p == 0 || devPtr == nil:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr and devPtr must not be NULL", fn)
	case size == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	}
	switch typ {
	case abi.ACL_HOST_REGISTER_MAPPED:
	case abi.ACL_HOST_REGISTER_IOMEMORY, abi.ACL_HOST_REGISTER_READONLY:
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: type %d: I/O memory and device-read-only registration are not modelled (only ACL_HOST_REGISTER_MAPPED)", fn, typ)
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: type %d is not an aclrtHostRegisterType", fn, typ)
	}
	dp, err := core.HostRegister(t, fn, p, size, true)
	if err != nil {
		return err
	}
	*devPtr = dp
	return nil
}

// hostRegV2Flags are the aclrtHostRegisterV2 flags npuemu implements.
const hostRegV2Flags = abi.ACL_HOST_REG_MAPPED | abi.ACL_HOST_REG_PINNED

// HostRegisterV2 implements aclrtHostRegisterV2: MAPPED gives a device
// address (aclrtHostGetDevicePointer), PINNED pins pageable memory (memory
// of aclrtMallocHost is pinned already: an error).
func HostRegisterV2(t *core.Thread, p uintptr, size uint64, flag uint32) error {
	const fn = "aclrtHostRegisterV2"
	switch {
	case p == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	case size == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	case flag == 0 || flag&^hostRegV2Flags != 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %#x: an OR of ACL_HOST_REG_MAPPED and ACL_HOST_REG_PINNED (IOMEMORY and READONLY are reserved)", fn, flag)
	}
	if flag&abi.ACL_HOST_REG_PINNED != 0 {
		if n := core.Runtime.Node.Load(); n != nil {
			if _, _, ok := n.Host().Find(p); ok {
				return abi.Errorf(abi.ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "%s: %#x is pinned memory of aclrtMallocHost already", fn, p)
			}
		}
	}
	_, err := core.HostRegister(t, fn, p, size, flag&abi.ACL_HOST_REG_MAPPED != 0)
	return err
}

// HostGetDevicePointer implements aclrtHostGetDevicePointer (flag 0).
func HostGetDevicePointer(t *core.Thread, p uintptr, out *uintptr, flag uint32) error {
	const fn = "aclrtHostGetDevicePointer"
	switch {
	case p == 0 || out == nil:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pHost and pDevice must not be NULL", fn)
	case flag != 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %#x: must be 0", fn, flag)
	}
	v, err := theVMM(fn)
	if err != nil {
		return err
	}
	// halMemHostGetDevPointer across the library boundary
	// (rtHostGetDevicePointer), for the device the memory was registered
	// for (the runtime's own record; device 0 for memory it never
	// registered, which the driver refuses as not registered).
	var dev uint32
	if r, ok := v.Registered(p); ok {
		dev = uint32(r.Dev)
	}
	var dp uintptr
	if err := stack.HostGetDevPointer(p, dev, &dp); err != nil {
		return core.HostRegErr(fn, err)
	}
	*out = dp
	return nil
}

// HostUnregister implements aclrtHostUnregister (pairs with both register
// calls): ptr is the start of a registration.
func HostUnregister(t *core.Thread, p uintptr) error {
	const fn = "aclrtHostUnregister"
	if p == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	}
	// halHostUnregisterEx across the library boundary (rtsHostUnregister).
	return core.HostUnregister(t, fn, p)
}

// HostMemMapCapabilities implements aclrtHostMemMapCapabilities.
func HostMemMapCapabilities(t *core.Thread, dev uint32, hac uint32, out *uint32) error {
	const fn = "aclrtHostMemMapCapabilities"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: capabilities must not be NULL", fn)
	}
	if hac > abi.ACL_RT_HAC_TYPE_CCU {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: hacType %d is not an aclrtHacType", fn, hac)
	}
	if err := core.CheckDeviceID(fn, int32(dev)); err != nil {
		return err
	}
	// The driver answers (rtHostMemMapCapabilities →
	// halHostRegisterCapabilities, across the library boundary):
	// drvAccModuleType is numbered as aclrtHacType, and
	// HOST_MEM_MAP_(NOT_)SUPPORTED as ACL_RT_HOST_MEM_MAP_(NOT_)SUPPORTED.
	var c uint32
	if err := stack.HostRegisterCapabilities(dev, hac, &c); err != nil {
		return core.DriverErr(fn, err)
	}
	*out = c
	return nil
}
