package core

import (
	"fmt"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// san is the process's sanitizer, nil when NPUEMU_SANITIZE is unset;
// sanitizing says whether it follows tasks (any check but leakcheck).
// Both are set when the library loads and never change (tests swap them
// with useSanitizer before any work).
var (
	SanitizerState = sanitize.FromEnv(SanitizeLookup)
	Sanitizing     = SanitizerState != nil && SanitizerState.Checks()&^sanitize.Leakcheck != 0
)

// Sanitizer returns the process's sanitizer, nil when it is off (the C
// boundary prints its summary at exit).
func Sanitizer() *sanitize.State { return SanitizerState }

// SanitizeLookup is the one place where the sanitizer learns what an
// address is: inside a live aclrtMalloc allocation (or padding past its
// requested size: unallocated), pinned host memory, or elsewhere. The
// device-memory protection of issue #14 may replace it with its own
// address description.
func SanitizeLookup(addr uintptr) (sanitize.Where, sanitize.Region) {
	if d := DeviceOf(addr); d != nil {
		if base, _, ok := d.Emu.HBM.Find(addr); ok {
			d.AllocMu.RLock()
			a, known := d.Allocs[base]
			d.AllocMu.RUnlock()
			if known && uint64(addr-base) < a.Size {
				return sanitize.Inside, sanitize.Region{Dev: int(d.ID), Base: base, Size: a.Size}
			}
			if !known && !IsDeferred(d, base) {
				return sanitize.Outside, sanitize.Region{} // a HAL block: not watched
			}
		}
		return sanitize.Unallocated, sanitize.Region{Dev: int(d.ID)}
	}
	n := Runtime.Node.Load()
	if n == nil {
		return sanitize.Outside, sanitize.Region{}
	}
	if base, size, ok := n.Host().Find(addr); ok {
		return sanitize.Inside, sanitize.Region{Host: true, Base: base, Size: size}
	}
	return sanitize.Outside, sanitize.Region{}
}

// runtimeActor stands for the host side of tasks the runtime queues on
// its own (no application thread).
var runtimeActor = &Thread{}

func HostOf(t *Thread) (*Thread, uint64) {
	if t == nil {
		return runtimeActor, 0
	}
	return t, t.ID
}

// sanitizeOp describes a task about to be queued. It reads a launch's
// arguments now: once queued, the launch may complete and be recycled.
func sanitizeOp(fn string, task *tsfw.Task, x *Queued) *sanitize.Op {
	op := DescribeTask(fn, task, x)
	sanitizePend(op, x) // kernel_sanitize.go
	return op
}

// DescribeTask is the sanitizer's description of a task to queue.
func DescribeTask(fn string, task *tsfw.Task, x *Queued) *sanitize.Op {
	op := &sanitize.Op{API: fn, Acc: x.Acc}
	switch kind := task.Kind(); {
	case task.IsRecord(), kind == "notify record", kind == "cnt notify record":
		op.Sync, op.Key = sanitize.Record, x.Sync
	case task.IsWait(), kind == "notify wait", kind == "cnt notify wait":
		op.Sync, op.Key, op.Strict = sanitize.Wait, x.Sync, x.Strict
		if kind == "notify wait" {
			op.Release = sanitize.ReleaseConsume // a flag: one record releases one wait
		}
	}
	if op.Sync == sanitize.NoSync && x.Sync != nil && task.Kind() == "host" {
		op.Sync, op.Key = sanitize.Record, x.Sync // a callback: its thread is ordered after it (sanitizeCallback)
	}
	if op.Sync != sanitize.NoSync && op.Key == nil {
		op.Sync = sanitize.NoSync // a record or wait of the runtime's own
	}
	if x.Acc != nil {
		return op
	}
	op.Acc = op.Inline[:0]
	l, vop := x.Launch, x.ValueOp
	switch {
	case l != nil:
		if l.F != nil {
			op.Kernel = l.F.Entry.Name
		}
		n := Runtime.Node.Load()
		if n == nil {
			break
		}
		words, word := deviceWords(l.Args, l.Size)
		for i := range words {
			if v := uintptr(word(i)); v != 0 {
				if _, ok := n.FindDevice(v); ok { // device memory (no lock taken)
					op.Acc = append(op.Acc, sanitize.Access{Addr: v, Mode: sanitize.Pointer})
				}
			}
		}
	case vop != nil:
		// A value word is a synchronisation variable: a value wait is
		// ordered after the latest value write to the word queued before
		// it; the word itself is not checked for races.
		if vop.Wait {
			op.Sync, op.Key, op.Release = sanitize.Wait, valueWord(vop.Addr), sanitize.ReleaseWritten
			break
		}
		op.Sync, op.Key = sanitize.Record, valueWord(vop.Addr)
		op.Acc = append(op.Acc, sanitize.Access{Addr: vop.Addr, Size: 8, Mode: sanitize.Write | sanitize.Atomic})
	default:
		in := task.Info()
		if in.Bytes == 0 || in.Kind == "copy2d" { // a 2-D copy gives its rows as x.acc
			break
		}
		if in.Dst != 0 {
			op.Acc = append(op.Acc, sanitize.Access{Addr: uintptr(in.Dst), Size: in.Bytes, Mode: sanitize.Write})
		}
		if in.Src != 0 {
			op.Acc = append(op.Acc, sanitize.Access{Addr: uintptr(in.Src), Size: in.Bytes, Mode: sanitize.Read})
		}
	}
	return op
}

// sanitizeQueued hands a queued task to the sanitizer.
func sanitizeQueued(t *Thread, s *Stream, id uint32, op *sanitize.Op) {
	h, tid := HostOf(t)
	SanitizerState.Queue(h, tid, s, int(s.Ctx.Dev.ID), s.ID, id, op)
}

// sanitizeKernelFault reports block b of n of kernel name faulting on
// protected device memory at addr (memcheck: what point 2 of the
// protection raises, also as a report line).
func sanitizeKernelFault(name string, b, n uint32, addr uintptr, err error) {
	dev := -1
	if d := DeviceOf(addr); d != nil {
		dev = int(d.ID)
	}
	SanitizerState.Report(sanitize.Memcheck, dev, "", fmt.Sprintf("kernel %s, block %d of %d: %s", name, b, n, abi.MessageOf(err)))
}

// valueWord is the sanitizer's key of a value word (aclrtValueWrite/Wait).
type valueWord uintptr

// sanitizeQueuedOp is the queueing point's call of sanitizeOp: task and x
// are its own copies (values, so that the queueing point's do not escape
// through the call while the sanitizer is off).
func sanitizeQueuedOp(fn string, task tsfw.Task, x Queued) *sanitize.Op {
	return sanitizeOp(fn, &task, &x)
}

// SanitizeSyncStream notes that t saw s's tasks complete.
func SanitizeSyncStream(t *Thread, s *Stream) {
	h, tid := HostOf(t)
	SanitizerState.SyncStream(h, tid, s)
}

// SanitizeSyncDevice notes that t saw every task of d complete.
func SanitizeSyncDevice(t *Thread, d *Device) {
	h, tid := HostOf(t)
	SanitizerState.SyncDevice(h, tid, int(d.ID))
}

// SanitizeStrict reports whether a wait on e before any record is a
// sanitizer report: not for IPC events, which another process records.
func SanitizeStrict(e *Event) bool { return e.Flags&abi.ACL_EVENT_IPC == 0 }

// sanitizeRefused reports an operand the API refused as outside every
// live allocation or past its end (memcheck).
func sanitizeRefused(fn, what string, addr uintptr, err error) {
	dev := -1
	if d := DeviceOf(addr); d != nil {
		dev = int(d.ID)
	}
	SanitizerState.Report(sanitize.Memcheck, dev, "", fmt.Sprintf("%s: %s %#x: %s", fn, what, addr, abi.MessageOf(err)))
}

// sanitizeCallback orders thread t, about to run a callback, after the
// tasks queued before the callback on its stream.
func sanitizeCallback(t *Thread, order *CbOrder) {
	h, tid := HostOf(t)
	SanitizerState.SyncKey(h, tid, order, "aclrtProcessReport", -1, false, true)
}

// SanitizeHost notes a host call that touches memory at once.
func SanitizeHost(t *Thread, fn string, acc ...sanitize.Access) {
	h, tid := HostOf(t)
	SanitizerState.HostAccess(h, tid, &sanitize.Op{API: fn, Acc: acc})
}

// sanitizeSyncEvent notes that t synchronised with e or queried it
// (complete: its latest record has completed); an event never recorded is
// a synccheck report (IPC events are recorded by another process: not
// reported).
func sanitizeSyncEvent(t *Thread, fn string, e *Event, complete bool) {
	h, tid := HostOf(t)
	SanitizerState.SyncKey(h, tid, e.TSEvent, fn, int(e.Ctx.Dev.ID), SanitizeStrict(e), complete)
}

// SanitizeFree notes that t frees the allocation at p (before it is
// released): unfinished work that uses it is a synccheck report.
func SanitizeFree(t *Thread, fn string, p uintptr) {
	h, tid := HostOf(t)
	SanitizerState.Free(h, tid, fn, p)
}

// SanitizeReplay describes the tasks of one execution of ri on target to
// the sanitizer, all as tasks of target (the order inside the RI is its
// own business; what it touches is ordered against other streams as
// target's tasks are). An RI with device-side control flow or value waits
// runs work the plan does not show: it is opaque (every allocation counts
// as written afterwards) and its steps' footprints are not checked.
// Precondition: ri.execMu held.
func SanitizeReplay(t *Thread, fn string, target *Stream, ri *ModelRI) {
	h, tid := HostOf(t)
	dev := int(target.Ctx.Dev.ID)
	if ri.Flow != nil || len(ri.Waits) > 0 {
		SanitizerState.Queue(h, tid, target, dev, target.ID, 0, &sanitize.Op{API: fn})
		SanitizerState.Opaque()
		return
	}
	for i := range ri.Plan {
		task := &ri.Plan[i]
		var x Queued
		if k, ok := task.Kernel().(*RiKernel); ok {
			x.Launch = k.L
			if lv := k.Live.Load(); lv != nil {
				x.Launch = lv.L
			}
		}
		// Records and waits stay: the RI's own events order nothing more
		// on one stream, and external ones (ACL_EVENT_RECORD_EXTERNAL /
		// WAIT_EXTERNAL) are the application's, ordering other streams.
		if ev := task.Event(); ev != nil {
			x.Sync = ev
		}
		op := DescribeTask(fn, task, &x)
		SanitizerState.Queue(h, tid, target, dev, target.ID, 0, op)
	}
}
