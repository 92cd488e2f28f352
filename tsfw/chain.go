package tsfw

import (
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/timeline"
)

// Chained kernels. A lane that ends a one-block kernel and finds more
// one-block kernels of the same kind queued right behind it in the same
// queue (a launch loop's, typically moved there from the inbox in one
// pull) runs up to maxChain of them on the core it holds, without the
// device lock between them and without a pass of the arbiter each: one
// lock to claim them, one to retire them. Each still completes as its own
// task, in order, with its own virtual end (stamped at submission), so
// virtual time and every observable order are those of running them one
// by one; only the host sees the completions of a chain arrive together.
//
// A chain is taken only when both pools still have a free core, or no
// other queue has a kernel waiting at its head (it would have had the
// core by the arbiter's order); never under pacing or for kernels with a
// timeout. While a submitter runs the queue's kernels itself (its ring is
// full: spinSpace), a lane takes no chain, but that submitter does: it
// runs the kernels it needs to get below its limit as chains of up to
// maxChain on the core it holds (an own chain), so a launch loop that
// outruns the lanes pays one lock and one completion pass per chain
// instead of a dispatch, a completion and an arbiter pass per kernel. Tasks claimed by a running chain count as
// running: Stop, Abort and Destroy(false) keep them (drop).

// maxChain bounds the kernels one chain claims.
const maxChain = 64

// maxBatch bounds the kernels of a chain run in one call (BatchKernel): a
// submitter waiting for ring space (helping) is heard between calls.
const maxBatch = 16

// chained is what a chain needs of one claimed task.
type chained struct {
	kern Kernel
	ks   KernelSpec
}

// chainable returns how many tasks behind q's head (r's kernel, which has
// ended) r's lane may run as a chain, at most most; own: the lane is the
// submitter helping q (spinSpace), else no chain is taken while one helps.
// Precondition: d.mu held, r's task is q's head.
func (d *Device) chainable(q *Queue, r *krun, own bool, most int) int {
	if !r.solo || r.ks.Blocks != 1 || (q.helping.Load() > 0 && !own) || q.destroyed || q.stopped != nil || d.closing || d.cfg.Pacing > 0 {
		return 0
	}
	k := 0
	for i := 1; i < q.count && k < most; i++ {
		j := q.head + i
		if j >= len(q.ring) {
			j -= len(q.ring)
		}
		t := &q.ring[j]
		if t.kind != kindKernel || t.ks.Blocks != 1 || t.ks.Kind != r.ks.Kind || t.ks.MixVector != r.ks.MixVector || t.ks.Timeout != 0 {
			break
		}
		k++
	}
	if k == 0 {
		return 0
	}
	if d.aic.freeCube > 0 && (d.aic.vectorCores == 0 || d.aic.freeVector > 0) {
		return k // a kernel waiting elsewhere is not short of a core we hold
	}
	for p := range d.active {
		for _, x := range d.active[p] {
			if x != q && !x.inflight && x.count > 0 && x.ring[x.head].kind == kindKernel {
				return 0
			}
		}
	}
	return k
}

// runChain runs the k kernels at q's head (claimed: r's previous task has
// just been completed) on r's core, releasing d.mu meanwhile, and retires
// all but the last one run, which becomes r's task for the caller to
// complete with the error returned. A kernel that fails ends the chain, and
// so does a submitter starting to run the queue's kernels itself (unless
// the chain is its own); the claimed kernels after that stay queued.
// Precondition: d.mu held; on return d.mu held.
func (d *Device) runChain(q *Queue, r *krun, k int, own bool) error {
	var buf [maxChain]chained
	c := buf[:k]
	for i := range c {
		j := q.head + i
		if j >= len(q.ring) {
			j -= len(q.ring)
		}
		t := &q.ring[j]
		c[i] = chained{kern: t.kern, ks: t.ks}
	}
	q.inflight = true
	q.chain = k
	d.mu.Unlock()
	n := 0
	var err error
	for n < k {
		ran, runErr := runChained(r, c[n:min(k, n+maxBatch)])
		doneBatch(r, c[n:n+ran-1])
		err = callDone(r.kern, runErr)
		n += ran
		if err != nil || (!own && q.helping.Load() > 0) {
			break // a submitter waits for ring space: it runs the rest (spinSpace)
		}
	}
	clear(c)
	d.mu.Lock()
	q.chain = 0
	d.completeChain(q, n-1)
	q.inflight = true // the last kernel run is still to be completed
	r.vEnd = q.ring[q.head].vEnd
	return err
}

