package tsfw

import (
	"slices"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/timeline"
)

// Queue is one runtime submission queue (RTSQ): the ring of task
// descriptors of one stream. Its tasks run one after another in submission
// order.
type Queue struct {
	d     *Device
	prio  int
	id    int
	depth int

	// Read without the lock by Synchronize and Query. submitted is
	// written by launching threads, completed by lanes: apart. busy is
	// the launching side's too (stamp; guarded as vEnd).
	submitted atomic.Uint64
	lastVEnd  atomic.Int64 // virtual end of the latest submitted task
	busy      busyAcc      // busy time stamped and not yet reported (busy.go)
	_         [56]byte     // completed a line away from what launchers write
	completed atomic.Uint64
	hasErr    atomic.Bool
	// helping counts the threads running q's kernels themselves (Claim,
	// helpSpin): the arbiter leaves q's kernels to them, a running chain
	// of q stops. Claim adds without d.mu (a claimed launch + synchronize
	// then takes the device lock three times, not four); every other
	// change and the arbiter's reads are under it.
	helping atomic.Int32
	lane    atomic.Pointer[lane] // first lane of q's running kernel, a hint for HelpQueue (short.go)

	in inbox // kernels submitted without d.mu (inbox.go)

	// Guarded by d.mu.
	ring      []Task // grows by doubling up to depth, then stays
	head      int
	count     int
	inflight  bool // the head task is running on an engine or host goroutine
	active    bool // listed in d.active
	destroyed bool
	blocked   int           // submitters waiting for a free slot
	chain     int           // head tasks claimed by a running chain (chain.go)
	vEnd      time.Duration // virtual end of the latest submitted task; also guarded by in.mu (inbox.go)
	err       error         // first asynchronous error not yet reported
	waiters   []*waiter
	stopped   error         // set by Stop: Submit fails with it (builtin_ctl.go)
	cancel    chan struct{} // closed to cancel the running host wait (builtin_ctl.go)
	cancelled bool          // the running task was cancelled before it asked for cancel (builtin_ctl.go)
	reporting bool          // the head's failure is being reported (builtin_ctl.go)
}

// waiter is one parked Synchronize call.
type waiter struct {
	target uint64
	ch     chan struct{}
}

func newWaiter(target uint64) *waiter {
	return &waiter{target: target, ch: make(chan struct{}, 1)}
}

// Priority returns the queue's priority (0 highest).
func (q *Queue) Priority() int { return q.prio }

// ID returns the queue's number on its device.
func (q *Queue) ID() int { return q.id }

// Device returns the device the queue belongs to.
func (q *Queue) Device() *Device { return q.d }

// headSeq is the submission order of the head task.
// Precondition: d.mu held, q.count > 0.
func (q *Queue) headSeq() uint64 { return q.ring[q.head].seq }

// Submit appends t to the queue and returns at once; it blocks only while
// the ring is full. It fails if the task is malformed, refers to a
// destroyed event, or the queue or device has gone away.
func (q *Queue) Submit(t Task) error {
	_, err := q.SubmitID(t)
	return err
}

// SubmitID is Submit that also returns the task's id: its 1-based position
// in the queue's submission order, truncated to 32 bits (TaskError.TaskID
// uses the same numbering).
func (q *Queue) SubmitID(t Task) (uint32, error) { return q.submit(&t, nil, nil) }

// SubmitTask is SubmitID with the task by pointer: *t is the caller's to
// reuse once it returns (its times are written into it meanwhile). The
// launch path builds a 224-byte task once and hands it down by pointer
// rather than copying it at every layer.
func (q *Queue) SubmitTask(t *Task) (uint32, error) { return q.submit(t, nil, nil) }

