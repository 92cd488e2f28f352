package core

import (
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// The queueing point (docs/internals.md, "Queueing"). Every task the ACL
// layer puts on a stream — copies, memsets, kernels, event and notify
// records and waits, host functions and callbacks, value writes and waits,
// built-in and model-internal tasks — goes through Stream.Queue (or
// QueueTask, its body, which the launch path calls with its task by
// pointer). It
//
//  1. asks capturing() (one atomic load when no capture is active) and, on
//     a capturing, persistent or bound stream, hands the task to the
//     recorder (capture.go) instead of the queue;
//  2. lets the sanitizer describe the task (only when NPUEMU_SANITIZE is
//     set: one predictable branch otherwise, nothing allocated);
//  3. queues it on the stream's tsfw queue;
//  4. notes the task id for aclrtGetThreadLastTaskId when the task counts.
//
// The submit/submitTask/submitImage helpers are thin names for it. Model
// execution (SubmitGraph, modelri.go) queues a whole plan at once: its tasks
// were recorded through this point when they were captured or built.

// Queued is what the queueing point needs besides the task.
type Queued struct {
	Launch  *Launch           // a kernel task's launch (launch.go): once recorded, the recorder owns it
	ValueOp *ValueOp          // a value write or wait (capture.go): recorded with its parameters, seen by the sanitizer
	Sync    any               // the event or notify a record or wait task acts on (sanitizer ordering)
	Strict  bool              // a wait on sync before any record is a sanitizer report (false for IPC and notifies)
	Acc     []sanitize.Access // the task's exact footprint, when the caller knows it (sanitizer on only)
	Counted bool              // the task becomes the thread's last task (aclrtGetThreadLastTaskId)
	// Internal marks a task the runtime adds on its own to order its own
	// work (a memory pool's reuse dependency): it is queued even on a
	// capturing stream, as it belongs to no capture.
	Internal bool
	Handover *Handover // a front hand-over: never wait for ring space (tsfw.Queue.SubmitIDPast)
}

// ActiveCaptures counts captures between Begin and End, process-wide
// (capture.go).
var ActiveCaptures atomic.Int32

// Capturing reports whether a submission to s must take the recorder
// path: s records, is persistent, or some capture may pull it in.
func (s *Stream) Capturing() bool {
	return s.Rec.Load() != nil || s.Flags&abi.ACL_STREAM_PERSISTENT != 0 || ActiveCaptures.Load() != 0
}

// Queue is the one place where a task is queued on s by thread t (nil for
// a task the runtime issues on its own).
func (s *Stream) Queue(t *Thread, fn string, task tsfw.Task, x Queued) error {
	return s.QueueTask(t, fn, &task, x)
}

// QueueTask is Queue with the task by pointer (the launch path builds a
// 224-byte task once rather than copying it at every layer); *task is the
// caller's again when it returns.
func (s *Stream) QueueTask(t *Thread, fn string, task *tsfw.Task, x Queued) error {
	if !x.Internal && s.Capturing() {
		if done, err := recordTask(s, t, fn, *task, x); done { // capture.go
			return err
		}
	}
	sealFreed()
	if t != nil {
		t.numberTask(s.SQ, task) // launch_seq.go
	}
	var op *sanitize.Op
	if Sanitizing {
		op = sanitizeQueuedOp(fn, *task, x) // before SubmitID: a launch may be recycled once queued
	}
	var id uint32
	var err error
	if x.Handover != nil {
		var past bool
		if t != nil && t.claim.s == s { // the kernel starts for t's synchronisation (Claim)
			id, past, err = s.SQ.SubmitClaimedPast(task, &t.claim.run)
		} else {
			id, past, err = s.SQ.SubmitTaskPast(task)
		}
		if err == nil {
			x.Handover.queued(s.SQ, id, past)
		}
	} else {
		id, err = s.SQ.SubmitTask(task)
	}
	if op != nil && err == nil {
		sanitizeQueued(t, s, id, op)
	}
	if x.Counted {
		return s.noteSubmit(t, fn, id, err)
	}
	if err != nil {
		return abi.Wrapf(err, "%s: stream %d", fn, s.ID)
	}
	return nil
}

// queueRun is QueueTask for the prepared launches ls of a run (tasks:
// theirs, in order; a capturing stream's or a sanitized process's runs
// never come here, RunQueueable): as many as the stream's inbox takes in
// one pass (tsfw.Queue.SubmitRun), the rest one by one. It returns the
// first error.
func (s *Stream) queueRun(t *Thread, fn string, tasks []tsfw.Task, ls []*Launch, ho *Handover) error {
	if len(tasks) == 0 {
		return nil
	}
	sealFreed()
	for i := range tasks {
		t.numberTask(s.SQ, &tasks[i])
	}
	last, m := s.SQ.SubmitRun(tasks)
	if m > 0 {
		if ho != nil {
			ho.queued(s.SQ, last, false)
		}
		_ = s.noteSubmit(t, fn, last, nil)
	}
	var first error
	for i := m; i < len(tasks); i++ {
		if err := queueLaunch(t, fn, s, ls[i], &tasks[i], ho); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// sealFreed makes freed device pages inaccessible before any task runs
// (emu/hbm_protect.go).
func sealFreed() {
	if emu.SealPending() {
		emu.SealAll()
	}
}

// Submit queues a task that does not count as the thread's last task
// (event, notify and runtime-internal tasks).
func (s *Stream) Submit(t *Thread, fn string, task tsfw.Task) error {
	return s.Queue(t, fn, task, Queued{})
}

// SubmitTask queues task on s for thread t and records its task id.
func (s *Stream) SubmitTask(t *Thread, fn string, task tsfw.Task) error {
	return s.Queue(t, fn, task, Queued{Counted: true})
}

// Handover is what a hand-over's queued launches tell it: the queue of the
// last one and its task id (q nil: none was queued on a ring), and whether
// any went past the ring's depth.
type Handover struct {
	Queue *tsfw.Queue
	Last  uint32
	Past  bool
}

// queued notes a hand-over's launches queued on q up to task id, past
// when one went past the ring's depth.
func (h *Handover) queued(q *tsfw.Queue, id uint32, past bool) {
	h.Queue, h.Last, h.Past = q, id, h.Past || past
}

// noteSubmit records a submission's id, or wraps its error.
func (s *Stream) noteSubmit(t *Thread, fn string, id uint32, err error) error {
	if err != nil {
		return abi.Wrapf(err, "%s: stream %d", fn, s.ID)
	}
	if !s.IsDefault {
		t.LastTask, t.HasLastTask = id, true
	}
	if s.Submitter.Load() != t.ID { // (a store is an exchange; one thread per stream is the rule)
		s.Submitter.Store(t.ID)
	}
	return nil
}
