package tsfw

import "github.com/npuemu/npuemu/abi"

// Graph replay: the acl layer records the task descriptors of a captured
// stream (a model run instance) and later submits them again, many times.
// A recorded descriptor was validated when it was captured, so replaying it
// needs neither validation nor one lock round trip per task: SubmitGraph
// takes the device lock once for the whole sequence and runs the arbiter
// once at the end.

// Validate runs the checks Submit would run on t, so that a recorder can
// refuse a malformed task at capture time instead of at replay.
func (t *Task) Validate() error { return t.validate() }

// Kind names the task's kind ("copy", "memset", "record", "wait", "reset",
// "host", "engine", "kernel", ...), for introspection and debug output.
func (t *Task) Kind() string { return t.kind.String() }

// IsKernel, IsRecord, IsWait and IsReset classify a descriptor.
func (t *Task) IsKernel() bool { return t.kind == kindKernel }

// IsRecord reports whether t records an event.
func (t *Task) IsRecord() bool { return t.kind == kindRecord }

// IsWait reports whether t waits for an event.
func (t *Task) IsWait() bool { return t.kind == kindWait }

// IsReset reports whether t resets an event.
func (t *Task) IsReset() bool { return t.kind == kindReset }

// Event returns the event of a record, wait or reset task (nil otherwise).
func (t *Task) Event() *Event {
	switch t.kind {
	case kindRecord, kindWait, kindReset:
		return t.ev
	}
	return nil
}

// WithEvent returns a copy of the record, wait or reset task t that acts
// on e instead: a recorder maps the application's events to its own.
func (t Task) WithEvent(e *Event) Task {
	t.ev = e
	return t
}

// KernelOf returns the kernel and spec of a kernel task.
func (t *Task) KernelOf() (Kernel, KernelSpec) { return t.kern, t.ks }

// TaskInfo describes a descriptor for debug output.
type TaskInfo struct {
	Kind   string `json:"kind"`
	Dst    uint64 `json:"dst,omitempty"`
	Src    uint64 `json:"src,omitempty"`
	Bytes  uint64 `json:"bytes,omitempty"`
	Height uint64 `json:"height,omitempty"`
	Value  uint8  `json:"value,omitempty"`
	Dir    int    `json:"dir,omitempty"`
	Event  int    `json:"event,omitempty"`
	Blocks uint32 `json:"blocks,omitempty"`
}

// Info describes t.
func (t *Task) Info() TaskInfo {
	in := TaskInfo{Kind: t.kind.String(), Dst: uint64(t.dst), Src: uint64(t.src), Bytes: t.n, Height: t.height, Value: t.value, Dir: int(t.dir)}
	if t.ev != nil {
		in.Event = int(t.ev.id)
	}
	if t.kind == kindKernel {
		in.Blocks = t.ks.Blocks
	}
	return in
}

// SubmitGraph appends tasks[i] to queues[qidx[i]] for every i, in order,
// as Submit would, but under one acquisition of the device lock; the
// arbiter runs once at the end (and before any wait for ring space). The
// queues must belong to d and the tasks must have been validated. On an
// error the tasks before the failing one stay submitted.
func (d *Device) SubmitGraph(queues []*Queue, tasks []Task, qidx []uint16) error {
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
	// Whatever was queued runs, even when a later task fails.
	defer d.schedule()
	for i := range tasks {
		qi := int(qidx[i])
		if qi >= len(queues) {
			return abi.DevErrorf(abi.DevInvalidValue, "%s: graph task %d names queue %d of %d", d.cfg.Name, i, qi, len(queues))
		}
		q := queues[qi]
		for {
			q.closeInbox() // again after a wait: a submitter may have turned it on
			if q.destroyed || d.closing {
				return abi.DevErrorf(abi.DevStreamAbort, "%s: queue %d was destroyed", d.cfg.Name, q.id)
			}
			if q.stopped != nil {
				return q.stopped
			}
			if q.count < q.depth {
				break
			}
			// Let what is queued run, then wait for a slot.
			d.schedule()
			q.blocked++
			d.space.Wait()
			q.blocked--
		}
		if q.count == len(q.ring) {
			q.grow()
		}
		if err := d.enqueueLocked(q, tasks[i]); err != nil {
			return err
		}
	}
	return nil
}

// enqueueLocked stamps a copy of t and appends it to q, whose ring has a
// free slot.
// Precondition: d.mu held, q.count < len(q.ring).
func (d *Device) enqueueLocked(q *Queue, t Task) error {
	if err := d.stamp(q, &t, true); err != nil {
		return err
	}
	j := q.head + q.count
	if j >= len(q.ring) {
		j -= len(q.ring)
	}
	q.ring[j] = t
	q.count++
	q.submitted.Add(1)
	if !q.active {
		q.active = true
		d.busy.Add(1)
		d.active[q.prio] = append(d.active[q.prio], q)
	}
	return nil
}
