package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// checkCopyArgs runs the argument checks every memcpy shares, in the
// runtime's order. It reports done for a zero-length copy.
func checkCopyArgs(fn string, dst uintptr, destMax uint64, src uintptr, count uint64, kind int32, async bool) (bool, error) {
	if count == 0 {
		return true, nil
	}
	if kind < 0 || kind > abi.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE || (!async && kind > abi.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) {
		return false, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: kind %d is not an accepted aclrtMemcpyKind here", fn, kind)
	}
	if dst == 0 || src == 0 {
		return false, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dst and src must not be NULL", fn)
	}
	if destMax == 0 || count > destMax {
		return false, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: count %d exceeds destMax %d", fn, count, destMax)
	}
	return false, nil
}

// Memcpy implements aclrtMemcpy: synchronous, direction inferred from the
// pointers (kind is range-checked only), no implicit synchronisation.
func Memcpy(t *core.Thread, dst uintptr, destMax uint64, src uintptr, count uint64, kind int32) error {
	const fn = "aclrtMemcpy"
	if done, err := checkCopyArgs(fn, dst, destMax, src, count, kind, false); done || err != nil {
		return err
	}
	if err := unsafeGuard(t, fn); err != nil {
		return err
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	di, si, err := core.CopyOperands(fn, dst, src, count)
	if err != nil {
		return err
	}
	p, err := core.PlanCopy(fn, c, di, si)
	if err != nil {
		return err
	}
	u, err := core.ManagedSync(fn, core.SyncEngine(p, di, si), core.ManagedOperand{What: "dst", Addr: dst, N: count, Write: true, Info: di}, core.ManagedOperand{What: "src", Addr: src, N: count, Write: false, Info: si})
	if err != nil {
		return err
	}
	defer u.Release()
	if core.Sanitizing {
		sanitizeHost(t, fn, sanitize.Access{Addr: dst, Size: count, Mode: sanitize.Write}, sanitize.Access{Addr: src, Size: count, Mode: sanitize.Read})
	}
	if err := p.Dev.Emu.TS.CopyNow(dst, src, count, p.Dir); err != nil {
		return abi.Errorf(abi.CodeOf(err), "%s: %s", fn, abi.MessageOf(err))
	}
	return nil
}

// kindMatches checks an async copy's kind against its operands (the async
// form trusts kind as given).
func kindMatches(fn string, kind int32, di, si core.PtrInfo) error {
	// Managed memory is reachable from both sides: it matches any kind.
	want := func(dstDev, srcDev bool) error {
		if (di.Class != core.Managedmem && (di.Class == core.Devmem) != dstDev) || (si.Class != core.Managedmem && (si.Class == core.Devmem) != srcDev) {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: kind %d does not match the operands (dst %s, src %s)",
				fn, kind, di.Class, si.Class)
		}
		return nil
	}
	switch kind {
	case abi.ACL_MEMCPY_HOST_TO_HOST:
		if err := want(false, false); err != nil {
			return err
		}
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: asynchronous host-to-host copies are not supported on a PCIe-attached device", fn)
	case abi.ACL_MEMCPY_HOST_TO_DEVICE, abi.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
		return want(true, false)
	case abi.ACL_MEMCPY_DEVICE_TO_HOST:
		return want(false, true)
	case abi.ACL_MEMCPY_DEVICE_TO_DEVICE:
		return want(true, true)
	case abi.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, abi.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
		if err := want(true, true); err != nil {
			return err
		}
		if same := di.Dev == si.Dev; same != (kind == abi.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: kind %d does not match devices %d and %d", fn, kind, si.Dev.ID, di.Dev.ID)
		}
	case abi.ACL_MEMCPY_DEFAULT:
		if di.Host() && si.Host() && di.Class != core.Managedmem && si.Class != core.Managedmem {
			return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: asynchronous host-to-host copies are not supported on a PCIe-attached device", fn)
		}
	}
	return nil
}

