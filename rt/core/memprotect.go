package core

import (
	"errors"
	"fmt"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// DescribeDeviceAddr describes addr against the allocation tables of the
// opened devices: "" when addr is no device's memory. Sizes are the
// allocations' usable sizes (aclrtMalloc's padded size; the block size for
// memory the runtime did not record). The sanitizer's memcheck prints it
// too.
func DescribeDeviceAddr(addr uintptr) string {
	d := DeviceOf(addr)
	if d == nil {
		return ""
	}
	h := d.Emu.HBM
	size := func(base uintptr, blockSize uint64) uint64 {
		d.AllocMu.RLock()
		a, ok := d.Allocs[base]
		d.AllocMu.RUnlock()
		if ok {
			return a.Size
		}
		return blockSize
	}
	where := fmt.Sprintf("device %d", d.ID)
	below, above := h.Neighbours(addr)
	if below.Size != 0 && uint64(addr-below.Base) < AlignUp(below.Size, PageSmall) {
		// Inside the block's pages: its bytes, or the slack past them.
		n, off := size(below.Base, below.Size), uint64(addr-below.Base)
		d.AllocMu.RLock()
		_, live := d.Allocs[below.Base]
		d.AllocMu.RUnlock()
		if !live && IsDeferred(d, below.Base) { // rt/core/memory.go
			return fmt.Sprintf("%#x is at offset %d of the %d-byte block at %#x, which was freed (its pages are held until the work queued before the free completes) (%s)",
				addr, off, below.Size, below.Base, where)
		}
		if off < n {
			return fmt.Sprintf("%#x is at offset %d of the %d-byte allocation at %#x (%s)", addr, off, n, below.Base, where)
		}
		return pastEnd(addr, below.Base, n, where)
	}
	// The guard page that follows a live block is the block's
	// (emu/hbm_protect.go), whatever was freed there before: it is
	// described by the nearest live allocation.
	guard := below.Size != 0 && uint64(addr-below.Base) < AlignUp(below.Size, PageSmall)+PageSmall
	if fb, ok := h.FreedBlock(addr); ok && !guard {
		return fmt.Sprintf("%#x is at offset %d of the %d-byte block at %#x, which was freed (%s)", addr, uint64(addr-fb.Base), fb.Size, fb.Base, where)
	}
	var past, before uint64
	if below.Size != 0 {
		past = uint64(addr-below.Base) - size(below.Base, below.Size)
	}
	if above.Size != 0 {
		before = uint64(above.Base - addr)
	}
	switch {
	case below.Size != 0 && (above.Size == 0 || past <= before):
		return pastEnd(addr, below.Base, size(below.Base, below.Size), where)
	case above.Size != 0:
		return fmt.Sprintf("%#x is %d bytes before the %d-byte allocation at %#x (%s)", addr, before, size(above.Base, above.Size), above.Base, where)
	}
	return fmt.Sprintf("%#x is in %s's memory, where nothing is allocated", addr, where)
}

func pastEnd(addr, base uintptr, n uint64, where string) string {
	off := uint64(addr - base)
	return fmt.Sprintf("%#x is at offset %d of the %d-byte allocation at %#x, %d bytes past its end (%s)", addr, off, n, base, off-n, where)
}

// OobError is a device operand of a copy or memset outside its allocation:
// a PARAM_INVALID refusal for a synchronous call, an SDMA exception of the
// task for an asynchronous one (Stream.queueOOB).
type OobError struct {
	Err      error // the PARAM_INVALID refusal
	Fn, What string
	Addr     uintptr
	Desc     string // DescribeDeviceAddr of the first byte out of bounds
}

func (e *OobError) Error() string { return e.Err.Error() }

func (e *OobError) Unwrap() error { return e.Err }

// deviceFault is a kernel block's fault on protected device memory (the
// kernel host's error for a signal at a device address), carrying the
// address for the sanitizer's memcheck.
type deviceFault struct {
	err  error
	addr uintptr
}

func (f *deviceFault) Error() string { return f.err.Error() }

func (f *deviceFault) Unwrap() error { return f.err }

// KernelMemoryFault marks err, a kernel block's fault at addr inside a
// device's protected range, as a device memory fault (libfake's kernel
// host builds err; launch.fault unwraps it and reports it to memcheck).
func KernelMemoryFault(addr uintptr, err error) error { return &deviceFault{err: err, addr: addr} }

// deviceOOB builds the error of operand what at addr whose first byte out
// of bounds is bad; why is the refusal's own wording.
func deviceOOB(fn, what string, addr, bad uintptr, why string) error {
	desc := DescribeDeviceAddr(bad)
	return &OobError{
		Err: abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %s: %s", fn, why, desc),
		Fn:  fn, What: what, Addr: addr, Desc: desc,
	}
}

// Device memory protection, the runtime's part (docs/hardening.md, "Device
// memory is protected"). emu keeps every page no allocation covers
// PROT_NONE (emu/hbm_protect.go), so a kernel touching it faults on its
// host thread and the fault becomes the AI Core exception of its launch
// (libfake/kernel_host.c). Copies and memsets do not fault: their device
// operands are checked against the allocation table before the engine
// moves a byte.
//
//   - An asynchronous copy or memset (aclrtMemcpyAsync, aclrtMemcpy2dAsync,
//     aclrtMemsetAsync, aclrtMemsetD32Async) whose device range leaves its
//     allocation is queued as a task that fails with the SDMA exception
//     ACL_ERROR_RT_SYS_DMA when its turn comes: the next synchronisation
//     returns the code, the exception callbacks and aclrtGetLastError see
//     it, nothing is written, the stream and the others go on.
//   - A synchronous one (aclrtMemcpy, aclrtMemcpy2d, aclrtMemset,
//     aclrtMemsetD32, aclrtMemcpyBatch) is refused by the call itself,
//     which is its own synchronisation point, with
//     ACL_ERROR_RT_PARAM_INVALID as before. An asynchronous batch refuses
//     an item that starts outside every allocation at the call (its
//     failIndex) and queues the SDMA exception for one that overruns.
//
// Every report names the address, the allocation it is nearest to (base,
// size, how far past its end or before its start, or the freed block it
// lies in) and, for a kernel, the kernel: DescribeDeviceAddr.

// QueueOOB queues, for an asynchronous call refused by err because a device
// operand leaves its allocation, the task that fails with the SDMA
// exception at its turn; handled is false for any other err.
func QueueOOB(s *Stream, t *Thread, err error) (handled bool, _ error) {
	var o *OobError
	if !errors.As(err, &o) {
		return false, err
	}
	fault := abi.Errorf(abi.ACL_ERROR_RT_SYS_DMA, "%s: SDMA exception on stream %d: %s %#x is out of bounds: %s",
		o.Fn, s.ID, o.What, o.Addr, o.Desc)
	return true, s.SubmitTask(t, o.Fn, tsfw.HostTask(func() error { return fault }))
}
