package core

import (
	"fmt"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/rt/stack"
	"github.com/npuemu/npuemu/tsfw"
)

// PtrClass is what an address is, as far as copies care.
type PtrClass int

const (
	Pageable   PtrClass = iota // host memory the runtime did not allocate
	Pinned                     // aclrtMallocHost memory
	Devmem                     // HBM of some device
	Managedmem                 // aclrtMemAllocManaged memory (managed.go): host-side for directions
)

func (c PtrClass) String() string {
	switch c {
	case Pinned:
		return "pinned host memory"
	case Devmem:
		return "device memory"
	case Managedmem:
		return "managed memory"
	}
	return "pageable host memory"
}

// BatchAttr is the part of an aclrtMemcpyBatchAttr the runtime reads: the
// location types (aclrtMemLocationType) and ids of the destination and
// source of a range of items.
type BatchAttr struct {
	DstType, DstID uint32
	SrcType, SrcID uint32
}

// BatchItem is one copy of a batch.
type BatchItem struct {
	Dst, Src       uintptr
	DestMax, Count uint64
}

// PtrInfo classifies one copy operand.
type PtrInfo struct {
	Class PtrClass
	Dev   *Device // devmem only
	Room  uint64  // bytes from the address to the end of its allocation; 0 = unknown (pageable)
}

func (p PtrInfo) Host() bool { return p.Class != Devmem }

// Classify finds out what addr is; an address inside a device's HBM range
// but outside every allocation is an error.
func Classify(fn, what string, addr uintptr) (PtrInfo, error) {
	n := Runtime.Node.Load()
	if n == nil {
		return PtrInfo{Class: Pageable}, nil
	}
	if d := DeviceOf(addr); d != nil {
		base, req, ok := d.Emu.HBM.Find(addr)
		if ok {
			d.AllocMu.RLock()
			a, ok2 := d.Allocs[base]
			d.AllocMu.RUnlock()
			if ok2 && uint64(addr-base) < a.Size {
				return PtrInfo{Class: Devmem, Dev: d, Room: a.Size - uint64(addr-base)}, nil
			}
			if !ok2 && !IsDeferred(d, base) { // a HAL (halMemAlloc) block: device memory all the same
				return PtrInfo{Class: Devmem, Dev: d, Room: req - uint64(addr-base)}, nil
			}
		}
		err := deviceOOB(fn, what, addr, addr, // memprotect.go
			fmt.Sprintf("%s %#x is in device %d's memory but not inside any live allocation", what, addr, d.ID))
		if SanitizerState != nil {
			sanitizeRefused(fn, what, addr, err)
		}
		return PtrInfo{}, err
	}
	if base, size, ok := n.Host().Find(addr); ok {
		return PtrInfo{Class: Pinned, Room: size - uint64(addr-base)}, nil
	}
	if g := n.LoadedSVM(); g != nil {
		if base, size, ok := g.Lookup(addr); ok {
			return PtrInfo{Class: Managedmem, Room: size - uint64(addr-base)}, nil
		}
	}
	return classifyMapped(fn, what, n, addr)
}

// CheckRoom refuses a copy that would run past the end of an allocation.
func CheckRoom(fn, what string, addr uintptr, p PtrInfo, count uint64) error {
	if p.Room != 0 && count > p.Room {
		var err error
		if p.Class == Devmem {
			err = deviceOOB(fn, what, addr, addr+uintptr(p.Room), // memprotect.go
				fmt.Sprintf("%d bytes at %s %#x overrun its allocation (%d bytes left)", count, what, addr, p.Room))
		} else {
			err = abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
				"%s: %d bytes at %s %#x overrun its allocation (%d bytes left)", fn, count, what, addr, p.Room)
		}
		if SanitizerState != nil {
			sanitizeRefused(fn, what, addr, err)
		}
		return err
	}
	return nil
}

// peerEnabled reports whether copies between devices a and b are allowed:
// peer access enabled in either direction (the driver's switch,
// peer_driver.go).
func peerEnabled(a, b *Device) bool { return DriverPeer(a.ID, b.ID) }

// copyPlan is the resolved direction of one copy.
type copyPlan struct {
	Dir tsfw.CopyDir
	Dev *Device // the device whose engines do the copy
}

// PlanCopy infers the direction of a copy from its operands.
func PlanCopy(fn string, ctx *Context, dst, src PtrInfo) (copyPlan, error) {
	switch {
	case dst.Host() && src.Host():
		return copyPlan{tsfw.HostToHost, ctx.Dev}, nil
	case dst.Class == Devmem && src.Host():
		return copyPlan{tsfw.HostToDevice, dst.Dev}, nil
	case dst.Host() && src.Class == Devmem:
		return copyPlan{tsfw.DeviceToHost, src.Dev}, nil
	case dst.Dev == src.Dev:
		return copyPlan{tsfw.DeviceToDevice, src.Dev}, nil
	}
	if !peerEnabled(src.Dev, dst.Dev) {
		return copyPlan{}, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
			"%s: copy from device %d to device %d needs peer access (aclrtDeviceEnablePeerAccess)", fn, src.Dev.ID, dst.Dev.ID)
	}
	return copyPlan{tsfw.PeerToPeer, src.Dev}, nil
}

