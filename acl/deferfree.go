package acl

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Deferred free (issue #14, point 3). aclrtFree "immediately frees the
// input memory. It does not ... wait until the tasks that use the memory
// are complete" (CANN aclrtFree): so it returns at once here too, and the
// address stops being valid for new work at once. But the HBM range stays
// out of reuse until every task queued on the device before the free has
// completed (tsfw.Mark): a stale copy or kernel then writes memory that no
// one owns, never the next aclrtMalloc's. The pages stay counted as used
// until then. An allocation that fails for lack of memory while frees are
// deferred waits for them (bounded by deferWaitMax) and tries again.

// deferWaitMax bounds how long an aclrtMalloc waits for deferred frees
// before it reports out of memory.
const deferWaitMax = 10 * time.Second

type deferredFree struct {
	a    core.Allocation
	mark tsfw.Mark
}

var deferred struct {
	n  atomic.Int64 // entries in by: the fast path of reapDeferred
	mu sync.Mutex
	// Guarded by mu.
	by map[*core.Device][]deferredFree
}

// freeWhenIdle returns a's pages to the HBM allocator now when the device
// is idle, and otherwise once the work queued before now has completed.
func freeWhenIdle(d *core.Device, a core.Allocation) error {
	m := d.Emu.TS.Mark()
	if m.Empty() {
		return releaseAllocation(d, a)
	}
	deferred.mu.Lock()
	if deferred.by == nil {
		deferred.by = map[*core.Device][]deferredFree{}
	}
	deferred.by[d] = append(deferred.by[d], deferredFree{a: a, mark: m})
	deferred.n.Add(1)
	deferred.mu.Unlock()
	return nil
}

// reapDeferred releases d's deferred frees whose work has completed and
// reports whether some remain.
func reapDeferred(d *core.Device) bool {
	if deferred.n.Load() == 0 {
		return false
	}
	deferred.mu.Lock()
	list := deferred.by[d]
	if len(list) == 0 {
		deferred.mu.Unlock()
		return false
	}
	keep := list[:0]
	var done []core.Allocation
	for _, f := range list {
		if f.mark.Passed() {
			done = append(done, f.a)
		} else {
			keep = append(keep, f)
		}
	}
	clear(list[len(keep):])
	deferred.n.Add(-int64(len(done)))
	if len(keep) == 0 {
		delete(deferred.by, d)
	} else {
		deferred.by[d] = keep
	}
	deferred.mu.Unlock()
	for _, a := range done {
		_ = releaseAllocation(d, a)
	}
	return len(keep) > 0
}

// waitDeferred waits (bounded) for d's deferred frees, then reaps them;
// it reports whether any memory was released.
func waitDeferred(d *core.Device) bool {
	deferred.mu.Lock()
	list := append([]deferredFree(nil), deferred.by[d]...)
	deferred.mu.Unlock()
	if len(list) == 0 {
		return false
	}
	deadline := time.Now().Add(deferWaitMax)
	for _, f := range list {
		f.mark.Wait(deadline)
	}
	before := len(list)
	reapDeferred(d)
	deferred.mu.Lock()
	after := len(deferred.by[d])
	deferred.mu.Unlock()
	return after < before
}

// isDeferred reports whether base is a freed allocation of d whose pages
// are still held: new work must not use it.
func isDeferred(d *core.Device, base uintptr) bool {
	if deferred.n.Load() == 0 {
		return false
	}
	deferred.mu.Lock()
	defer deferred.mu.Unlock()
	for _, f := range deferred.by[d] {
		if f.a.Base == base {
			return true
		}
	}
	return false
}

// dropDeferred releases every deferred free of d at once (the device's
// memory is being released as a whole: aclFinalize, reset).
func dropDeferred(d *core.Device) {
	deferred.mu.Lock()
	list := deferred.by[d]
	delete(deferred.by, d)
	deferred.n.Add(-int64(len(list)))
	deferred.mu.Unlock()
	for _, f := range list {
		_ = releaseAllocation(d, f.a)
	}
}
