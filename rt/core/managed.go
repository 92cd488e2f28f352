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
func launchManaged(fn string, s *Stream, l *Launch, words int, word func(i int) uint64) error {
	g := LoadedSVM()
	if g == nil || words == 0 || s.Capturing() {
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