// submit is SubmitTask; with past not nil it never waits for ring space,
// the ring growing past the queue depth instead, and sets *past when it
// did (SubmitIDPast, overfill.go); with c not nil it starts q's head
// kernel for the claim's holder in the same critical section
// (SubmitClaimedPast, claim.go).
func (q *Queue) submit(t *Task, past *bool, c *ClaimRun) (uint32, error) {
	if err := t.validate(); err != nil {
		return 0, err
	}
	if h := submitHook.Load(); h != nil { // fault injection (fault.go)
		faulty := (*h)(q, *t)
		t = &faulty
	}
	// Fast path after the hook: a faulty kernel is a kernel too. A
	// closed inbox is skipped without its lock (short.go).
	if t.kind == kindKernel && (q.in.live.Load() || !shortOK()) {
		if id, ok := q.submitFast(t); ok {
			return id, nil
		}
	}
	d := q.d
	spun := false
	d.mu.Lock()
	for {
		// Again after every wait below released d.mu: another
		// submitter may have turned the fast path on meanwhile.
		q.closeInbox()
		if q.destroyed || d.closing {
			d.mu.Unlock()
			return 0, abi.DevErrorf(abi.DevStreamAbort, "%s: queue %d was destroyed", d.cfg.Name, q.id)
		}
		if q.stopped != nil {
			err := q.stopped
			d.mu.Unlock()
			return 0, err
		}
		if q.count < q.depth {
			if q.count < len(q.ring) {
				break
			}
			// The ring must grow: allocate and fault in the new one
			// without the lock (a launch loop's ring reaches ~200 KiB;
			// a lane waiting for the lock meanwhile would park), then
			// look again.
			n := ringSize(len(q.ring), len(q.ring)+1, q.depth)
			d.mu.Unlock()
			r := newRing(n)
			d.mu.Lock()
			if len(q.ring) < n && !q.destroyed {
				q.growInto(r)
			}
			continue
		}
		if past != nil {
			if q.count == len(q.ring) {
				q.growPast()
			}
			*past = true
			break
		}
		if !spun {
			// A launch loop has filled the ring: run its kernels here
			// for a while rather than park (a futex wake-up per
			// completion, and a thread hand-off for a C thread).
			spun = true
			q.helpSpin()
			continue
		}
		q.blocked++
		d.space.Wait()
		q.blocked--
	}
	if err := d.stamp(q, t, true); err != nil {
		d.mu.Unlock()
		return 0, err
	}
	i := q.head + q.count
	if i >= len(q.ring) {
		i -= len(q.ring)
	}
	q.ring[i] = *t
	q.count++
	id := uint32(q.submitted.Add(1))
	if !q.active {
		q.active = true
		d.busy.Add(1)
		d.active[q.prio] = append(d.active[q.prio], q)
	}
	// Only a new head can change what the arbiter may start.
	if q.count == 1 {
		d.newHead(q) // short.go
	}
	if q.count > 1 || !shortOK() {
		q.openInbox() // not for a lone task (short.go)
	}
	if c != nil && c.l == nil {
		c.l = d.startInline(q)
	}
	d.mu.Unlock()
	return id, nil
}

// waitSpin bounds the wall time a synchronisation polls before it parks:
// a small kernel a lane took ends within it.
const waitSpin = 20 * time.Microsecond

// submitSpin bounds the wall time a submitter polls a full ring before it
// parks.
const submitSpin = 50 * time.Microsecond

// helpSpin runs q's kernels on the calling thread for a while (spinSpace)
// as a submitter waiting for ring space does, then gives q back to the
// lanes. Precondition: q.d.mu held (released meanwhile).
func (q *Queue) helpSpin() {
	d := q.d
	q.helping.Add(1) // a running chain stops (chain.go)
	d.mu.Unlock()
	q.spinSpace()
	d.mu.Lock()
	q.endClaim() // the arbiter hands q's next kernel to a lane again
}

