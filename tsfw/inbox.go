package tsfw

import (
	"sync"
	"sync/atomic"
)

// The launch fast path. A launch loop submits kernel after kernel to one
// queue while a lane on another CPU runs them; if every Submit took
// Device.mu, the lock's cache line, and the arbiter state behind it, would
// move between the two CPUs twice per kernel, and on a many-core host
// every launching thread of every stream would meet there. So a kernel
// submitted to a queue that already holds tasks (two or more: a lone task
// does not open it, short.go) goes to the queue's inbox instead: a short list guarded by the queue's own mutex, stamped on the
// virtual clock there (a kernel's start and end depend on the queue's
// previous task and the host's observed time only, see stamp). The device
// side moves the whole inbox into the ring under Device.mu when the
// queue's head completes (complete → pull), so the lane running the
// stream's kernels takes the launches in batches and the launcher never
// touches the device lock while the stream is busy.
//
// Invariant: inbox.live is written under both Device.mu and inbox.mu, and
// is true only while q.count > 0, so a completion of q is still to come and
// will pull. While live is false only Device.mu holders append to q or
// stamp it; any code under Device.mu that looks past q's head or at q.vEnd
// first calls closeInbox, which moves the inbox into the ring and turns the
// fast path off until the next slow Submit turns it on again. Submission
// order, ids (submitted) and virtual times are those Submit would have
// given: they are assigned under inbox.mu in arrival order.
//
// The device side holds inbox.mu only to swap the inbox's slice for an
// empty one (double buffering: takeInbox); it copies the taken tasks into
// the ring after releasing it, still under Device.mu, so a launcher never
// waits behind the copy of up to a ring's worth of descriptors (nor, on a
// host with few CPUs, behind a lane descheduled in the middle of it).
type inbox struct {
	_     [64]byte // off the cache line of the queue's other fields
	mu    sync.Mutex
	live  atomic.Bool  // the fast path is on (see above); read without mu as a hint by SubmitID
	done  uint64       // q.completed as last read: completions are only ever more
	tasks []Task       // stamped, in submission order
	n     atomic.Int32 // len(tasks), for pull's check without mu
	_     [64]byte
	spare []Task // the other buffer, empty; guarded by Device.mu
}

// submitFast queues a kernel task through the inbox if the fast path is
// on and the ring (with the inbox) has room; ok is false otherwise, and
// the caller takes the slow path.
func (q *Queue) submitFast(t *Task) (id uint32, ok bool) {
	in := &q.in
	in.mu.Lock()
	if !in.live.Load() {
		in.mu.Unlock()
		return 0, false
	}
	if q.room(1) == 0 {
		in.mu.Unlock()
		return 0, false
	}
	// A kernel's stamp reads q.vEnd (guarded by in.mu while live) and
	// the device's atomics only.
	if err := q.d.stamp(q, t, true); err != nil {
		in.mu.Unlock()
		return 0, false
	}
	in.grow(1, q.depth)
	in.tasks = append(in.tasks, *t)
	in.n.Store(int32(len(in.tasks)))
	id = uint32(q.submitted.Add(1))
	in.mu.Unlock()
	return id, true
}

// SubmitRun queues kernel tasks ts, in order, through the inbox in one
// pass (one lock, one count update: a run of launches one thread hands
// over at once, core's queueRun) as far as the fast path and the ring's
// room allow, and returns the id of the last one queued and how many
// were (0: none). The caller submits the rest one by one (SubmitTask,
// SubmitTaskPast), which takes them as they would have been taken alone.
func (q *Queue) SubmitRun(ts []Task) (last uint32, n int) {
	if submitHook.Load() != nil || !q.in.live.Load() {
		return 0, 0 // fault injection looks at each task (submit)
	}
	k := 0
	for k < len(ts) && ts[k].kind == kindKernel && ts[k].validate() == nil {
		k++
	}
	in := &q.in
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.live.Load() || k == 0 {
		return 0, 0
	}
	k = q.room(k)
	for i := range k {
		if q.d.stamp(q, &ts[i], false) != nil {
			k = i
			break
		}
	}
	if k == 0 {
		return 0, 0
	}
	q.lastVEnd.Store(int64(q.vEnd))
	in.grow(k, q.depth)
	in.tasks = append(in.tasks, ts[:k]...)
	in.n.Store(int32(len(in.tasks)))
	return uint32(q.submitted.Add(uint64(k))), k
}

