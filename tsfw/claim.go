package tsfw

// Claimed runs: a thread that is about to wait for a queue submits its
// last kernels and runs them itself, with no lane hand-off.
//
// The front batches launches (libfake/front/launchq.c): a launch followed
// by aclrtSynchronizeStream reaches the core as one call that makes the
// launch and then waits for it. Submitted the usual way, the kernel would
// be handed to a lane (a token on another CPU, or a futex wake-up of a
// parked one) while the caller crosses over to its wait, and the completion
// would come back the same way; on a loaded 2-CPU host the lane may not even
// get a CPU. With a claim, the arbiter leaves q's kernels to the caller (as
// it does for a submitter waiting on a full ring, spinSpace) and RunClaimed
// starts and runs them on the calling thread. Who runs a kernel never
// changes its virtual times.

// Claim makes the caller the runner of q's kernels until RunClaimed: the
// arbiter hands none of them to a lane meanwhile. Every Claim must be
// followed by one RunClaimed.
//
// The count is atomic, not taken under Device.mu: an arbiter pass that
// misses it hands a lane only a task queued before the claim, which it
// could have done before a locked claim as well; the caller's own
// launches are queued after the claim, through Device.mu or the inbox
// (whose drain runs under Device.mu), so the arbiter sees it by then.
func (q *Queue) Claim() {
	q.helping.Add(1) // a running chain of q stops too (chain.go)
}

// RunClaimed runs q's kernels on the calling thread, in order, while q's
// head is a kernel that can start (cores free, none in flight), then ends
// the claim: what is left (a task that is not a kernel, a kernel waiting
// for cores or run by a lane) goes back to the arbiter, and the caller
// waits for it as usual.
func (q *Queue) RunClaimed() { q.RunClaimedFor(nil, nil) }

// A ClaimRun is the kernel a claim's holder started ahead: SubmitClaimedPast
// starts q's head kernel, with the caller as its lane, in the critical
// section that queues the task, and RunClaimedFor runs it first, without
// taking Device.mu again to start it (one lock less on a launch +
// synchronize's path). The zero ClaimRun holds nothing; it belongs to one
// thread's crossing, as the claim does.
type ClaimRun struct{ l *lane }

// SubmitClaimedPast is SubmitTaskPast by the holder of a claim of q whose
// run c holds nothing yet: when q's head is a kernel that can start on the
// caller once t is queued (as RunClaimed would start it), it is started
// there and c holds it. A c that holds a kernel must be passed to
// RunClaimedFor.
func (q *Queue) SubmitClaimedPast(t *Task, c *ClaimRun) (id uint32, past bool, err error) {
	id, err = q.submit(t, &past, c)
	return id, past, err
}

// RunClaimedFor is RunClaimed for the holder of run c (SubmitClaimedPast;
// nil: none), with its scheduling tick tk (Turn; nil: none): the kernel c
// holds runs first, and c holds nothing after.
func (q *Queue) RunClaimedFor(c *ClaimRun, tk *Turn) {
	d := q.d
	var l *lane
	if c != nil {
		l, c.l = c.l, nil
	}
	for {
		if l == nil {
			d.mu.Lock()
			if l = d.startInline(q); l == nil {
				q.endClaim()
				d.mu.Unlock()
				return
			}
			d.mu.Unlock()
		}
		// Each kernel that ends here starts q's next one in the same
		// critical section while q holds tasks, and ends the claim there
		// when none starts.
		for l != nil {
			var ended bool
			if l, ended = d.runInline(l, q, 0, true, tk); ended {
				return
			}
		}
	}
}

// Claimed reports whether a thread runs q's kernels itself now (Claim,
// or a submitter waiting for ring space): a kernel ending meanwhile most
// likely ends on that thread.
func (q *Queue) Claimed() bool { return q.helping.Load() > 0 }

// endClaim ends one claim of q: the arbiter may hand q's kernels to lanes
// again once no claim or waiting submitter holds q.
// Precondition: q.d.mu held.
func (q *Queue) endClaim() {
	if q.helping.Add(-1) == 0 {
		q.d.schedule()
	}
}