// spinSpace waits, for at most submitSpin without progress, until q's ring
// has spaceBatch free slots (submitted - completed is the ring's count),
// running q's kernels itself meanwhile: while a submitter waits here the
// arbiter leaves q's kernels to it (q.helping), and it starts each one with
// itself as a lane (startInline). A launch loop that has filled the ring
// then launches and executes on one thread, ~0.2 µs each here, instead of
// passing every task's descriptor, launch state and the device lock
// between the launcher's CPU and a lane's (~0.8 µs per kernel, the
// coherence traffic of the hand-off); the kernel's other blocks still go
// to lanes. Waiting for a batch rather than one slot keeps the launcher in
// one mode for a while. A ring that stops draining (a wait that never
// ends) costs one bounded poll, then the submitter waits for one slot as
// before.
func (q *Queue) spinSpace() {
	d := q.d
	batch := uint64(max(1, min(spaceBatch, q.depth/2)))
	limit := uint64(q.depth) - batch
	ok := func() bool { return q.submitted.Load()-q.completed.Load() <= limit }
	var until time.Time // set when a pass makes no progress
	for !ok() {
		d.mu.Lock()
		l := d.startInline(q)
		d.mu.Unlock()
		if l != nil {
			// Each kernel that ends here starts the next one in the
			// same critical section.
			for l != nil {
				l, _ = d.runInline(l, q, limit, false, nil)
			}
			until = time.Time{}
			continue
		}
		// The head is not a kernel, waits for cores, or was handed to a
		// lane before this submitter came: take it if that lane is not
		// awake, else wait a little.
		if until.IsZero() {
			until = time.Now().Add(submitSpin)
		}
		d.HelpQueue(q, q.completed.Load()+1, nil)
		if poll(helpEvery, ok) || time.Now().After(until) {
			return
		}
	}
}

const (
	// spaceBatch is the free slots a submitter waiting on a full ring
	// makes before it submits again.
	spaceBatch = 512
	// helpEvery is how often it looks again for a kernel to run.
	helpEvery = 5 * time.Microsecond
)

// grow enlarges the ring (ringSize), unrolling it to start at 0.
// Precondition: d.mu held, q.count == len(q.ring) < q.depth.
func (q *Queue) grow() {
	q.growInto(make([]Task, ringSize(len(q.ring), len(q.ring)+1, q.depth)))
}

// growInto moves the ring's tasks to r, unrolled to start at 0.
// Precondition: d.mu held, len(r) > len(q.ring).
func (q *Queue) growInto(r []Task) {
	k := copy(r, q.ring[q.head:min(q.head+q.count, len(q.ring))])
	if k < q.count {
		copy(r[k:], q.ring[:q.count-k])
	}
	q.ring, q.head = r, 0
}

// ringSize is the size a ring (or an inbox buffer) of cur tasks grows to
// for need: ×4 steps from initialRing, not past depth unless need is.
// Fewer steps than doubling mean fewer sizes allocated, copied and faulted
// in: a process's first launch loop paid ~560 page faults of ~7 µs each
// in a VM, most of them in the ring and the inbox growing
// (docs/benchmarks.md, "Twelfth session").
func ringSize(cur, need, depth int) int {
	if need > depth {
		// Past the depth (overfill.go: by one hand-over at most): double,
		// as before (×4 would make a 1024-task ring one of 4096, 917 KiB).
		return max(need, 2*cur)
	}
	n := max(cur, initialRing)
	for n < need {
		n *= 4
	}
	return min(n, depth)
}

// newRing returns a ring of n empty tasks whose pages are faulted in.
func newRing(n int) []Task {
	r := make([]Task, n)
	for i := 0; i < n; i += 16 { // 16 tasks fit in 4 KiB (a Task is under 256 bytes): every page is written
		r[i].kind = kindNone
	}
	return r
}

