package tsfw

import "sync/atomic"

// TaskError describes a task that failed asynchronously, as handed to the
// hook installed with SetTaskErrorHook.
type TaskError struct {
	Queue  *Queue
	TaskID uint32 // the id SubmitID returned for the task
	Err    error
}

// taskErrorHook is process-wide, like the runtime's exception reporting it
// serves: one process holds one runtime, whatever the number of devices.
var taskErrorHook atomic.Pointer[func(TaskError)]

// SetTaskErrorHook installs fn (nil removes it). When a task fails (a copy
// faults, a host task or kernel returns an error), fn runs on a goroutine of
// its own with no lock held, before the task is retired: Synchronize calls
// waiting for the task return only after fn has returned, and the task's
// queue stays blocked meanwhile. fn may call Stop, Abort or Submit of any
// queue; it must not wait for the failed queue.
func SetTaskErrorHook(fn func(TaskError)) {
	if fn == nil {
		taskErrorHook.Store(nil)
		return
	}
	taskErrorHook.Store(&fn)
}

// deferReport hands the failure of q's head task to the hook, if any, and
// reports whether it did; the report goroutine completes the task later.
// The second complete of the same task (from the report) returns false.
// Precondition: d.mu held, q's head task has failed with err.
func (d *Device) deferReport(q *Queue, err error) bool {
	if q.reporting {
		q.reporting = false
		return false
	}
	hp := taskErrorHook.Load()
	if hp == nil {
		return false
	}
	q.reporting = true
	q.inflight = true // still running, as far as the arbiter and Close know
	d.inflight++
	d.wg.Add(1)
	te := TaskError{Queue: q, TaskID: uint32(q.completed.Load() + 1), Err: err}
	go d.report(*hp, te)
	return true
}

func (d *Device) report(fn func(TaskError), te TaskError) {
	defer d.wg.Done()
	func() {
		defer func() { _ = recover() }() // a failing hook must not take the device down
		fn(te)
	}()
	d.mu.Lock()
	d.inflight--
	d.complete(te.Queue, te.Err)
	d.schedule()
	d.mu.Unlock()
}

// Stop makes q refuse every later task with err and drops its queued tasks;
// a task already running finishes (a host wait is cancelled, see
// Cancelled). It models a stream stopped by aclrtStreamStop or by a failure
// in stop-on-failure mode. The first Stop's err stays.
func (q *Queue) Stop(err error) {
	d := q.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if q.destroyed {
		return
	}
	if q.stopped == nil {
		q.stopped = err
	}
	q.cancelWait()
	q.drop()
	d.space.Broadcast() // submitters blocked on a full ring now fail
	d.schedule()
}

// Stopped returns the error q was stopped with, nil if it was not.
func (q *Queue) Stopped() error {
	q.d.mu.Lock()
	defer q.d.mu.Unlock()
	return q.stopped
}

// Abort discards q's queued tasks and cancels a running host wait; a task
// already running on an engine finishes. The Synchronize calls parked on q
// return at once, and the first of them returns err (unless an earlier
// asynchronous error is pending). Unlike Stop, q accepts tasks afterwards.
func (q *Queue) Abort(err error) {
	d := q.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if q.destroyed {
		return
	}
	q.cancelWait()
	q.drop()
	if len(q.waiters) > 0 {
		if q.err == nil {
			q.err = err
			q.hasErr.Store(true)
		}
		for _, w := range q.waiters {
			w.ch <- struct{}{} // buffered; a waiter leaves the list when signalled
		}
		clear(q.waiters)
		q.waiters = q.waiters[:0]
	}
	d.space.Broadcast()
	d.schedule()
}

// Cancelled returns a channel that is closed when the task q is running now
// is cancelled (Abort, Stop, Destroy, device Close). Host tasks that wait for
// something outside the queue (a memory word, a callback thread) select on
// it so that they never strand the queue.
func (q *Queue) Cancelled() <-chan struct{} {
	d := q.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if q.destroyed || d.closing || q.stopped != nil {
		ch := make(chan struct{})
		close(ch)
		return ch
	}
	if q.cancelled {
		ch := make(chan struct{})
		close(ch)
		return ch
	}
	if q.cancel == nil {
		q.cancel = make(chan struct{})
	}
	return q.cancel
}

// cancelWait closes the cancel channel handed out by Cancelled. A host
// task that has been dispatched but has not called Cancelled yet must see
// the cancellation too, so it is remembered until the running task
// completes.
// Precondition: d.mu held.
func (q *Queue) cancelWait() {
	if q.cancel != nil {
		close(q.cancel)
		q.cancel = nil
	}
	if q.inflight {
		q.cancelled = true
	}
}

// Parked returns the number of Synchronize calls parked on q.
func (q *Queue) Parked() int {
	q.d.mu.Lock()
	defer q.d.mu.Unlock()
	return len(q.waiters)
}
