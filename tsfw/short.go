package tsfw

import "sync/atomic"

// The short path: a kernel launched into an idle stream of an idle device
// and then waited for (launch + synchronize) is the commonest sequence of
// a test program, and on this path the general machinery costs more than
// the task itself. Each cut below skips work that is provably a no-op in
// the case it takes, so task ids, virtual start and end times, engine and
// core occupancy and the completion order are those of the general path
// (TestShortPathMatchesGeneral runs one scripted workload through both):
//
//   - The arbiter returns at once on a device with no active queue
//     (Device.busy is 0 under Device.mu: every d.active list is empty, so
//     a pass would look at nothing). A kernel that completes the only
//     work of the device (finishKernel) no longer pays a pass.
//   - A thread starting its queue's head kernel itself (startInline) on a
//     device whose only active queue is that one skips the pass over the
//     queues ranked before it (startAhead): there are none.
//   - A task that becomes the head of the device's only active queue
//     (Device.busy is 1 and the queue was just activated) is dispatched
//     directly (newHead): a pass would find that queue alone, try its
//     head once and, for a kernel, report no inline completion.
//   - A kernel submitted while the queue's inbox is closed skips it
//     (submitFast) without taking its lock: inbox.live, read atomically,
//     is a hint; submitFast looks again under the lock, and the slow path
//     decides under Device.mu. (Not the queue's counters: the completed
//     count is a cache line the lanes write.)
//   - The inbox opens when a queue holds two tasks, not one: a kernel
//     launched into an idle queue and waited for never takes the inbox's
//     lock (opening it, then closing it at the completion); the second
//     launch of a burst takes the slow path once and opens it.
//   - A thread that waits for a queue (HelpQueue) first tries the lane
//     the queue's latest kernel was handed (Queue.lane) without
//     Device.mu. The hint is never cleared (a store is an exchange, and
//     a lane-idle-list is LIFO: the same lane comes back); a hint whose
//     lane now runs another queue's kernel is found out once its token
//     is taken (l.run was published before the token) and the token is
//     handed back. The general scan of the running kernels follows.
//   - Stores that would not change a value (a run's failed flag and
//     abandoned flag, a lane's solo flag, the hint) are skipped: on x86
//     each is an exchange.
//   - A kernel alone on its core (one granted core, one lane: krun.alone)
//     never shares its blocks, and no lane joins it (watchResidency is
//     for granted cores without a lane): its lane runs the blocks in
//     order with a local counter and is its last lane, so the run's block
//     counter, ended count and lane count (three exchanges at dispatch,
//     three locked adds on the lane) are not touched.
//   - A run's generation moves on at its recycle only when a Mark or
//     watchResidency took it (krun.watched, under Device.mu): nobody
//     else compares it.
//   - One-element lists (the arbiter's candidates, a run's lanes) are
//     cleared element by element, not with a bulk clear.
//
// Who runs a kernel and in which host order never changes its virtual
// times, which are fixed at submission (stamp).

// generalOnly turns the short path off (tests compare both paths).
var generalOnly atomic.Bool

// shortOK reports whether the short path may be taken.
func shortOK() bool { return !generalOnly.Load() }

// newHead runs the arbiter for q, whose only task (q.count == 1) was just
// queued.
// Precondition: d.mu held.
func (d *Device) newHead(q *Queue) {
	if t := &q.ring[q.head]; t.kind == kindKernel && d.busy.Load() == 1 && shortOK() {
		// q is the device's only active queue (busy counts active
		// queues and abandoned kernels): the arbiter would call
		// dispatch(q) alone, which dispatches a kernel unless a
		// waiting submitter runs q's kernels itself, and reports no
		// inline completion.
		if q.helping.Load() == 0 {
			d.dispatchKernel(q, t, false)
		}
		d.shortHeads++
		return
	}
	d.schedule()
}

// helpLane takes the token of q's lane hint, if any is set, and runs its
// kernel; it reports whether it did (see HelpQueue).
func (d *Device) helpLane(q *Queue, tk *Turn) bool {
	if !shortOK() {
		return false
	}
	l := q.lane.Load()
	if l == nil || !l.token.CompareAndSwap(true, false) {
		return false
	}
	// Holding the token, l.run is stable: it was written before the
	// token was set, and is only rewritten once l is idle again.
	if l.run.q != q {
		l.kick() // another queue's kernel: give it back
		return false
	}
	d.runAsLane(l, tk)
	return true
}