// stamp computes t's virtual start and end and its event bookkeeping.
// With publish set it also stores q's latest virtual end for the readers
// without a lock (lastVEnd); a run's pass (SubmitRun) stores it once,
// after its last task, before any of them is counted submitted.
// Precondition: d.mu held; for a kernel task, q.in.mu instead while the
// inbox is live (inbox.go): a kernel reads only q.vEnd and atomics here.
func (d *Device) stamp(q *Queue, t *Task, publish bool) error {
	start := max(q.vEnd, time.Duration(d.vHost.Load()))
	cost := d.cost.cost(t)
	engine := -1
	switch t.kind {
	case kindCopy, kindCopy2D, kindMemset, kindEngine:
		k := d.earliestSDMA()
		start = max(start, d.sdmaFree[k])
		d.sdmaFree[k] = start + cost
		engine = k
	case kindRecord:
		if t.ev.d != d {
			return abi.DevErrorf(abi.DevWrongContext, "%s: record of event %d of %s: event and queue must be on the same device", d.cfg.Name, t.ev.id, t.ev.d.cfg.Name)
		}
		seq, err := t.ev.addRecord(start + cost)
		if err != nil {
			return err
		}
		t.recSeq = seq
	case kindWait:
		target, recEnd, err := t.ev.waitTarget()
		if err != nil {
			return err
		}
		t.recSeq = target
		start = max(start, recEnd)
	case kindKernel:
		if d.cfg.Cores != nil {
			start = d.claimCores(t, start, cost) // share.go
		}
	case kindReset:
		if err := t.ev.alive(); err != nil {
			return err
		}
	case kindNotifyRecord, kindNotifyWait, kindCntRecord, kindCntWait, kindCntReset:
		s, err := t.stampSignal(start, cost)
		if err != nil {
			return err
		}
		start = s
	}
	if d.cfg.OnBusy != nil {
		d.reportBusy(q, t, cost, start+cost)
	}
	if t.seq == 0 { // else numbered ahead, in a run (Device.ReserveSeq)
		t.seq = d.seq.Add(1)
	}
	t.vStart, t.vEnd = start, start+cost
	q.vEnd = t.vEnd
	if publish {
		q.lastVEnd.Store(int64(t.vEnd))
	}
	if timeline.Enabled() {
		d.traceTask(q, t, engine)
	}
	return nil
}

// Query reports whether every submitted task has completed.
func (q *Queue) Query() bool {
	s := q.submitted.Load()
	return q.completed.Load() >= s
}

// Synchronize waits until every task submitted before the call has
// completed and returns (and clears) the first asynchronous task error.
// timeout < 0 waits forever; on expiry it returns
// ACL_ERROR_RT_STREAM_SYNC_TIMEOUT.
func (q *Queue) Synchronize(timeout time.Duration) error { return q.SynchronizeTurn(timeout, nil) }

// SynchronizeTurn is Synchronize for a host thread with its scheduling
// tick tk (ThreadTurn; nil: none), which the blocks it runs while it
// waits count on.
func (q *Queue) SynchronizeTurn(timeout time.Duration, tk *Turn) error {
	target := q.submitted.Load()
	if q.completed.Load() >= target && !q.hasErr.Load() {
		atomicMax(&q.d.vHost, time.Duration(q.lastVEnd.Load()))
		return nil
	}
	return q.synchronize(target, timeout, tk)
}

// synchronize is SynchronizeTurn's wait for the tasks up to target.
func (q *Queue) synchronize(target uint64, timeout time.Duration, tk *Turn) error {
	var deadline time.Time
	if timeout >= 0 {
		deadline = time.Now().Add(timeout)
	}
	if !q.waitFor(target, timeout < 0, deadline, tk) {
		return abi.DevErrorf(abi.DevStreamTimeout, "%s: queue %d synchronize timed out after %v", q.d.cfg.Name, q.id, timeout)
	}
	atomicMax(&q.d.vHost, time.Duration(q.lastVEnd.Load()))
	return q.takeErr()
}

// waitFor spins briefly, then parks until completed reaches target or the
// deadline passes; it reports whether the target was reached. tk is the
// waiting thread's tick (SynchronizeTurn; nil: none).
func (q *Queue) waitFor(target uint64, forever bool, deadline time.Time, tk *Turn) bool {
	if forever {
		q.d.HelpQueue(q, target, tk) // run q's kernels here rather than wait for lanes to wake (aicore.go)
	}
	limit := waitSpin
	if !forever {
		limit = min(limit, time.Until(deadline))
	}
	if poll(limit, func() bool { return q.completed.Load() >= target }) {
		return true
	}
	var timer *time.Timer
	if !forever {
		left := time.Until(deadline)
		if left <= 0 {
			return q.completed.Load() >= target
		}
		timer = time.NewTimer(left)
		defer timer.Stop()
	}
	d := q.d
	d.mu.Lock()
	if q.completed.Load() >= target {
		d.mu.Unlock()
		return true
	}
	w := newWaiter(target)
	q.waiters = append(q.waiters, w)
	d.mu.Unlock()
	if forever {
		<-w.ch
		tk.parked()
		return true
	}
	select {
	case <-w.ch:
		tk.parked()
		return true
	case <-timer.C:
		tk.parked()
	}
	d.mu.Lock()
	q.waiters = removeWaiter(q.waiters, w)
	ok := q.completed.Load() >= target
	d.mu.Unlock()
	return ok
}

