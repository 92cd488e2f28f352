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

func initCapState() {
	if core.CapState.Events == nil {
		core.CapState.Events = map[*tsfw.Event]*core.Capture{}
		core.CapState.Modes = map[*core.Thread]int32{}
		core.CapState.ByStream = map[*core.Stream]*core.ModelRI{}
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
		EventMap: map[*tsfw.Event]*tsfw.Event{}, LastRec: map[*tsfw.Event]int{},
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

// CaptureGetInfo implements aclmdlRICaptureGetInfo; the runtime does the
// work (core.CaptureGetInfo, which the rt* API calls too).
func CaptureGetInfo(t *core.Thread, sh core.Handle, status *int32, out *core.Handle) error {
	return core.CaptureGetInfo(t, sh, status, out)
}
