package acl

import (
	"fmt"
	"strings"

	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/sanitize"
)

// The sanitizer's wiring (NPUEMU_SANITIZE, docs/sanitizer.md). The model
// lives in rt/sanitize; this file describes to it what the ACL layer does:
// each queued task (sanitizeOp, from the queueing point, rt/core/submit.go), the
// host calls that touch memory at once (aclrtMemcpy, aclrtMemset), the
// synchronisation points (stream, event, device, stream destroy), frees,
// the operands the API refuses as outside their allocation (memcheck) and
// the leak report (leakcheck). Every call site is behind `if sanitizing`,
// so a program without NPUEMU_SANITIZE pays one predictable branch.

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
	h, tid := core.HostOf(t)
	core.SanitizerState.HostAccess(h, tid, &sanitize.Op{API: fn, Acc: acc})
}

// sanitizeSyncEvent notes that t synchronised with e or queried it
// (complete: its latest record has completed); an event never recorded is
// a synccheck report (IPC events are recorded by another process: not
// reported).
func sanitizeSyncEvent(t *core.Thread, fn string, e *core.Event, complete bool) {
	h, tid := core.HostOf(t)
	core.SanitizerState.SyncKey(h, tid, e.TSEvent, fn, int(e.Ctx.Dev.ID), core.SanitizeStrict(e), complete)
}

// sanitizeFree notes that t frees the allocation at p (before it is
// released): unfinished work that uses it is a synccheck report.
func sanitizeFree(t *core.Thread, fn string, p uintptr) {
	h, tid := core.HostOf(t)
	core.SanitizerState.Free(h, tid, fn, p)
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
		core.SanitizerState.Report(sanitize.Leakcheck, dev, "", fmt.Sprintf("%s still alive at aclFinalize (%s)", what, where))
	}
}

// sanitizeReplay describes the tasks of one execution of ri on target to
// the sanitizer, all as tasks of target (the order inside the RI is its
// own business; what it touches is ordered against other streams as
// target's tasks are). An RI with device-side control flow or value waits
// runs work the plan does not show: it is opaque (every allocation counts
// as written afterwards) and its steps' footprints are not checked.
// Precondition: ri.execMu held.
func sanitizeReplay(t *core.Thread, fn string, target *core.Stream, ri *core.ModelRI) {
	h, tid := core.HostOf(t)
	dev := int(target.Ctx.Dev.ID)
	if ri.Flow != nil || len(ri.Waits) > 0 {
		core.SanitizerState.Queue(h, tid, target, dev, target.ID, 0, &sanitize.Op{API: fn})
		core.SanitizerState.Opaque()
		return
	}
	for i := range ri.Plan {
		task := &ri.Plan[i]
		var x core.Queued
		if k, ok := task.Kernel().(*core.RiKernel); ok {
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
		op := core.DescribeTask(fn, task, &x)
		core.SanitizerState.Queue(h, tid, target, dev, target.ID, 0, op)
	}
}

// randomFootprint is what a random-number task writes: its result (the
// rest of the allocation when the count is read from device memory) and
// its 16-byte counter.
func randomFootprint(result, counter uintptr, n uint64, countInMemory bool) []sanitize.Access {
	if countInMemory {
		n = 0
		if w, r := core.SanitizeLookup(result); w == sanitize.Inside {
			n = uint64(r.Base) + r.Size - uint64(result)
		}
	}
	return []sanitize.Access{{Addr: result, Size: n, Mode: sanitize.Write}, {Addr: counter, Size: 16, Mode: sanitize.Write}}
}
