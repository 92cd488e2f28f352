package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Float overflow (saturation) status, round 8. The runtime's status word
// is the ACL one (acl/overflow.go): one 8-byte word of the device's HBM per
// context, copied in stream order by rtGetDeviceSatStatus and cleared by
// rtCleanDeviceSatStatus. The stream switch flags reach the runtime
// unchanged from aclrtSetStreamOverflowSwitch (0 off, 1 on).

// SetStreamOverflowSwitch implements rtSetStreamOverflowSwitch.
func SetStreamOverflowSwitch(t *core.Thread, s core.Handle, flags uint32) error {
	const fn = "rtSetStreamOverflowSwitch"
	if flags > 1 {
		return invalid(fn, "flags %d: want 0 (off) or 1 (on)", flags)
	}
	return wrap(fn, acl.SetStreamOverflowSwitch(t, s, flags))
}

// GetStreamOverflowSwitch implements rtGetStreamOverflowSwitch.
func GetStreamOverflowSwitch(t *core.Thread, s core.Handle, flags *uint32) error {
	const fn = "rtGetStreamOverflowSwitch"
	if flags == nil {
		return invalid(fn, "flags must not be NULL")
	}
	return wrap(fn, acl.GetStreamOverflowSwitch(t, s, flags))
}

// GetDeviceSatStatus implements rtGetDeviceSatStatus: copies the context's
// status word (then zeros up to outputSize, at most 64 bytes) into device
// memory at out in stream order; 0 means no overflow.
func GetDeviceSatStatus(t *core.Thread, out uintptr, size uint64, s core.Handle) error {
	return satStatus(t, "rtGetDeviceSatStatus", out, size, s)
}

// satStatus is rtGetDeviceSatStatus's work, for fn.
func satStatus(t *core.Thread, fn string, out uintptr, size uint64, s core.Handle) error {
	if out == 0 {
		return invalid(fn, "outputAddrPtr must not be NULL")
	}
	return wrap(fn, acl.GetOverflowStatus(t, out, size, s))
}

// CleanDeviceSatStatus implements rtCleanDeviceSatStatus: clears the
// context's status word in stream order.
func CleanDeviceSatStatus(t *core.Thread, s core.Handle) error {
	return wrap("rtCleanDeviceSatStatus", acl.ResetOverflowStatus(t, s))
}

// CtxGetFloatOverflowAddr implements rtsCtxGetFloatOverflowAddr: the device
// address of the current context's status word.
func CtxGetFloatOverflowAddr(t *core.Thread, addr *uintptr) error {
	const fn = "rtsCtxGetFloatOverflowAddr"
	if addr == nil {
		return invalid(fn, "overflowAddr must not be NULL")
	}
	return wrap(fn, acl.CtxGetFloatOverflowAddr(t, addr))
}

// Saturation mode and the float-overflow status calls, round 9. The
// rtFloatOverflowMode_t values are converted to aclrtFloatOverflowMode by
// name. rtsGetFloatOverflowStatus and rtsResetFloatOverflowStatus have no
// documentation of their own (nor have their aclrt* callers); with the
// prototypes of rtGetDeviceSatStatus and rtCleanDeviceSatStatus they act on
// the same status word, which is what a CANN user would expect.

// satModeToACL converts an rtFloatOverflowMode_t.
func satModeToACL(fn string, mode int32) (int32, error) {
	switch mode {
	case abi.RT_OVERFLOW_MODE_SATURATION:
		return abi.ACL_RT_OVERFLOW_MODE_SATURATION, nil
	case abi.RT_OVERFLOW_MODE_INFNAN:
		return abi.ACL_RT_OVERFLOW_MODE_INFNAN, nil
	}
	return 0, invalid(fn, "floatOverflowMode %d: want RT_OVERFLOW_MODE_SATURATION (0) or RT_OVERFLOW_MODE_INFNAN (1)", mode)
}

// SetDeviceSatMode implements rtSetDeviceSatMode: as aclrtSetDeviceSatMode
// (process-wide; INF/NAN only on A2/A3/950, saturation refused on 950).
func SetDeviceSatMode(t *core.Thread, mode int32) error {
	const fn = "rtSetDeviceSatMode"
	m, err := satModeToACL(fn, mode)
	if err != nil {
		return err
	}
	return wrap(fn, acl.SetDeviceSatMode(t, m))
}

// GetDeviceSatMode implements rtGetDeviceSatMode: the mode in force (INF/NAN
// by default on A2/A3/950, saturation elsewhere).
func GetDeviceSatMode(t *core.Thread, mode *int32) error {
	const fn = "rtGetDeviceSatMode"
	if mode == nil {
		return invalid(fn, "floatOverflowMode must not be NULL")
	}
	var m int32
	if err := acl.GetDeviceSatMode(t, &m); err != nil {
		return wrap(fn, err)
	}
	switch m {
	case abi.ACL_RT_OVERFLOW_MODE_SATURATION:
		*mode = abi.RT_OVERFLOW_MODE_SATURATION
	case abi.ACL_RT_OVERFLOW_MODE_INFNAN:
		*mode = abi.RT_OVERFLOW_MODE_INFNAN
	default:
		*mode = abi.RT_OVERFLOW_MODE_UNDEF
	}
	return nil
}

// GetFloatOverflowStatus implements rtsGetFloatOverflowStatus: as
// rtGetDeviceSatStatus.
func GetFloatOverflowStatus(t *core.Thread, out uintptr, size uint64, s core.Handle) error {
	return satStatus(t, "rtsGetFloatOverflowStatus", out, size, s)
}

// ResetFloatOverflowStatus implements rtsResetFloatOverflowStatus: as
// rtCleanDeviceSatStatus.
func ResetFloatOverflowStatus(t *core.Thread, s core.Handle) error {
	return wrap("rtsResetFloatOverflowStatus", acl.ResetOverflowStatus(t, s))
}
