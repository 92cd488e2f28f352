package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// aclrtMemsetD32 fills N 32-bit words. The SDMA model only has byte fills
// and copies, so a word fill is built from them: four one-byte fills write
// the first word (little-endian), then copies double the filled prefix
// inside the destination until N words are written. Queued on a stream the
// tasks run in order, so the async form is exact too.

// d32Op is one step of a word fill: a one-byte fill (copy false) or a
// copy of n bytes from p to dst.
type d32Op struct {
	copy  bool
	dst   uintptr
	value byte
	n     uint64
}

// d32Ops returns the steps that fill n words at p with value.
func d32Ops(p uintptr, value uint32, n uint64) []d32Op {
	ops := make([]d32Op, 0, 4+64)
	for i := range uintptr(4) {
		ops = append(ops, d32Op{dst: p + i, value: byte(value >> (8 * i)), n: 1})
	}
	total := 4 * n
	for done := uint64(4); done < total; {
		k := min(done, total-done)
		ops = append(ops, d32Op{copy: true, dst: p + uintptr(done), n: k})
		done += k
	}
	return ops
}

// checkD32 validates the arguments and the destination; done for N == 0.
func checkD32(fn string, p uintptr, memSize uint64, n uint64) (bool, core.PtrInfo, error) {
	if n == 0 {
		return true, core.PtrInfo{}, nil
	}
	if p == 0 {
		return false, core.PtrInfo{}, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	}
	if n > memSize/4 {
		return false, core.PtrInfo{}, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %d words need %d bytes, memSize is %d", fn, n, 4*n, memSize)
	}
	pi, err := core.Classify(fn, "ptr", p)
	if err != nil {
		return false, pi, err
	}
	if pi.Class != core.Devmem && pi.Class != core.Pinned {
		return false, pi, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr %#x is not aclrtMalloc or aclrtMallocHost memory", fn, p)
	}
	if err := core.CheckRoom(fn, "ptr", p, pi, 4*n); err != nil {
		return false, pi, err
	}
	return false, pi, nil
}

// d32Now fills synchronously on the calling goroutine.
func d32Now(fn string, d *core.Device, p uintptr, value uint32, n uint64, pi core.PtrInfo) error {
	dir := tsfw.HostToHost
	if pi.Class == core.Devmem {
		d, dir = pi.Dev, tsfw.DeviceToDevice
	}
	for _, op := range d32Ops(p, value, n) {
		var err error
		if op.copy {
			err = d.Emu.TS.CopyNow(op.dst, p, op.n, dir)
		} else {
			err = d.Emu.TS.MemsetNow(op.dst, op.value, op.n)
		}
		if err != nil {
			return abi.Wrapf(err, "%s", fn)
		}
	}
	return nil
}

// MemsetD32 implements aclrtMemsetD32.
func MemsetD32(t *core.Thread, p uintptr, memSize uint64, value uint32, n uint64) error {
	const fn = "aclrtMemsetD32"
	done, pi, err := checkD32(fn, p, memSize, n)
	if done || err != nil {
		return err
	}
	if err := core.UnsafeGuard(t, fn); err != nil {
		return err
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	return d32Now(fn, c.Dev, p, value, n, pi)
}

// MemsetD32Async implements aclrtMemsetD32Async: device memory is filled in
// stream order; host memory synchronously (as the runtime does).
func MemsetD32Async(t *core.Thread, p uintptr, memSize uint64, value uint32, n uint64, sh core.Handle) error {
	const fn = "aclrtMemsetD32Async"
	// The stream is checked even when there is nothing to fill.
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	done, pi, err := checkD32(fn, p, memSize, n)
	if handled, err := core.QueueOOB(s, t, err); done || handled || err != nil { // memprotect.go
		return err
	}
	if pi.Class != core.Devmem {
		return d32Now(fn, s.Ctx.Dev, p, value, n, pi)
	}
	if err := core.SameDevice(fn, s, pi); err != nil {
		return err
	}
	for _, op := range d32Ops(p, value, n) {
		task := tsfw.MemsetTask(op.dst, op.value, op.n)
		if op.copy {
			task = tsfw.CopyTask(op.dst, p, op.n, tsfw.DeviceToDevice)
		}
		if err := s.SubmitTask(t, fn, task); err != nil {
			return err
		}
	}
	return nil
}
