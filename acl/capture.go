package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Stream capture (aclmdlRICapture*, semantics.md §18). While a stream
// captures, the tasks issued to it are recorded as tsfw descriptors in the
// model run instance (ModelRI) created by CaptureBegin instead of being
// queued. Recording an event on a capturing stream and making another
// stream wait for it pulls that stream into the capture; the application's
// events are mapped to events owned by the RI, so a replay orders its
// branches exactly as the capture did without touching the application's
// events. The same recorder path serves persistent streams bound to an RI
// (explicit build) and streams re-issuing a task group (task update).
//
// The one queueing point (Stream.queue, rt/core/submit.go) asks s.capturing()
// first: one atomic load of the stream's recorder, its
// flags and the process-wide count of active captures, so streams outside
// any capture pay nothing more.
//
// Lock order: core.Runtime.Mu → ModelRI.execMu → capState.mu. capState.mu guards
// every capture and the recorded contents of every RI; it is never held
// while core.Runtime.Mu is taken.

// External record/wait flags of a captured event step.
const (
	stepExternal = 1
)

func initCapState() {
	if core.CapState.Events == nil {
		core.CapState.Events = map[*tsfw.Event]*core.Capture{}
		core.CapState.Modes = map[*core.Thread]int32{}
		core.CapState.ByStrm = map[*core.Stream]*core.ModelRI{}
	}
}

func checkCaptureMode(fn string, mode int32) error {
	if mode < abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || mode > abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: mode %d: want ACL_MODEL_RI_CAPTURE_MODE_GLOBAL (0), _THREAD_LOCAL (1) or _RELAXED (2)", fn, mode)
	}
	return nil
}

// CaptureBegin implements aclmdlRICaptureBegin.
func CaptureBegin(t *core.Thread, sh core.Handle, mode int32) error {
	const fn = "aclmdlRICaptureBegin"
	if err := checkCaptureMode(fn, mode); err != nil {
		return err
	}
	if sh == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, "%s: the default (NULL) stream cannot be captured", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if s.IsDefault {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, "%s: stream %d is a default stream, which cannot be captured", fn, s.ID)
	}
	if s.Flags&abi.ACL_STREAM_PERSISTENT != 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d is persistent (ACL_STREAM_PERSISTENT): it records for aclmdlRIBuildBegin, not for capture", fn, s.ID)
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	initCapState()
	if r := core.RecorderOf(s); r != nil {
		if r.Kind == core.RecCapture {
			return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is already capturing", fn, s.ID)
		}
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d is re-issuing a task group (aclmdlRICaptureTaskUpdateBegin)", fn, s.ID)
	}
	ri := core.NewModelRI(s.Ctx, true)
	c := &core.Capture{Ri: ri, Mode: mode, Thread: t, Origin: s, Dev: s.Ctx.Dev,
		Evmap: map[*tsfw.Event]*tsfw.Event{}, LastRec: map[*tsfw.Event]int{},
		Grp: map[*core.Stream]*core.TaskGrp{}, Rec: map[*core.Stream]*core.Recorder{}}
	ri.Cap = c
	c.JoinLocked(s)
	core.CapState.List = append(core.CapState.List, c)
	core.ActiveCaptures.Add(1)
	return nil
}

// CaptureEnd implements aclmdlRICaptureEnd: the capture ends whatever the
// outcome; an invalidated capture (507903) or one with a branch that did
// not rejoin the origin stream (107025) yields no RI.
func CaptureEnd(t *core.Thread, sh core.Handle, out *core.Handle) error {
	const fn = "aclmdlRICaptureEnd"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: modelRI must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	r := core.RecorderOf(s)
	if r == nil || r.Kind != core.RecCapture {
		core.CapState.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %d is not capturing", fn, s.ID)
	}
	c := r.Cap
	if c.Origin != s {
		core.CapState.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, "%s: stream %d joined a capture that began on stream %d: end it there", fn, s.ID, c.Origin.ID)
	}
	if c.Mode != abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED && c.Thread != t {
		core.CapState.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, "%s: the capture of stream %d began on another thread (only ACL_MODEL_RI_CAPTURE_MODE_RELAXED captures may end elsewhere)", fn, s.ID)
	}
	c.DetachLocked()
	ri := c.Ri
	var fail error
	switch {
	case c.Invalid != nil:
		fail = abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "%s: the capture was invalidated: %s", fn, abi.MessageOf(c.Invalid))
	default:
		if u := c.Unjoined(); u != nil {
			fail = abi.Errorf(abi.ACL_ERROR_RT_STREAM_UNJOINED, "%s: stream %d joined the capture but its work was not joined back into stream %d (record an event on it and wait for it on the origin stream)", fn, u.ID, s.ID)
		}
	}
	for _, g := range c.Grp {
		g.Open = false
	}
	ri.Cap = nil
	core.CapState.Mu.Unlock()
	if fail != nil {
		ri.Release()
		return fail
	}
	if err := ri.FinishCapture(fn, c); err != nil {
		ri.Release()
		return err
	}
	*out = ri.H
	return nil
}