// CopyOperands classifies and bounds-checks both operands of a copy.
func CopyOperands(fn string, dst, src uintptr, count uint64) (PtrInfo, PtrInfo, error) {
	di, err := Classify(fn, "dst", dst)
	if err != nil {
		return di, di, err
	}
	si, err := Classify(fn, "src", src)
	if err != nil {
		return di, si, err
	}
	if err := CheckRoom(fn, "dst", dst, di, count); err != nil {
		return di, si, err
	}
	if err := CheckRoom(fn, "src", src, si, count); err != nil {
		return di, si, err
	}
	return di, si, nil
}

// SameDevice refuses device operands of a device other than the stream's,
// unless peer access connects them.
func SameDevice(fn string, s *Stream, ops ...PtrInfo) error {
	for _, o := range ops {
		if o.Class == Devmem && o.Dev != s.Ctx.Dev && !peerEnabled(o.Dev, s.Ctx.Dev) {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
				"%s: device %d memory used on a stream of device %d without peer access", fn, o.Dev.ID, s.Ctx.Dev.ID)
		}
	}
	return nil
}

// WaitPageable waits until everything submitted to s so far (the copy just
// queued included) has completed: pageable host memory makes an async call
// synchronous.
func WaitPageable(s *Stream, fn string) error {
	if err := pageableGuard(s, fn); err != nil {
		return err
	}
	if err := s.SQ.Synchronize(-1); err != nil {
		return abi.Errorf(abi.CodeOf(err), "%s: stream %d: %s", fn, s.ID, abi.MessageOf(err))
	}
	return nil
}

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
// pointers (kind is range-checked only), no implicit synchronisation. The
// copy itself is the driver's synchronous copy when a library interposed
// it (copy_driver.go), else the device model's directly.
func Memcpy(t *Thread, dst uintptr, destMax uint64, src uintptr, count uint64, kind int32) error {
	return memcpySync(t, dst, destMax, src, count, kind, true)
}

// MemcpyBatchItem is Memcpy for one item of a synchronous batch: the
// copy is always the device model's (the vendor's batch is one
// halMemcpyBatch, not a synchronous driver copy per item).
func MemcpyBatchItem(t *Thread, dst uintptr, destMax uint64, src uintptr, count uint64, kind int32) error {
	return memcpySync(t, dst, destMax, src, count, kind, false)
}

// memcpySync is Memcpy; viaDriver lets the copy go through the driver's
// interposed copy calls.
func memcpySync(t *Thread, dst uintptr, destMax uint64, src uintptr, count uint64, kind int32, viaDriver bool) error {
	const fn = "aclrtMemcpy"
	if done, err := checkCopyArgs(fn, dst, destMax, src, count, kind, false); done || err != nil {
		return err
	}
	if err := UnsafeGuard(t, fn); err != nil {
		return err
	}
	c, err := Current(t, fn)
	if err != nil {
		return err
	}
	di, si, err := CopyOperands(fn, dst, src, count)
	if err != nil {
		return err
	}
	p, err := PlanCopy(fn, c, di, si)
	if err != nil {
		return err
	}
	u, err := ManagedSync(fn, SyncEngine(p, di, si), ManagedOperand{What: "dst", Addr: dst, N: count, Write: true, Info: di}, ManagedOperand{What: "src", Addr: src, N: count, Write: false, Info: si})
	if err != nil {
		return err
	}
	defer u.Release()
	if Sanitizing {
		SanitizeHost(t, fn, sanitize.Access{Addr: dst, Size: count, Mode: sanitize.Write}, sanitize.Access{Addr: src, Size: count, Mode: sanitize.Read})
	}
	if stack.HAL.SyncCopy && viaDriver {
		return driverCopy(fn, dst, destMax, src, count, p) // copy_driver.go
	}
	if err := p.Dev.Emu.TS.CopyNow(dst, src, count, p.Dir); err != nil {
		return abi.Errorf(abi.CodeOf(err), "%s: %s", fn, abi.MessageOf(err))
	}
	return nil
}

