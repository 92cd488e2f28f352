package core

import (
	"encoding/binary"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/svm"
	"github.com/npuemu/npuemu/tsfw"
)

// LoadedSVM returns the node's managed memory if any was ever allocated;
// nil keeps copies and launches free of managed-memory work.
func LoadedSVM() *emu.SVM {
	if n := Runtime.Node.Load(); n != nil {
		return n.LoadedSVM()
	}
	return nil
}

// WrapWithAPI prefixes an svm error with the API name, keeping its code.
func WrapWithAPI(fn string, err error) error {
	if err == nil {
		return nil
	}
	return abi.Wrapf(err, "%s", fn)
}

// ManagedUse is the managed memory one device operation holds until it
// completes.
type ManagedUse struct {
	G     *emu.SVM
	spans [][2]uint64 // base, size
}

// Release drops the holds of u (nil-safe).
func (u *ManagedUse) Release() {
	if u == nil {
		return
	}
	for _, sp := range u.spans {
		// The allocation may have been freed under a running operation
		// (aclrtFree does not wait): nothing is held any more.
		_ = u.G.Release(uintptr(sp[0]), sp[1])
	}
	u.spans = nil
}

// Access faults [addr, addr+n) in on dev and holds it.
func (u *ManagedUse) Access(dev int32, addr uintptr, n uint64, write, kernel bool) (time.Duration, error) {
	c, err := u.G.AccessHold(int(dev), addr, n, write, kernel)
	if err != nil {
		return c, err
	}
	u.spans = append(u.spans, [2]uint64{uint64(addr), n})
	return c, nil
}

// chargeTask carries the time of managed-memory work on a stream. The
// migration itself was done at submission (see the file comment); the
// task's block is the device waiting for it, and its completion releases
// the holds of the operation queued before it.
type chargeTask struct{ u *ManagedUse }

// RunBlock implements tsfw.Kernel: the pages were migrated at submission.
func (c chargeTask) RunBlock(uint32, uint32) error { return nil }

// Done implements tsfw.Kernel.
func (c chargeTask) Done(err error) error {
	c.u.Release()
	return err
}

// ChargeManaged queues the charge task for cost on s; it releases u when
// the stream reaches it (nil: nothing to release).
func ChargeManaged(s *Stream, fn string, cost time.Duration, u *ManagedUse) error {
	if u == nil && cost == 0 {
		return nil
	}
	if err := s.Submit(nil, fn, tsfw.KernelTask(chargeTask{u}, tsfw.KernelSpec{Blocks: 1, BlockCost: cost})); err != nil {
		u.Release()
		return err
	}
	return nil
}

// launchManaged faults in the managed footprint of a kernel launch whose
// argument blob has words 8-byte words read by word(i): every managed
// allocation a word points into. The faults' time is charged on s ahead of
// the kernel; the holds go with the launch (released when it is recycled).
// g is the loaded SVM window.
func launchManaged(g *emu.SVM, fn string, s *Stream, l *Launch, words int, word func(i int) uint64) error {
	if words == 0 || s.Capturing() {
		return nil
	}
	var u *ManagedUse
	var cost time.Duration
	for i := range words {
		v := uintptr(word(i))
		if !g.Contains(v) {
			continue
		}
		base, size, ok := g.Lookup(v)
		if !ok {
			continue
		}
		if u == nil {
			u = &ManagedUse{G: g}
		} else if seen(u, base) {
			continue
		}
		write := true
		if a, err := g.RangeAttrs(base, size); err == nil && a.ReadMostly {
			write = false
		}
		c, err := u.Access(s.Ctx.Dev.ID, base, size, write, true)
		cost += c
		if err != nil {
			u.Release()
			return abi.Wrapf(err, "%s: managed argument %#x on device %d", fn, v, s.Ctx.Dev.ID)
		}
	}
	if u == nil {
		return nil
	}
	if err := ChargeManaged(s, fn, cost, nil); err != nil {
		u.Release()
		return err
	}
	l.svm = u
	return nil
}

func seen(u *ManagedUse, base uintptr) bool {
	for _, sp := range u.spans {
		if sp[0] == uint64(base) {
			return true
		}
	}
	return false
}

// blobWords reads the 8-byte words of a launch image.
func blobWords(img []byte) (int, func(int) uint64) {
	return len(img) / 8, func(i int) uint64 { return binary.LittleEndian.Uint64(img[i*8:]) }
}

// deviceWords reads the 8-byte words of an argument blob in device memory.
func deviceWords(addr uintptr, n uint64) (int, func(int) uint64) {
	return int(n / 8), func(i int) uint64 { return PeekU64(addr + uintptr(i*8)) }
}

// ManagedStats returns the managed-memory counters of device dev, or of the
// host for dev -1 (npuemuSvmGetStats, npuemu info). Before the first
// managed allocation every counter is 0.
func ManagedStats(dev int32) (svm.Stats, error) {
	const fn = "npuemuSvmGetStats"
	n, err := TheNode()
	if err != nil {
		return svm.Stats{}, WrapWithAPI(fn, err)
	}
	if dev != int32(svm.Host) && (dev < 0 || int(dev) >= n.DeviceCount()) {
		return svm.Stats{}, abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device %d: the node has %d devices (-1 is the host)", fn, dev, n.DeviceCount())
	}
	g := n.LoadedSVM()
	if g == nil {
		return svm.Stats{}, nil
	}
	st, err := g.Stats(svm.Location(dev))
	return st, WrapWithAPI(fn, err)
}

