package acl

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
// built-in and model-internal tasks — goes through Stream.queue. It
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
// execution (SubmitGraph, mdlri.go) queues a whole plan at once: its tasks
// were recorded through this point when they were captured or built.

// queued is what the queueing point needs besides the task.
type queued struct {
	l       any               // a kernel task's *launch (kernel.go; queuedLaunch): once recorded, the recorder owns it
	op      any               // a value write or wait, *valueOp (capture.go; queuedValueOp): recorded with its parameters, seen by the sanitizer
	sync    any               // the event or notify a record or wait task acts on (sanitizer ordering)
	strict  bool              // a wait on sync before any record is a sanitizer report (false for IPC and notifies)
	acc     []sanitize.Access // the task's exact footprint, when the caller knows it (sanitizer on only)
	counted bool              // the task becomes the thread's last task (aclrtGetThreadLastTaskId)
	// internal marks a task the runtime adds on its own to order its own
	// work (a memory pool's reuse dependency): it is queued even on a
	// capturing stream, as it belongs to no capture.
	internal bool
	handover *handover // a front hand-over: never wait for ring space (tsfw.Queue.SubmitIDPast)
}

// activeCaptures counts captures between Begin and End, process-wide
// (capture.go).
var activeCaptures atomic.Int32

// capturing reports whether a submission to s must take the recorder
// path: s records, is persistent, or some capture may pull it in.
func (s *Stream) capturing() bool {
	return s.rec.Load() != nil || s.flags&abi.ACL_STREAM_PERSISTENT != 0 || activeCaptures.Load() != 0
}

// queue is the one place where a task is queued on s by thread t (nil for
// a task the runtime issues on its own).
func (s *Stream) queue(t *Thread, fn string, task tsfw.Task, x queued) error {
	if !x.internal && s.capturing() {
		if done, err := families.record(s, t, fn, task, x); done {
			return err
		}
	}
	if emu.SealPending() {
		emu.SealAll() // freed device pages become inaccessible before any task runs (emu/hbm_protect.go)
	}
	var op *sanitize.Op
	if *families.sanitizing {
		op = families.sanitizeOp(fn, task, x) // before SubmitID: a launch may be recycled once queued
	}
	var id uint32
	var err error
	if x.handover != nil {
		var past bool
		id, past, err = s.q.SubmitIDPast(task)
		if err == nil {
			h := x.handover
			h.q, h.last, h.past = s.q, id, h.past || past
		}
	} else {
		id, err = s.q.SubmitID(task)
	}
	if op != nil && err == nil {
		families.sanitizeQueued(t, s, id, op)
	}
	if x.counted {
		return s.noteSubmit(t, fn, id, err)
	}
	if err != nil {
		return abi.Wrapf(err, "%s: stream %d", fn, s.id)
	}
	return nil
}

// submit queues a task that does not count as the thread's last task
// (event, notify and runtime-internal tasks).
func (s *Stream) submit(t *Thread, fn string, task tsfw.Task) error {
	return s.queue(t, fn, task, queued{})
}

// submitTask queues task on s for thread t and records its task id.
func (s *Stream) submitTask(t *Thread, fn string, task tsfw.Task) error {
	return s.queue(t, fn, task, queued{counted: true})
}

// handover is what a hand-over's queued launches tell it: the queue of the
// last one and its task id (q nil: none was queued on a ring), and whether
// any went past the ring's depth.
type handover struct {
	q    *tsfw.Queue
	last uint32
	past bool
}

// noteSubmit records a submission's id, or wraps its error.
func (s *Stream) noteSubmit(t *Thread, fn string, id uint32, err error) error {
	if err != nil {
		return abi.Wrapf(err, "%s: stream %d", fn, s.id)
	}
	if !s.isDefault {
		t.lastTask, t.hasLastTask = id, true
	}
	s.submitter.Store(t.ID)
	return nil
}