// room returns how many of want tasks the ring (with the inbox) takes
// now. It reads the lane's completion count (a line the lane writes) only
// when the count read last says there is less room than wanted.
// Precondition: q.in.mu held.
func (q *Queue) room(want int) int {
	in := &q.in
	depth := uint64(q.depth)
	used := min(q.submitted.Load()-in.done, depth)
	if depth-used < uint64(want) {
		in.done = q.completed.Load()
		used = min(q.submitted.Load()-in.done, depth)
	}
	return int(min(uint64(want), depth-used))
}

// grow makes room for k more tasks in the inbox's buffer, growing it in
// the ring's steps (ringSize). Precondition: in.mu held.
func (in *inbox) grow(k, depth int) {
	if need := len(in.tasks) + k; need > cap(in.tasks) {
		b := make([]Task, len(in.tasks), ringSize(cap(in.tasks), need, depth))
		copy(b, in.tasks)
		in.tasks = b
	}
}

// pull moves the inbox into the ring after q's head completed, and turns
// the fast path off when q is left empty.
// Precondition: d.mu held.
func (q *Queue) pull() {
	in := &q.in
	if !in.live.Load() || (q.count > 0 && in.n.Load() == 0) {
		// Not live: nothing was queued there. Nothing queued and tasks
		// left: a submission that races with this check is pulled at
		// the next completion.
		return
	}
	in.mu.Lock()
	b := q.takeInbox()
	if q.count+len(b) == 0 {
		in.live.Store(false)
	}
	in.mu.Unlock()
	q.moveInbox(b)
}

// closeInbox moves the inbox into the ring and turns the fast path off, so
// that the caller may look at or append to the whole queue.
// Precondition: d.mu held.
func (q *Queue) closeInbox() {
	in := &q.in
	if !in.live.Load() {
		return
	}
	in.mu.Lock()
	b := q.takeInbox()
	in.live.Store(false)
	in.mu.Unlock()
	q.moveInbox(b)
}

// openInbox turns the fast path on if q holds tasks and takes new ones.
// Precondition: d.mu held.
func (q *Queue) openInbox() {
	if q.count == 0 || q.destroyed || q.stopped != nil || q.d.closing {
		return
	}
	in := &q.in
	in.mu.Lock()
	in.live.Store(true)
	in.mu.Unlock()
}

// takeInbox returns the inbox's tasks and leaves it the spare buffer.
// Precondition: d.mu and q.in.mu held.
func (q *Queue) takeInbox() []Task {
	in := &q.in
	b := in.tasks
	if len(b) == 0 {
		return nil
	}
	in.tasks, in.spare = in.spare[:0], nil
	in.n.Store(0)
	return b
}

// moveInbox appends b, the tasks taken from the inbox, to the ring,
// growing it as needed (the fast path admits no more than the queue depth
// in all), and keeps b as the inbox's spare buffer.
// Precondition: d.mu held (not q.in.mu: b is no longer the inbox's).
func (q *Queue) moveInbox(b []Task) {
	k := len(b)
	if k == 0 {
		return
	}
	if need := q.count + k; need > len(q.ring) {
		q.growInto(newRing(ringSize(len(q.ring), need, q.depth)))
	}
	for i := range b {
		j := q.head + q.count
		if j >= len(q.ring) {
			j -= len(q.ring)
		}
		q.ring[j] = b[i]
		q.count++
	}
	clear(b)
	q.in.spare = b[:0]
	if !q.active {
		q.active = true
		q.d.busy.Add(1)
		q.d.active[q.prio] = append(q.d.active[q.prio], q)
	}
}
