package rt

import (
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
	const fn = "rtGetDeviceSatStatus"
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
