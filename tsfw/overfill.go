package tsfw

// Submissions that must not wait for ring space. A batch of launches the
// front library deferred (libfake/front/launchq.c, docs/kernels.md
// "Batched launches") is handed over by whichever thread needs it queued
// first: the launching thread, another thread's call or the flush timer.
// If that hand-over waited for space in a full ring, a thread the ring's
// head waits for (an event it records, a host function that calls the
// runtime) would wait for the hand-over: it would never end. So a
// hand-over fills the ring past the queue depth, in submission order, and
// the launching thread alone waits for room (WaitRoom), for the slot an
// immediate launch would have waited for, holding nothing another thread
// needs.

// SubmitIDPast is SubmitID that never waits for ring space: a full ring
// grows past the queue depth (as SubmitAfter's does); past reports that it
// did (the task owes a wait: RoomFor). Task ids, virtual times and order
// are those SubmitID gives.
func (q *Queue) SubmitIDPast(t Task) (id uint32, past bool, err error) {
	return q.SubmitTaskPast(&t)
}

// SubmitTaskPast is SubmitIDPast with the task by pointer (SubmitTask).
func (q *Queue) SubmitTaskPast(t *Task) (id uint32, past bool, err error) {
	id, err = q.submit(t, &past, nil)
	return id, past, err
}

// RoomFor returns how many of q's tasks must have completed before the
// task with id (SubmitIDPast's, the caller's latest) would have found its
// slot, submitted with SubmitID: the wait it owes (WaitRoom); 0 when none
// is owed any more.
func (q *Queue) RoomFor(id uint32) uint64 {
	sub := q.submitted.Load()
	pos := sub - uint64(uint32(sub)-id) // id's 1-based position: at most sub, within 2^32 of it
	if pos <= uint64(q.depth) {
		return 0
	}
	need := pos - uint64(q.depth) // a submission waits while depth tasks are ahead of it
	if q.completed.Load() >= need {
		return 0
	}
	return need
}

// WaitRoom waits until q has completed need tasks, or q or its device is
// gone: the wait RoomFor says a submission made past the depth owes. Like
// a submitter on a full ring, it first runs q's kernels itself for a while
// (spinSpace), then parks until completions make room.
func (q *Queue) WaitRoom(need uint64) {
	done := func() bool { return q.completed.Load() >= need }
	if done() {
		return
	}
	d := q.d
	d.mu.Lock()
	q.helpSpin()
	for !done() && !q.destroyed && !d.closing && q.stopped == nil {
		q.blocked++
		d.space.Wait()
		q.blocked--
	}
	d.mu.Unlock()
}
