package rt

import (
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The descriptor form of the cache operations (aclrtCmoGetDescSize,
// aclrtCmoSetDesc, aclrtCmoAsyncWithDesc call these) and the device-wide
// L2 flush. As for rtCmoAsync, emulated device memory has no cache, so the
// operations check their arguments and keep their place in stream order
// but change no data.

// GetCmoDescSize implements rtsGetCmoDescSize: the size of npuemu's CMO
// descriptor (32 bytes), as aclrtCmoGetDescSize.
func GetCmoDescSize(t *core.Thread, size *uint64) error {
	const fn = "rtsGetCmoDescSize"
	if size == nil {
		return invalid(fn, "size must not be NULL")
	}
	return wrap(fn, acl.CmoGetDescSize(t, size))
}

// SetCmoDesc implements rtsSetCmoDesc: the descriptor of [src, src+len)
// written into cmoDesc (device memory of the current device).
func SetCmoDesc(t *core.Thread, desc, src uintptr, n uint64) error {
	const fn = "rtsSetCmoDesc"
	if desc == 0 || src == 0 {
		return invalid(fn, "cmoDesc and srcAddr must not be NULL")
	}
	return wrap(fn, acl.CmoSetDesc(t, desc, src, n))
}

// LaunchCmoAddrTask implements rtsLaunchCmoAddrTask: the operation on the
// range cmoDesc describes, in stream order; the task reads the descriptor
// when it runs. RT_CMO_PREFETCH only (the others are refused with
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT as by aclrtCmoAsyncWithDesc); reserve
// must be NULL.
func LaunchCmoAddrTask(t *core.Thread, desc uintptr, stream core.Handle, op int32, reserve uintptr) error {
	const fn = "rtsLaunchCmoAddrTask"
	if desc == 0 {
		return invalid(fn, "cmoDesc must not be NULL")
	}
	typ, err := cmoType(fn, op)
	if err != nil {
		return err
	}
	return wrap(fn, acl.CmoAsyncWithDesc(t, desc, typ, stream, reserve))
}

// DeviceL2CacheFlush implements rtDeviceL2CacheFlush: write back the L2
// cache of the current device. Neither it nor aclrtDeviceL2CacheFlush is
// documented beyond its prototype; npuemu's device memory is coherent
// with every engine and the host (there is no L2 line to write back), so
// the call checks that a device is current and rsv is NULL, and returns.
func DeviceL2CacheFlush(t *core.Thread, rsv uintptr) error {
	const fn = "rtDeviceL2CacheFlush"
	if rsv != 0 {
		return invalid(fn, "rsv must be NULL")
	}
	_, err := core.Current(t, fn)
	return wrap(fn, err)
}
