package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The res-limit family: caps on the cube and vector cores a kernel uses
// at once, per device, per stream and per thread (semantics.md §19; the
// precedence is acl/kernel_reslimit.go's). rtDevResLimitType_t numbers
// RT_DEV_RES_CUBE_CORE and RT_DEV_RES_VECTOR_CORE as aclrtDevResLimitType.

func checkResType(fn string, typ int32) error {
	if typ < abi.RT_DEV_RES_CUBE_CORE || typ >= abi.RT_DEV_RES_TYPE_MAX {
		return invalid(fn, "type %d: RT_DEV_RES_CUBE_CORE (0) or RT_DEV_RES_VECTOR_CORE (1)", typ)
	}
	return nil
}

// SetDeviceResLimit implements rtsSetDeviceResLimit: 1..the device's
// cores of the type, for launches made later.
func SetDeviceResLimit(t *core.Thread, dev, typ int32, value uint32) error {
	const fn = "rtsSetDeviceResLimit"
	if err := checkResType(fn, typ); err != nil {
		return err
	}
	return wrap(fn, acl.SetDeviceResLimit(t, dev, typ, value))
}

// GetDeviceResLimit implements rtsGetDeviceResLimit: the device's limit,
// the hardware count while unset.
func GetDeviceResLimit(t *core.Thread, dev, typ int32, value *uint32) error {
	const fn = "rtsGetDeviceResLimit"
	if value == nil {
		return invalid(fn, "value must not be NULL")
	}
	if err := checkResType(fn, typ); err != nil {
		return err
	}
	return wrap(fn, acl.GetDeviceResLimit(t, dev, typ, value))
}

// ResetDeviceResLimit implements rtsResetDeviceResLimit: the device's
// limits back to the hardware counts.
func ResetDeviceResLimit(t *core.Thread, dev int32) error {
	return wrap("rtsResetDeviceResLimit", acl.ResetDeviceResLimit(t, dev))
}

// SetStreamResLimit implements rtsSetStreamResLimit: 1..the device's
// cores; it applies to launches by threads that use the stream's
// resources (rtsUseStreamResInCurrentThread).
func SetStreamResLimit(t *core.Thread, s core.Handle, typ int32, value uint32) error {
	const fn = "rtsSetStreamResLimit"
	if err := checkResType(fn, typ); err != nil {
		return err
	}
	return wrap(fn, acl.SetStreamResLimit(t, s, typ, value))
}

// GetStreamResLimit implements rtsGetStreamResLimit: the stream's limit,
// else the device's, else the hardware count.
func GetStreamResLimit(t *core.Thread, s core.Handle, typ int32, value *uint32) error {
	const fn = "rtsGetStreamResLimit"
	if value == nil {
		return invalid(fn, "value must not be NULL")
	}
	if err := checkResType(fn, typ); err != nil {
		return err
	}
	return wrap(fn, acl.GetStreamResLimit(t, s, typ, value))
}

// ResetStreamResLimit implements rtsResetStreamResLimit.
func ResetStreamResLimit(t *core.Thread, s core.Handle) error {
	return wrap("rtsResetStreamResLimit", acl.ResetStreamResLimit(t, s))
}

// UseStreamResInCurrentThread implements rtsUseStreamResInCurrentThread:
// the thread's later launches follow the stream's limits.
func UseStreamResInCurrentThread(t *core.Thread, s core.Handle) error {
	return wrap("rtsUseStreamResInCurrentThread", acl.UseStreamResInCurrentThread(t, s))
}

// NotUseStreamResInCurrentThread implements
// rtsNotUseStreamResInCurrentThread: back to the device's limits; a stream
// the thread does not use is ACL_ERROR_RT_PARAM_INVALID.
func NotUseStreamResInCurrentThread(t *core.Thread, s core.Handle) error {
	return wrap("rtsNotUseStreamResInCurrentThread", acl.UnuseStreamResInCurrentThread(t, s))
}

// GetResInCurrentThread implements rtsGetResInCurrentThread: the limit in
// force for the thread's launches on its current device.
func GetResInCurrentThread(t *core.Thread, typ int32, value *uint32) error {
	const fn = "rtsGetResInCurrentThread"
	if value == nil {
		return invalid(fn, "value must not be NULL")
	}
	if err := checkResType(fn, typ); err != nil {
		return err
	}
	return wrap(fn, acl.GetResInCurrentThread(t, typ, value))
}
