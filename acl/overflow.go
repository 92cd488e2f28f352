package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Float overflow detection. Each context owns one status word in its
// device's HBM (aclrtCtxGetFloatOverflowAddr). aclrtGetOverflowStatus copies
// it, in stream order, into the caller's device buffer and
// aclrtResetOverflowStatus clears it. Emulated kernels do not report float
// overflow, so the word stays 0 unless the application writes it itself.

// ovfStatusSize is the size of the status block the runtime writes (the
// documented outputSize).
const ovfStatusSize = 64

// CtxGetFloatOverflowAddr implements aclrtCtxGetFloatOverflowAddr.
func CtxGetFloatOverflowAddr(t *core.Thread, addr *uintptr) error {
	const fn = "aclrtCtxGetFloatOverflowAddr"
	if addr == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: overflowAddr must not be NULL", fn)
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	a, err := core.OverflowWord(fn, c)
	if err != nil {
		return err
	}
	*addr = a
	return nil
}

// SetStreamOverflowSwitch implements aclrtSetStreamOverflowSwitch (the same
// setting as the FLOAT_OVERFLOW_CHECK stream attribute).
func SetStreamOverflowSwitch(t *core.Thread, h core.Handle, flag uint32) error {
	const fn = "aclrtSetStreamOverflowSwitch"
	if flag > 1 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %d: want 0 (off) or 1 (on)", fn, flag)
	}
	s, err := core.ResolveStream(t, fn, h)
	if err != nil {
		return err
	}
	s.Mu.Lock()
	s.Overflow = flag
	s.Mu.Unlock()
	return nil
}

// GetStreamOverflowSwitch implements aclrtGetStreamOverflowSwitch.
func GetStreamOverflowSwitch(t *core.Thread, h core.Handle, flag *uint32) error {
	const fn = "aclrtGetStreamOverflowSwitch"
	if flag == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, h)
	if err != nil {
		return err
	}
	s.Mu.Lock()
	*flag = s.Overflow
	s.Mu.Unlock()
	return nil
}

// GetOverflowStatus implements aclrtGetOverflowStatus: asynchronously
// writes the status block (the status word, then zeros) into device memory
// at out; 0 means no overflow.
func GetOverflowStatus(t *core.Thread, out uintptr, size uint64, h core.Handle) error {
	const fn = "aclrtGetOverflowStatus"
	if out == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: outputAddr must not be NULL", fn)
	}
	if size < core.OvfWordSize {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: outputSize %d is smaller than the %d-byte status word (the documented size is %d)", fn, size, core.OvfWordSize, ovfStatusSize)
	}
	s, err := core.ResolveStream(t, fn, h)
	if err != nil {
		return err
	}
	pi, err := core.Classify(fn, "outputAddr", out)
	if err != nil {
		return err
	}
	if pi.Class != core.Devmem {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: outputAddr %#x is not device memory", fn, out)
	}
	n := min(size, ovfStatusSize)
	if err := core.CheckRoom(fn, "outputAddr", out, pi, n); err != nil {
		return err
	}
	if err := core.SameDevice(fn, s, pi); err != nil {
		return err
	}
	w, err := core.OverflowWord(fn, s.Ctx)
	if err != nil {
		return err
	}
	if n > core.OvfWordSize {
		if err := s.SubmitTask(t, fn, tsfw.MemsetTask(out+core.OvfWordSize, 0, n-core.OvfWordSize)); err != nil {
			return err
		}
	}
	return s.SubmitTask(t, fn, tsfw.CopyTask(out, w, core.OvfWordSize, tsfw.DeviceToDevice))
}

// ResetOverflowStatus implements aclrtResetOverflowStatus: clears the
// status word in stream order.
func ResetOverflowStatus(t *core.Thread, h core.Handle) error {
	const fn = "aclrtResetOverflowStatus"
	s, err := core.ResolveStream(t, fn, h)
	if err != nil {
		return err
	}
	w, err := core.OverflowWord(fn, s.Ctx)
	if err != nil {
		return err
	}
	return s.SubmitTask(t, fn, tsfw.MemsetTask(w, 0, core.OvfWordSize))
}
