package acl

import (
	"fmt"
	"strings"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// The sanitizer's wiring (NPUEMU_SANITIZE, docs/sanitizer.md). The model
// lives in rt/sanitize; this file describes to it what the ACL layer does:
// each queued task (sanitizeOp, from the queueing point, rt/core/submit.go), the
// host calls that touch memory at once (aclrtMemcpy, aclrtMemset), the
// synchronisation points (stream, event, device, stream destroy), frees,
// the operands the API refuses as outside their allocation (memcheck) and
// the leak report (leakcheck). Every call site is behind `if sanitizing`,
// so a program without NPUEMU_SANITIZE pays one predictable branch.

// san is the process's sanitizer, nil when NPUEMU_SANITIZE is unset;
// sanitizing says whether it follows tasks (any check but leakcheck).
// Both are set when the library loads and never change (tests swap them
// with useSanitizer before any work).
var (
	san        = sanitize.FromEnv(sanitizeLookup)
	sanitizing = san != nil && san.Checks()&^sanitize.Leakcheck != 0
)

// Sanitizer returns the process's sanitizer, nil when it is off (the C
// boundary prints its summary at exit).
func Sanitizer() *sanitize.State { return san }

// sanitizeLookup is the one place where the sanitizer learns what an
// address is: inside a live aclrtMalloc allocation (or padding past its
// requested size: unallocated), pinned host memory, or elsewhere. The
// device-memory protection of issue #14 may replace it with its own
// address description.
func sanitizeLookup(addr uintptr) (sanitize.Where, sanitize.Region) {
	if d := core.DeviceOf(addr); d != nil {
		if base, _, ok := d.Emu.HBM.Find(addr); ok {
			d.AllocMu.RLock()
			a, known := d.Allocs[base]
			d.AllocMu.RUnlock()
			if known && uint64(addr-base) < a.Size {
				return sanitize.Inside, sanitize.Region{Dev: int(d.ID), Base: base, Size: a.Size}
			}
			if !known && !core.IsDeferred(d, base) {
				return sanitize.Outside, sanitize.Region{} // a HAL block: not watched
			}
		}
		return sanitize.Unallocated, sanitize.Region{Dev: int(d.ID)}
	}
	n := core.Runtime.Node.Load()
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
var runtimeActor = &core.Thread{}

func hostOf(t *core.Thread) (*core.Thread, uint64) {
	if t == nil {
		return runtimeActor, 0
	}
	return t, t.ID
}

// sanitizeOp describes a task about to be queued. It reads a launch's
// arguments now: once queued, the launch may complete and be recycled.
func sanitizeOp(fn string, task *tsfw.Task, x *core.Queued) *sanitize.Op {
	op := describeTask(fn, task, x)
	sanitizePend(op, x) // kernel_sanitize.go
	return op
}

// describeTask is the sanitizer's description of a task to queue.
func describeTask(fn string, task *tsfw.Task, x *core.Queued) *sanitize.Op {
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
	l, vop := queuedLaunch(x), queuedValueOp(x)
	switch {
	case l != nil:
		if l.f != nil {
			op.Kernel = l.f.Entry.Name
		}
		n := core.Runtime.Node.Load()
		if n == nil {
			break
		}
		words, word := deviceWords(l.args, l.size)
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
		if vop.wait {
			op.Sync, op.Key, op.Release = sanitize.Wait, valueWord(vop.addr), sanitize.ReleaseWritten
			break
		}
		op.Sync, op.Key = sanitize.Record, valueWord(vop.addr)
		op.Acc = append(op.Acc, sanitize.Access{Addr: vop.addr, Size: 8, Mode: sanitize.Write | sanitize.Atomic})
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
func sanitizeQueued(t *core.Thread, s *core.Stream, id uint32, op *sanitize.Op) {
	h, tid := hostOf(t)
	san.Queue(h, tid, s, int(s.Ctx.Dev.ID), s.ID, id, op)
}

// rows2D is the footprint of a 2-D copy's operand: height rows of width
// bytes, pitch apart (one range over the rows and the gaps between them).
func rows2D(addr uintptr, pitch, width, height uint64, mode sanitize.Mode) sanitize.Access {
	n := width
	if height > 1 {
		n += (height - 1) * pitch
	}
	return sanitize.Access{Addr: addr, Size: n, Mode: mode}
}

// sanitizeHost notes a host call that touches memory at once.
func sanitizeHost(t *core.Thread, fn string, acc ...sanitize.Access) {
	h, tid := hostOf(t)
	san.HostAccess(h, tid, &sanitize.Op{API: fn, Acc: acc})
}

// sanitizeSyncStream notes that t saw s's tasks complete.
func sanitizeSyncStream(t *core.Thread, s *core.Stream) {
	h, tid := hostOf(t)
	san.SyncStream(h, tid, s)
}

// sanitizeSyncDevice notes that t saw every task of d complete.
func sanitizeSyncDevice(t *core.Thread, d *core.Device) {
	h, tid := hostOf(t)
	san.SyncDevice(h, tid, int(d.ID))
}

// sanitizeSyncEvent notes that t synchronised with e or queried it
// (complete: its latest record has completed); an event never recorded is
// a synccheck report (IPC events are recorded by another process: not
// reported).
func sanitizeSyncEvent(t *core.Thread, fn string, e *core.Event, complete bool) {
	h, tid := hostOf(t)
	san.SyncKey(h, tid, e.TSEvent, fn, int(e.Ctx.Dev.ID), sanitizeStrict(e), complete)
}

// sanitizeFree notes that t frees the allocation at p (before it is
// released): unfinished work that uses it is a synccheck report.
func sanitizeFree(t *core.Thread, fn string, p uintptr) {
	h, tid := hostOf(t)
	san.Free(h, tid, fn, p)
}

// sanitizeStrict reports whether a wait on e before any record is a
// sanitizer report: not for IPC events, which another process records.
func sanitizeStrict(e *core.Event) bool { return e.Flags&abi.ACL_EVENT_IPC == 0 }

// sanitizeRefused reports an operand the API refused as outside every
// live allocation or past its end (memcheck).
func sanitizeRefused(fn, what string, addr uintptr, err error) {
	dev := -1
	if d := core.DeviceOf(addr); d != nil {
		dev = int(d.ID)
	}
	san.Report(sanitize.Memcheck, dev, "", fmt.Sprintf("%s: %s %#x: %s", fn, what, addr, messageOf(err)))
}

// sanitizeKernelFault reports block b of n of kernel name faulting on
// protected device memory at addr (memcheck: what point 2 of the
// protection raises, also as a report line).
func sanitizeKernelFault(name string, b, n uint32, addr uintptr, err error) {
	dev := -1
	if d := core.DeviceOf(addr); d != nil {
		dev = int(d.ID)
	}
	san.Report(sanitize.Memcheck, dev, "", fmt.Sprintf("kernel %s, block %d of %d: %s", name, b, n, messageOf(err)))
}

// sanitizeLeaks routes the leak report through the sanitizer (leakcheck):
// one line per object alive at aclFinalize. Precondition: core.Runtime.Mu held.
func sanitizeLeaks() {
	for _, l := range core.LiveLocked() {
		where := fmt.Sprintf("device %d", l.Device)
		dev := int(l.Device)
		if l.Device == core.ProcessWide {
			where, dev = "process", -1
		}
		what := l.Summary
		if !strings.Contains(what, l.Kind) {
			what = l.Kind + " " + what
		}
		san.Report(sanitize.Leakcheck, dev, "", fmt.Sprintf("%s still alive at aclFinalize (%s)", what, where))
	}
}

// sanitizeReplay describes the tasks of one execution of ri on target to
// the sanitizer, all as tasks of target (the order inside the RI is its
// own business; what it touches is ordered against other streams as
// target's tasks are). An RI with device-side control flow or value waits
// runs work the plan does not show: it is opaque (every allocation counts
// as written afterwards) and its steps' footprints are not checked.
// Precondition: ri.execMu held.
func sanitizeReplay(t *core.Thread, fn string, target *core.Stream, ri *ModelRI) {
	h, tid := hostOf(t)
	dev := int(target.Ctx.Dev.ID)
	if ri.flow != nil || len(ri.waits) > 0 {
		san.Queue(h, tid, target, dev, target.ID, 0, &sanitize.Op{API: fn})
		san.Opaque()
		return
	}
	for i := range ri.plan {
		task := &ri.plan[i]
		var x core.Queued
		if k, ok := task.Kernel().(*riKernel); ok {
			x.Launch = k.l
			if lv := k.live.Load(); lv != nil {
				x.Launch = lv.l
			}
		}
		// Records and waits stay: the RI's own events order nothing more
		// on one stream, and external ones (ACL_EVENT_RECORD_EXTERNAL /
		// WAIT_EXTERNAL) are the application's, ordering other streams.
		if ev := task.Event(); ev != nil {
			x.Sync = ev
		}
		op := describeTask(fn, task, &x)
		san.Queue(h, tid, target, dev, target.ID, 0, op)
	}
}

// valueWord is the sanitizer's key of a value word (aclrtValueWrite/Wait).
type valueWord uintptr

// randomFootprint is what a random-number task writes: its result (the
// rest of the allocation when the count is read from device memory) and
// its 16-byte counter.
func randomFootprint(result, counter uintptr, n uint64, countInMemory bool) []sanitize.Access {
	if countInMemory {
		n = 0
		if w, r := sanitizeLookup(result); w == sanitize.Inside {
			n = uint64(r.Base) + r.Size - uint64(result)
		}
	}
	return []sanitize.Access{{Addr: result, Size: n, Mode: sanitize.Write}, {Addr: counter, Size: 16, Mode: sanitize.Write}}
}

// sanitizeCallback orders thread t, about to run a callback, after the
// tasks queued before the callback on its stream.
func sanitizeCallback(t *core.Thread, order *cbOrder) {
	h, tid := hostOf(t)
	san.SyncKey(h, tid, order, "aclrtProcessReport", -1, false, true)
}
