package tsfw

// Submissions that must not wait for ring space. A batch of launches the
// front library deferred (libfake/front/launchq.c, docs/kernels.md
// "Batched launches") is handed over by whichever thread needs it queued
// first: the launching thread, another thread's call or the flush timer.
// If that hand-over waited for space in a full ring, a thread the ring's
// head waits for (an event it records, a host function that calls the
// runtime) would wait for the hand-over: it would never end. So a
// hand-over fills the ring past the queue depth, in submission order, and
// the launching thread alone waits for room (WaitRoom), where an immediate
// launch would have waited, holding nothing another thread needs.

// SubmitIDPast is SubmitID that never waits for ring space: a full ring
// grows past the queue depth (as SubmitAfter's does). Task ids, virtual
// times and order are those SubmitID gives.
func (q *Queue) SubmitIDPast(t Task) (uint32, error) { return q.submitID(t, true) }

// Overfull reports whether q holds more tasks than its depth (a submission
// made now would wait for space).
func (q *Queue) Overfull() bool {
	return q.submitted.Load()-q.completed.Load() > uint64(q.depth)
}

// roomy reports whether q holds no more tasks than its depth: the last
// submission made past the depth would have found its slot by now.
func (q *Queue) roomy() bool {
	return q.submitted.Load()-q.completed.Load() <= uint64(q.depth)
}

// WaitRoom waits until q holds no more tasks than its depth, or q or its
// device is gone: the wait a submission made past the depth owes. Like a
// submitter on a full ring, it first runs q's kernels itself for a while
// (spinSpace), then parks until completions make room.
func (q *Queue) WaitRoom() {
	if q.roomy() {
		return
	}
	d := q.d
	d.mu.Lock()
	q.helping++
	q.helpWanted.Add(1) // a running chain stops (chain.go)
	d.mu.Unlock()
	q.spinSpace()
	d.mu.Lock()
	q.helpWanted.Add(-1)
	if q.helping--; q.helping == 0 {
		d.schedule() // hand q's next kernel to a lane again
	}
	for !q.roomy() && !q.destroyed && !d.closing && q.stopped == nil {
		q.blocked++
		d.space.Wait()
		q.blocked--
	}
	d.mu.Unlock()
}