// MemcpyAsync implements aclrtMemcpyAsync (and the deprecated
// aclrtMemcpyAsyncWithCondition): queued on the stream with pinned host
// memory or device memory; with pageable host memory the call returns only
// after the copy completed.
func MemcpyAsync(t *core.Thread, dst uintptr, destMax uint64, src uintptr, count uint64, kind int32, sh core.Handle) error {
	const fn = "aclrtMemcpyAsync"
	if done, err := checkCopyArgs(fn, dst, destMax, src, count, kind, true); done || err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	di, si, err := core.CopyOperands(fn, dst, src, count)
	if handled, err := queueOOB(s, t, err); handled || err != nil { // memprotect.go
		return err
	}
	if err := kindMatches(fn, kind, di, si); err != nil {
		return err
	}
	p, err := core.PlanCopy(fn, s.Ctx, di, si)
	if err != nil {
		return err
	}
	if err := core.SameDevice(fn, s, di, si); err != nil {
		return err
	}
	u, cost, err := core.ManagedOp(fn, s, core.ManagedOperand{What: "dst", Addr: dst, N: count, Write: true, Info: di}, core.ManagedOperand{What: "src", Addr: src, N: count, Write: false, Info: si})
	if err != nil {
		return err
	}
	if err := s.SubmitTask(t, fn, tsfw.CopyTask(dst, src, count, p.Dir)); err != nil {
		u.Release()
		return err
	}
	if err := core.ChargeManaged(s, fn, cost, u); err != nil {
		return err
	}
	if di.Class == core.Pageable || si.Class == core.Pageable {
		return core.WaitPageable(s, fn)
	}
	return nil
}

// checkMemsetArgs: count 0 succeeds first; NULL; count > maxCount.
func checkMemsetArgs(fn string, p uintptr, maxCount, count uint64) (bool, error) {
	if count == 0 {
		return true, nil
	}
	if p == 0 {
		return false, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devPtr must not be NULL", fn)
	}
	if maxCount == 0 || count > maxCount {
		return false, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: count %d exceeds maxCount %d", fn, count, maxCount)
	}
	return false, nil
}