// completeChain retires the k tasks at q's head that a chain ran without
// error, as k calls of complete (device.go; keep the two in step) would, with the completed count, the
// device clock and the inbox (pull) updated once instead of k times: no
// one sees the difference, all k ended before this critical section.
// Precondition: d.mu held; q holds more than k tasks (the chain's last
// kernel is still to be completed), so q stays active.
func (d *Device) completeChain(q *Queue, k int) {
	if k <= 0 {
		return
	}
	var end time.Duration
	for range k {
		t := &q.ring[q.head]
		if timeline.Enabled() {
			d.traceDone(t, nil)
		}
		end = max(end, t.vEnd)
		*t = Task{}
		q.head++
		if q.head == len(q.ring) {
			q.head = 0
		}
	}
	q.count -= k
	atomicMax(&d.now, end)
	q.inflight = false
	q.cancelled = false
	q.completed.Add(uint64(k))
	q.pull()
	q.wakeWaiters()
	if q.blocked > 0 {
		d.space.Broadcast()
	}
	if d.closing {
		d.idle.Broadcast()
	}
	d.memChanged()
}

// ownChain returns the most kernels a chain may take: maxChain for a lane
// (next nil), and for a submitter helping next, those it must still run
// to bring next's backlog down to limit, besides the one that just ended.
func ownChain(next *Queue, limit uint64) int {
	if next == nil {
		return maxChain
	}
	left := next.submitted.Load() - next.completed.Load() // the kernel that ended included
	if left <= limit+1 {
		return 0
	}
	return int(min(left-limit-1, maxChain))
}

// BatchKernel is a Kernel whose one block a chain runs together with the
// one blocks of the kernels behind it that the same call can run (C
// kernels of one host: one crossing into C for up to maxBatch of them
// instead of one each, a third of a launch loop's lane work).
type BatchKernel interface {
	Kernel
	// RunBatch runs the single block of ks[0], the receiver, and of as
	// many of the kernels after it as it can, in order, stopping after
	// the first that fails; it returns how many it ran (at least one)
	// and the failing one's error. Done(nil) of a kernel it ran without
	// error must return nil.
	RunBatch(ks []Kernel) (int, error)
}

// BatchDone is implemented by a BatchKernel that also completes several
// kernels RunBatch ran without error in one call: Done(nil) of each, in order, with what
// they share (a list lock) taken once. It clears ks[i] once kernel i is
// done, so that after a panic the others are done one by one.
type BatchDone interface {
	DoneBatch(ks []Kernel)
}

// doneBatch calls Done(nil) of the kernels of c, which a batch ran without
// error: in one call when the first is a BatchDone (r.batch holds them
// meanwhile), else one by one.
func doneBatch(r *krun, c []chained) {
	if len(c) == 0 {
		return
	}
	b, ok := c[0].kern.(BatchDone)
	if !ok || len(c) == 1 {
		for i := range c {
			_ = callDone(c[i].kern, nil) // nil for a block RunBatch ran (BatchKernel)
		}
		return
	}
	ks := r.batch[:len(c)]
	for i := range c {
		ks[i] = c[i].kern
	}
	defer clear(ks)
	defer func() {
		if recover() == nil {
			return
		}
		// As one by one: the kernel that panicked is done (callDone's
		// result is dropped here), the ones after it are done alone.
		i := 0
		for i < len(ks) && ks[i] == nil {
			i++
		}
		for _, k := range ks[min(i+1, len(ks)):] {
			if k != nil {
				_ = callDone(k, nil)
			}
		}
	}()
	b.DoneBatch(ks)
}

// runChained runs the next kernels of a chain on r's lane: c[0] alone, or
// with those after it that RunBatch takes; it leaves the last one run in
// r and returns how many ran and that one's error.
func runChained(r *krun, c []chained) (int, error) {
	r.kern, r.ks = c[0].kern, c[0].ks
	b, ok := r.kern.(BatchKernel)
	if !ok || len(c) == 1 {
		if !r.alone { // (a chain's runs are alone, short.go: a store is an exchange)
			r.next.Store(0)
		}
		if r.failed.Load() {
			r.failed.Store(false)
		}
		r.err = nil
		runLane(r, nil)
		return 1, r.err
	}
	ks := r.batch[:len(c)] // r's, not the stack's: RunBatch's argument escapes
	for i := range c {
		ks[i] = c[i].kern
	}
	n, err := runBatch(b, ks)
	clear(ks)
	r.kern, r.ks = c[n-1].kern, c[n-1].ks
	return n, err
}

// runBatch is b.RunBatch(ks) with a panic reported as runLane reports
// one (of the first kernel: how many ran is not known).
func runBatch(b BatchKernel, ks []Kernel) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			n, err = 1, abi.DevErrorf(abi.DevAICoreException, "kernel block 0/1 panicked: %v", p)
		}
	}()
	n, err = b.RunBatch(ks)
	if n < 1 || n > len(ks) {
		return 1, abi.DevErrorf(abi.DevInternal, "batch of %d kernels: %d reported run", len(ks), n)
	}
	return n, err
}