// KindMatches checks an async copy's kind against its operands (the async
// form trusts kind as given).
func KindMatches(fn string, kind int32, di, si PtrInfo) error {
	// Managed memory is reachable from both sides: it matches any kind.
	want := func(dstDev, srcDev bool) error {
		if (di.Class != Managedmem && (di.Class == Devmem) != dstDev) || (si.Class != Managedmem && (si.Class == Devmem) != srcDev) {
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
		if di.Host() && si.Host() && di.Class != Managedmem && si.Class != Managedmem {
			return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: asynchronous host-to-host copies are not supported on a PCIe-attached device", fn)
		}
	}
	return nil
}

// MemcpyAsync implements aclrtMemcpyAsync (and the deprecated
// aclrtMemcpyAsyncWithCondition): queued on the stream with pinned host
// memory or device memory; with pageable host memory the call returns only
// after the copy completed.
func MemcpyAsync(t *Thread, dst uintptr, destMax uint64, src uintptr, count uint64, kind int32, sh Handle) error {
	const fn = "aclrtMemcpyAsync"
	if done, err := checkCopyArgs(fn, dst, destMax, src, count, kind, true); done || err != nil {
		return err
	}
	s, err := ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	di, si, err := CopyOperands(fn, dst, src, count)
	if handled, err := QueueOOB(s, t, err); handled || err != nil { // memprotect.go
		return err
	}
	if err := KindMatches(fn, kind, di, si); err != nil {
		return err
	}
	p, err := PlanCopy(fn, s.Ctx, di, si)
	if err != nil {
		return err
	}
	if err := SameDevice(fn, s, di, si); err != nil {
		return err
	}
	u, cost, err := ManagedOp(fn, s, ManagedOperand{What: "dst", Addr: dst, N: count, Write: true, Info: di}, ManagedOperand{What: "src", Addr: src, N: count, Write: false, Info: si})
	if err != nil {
		return err
	}
	if err := s.SubmitTask(t, fn, tsfw.CopyTask(dst, src, count, p.Dir)); err != nil {
		u.Release()
		return err
	}
	if err := ChargeManaged(s, fn, cost, u); err != nil {
		return err
	}
	if di.Class == Pageable || si.Class == Pageable {
		return WaitPageable(s, fn)
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
// value) of device or host memory; drvMemsetD8's when a library
// interposed it (copy_driver.go), else the device model's directly.
func Memset(t *Thread, p uintptr, maxCount uint64, value int32, count uint64) error {
	const fn = "aclrtMemset"
	if done, err := checkMemsetArgs(fn, p, maxCount, count); done || err != nil {
		return err
	}
	if err := UnsafeGuard(t, fn); err != nil {
		return err
	}
	c, err := Current(t, fn)
	if err != nil {
		return err
	}
	pi, err := Classify(fn, "devPtr", p)
	if err != nil {
		return err
	}
	if err := CheckRoom(fn, "devPtr", p, pi, count); err != nil {
		return err
	}
	d := c.Dev
	if pi.Class == Devmem {
		d = pi.Dev
	}
	u, err := ManagedSync(fn, d, ManagedOperand{What: "devPtr", Addr: p, N: count, Write: true, Info: pi})
	if err != nil {
		return err
	}
	defer u.Release()
	if Sanitizing {
		SanitizeHost(t, fn, sanitize.Access{Addr: p, Size: count, Mode: sanitize.Write})
	}
	if stack.HAL.MemsetD8 != nil {
		return driverMemset(fn, p, maxCount, byte(value), count) // copy_driver.go
	}
	if err := d.Emu.TS.MemsetNow(p, byte(value), count); err != nil {
		return abi.Errorf(abi.CodeOf(err), "%s: %s", fn, abi.MessageOf(err))
	}
	return nil
}

// MemsetAsync implements aclrtMemsetAsync.
func MemsetAsync(t *Thread, p uintptr, maxCount uint64, value int32, count uint64, sh Handle) error {
	const fn = "aclrtMemsetAsync"
	if done, err := checkMemsetArgs(fn, p, maxCount, count); done || err != nil {
		return err
	}
	s, err := ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	pi, err := Classify(fn, "devPtr", p)
	if err == nil {
		err = CheckRoom(fn, "devPtr", p, pi, count)
	}
	if handled, err := QueueOOB(s, t, err); handled || err != nil { // memprotect.go
		return err
	}
	if err := SameDevice(fn, s, pi); err != nil {
		return err
	}
	u, cost, err := ManagedOp(fn, s, ManagedOperand{What: "devPtr", Addr: p, N: count, Write: true, Info: pi})
	if err != nil {
		return err
	}
	if err := s.SubmitTask(t, fn, tsfw.MemsetTask(p, byte(value), count)); err != nil {
		u.Release()
		return err
	}
	if err := ChargeManaged(s, fn, cost, u); err != nil {
		return err
	}
	if pi.Class == Pageable {
		return WaitPageable(s, fn)
	}
	return nil
}