// Memset implements aclrtMemset: a synchronous byte fill (low 8 bits of
// value) of device or host memory.
func Memset(t *core.Thread, p uintptr, maxCount uint64, value int32, count uint64) error {
	const fn = "aclrtMemset"
	if done, err := checkMemsetArgs(fn, p, maxCount, count); done || err != nil {
		return err
	}
	if err := unsafeGuard(t, fn); err != nil {
		return err
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	pi, err := core.Classify(fn, "devPtr", p)
	if err != nil {
		return err
	}
	if err := core.CheckRoom(fn, "devPtr", p, pi, count); err != nil {
		return err
	}
	d := c.Dev
	if pi.Class == core.Devmem {
		d = pi.Dev
	}
	u, err := core.ManagedSync(fn, d, core.ManagedOperand{What: "devPtr", Addr: p, N: count, Write: true, Info: pi})
	if err != nil {
		return err
	}
	defer u.Release()
	if core.Sanitizing {
		sanitizeHost(t, fn, sanitize.Access{Addr: p, Size: count, Mode: sanitize.Write})
	}
	if err := d.Emu.TS.MemsetNow(p, byte(value), count); err != nil {
		return abi.Errorf(abi.CodeOf(err), "%s: %s", fn, abi.MessageOf(err))
	}
	return nil
}

// MemsetAsync implements aclrtMemsetAsync.
func MemsetAsync(t *core.Thread, p uintptr, maxCount uint64, value int32, count uint64, sh core.Handle) error {
	const fn = "aclrtMemsetAsync"
	if done, err := checkMemsetArgs(fn, p, maxCount, count); done || err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	pi, err := core.Classify(fn, "devPtr", p)
	if err == nil {
		err = core.CheckRoom(fn, "devPtr", p, pi, count)
	}
	if handled, err := queueOOB(s, t, err); handled || err != nil { // memprotect.go
		return err
	}
	if err := core.SameDevice(fn, s, pi); err != nil {
		return err
	}
	u, cost, err := core.ManagedOp(fn, s, core.ManagedOperand{What: "devPtr", Addr: p, N: count, Write: true, Info: pi})
	if err != nil {
		return err
	}
	if err := s.SubmitTask(t, fn, tsfw.MemsetTask(p, byte(value), count)); err != nil {
		u.Release()
		return err
	}
	if err := core.ChargeManaged(s, fn, cost, u); err != nil {
		return err
	}
	if pi.Class == core.Pageable {
		return core.WaitPageable(s, fn)
	}
	return nil
}

// Limits of aclrtMemcpy2dAsync.
const (
	max2DWidth  = 5000000
	max2DHeight = 5242880
)

// check2D validates a 2-D copy and its operands; done for an empty copy.
func check2D(fn string, dst uintptr, dpitch uint64, src uintptr, spitch, width, height uint64, kind int32, async bool) (bool, core.PtrInfo, core.PtrInfo, error) {
	var di, si core.PtrInfo
	if dst == 0 || src == 0 {
		return false, di, si, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dst and src must not be NULL", fn)
	}
	if width > dpitch || width > spitch {
		return false, di, si, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: width %d exceeds dpitch %d or spitch %d", fn, width, dpitch, spitch)
	}
	if async && (width > max2DWidth || height > max2DHeight) {
		return false, di, si, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: width %d / height %d exceed %d / %d", fn, width, height, max2DWidth, max2DHeight)
	}
	switch kind {
	case abi.ACL_MEMCPY_HOST_TO_DEVICE, abi.ACL_MEMCPY_DEVICE_TO_HOST, abi.ACL_MEMCPY_DEFAULT:
	case abi.ACL_MEMCPY_DEVICE_TO_DEVICE:
		if !async {
			return false, di, si, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: kind %d: only host-to-device and device-to-host", fn, kind)
		}
		if s, _, err := core.SoC(fn); err != nil {
			return false, di, si, err
		} else if s.Family != emu.Family950 && s.Family != emu.FamilyA3 && s.Family != emu.FamilyA2 {
			return false, di, si, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: device-to-device 2-D copies exist only on Ascend 950 and Atlas A2/A3, not on %s", fn, s.Name)
		}
	default:
		return false, di, si, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: kind %d is not accepted for 2-D copies", fn, kind)
	}
	if width == 0 || height == 0 {
		return true, di, si, nil
	}
	span := func(pitch uint64) uint64 { return (height-1)*pitch + width }
	var err error
	if di, err = core.Classify(fn, "dst", dst); err != nil {
		return false, di, si, err
	}
	if si, err = core.Classify(fn, "src", src); err != nil {
		return false, di, si, err
	}
	if err := core.CheckRoom(fn, "dst", dst, di, span(dpitch)); err != nil {
		return false, di, si, err
	}
	if err := core.CheckRoom(fn, "src", src, si, span(spitch)); err != nil {
		return false, di, si, err
	}
	if kind != abi.ACL_MEMCPY_DEFAULT {
		if err := kindMatches(fn, kind, di, si); err != nil {
			return false, di, si, err
		}
	} else if di.Host() == si.Host() && (!async || di.Host()) {
		return false, di, si, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: operands (dst %s, src %s) are not a host/device pair", fn, di.Class, si.Class)
	}
	return false, di, si, nil
}

// Memcpy2D implements aclrtMemcpy2d (synchronous, H2D / D2H).
func Memcpy2D(t *core.Thread, dst uintptr, dpitch uint64, src uintptr, spitch, width, height uint64, kind int32) error {
	const fn = "aclrtMemcpy2d"
	done, di, si, err := check2D(fn, dst, dpitch, src, spitch, width, height, kind, false)
	if done || err != nil {
		return err
	}
	if err := unsafeGuard(t, fn); err != nil {
		return err
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	p, err := core.PlanCopy(fn, c, di, si)
	if err != nil {
		return err
	}
	if core.Sanitizing {
		sanitizeHost(t, fn, rows2D(dst, dpitch, width, height, sanitize.Write), rows2D(src, spitch, width, height, sanitize.Read))
	}
	for row := uint64(0); row < height; row++ {
		if err := p.Dev.Emu.TS.CopyNow(dst+uintptr(row*dpitch), src+uintptr(row*spitch), width, p.Dir); err != nil {
			return abi.Errorf(abi.CodeOf(err), "%s: row %d: %s", fn, row, abi.MessageOf(err))
		}
	}
	return nil
}

// Memcpy2DAsync implements aclrtMemcpy2dAsync (H2D, D2H, D2D).
func Memcpy2DAsync(t *core.Thread, dst uintptr, dpitch uint64, src uintptr, spitch, width, height uint64, kind int32, sh core.Handle) error {
	const fn = "aclrtMemcpy2dAsync"
	done, di, si, err := check2D(fn, dst, dpitch, src, spitch, width, height, kind, true)
	if done {
		return err
	}
	s, serr := core.ResolveStream(t, fn, sh)
	if err != nil {
		if serr == nil {
			_, err = queueOOB(s, t, err) // memprotect.go
		}
		return err
	}
	if serr != nil {
		return serr
	}
	p, err := core.PlanCopy(fn, s.Ctx, di, si)
	if err != nil {
		return err
	}
	if err := core.SameDevice(fn, s, di, si); err != nil {
		return err
	}
	x := core.Queued{Counted: true}
	if core.Sanitizing {
		x.Acc = []sanitize.Access{rows2D(dst, dpitch, width, height, sanitize.Write), rows2D(src, spitch, width, height, sanitize.Read)}
	}
	if err := s.Queue(t, fn, tsfw.Copy2DTask(dst, dpitch, src, spitch, width, height, p.Dir), x); err != nil {
		return err
	}
	if di.Class == core.Pageable || si.Class == core.Pageable {
		return core.WaitPageable(s, fn)
	}
	return nil
}