// ManagedSVM returns the node's managed memory, creating it.
func ManagedSVM(fn string) (*emu.SVM, error) {
	n, err := TheNode()
	if err != nil {
		return nil, abi.Wrapf(err, "%s: emulator configuration", fn)
	}
	g, err := n.SVM()
	if err != nil {
		return nil, abi.Wrapf(err, "%s: managed memory", fn)
	}
	return g, nil
}

// FreeManaged frees p if it is managed memory: handled reports whether it
// was in the managed window at all.
func FreeManaged(fn string, p uintptr) (handled bool, err error) {
	g := LoadedSVM()
	if g == nil || !g.Contains(p) {
		return false, nil
	}
	if base, _, ok := g.Lookup(p); !ok || base != p {
		return true, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x is not the start of a managed allocation (already freed?)", fn, p)
	}
	if o := g.Owner(p); o != "aclrtMemAllocManaged" {
		return true, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x was allocated by %s, not aclrtMemAllocManaged: free it there", fn, p, o)
	}
	return true, WrapWithAPI(fn, g.Free(p))
}

// ManagedOp faults in the managed operands of a copy or memset queued on
// s (device side, the stream's device) and returns their holds and cost.
// A nil use means no managed operand.
func ManagedOp(fn string, s *Stream, ops ...ManagedOperand) (*ManagedUse, time.Duration, error) {
	if s.Capturing() {
		// A captured operation faults nothing at capture time and its
		// replays do not hold pages (docs/svm.md): a hold released by a
		// captured charge task would be released again on every replay.
		return nil, 0, nil
	}
	var u *ManagedUse
	var cost time.Duration
	for _, o := range ops {
		if o.Info.Class != Managedmem {
			continue
		}
		if u == nil {
			u = &ManagedUse{G: LoadedSVM()}
		}
		c, err := u.Access(s.Ctx.Dev.ID, o.Addr, o.N, o.Write, false)
		cost += c
		if err != nil {
			u.Release()
			return nil, 0, abi.Wrapf(err, "%s: managed %s %#x on device %d", fn, o.What, o.Addr, s.Ctx.Dev.ID)
		}
	}
	return u, cost, nil
}

// ManagedOperand is one operand of a copy or memset.
type ManagedOperand struct {
	What  string
	Addr  uintptr
	N     uint64
	Write bool
	Info  PtrInfo
}

// ManagedSync serves the managed operands of a synchronous copy or memset
// run on the calling thread: on dev (the device whose engine runs the
// operation, nil for a host copy) or as host accesses. The modelled time of
// the faults is charged at once on the device clocks (tsfw ChargeNow):
// device accesses on dev, ahead of the operation's own charge; host
// accesses on the device each page comes back from. The returned use must
// be released after the operation.
func ManagedSync(fn string, dev *Device, ops ...ManagedOperand) (*ManagedUse, error) {
	var u *ManagedUse
	for _, o := range ops {
		if o.Info.Class != Managedmem {
			continue
		}
		if u == nil {
			u = &ManagedUse{G: LoadedSVM()}
		}
		var err error
		if dev == nil {
			var by []time.Duration
			if by, err = u.G.HostAccessByDevice(o.Addr, o.N, o.Write); err == nil {
				err = chargeEach(by)
			}
		} else {
			var c time.Duration
			if c, err = u.Access(dev.ID, o.Addr, o.N, o.Write, false); err == nil {
				err = dev.Emu.TS.ChargeNow(c)
			}
		}
		if err != nil {
			u.Release()
			return nil, abi.Wrapf(err, "%s: managed %s %#x", fn, o.What, o.Addr)
		}
	}
	return u, nil
}

// chargeEach charges by[id] on device id's clock. A device that holds
// managed pages is open (its HBM budget opened it).
func chargeEach(by []time.Duration) error {
	n := Runtime.Node.Load()
	if n == nil {
		return nil
	}
	for id, c := range by {
		if c == 0 {
			continue
		}
		if d := n.Opened(id); d != nil {
			if err := d.TS.ChargeNow(c); err != nil {
				return err
			}
		}
	}
	return nil
}

// ManagedSynchronized is the migration point of a synchronize that waited
// for device d's work (stream, event or device, with or without a
// timeout, once the wait has succeeded): in explicit mode the pages d
// left dirty are written back for the host to read (emu.SVM.Synchronized)
// and the write-back's time is charged on d's clock.
func ManagedSynchronized(fn string, d *Device) error {
	g := LoadedSVM()
	if g == nil || d == nil {
		return nil
	}
	c, err := g.Synchronized(int(d.ID))
	if err == nil {
		err = d.Emu.TS.ChargeNow(c)
	}
	if err != nil {
		return abi.Wrapf(err, "%s: writing back managed memory of device %d", fn, d.ID)
	}
	return nil
}

// SyncEngine is the device whose engine runs a synchronous copy with a
// managed operand: the device of the device-memory operand, or nil when
// both operands are host-side (a host copy: host accesses).
func SyncEngine(p copyPlan, di, si PtrInfo) *Device {
	if di.Class == Devmem || si.Class == Devmem {
		return p.Dev
	}
	return nil
}
