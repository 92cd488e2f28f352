package rt

import (
	"math"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Malloc implements rtMalloc: device memory of the current device from the
// driver (halMemAlloc), pages by the RT_MEMORY_POLICY_* bits of typ,
// charged to moduleId. aclrtMalloc calls it with its padded size.
func Malloc(t *core.Thread, out *uintptr, size uint64, typ uint32, module uint16) error {
	return core.RuntimeMalloc(t, out, size, typ, module)
}

// Free implements rtFree (halMemFree underneath).
func Free(t *core.Thread, p uintptr) error { return core.RuntimeFree(t, p) }

// MemGetInfoEx implements rtMemGetInfoEx (halMemGetInfo underneath).
func MemGetInfoEx(t *core.Thread, typ uint32, free, total *uint64) error {
	return core.RuntimeMemGetInfoEx(t, typ, free, total)
}

// memcpyKind maps an rtMemcpyKind_t to the aclrtMemcpyKind with the same
// meaning (acl-to-rt.tsv: the ACL surface translates the other way).
func memcpyKind(fn string, kind int32) (int32, error) {
	switch kind {
	case abi.RT_MEMCPY_HOST_TO_HOST, abi.RT_MEMCPY_HOST_TO_DEVICE, abi.RT_MEMCPY_DEVICE_TO_HOST, abi.RT_MEMCPY_DEVICE_TO_DEVICE:
		return kind, nil // the same numbering
	case abi.RT_MEMCPY_HOST_TO_DEVICE_EX:
		return abi.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, nil
	case abi.RT_MEMCPY_DEFAULT:
		return abi.ACL_MEMCPY_DEFAULT, nil
	}
	return 0, invalid(fn, "kind %d is not a copy direction npuemu models (0..3, 6, 8)", kind)
}

// Memcpy implements rtMemcpy: a synchronous copy.
func Memcpy(t *core.Thread, dst uintptr, destMax uint64, src uintptr, count uint64, kind int32) error {
	const fn = "rtMemcpy"
	k, err := memcpyKind(fn, kind)
	if err != nil {
		return err
	}
	return wrap(fn, core.Memcpy(t, dst, destMax, src, count, k))
}

// MemcpyAsync implements rtMemcpyAsync.
func MemcpyAsync(t *core.Thread, dst uintptr, destMax uint64, src uintptr, count uint64, kind int32, stream core.Handle) error {
	const fn = "rtMemcpyAsync"
	k, err := memcpyKind(fn, kind)
	if err != nil {
		return err
	}
	return wrap(fn, core.MemcpyAsync(t, dst, destMax, src, count, k, stream))
}

// MallocHost implements rtMallocHost: pinned host memory (moduleId is
// accepted; host memory is not charged to device modules).
func MallocHost(t *core.Thread, out *uintptr, size uint64, module uint16) error {
	const fn = "rtMallocHost"
	if out == nil || size == 0 {
		return invalid(fn, "hostPtr must not be NULL and size must not be 0")
	}
	return wrap(fn, core.MallocHost(t, out, size, fn))
}

// FreeHost implements rtFreeHost.
func FreeHost(t *core.Thread, p uintptr) error {
	if p == 0 {
		return invalid("rtFreeHost", "hostPtr must not be NULL")
	}
	return wrap("rtFreeHost", core.FreeHost(t, p, false))
}

// Memset implements rtMemset: cnt bytes of val (its low byte) at devPtr.
func Memset(t *core.Thread, p uintptr, destMax uint64, val uint32, cnt uint64) error {
	return wrap("rtMemset", core.Memset(t, p, destMax, int32(val&0xFF), cnt))
}

// MemsetAsync implements rtMemsetAsync.
func MemsetAsync(t *core.Thread, p uintptr, destMax uint64, val uint32, cnt uint64, s core.Handle) error {
	return wrap("rtMemsetAsync", core.MemsetAsync(t, p, destMax, int32(val&0xFF), cnt, s))
}

// MallocCached implements rtMallocCached: as rtMalloc (npuemu's device
// memory has no cache attribute to set; aclrtMallocCached is aclrtMalloc).
func MallocCached(t *core.Thread, out *uintptr, size uint64, typ uint32, module uint16) error {
	return core.RuntimeMalloc(t, out, size, typ, module)
}

// FreeWithDevSync implements rtFreeWithDevSync: the device holding devPtr
// finishes all its queued work, then devPtr is freed as by rtFree.
func FreeWithDevSync(t *core.Thread, p uintptr) error {
	const fn = "rtFreeWithDevSync"
	if p == 0 {
		return invalid(fn, "devPtr must not be NULL")
	}
	d := core.DeviceOf(p)
	if d == nil {
		return invalid(fn, "%#x is not device memory allocated by rtMalloc/aclrtMalloc", p)
	}
	if err := d.Emu.TS.Synchronize(-1); err != nil {
		return wrap(fn, err)
	}
	if core.Sanitizing {
		core.SanitizeSyncDevice(t, d)
	}
	return wrap(fn, core.RuntimeFree(t, p))
}

// FreeHostWithDevSync implements rtFreeHostWithDevSync: every device
// finishes its queued work, then hostPtr is freed as by rtFreeHost.
func FreeHostWithDevSync(t *core.Thread, p uintptr) error {
	const fn = "rtFreeHostWithDevSync"
	if p == 0 {
		return invalid(fn, "hostPtr must not be NULL")
	}
	return wrap(fn, core.FreeHost(t, p, true))
}

// GetMemUsageInfo implements rtGetMemUsageInfo: the device's memory per
// module (the records aclrtGetMemUsageInfo and hal.GetMemUsageInfo give),
// at most len(out); *n is the number written.
func GetMemUsageInfo(t *core.Thread, dev uint32, out []core.MemUsageInfo, n *uint64) error {
	const fn = "rtGetMemUsageInfo"
	if len(out) == 0 || n == nil {
		return invalid(fn, "memUsageInfo and outputNum must not be NULL and inputNum not 0")
	}
	if dev > math.MaxInt32 {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range", fn, dev)
	}
	return wrap(fn, acl.GetMemUsageInfo(t, int32(dev), out, n))
}

// HostRegisterV2 implements rtHostRegisterV2: flag is an OR of
// RT_MEM_HOST_REGISTER_MAPPED and RT_MEM_HOST_REGISTER_PINNED (numbered as
// the ACL_HOST_REG_* flags), as aclrtHostRegisterV2.
func HostRegisterV2(t *core.Thread, p uintptr, size uint64, flag uint32) error {
	return wrap("rtHostRegisterV2", acl.HostRegisterV2(t, p, size, flag))
}

// HostUnregister implements rtsHostUnregister: ptr is the start of a
// registration of rtsHostRegister or rtHostRegisterV2.
func HostUnregister(t *core.Thread, p uintptr) error {
	return wrap("rtsHostUnregister", acl.HostUnregister(t, p))
}

// HostGetDevicePointer implements rtHostGetDevicePointer (flag 0): the
// device address of registered (MAPPED) host memory.
func HostGetDevicePointer(t *core.Thread, p uintptr, out *uintptr, flag uint32) error {
	return wrap("rtHostGetDevicePointer", acl.HostGetDevicePointer(t, p, out, flag))
}

// HostRegister implements rtsHostRegister: page-aligned host memory mapped
// for the device; type RT_HOST_REGISTER_MAPPED (numbered as
// ACL_HOST_REGISTER_MAPPED), *devPtr the address kernels use, as
// aclrtHostRegister.
func HostRegister(t *core.Thread, p uintptr, size uint64, typ uint32, devPtr *uintptr) error {
	return wrap("rtsHostRegister", acl.HostRegister(t, p, size, typ, devPtr))
}