func removeWaiter(ws []*waiter, w *waiter) []*waiter {
	for i, x := range ws {
		if x == w {
			copy(ws[i:], ws[i+1:])
			ws[len(ws)-1] = nil
			return ws[:len(ws)-1]
		}
	}
	return ws
}

// wakeWaiters releases the Synchronize calls whose target is reached.
// Precondition: d.mu held.
func (q *Queue) wakeWaiters() {
	if len(q.waiters) == 0 {
		return
	}
	q.waiters = wake(q.waiters, q.completed.Load())
}

// wake signals the waiters whose target is ≤ done and returns the rest.
func wake(ws []*waiter, done uint64) []*waiter {
	n := 0
	for _, w := range ws {
		if done >= w.target {
			w.ch <- struct{}{} // buffered, and each waiter is signalled once
		} else {
			ws[n] = w
			n++
		}
	}
	clear(ws[n:])
	return ws[:n]
}

// takeErr returns and clears the pending asynchronous error.
func (q *Queue) takeErr() error {
	if !q.hasErr.Load() {
		return nil
	}
	q.d.mu.Lock()
	err := q.err
	q.err = nil
	q.hasErr.Store(false)
	q.d.mu.Unlock()
	return err
}

// Destroy releases the queue. wait=true first waits for the submitted
// tasks; wait=false drops the tasks not yet started (a task already on an
// engine finishes). Submitters blocked on a full ring fail.
func (q *Queue) Destroy(wait bool) {
	if wait {
		_ = q.Synchronize(-1) // the caller asked to destroy, not for errors
	}
	d := q.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if q.destroyed {
		return
	}
	q.destroyed = true
	q.cancelWait()
	q.drop()
	q.reportHeld()
	for i, x := range d.queues {
		if x == q {
			d.queues = slices.Delete(d.queues, i, i+1)
			break
		}
	}
	d.space.Broadcast()
	// A dropped record may have released waits of other queues.
	d.schedule()
}

// drop discards the tasks that have not started. They count as completed,
// so that nobody synchronizes on them forever; a dropped record completes
// its event for the same reason.
// Precondition: d.mu held.
func (q *Queue) drop() {
	q.closeInbox()
	keep := 0
	if q.inflight {
		keep = max(1, q.chain)
	}
	for i := keep; i < q.count; i++ {
		j := (q.head + i) % len(q.ring)
		t := &q.ring[j]
		if t.kind == kindRecord {
			t.ev.complete(t.recSeq, t.vEnd, q.d)
		}
		*t = Task{}
	}
	dropped := q.count - keep
	q.count = keep
	q.completed.Add(uint64(dropped))
	q.wakeWaiters()
	if q.count == 0 {
		q.d.deactivate(q)
	}
}

// ReserveSeq reserves n consecutive submission numbers (n ≥ 1) and
// returns the first: a thread handing over a run of launches numbers them
// with one write of the device's counter instead of one each (Task.Number).
// The run then ranks among other queues' tasks as if submitted at once, at
// the reservation; a number left unused (a launch that failed) is skipped.
func (d *Device) ReserveSeq(n int) uint64 {
	return d.seq.Add(uint64(n)) - uint64(n) + 1
}

// Number gives t submission number seq, reserved with ReserveSeq on the
// device it is submitted to; a task without one is numbered when stamped.
func (t *Task) Number(seq uint64) { t.seq = seq }

// Seq returns t's submission number: 0 until it is numbered or stamped.
func (t *Task) Seq() uint64 { return t.seq }