// CaptureGetInfo implements aclmdlRICaptureGetInfo.
func CaptureGetInfo(t *core.Thread, sh core.Handle, status *int32, out *core.Handle) error {
	const fn = "aclmdlRICaptureGetInfo"
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: status must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	*status = abi.ACL_MODEL_RI_CAPTURE_STATUS_NONE
	r := core.RecorderOf(s)
	if r == nil || r.Kind != core.RecCapture {
		return nil
	}
	*status = abi.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE
	if r.Cap.Invalid != nil {
		*status = abi.ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
	}
	if out != nil {
		*out = r.Cap.Ri.H
	}
	return nil
}

// CaptureThreadExchangeMode implements aclmdlRICaptureThreadExchangeMode:
// the calling thread's mode becomes *mode and *mode receives the old one.
func CaptureThreadExchangeMode(t *core.Thread, mode *int32) error {
	const fn = "aclmdlRICaptureThreadExchangeMode"
	if mode == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: mode must not be NULL", fn)
	}
	if err := checkCaptureMode(fn, *mode); err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	initCapState()
	old, ok := core.CapState.Modes[t]
	if !ok {
		old = abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
	}
	core.CapState.Modes[t] = *mode
	*mode = old
	return nil
}

// unsafeGuard refuses a potentially unsafe call (aclrtMemcpy, aclrtMemset,
// aclrtMemcpy2d) of thread t while a capture forbids it: a capture of t
// not begun RELAXED, or, unless t's own mode is THREAD_LOCAL or RELAXED, a
// GLOBAL capture of any thread. The captures that forbid it are
// invalidated.
func unsafeGuard(t *core.Thread, fn string) error {
	if core.ActiveCaptures.Load() == 0 {
		return nil
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	tm, ok := core.CapState.Modes[t]
	if !ok {
		tm = abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
	}
	if tm == abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED {
		return nil
	}
	var err error
	for _, c := range core.CapState.List {
		own := c.Thread == t && c.Mode != abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED
		global := tm == abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && c.Mode == abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
		if own || global {
			if err == nil {
				err = core.ErrBlocked(fn, "a stream is capturing and the capture mode is not relaxed")
			}
			c.Invalidate(err)
		}
	}
	return err
}

// eventGuard refuses synchronising or querying an event whose latest
// record was captured by an active capture, and invalidates the capture.
func eventGuard(e *core.Event, fn string) error {
	if core.ActiveCaptures.Load() == 0 {
		return nil
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	c := core.CapState.Events[e.TSEvent]
	if c == nil || c.Ended {
		return nil
	}
	err := core.ErrBlocked(fn, "the event's latest record belongs to an active capture")
	c.Invalidate(err)
	return err
}

// captureExternal records an external event record or wait (flag
// ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL) on the capturing
// stream s: at every replay it records or waits for the application's
// event itself. The event must come from aclrtCreateEventExWithFlag with
// ACL_EVENT_SYNC.
func captureExternal(s *core.Stream, fn string, e *core.Event, task tsfw.Task) error {
	r := core.RecorderOf(s)
	if r == nil || r.Kind != core.RecCapture {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: the EXTERNAL flag is only valid on a capturing stream (stream %d is not capturing)", fn, s.ID)
	}
	if e.Kind != core.EventEx || e.Flags&abi.ACL_EVENT_SYNC == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: an external record or wait needs an event from aclrtCreateEventExWithFlag(ACL_EVENT_SYNC)", fn)
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	for _, st := range r.Cap.Ri.Steps {
		if st.Ext != 0 && st.UserEv == e.TSEvent && st.Task.IsRecord() == task.IsRecord() {
			err := abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the event already has an external %s in this capture (one per event per graph)", fn, task.Kind())
			r.Cap.Invalidate(err)
			return err
		}
	}
	return r.Cap.AddLocked(s, fn, task, nil, stepExternal)
}
