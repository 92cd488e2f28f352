package tsfw

import (
	"time"

	"github.com/npuemu/npuemu/abi"
)

// Control flow inside replayed graphs: a model run instance built with
// labels and stream switches cannot be laid out in the queues in advance,
// since which tasks run next depends on device memory read at execution
// time. The acl layer ends every straight-line segment with a host task
// that decides what follows and queues it from there with SubmitAfter,
// placed on the virtual clock after the deciding task.

// RunningEnd returns the virtual end of the task q is running (its head);
// with no task queued, the end of the latest one submitted.
func (q *Queue) RunningEnd() time.Duration {
	d := q.d
	d.mu.Lock()
	defer d.mu.Unlock()
	q.closeInbox()
	if q.count == 0 {
		return q.vEnd
	}
	return q.ring[q.head].vEnd
}

// SubmitAfter is SubmitGraph for tasks decided by a running task: none of
// them starts before after on the virtual clock, and it never waits for
// ring space (a ring may grow past the queue depth), because the deciding
// task may be the head of one of the queues and would otherwise wait for
// itself.
func (d *Device) SubmitAfter(after time.Duration, queues []*Queue, tasks []Task, qidx []uint16) error {
	if len(tasks) != len(qidx) {
		return abi.DevErrorf(abi.DevInvalidValue, "%s: graph of %d tasks with %d queue indexes", d.cfg.Name, len(tasks), len(qidx))
	}
	for _, q := range queues {
		if q.d != d {
			return abi.DevErrorf(abi.DevWrongContext, "%s: graph queue %d belongs to %s", d.cfg.Name, q.id, q.d.cfg.Name)
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.schedule()
	for i := range tasks {
		qi := int(qidx[i])
		if qi >= len(queues) {
			return abi.DevErrorf(abi.DevInvalidValue, "%s: graph task %d names queue %d of %d", d.cfg.Name, i, qi, len(queues))
		}
		q := queues[qi]
		q.closeInbox()
		if q.destroyed || d.closing {
			return abi.DevErrorf(abi.DevStreamAbort, "%s: queue %d was destroyed", d.cfg.Name, q.id)
		}
		if q.stopped != nil {
			return q.stopped
		}
		q.vEnd = max(q.vEnd, after)
		if q.count == len(q.ring) {
			q.growPast()
		}
		if err := d.enqueueLocked(q, tasks[i]); err != nil {
			return err
		}
	}
	return nil
}

// growPast doubles a full ring even beyond the queue depth.
// Precondition: d.mu held, q.count == len(q.ring).
func (q *Queue) growPast() {
	r := make([]Task, max(2*len(q.ring), initialRing))
	k := copy(r, q.ring[q.head:])
	copy(r[k:], q.ring[:q.head])
	q.ring, q.head = r, 0
}
