package acl

import (
	"sync"

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

// recKind says what a stream's recorder records for.
type recKind uint8

const (
	recCapture recKind = iota + 1 // a capture, origin or joined stream
	recBuild                      // a persistent stream bound to an RI
	recUpdate                     // a stream re-issuing a task group
)

// recorder is what a stream records into; nil when it queues normally.
type recorder struct {
	kind recKind
	cap  *capture
	ri   *ModelRI
	upd  *taskUpdate

	// Guarded by capState.mu.
	last    uint32 // sequence id of the latest task recorded from this stream
	hasLast bool
}

// capture is one capture sequence, from CaptureBegin to CaptureEnd.
type capture struct {
	ri     *ModelRI
	mode   int32
	thread *core.Thread
	origin *core.Stream
	dev    *core.Device

	// Guarded by capState.mu.
	streams []*core.Stream              // joined streams; [0] is the origin
	invalid error                       // the error that invalidated the capture
	ended   bool                        // CaptureEnd ran, or the origin died
	evmap   map[*tsfw.Event]*tsfw.Event // application event → the RI's event
	lastRec map[*tsfw.Event]int         // RI event → index of its latest record step
	grp     map[*core.Stream]*taskGrp   // open task group per stream
	rec     map[*core.Stream]*recorder  // each joined stream's recorder
}

var capState struct {
	mu sync.Mutex
	// Guarded by mu.
	list   []*capture                // active captures
	events map[*tsfw.Event]*capture  // application events whose latest record was captured
	modes  map[*core.Thread]int32    // aclmdlRICaptureThreadExchangeMode, default GLOBAL
	byStrm map[*core.Stream]*ModelRI // RI streams (internal or bound) → their RI
}

// queuedLaunch is the kernel launch a task to queue carries, nil if none.
func queuedLaunch(x *core.Queued) *launch {
	l, _ := x.Launch.(*launch)
	return l
}

// queuedValueOp is the value write or wait a task to queue carries, nil if
// none.
func queuedValueOp(x *core.Queued) *valueOp {
	op, _ := x.ValueOp.(*valueOp)
	return op
}

// recorderOf returns the recorder s records into, nil when it queues
// normally. The stream holds it as an opaque pointer (stream.go).
func recorderOf(s *core.Stream) *recorder {
	if p := s.Rec.Load(); p != nil {
		return (*p).(*recorder)
	}
	return nil
}

// setRecorder makes s record into r (nil: queue normally again).
func setRecorder(s *core.Stream, r *recorder) {
	if r == nil {
		s.Rec.Store(nil)
		return
	}
	var v any = r
	s.Rec.Store(&v)
}

// captureSubmitOp is the submission path of a stream for which capturing()
// holds (called by the queueing point, rt/core/submit.go). It reports whether it
// handled the task; when it did not, the task is queued as usual. l is the
// launch of a kernel task (nil otherwise); when the task is handled without
// error the recorder owns l. A value write or wait (op non-nil) is
// recorded with its parameters.
func captureSubmitOp(s *core.Stream, fn string, task tsfw.Task, l *launch, op *valueOp) (bool, error) {
	r := recorderOf(s)
	if r == nil {
		if s.Flags&abi.ACL_STREAM_PERSISTENT != 0 {
			return true, abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL,
				"%s: stream %d is persistent (ACL_STREAM_PERSISTENT): bind it to a model run instance with aclmdlRIBindStream before issuing tasks", fn, s.ID)
		}
		return joinCapture(s, fn, task, l)
	}
	switch r.kind {
	case recCapture:
		capState.mu.Lock()
		defer capState.mu.Unlock()
		return true, r.cap.addLockedOp(s, fn, task, l, 0, op)
	case recBuild:
		return true, r.ri.addBuiltOp(s, fn, task, l, op)
	case recUpdate:
		return true, r.upd.addOp(s, fn, task, l, op)
	}
	return false, nil
}

// captureSubmitByOp is captureSubmitOp for a task that counts as thread
// t's: a task recorded into a model run instance (capture or bound stream)
// becomes the thread's last task (aclrtGetThreadLastTaskId), and its id is
// its sequence id in its stream (aclmdlRITaskGetSeqId). That is the id
// aclrtTaskUpdateAsync names. Re-issued tasks of a task-group update keep
// the thread's previous id: they replace tasks that already have one.
func captureSubmitByOp(s *core.Stream, t *core.Thread, fn string, task tsfw.Task, l *launch, op *valueOp) (bool, error) {
	done, err := captureSubmitOp(s, fn, task, l, op)
	if !done || err != nil {
		return done, err
	}
	capState.mu.Lock()
	r := recorderOf(s)
	id, ok := uint32(0), false
	if r != nil {
		id, ok = r.last, r.hasLast
	}
	capState.mu.Unlock()
	if ok && !s.IsDefault {
		t.LastTask, t.HasLastTask = id, true
	}
	return true, nil
}

// Bits of launchCfg.flags and launch.attr: the 0/1 launch attributes that
// change nothing in npuemu but are reported back for recorded kernels
// (aclmdlRIKernelTaskGetAttribute).
const (
	launchPrefetch  uint8 = 1 << iota // ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH
	launchDataDump                    // ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP
	launchProfiling                   // ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING
)

// launchFlagOf returns the bit of 0/1 attribute id when v is 1, else 0.
func launchFlagOf(id int32, v uint8) uint8 {
	if v != 1 {
		return 0
	}
	switch id {
	case abi.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
		return launchPrefetch
	case abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
		return launchDataDump
	case abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
		return launchProfiling
	}
	return 0
}

// joinCapture handles a record or wait on a stream outside any capture
// while captures are active: a wait for an event whose latest record was
// captured pulls s into that capture; a record outside takes the event out
// of the capture.
func joinCapture(s *core.Stream, fn string, task tsfw.Task, l *launch) (bool, error) {
	ev := task.Event()
	if ev == nil {
		return false, nil
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	c := capState.events[ev]
	if c == nil || c.ended {
		return false, nil
	}
	if task.IsRecord() {
		delete(capState.events, ev)
		return false, nil
	}
	if !task.IsWait() {
		return false, nil
	}
	if c.invalid != nil {
		return true, c.invalidErr(fn)
	}
	if s.IsDefault {
		err := abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
			"%s: the default stream waits for an event recorded in a capture: the default stream cannot join a capture", fn)
		c.invalidate(err)
		return true, err
	}
	if s.Ctx.Dev != c.dev {
		err := abi.Errorf(abi.ACL_ERROR_STREAM_CAPTURE_CONFLICT,
			"%s: stream %d of device %d waits for an event captured on device %d", fn, s.ID, s.Ctx.Dev.ID, c.dev.ID)
		c.invalidate(err)
		return true, err
	}
	c.joinLocked(s)
	return true, c.addLocked(s, fn, task, l, 0)
}

// joinLocked makes s part of c. Precondition: capState.mu held.
func (c *capture) joinLocked(s *core.Stream) {
	r := &recorder{kind: recCapture, cap: c}
	c.rec[s] = r
	c.streams = append(c.streams, s)
	setRecorder(s, r)
}

// index returns s's position in c.streams. Precondition: capState.mu held.
func (c *capture) index(s *core.Stream) int {
	for i, x := range c.streams {
		if x == s {
			return i
		}
	}
	return -1
}

// invalidErr is the error of a submission to an invalidated capture.
func (c *capture) invalidErr(fn string) error {
	return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
		"%s: the capture was invalidated by an earlier error: %s", fn, messageOf(c.invalid))
}

// invalidate records the first error that spoils c.
// Precondition: capState.mu held.
func (c *capture) invalidate(err error) {
	if c.invalid == nil {
		c.invalid = err
	}
}

// External record/wait flags of a captured event step.
const (
	stepExternal = 1
)

// addLocked records task, issued to s, in c. ext marks an external
// record or wait (ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL):
// it acts on the application's event at every replay.
// Precondition: capState.mu held; s is part of c.
func (c *capture) addLocked(s *core.Stream, fn string, task tsfw.Task, l *launch, ext uint32) error {
	return c.addLockedOp(s, fn, task, l, ext, nil)
}

// addLockedOp is addLocked for a task that may be a value write or wait
// (op non-nil). Precondition: capState.mu held; s is part of c.
func (c *capture) addLockedOp(s *core.Stream, fn string, task tsfw.Task, l *launch, ext uint32, op *valueOp) error {
	if c.invalid != nil {
		return c.invalidErr(fn)
	}
	if c.ended {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %d: its capture has ended", fn, s.ID)
	}
	if err := task.Validate(); err != nil {
		err = abi.Wrapf(err, "%s: stream %d", fn, s.ID)
		c.invalidate(err)
		return err
	}
	ri := c.ri
	st := &step{ri: ri, sidx: uint16(c.index(s)), task: task, typ: abi.ACL_MODEL_RI_TASK_DEFAULT, ext: ext, grp: c.grp[s]}
	switch ev := task.Event(); {
	case op != nil:
		st.setValueOp(op)
	case task.IsRecord():
		st.typ, st.userEv = abi.ACL_MODEL_RI_TASK_EVENT_RECORD, ev
		if ext == 0 {
			in, err := c.internal(ev)
			if err != nil {
				c.invalidate(err)
				return err
			}
			capState.events[ev] = c
			st.task = task.WithEvent(in)
			c.lastRec[in] = len(ri.steps)
		}
	case task.IsWait():
		st.typ, st.userEv = abi.ACL_MODEL_RI_TASK_EVENT_WAIT, ev
		if ext == 0 {
			owner := capState.events[ev]
			in := c.evmap[ev]
			if owner != nil && owner != c && !owner.ended {
				err := abi.Errorf(abi.ACL_ERROR_STREAM_CAPTURE_CONFLICT,
					"%s: stream %d waits for an event recorded in another capture", fn, s.ID)
				c.invalidate(err)
				return err
			}
			if owner != c || in == nil {
				err := abi.Errorf(abi.ACL_ERROR_RT_CAPTURE_DEPENDENCY,
					"%s: stream %d waits for an event that has no record in this capture (record it on a capturing stream first, or wait with ACL_EVENT_WAIT_EXTERNAL)", fn, s.ID)
				c.invalidate(err)
				return err
			}
			st.task = task.WithEvent(in)
			if k, ok := c.lastRec[in]; ok {
				st.deps = append(st.deps, k)
			}
		}
	case task.IsReset():
		st.typ, st.userEv = abi.ACL_MODEL_RI_TASK_EVENT_RESET, ev
		if in := c.evmap[ev]; in != nil {
			st.task = task.WithEvent(in)
		}
	case task.IsKernel():
		st.typ = abi.ACL_MODEL_RI_TASK_KERNEL
		if l != nil {
			st.task, st.launch = persistentKernel(task, l), l
		}
	}
	ri.appendStepLocked(st)
	if r := c.rec[s]; r != nil {
		r.last, r.hasLast = st.seq, true
	}
	return nil
}

// internal returns the RI's event standing for the application's event ev
// in this capture, creating it at the first record.
// Precondition: capState.mu held.
func (c *capture) internal(ev *tsfw.Event) (*tsfw.Event, error) {
	if in := c.evmap[ev]; in != nil {
		return in, nil
	}
	in, err := c.dev.Emu.TS.NewEvent(abi.ACL_EVENT_SYNC)
	if err != nil {
		return nil, abi.Wrapf(err, "capture: device %d", c.dev.ID)
	}
	c.evmap[ev] = in
	c.ri.events = append(c.ri.events, in)
	return in, nil
}

// unjoined returns the first joined stream whose last captured task does
// not lead to the origin's last task through stream order and captured
// event waits (nil when every branch rejoined).
// Precondition: capState.mu held.
func (c *capture) unjoined() *core.Stream {
	steps := c.ri.steps
	if len(c.streams) <= 1 {
		return nil
	}
	last := make([]int, len(c.streams))
	for i := range last {
		last[i] = -1
	}
	// succ[i]: steps that directly depend on step i.
	succ := make([][]int, len(steps))
	prev := make([]int, len(c.streams))
	for i := range prev {
		prev[i] = -1
	}
	for i, st := range steps {
		if p := prev[st.sidx]; p >= 0 {
			succ[p] = append(succ[p], i)
		}
		prev[st.sidx] = i
		last[st.sidx] = i
		for _, d := range st.deps {
			succ[d] = append(succ[d], i)
		}
	}
	target := last[0]
	for k := 1; k < len(c.streams); k++ {
		if last[k] < 0 {
			continue // joined by a wait that is its only task: nothing to rejoin
		}
		if target < 0 || !reaches(succ, last[k], target) {
			return c.streams[k]
		}
	}
	return nil
}

// reaches reports whether to is reachable from from in the successor lists.
func reaches(succ [][]int, from, to int) bool {
	seen := make([]bool, len(succ))
	stack := []int{from}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == to {
			return true
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		stack = append(stack, succ[n]...)
	}
	return false
}

// detachLocked ends c: its streams queue normally again and its events
// leave the capture. Precondition: capState.mu held.
func (c *capture) detachLocked() {
	if c.ended {
		return
	}
	c.ended = true
	for _, s := range c.streams {
		if recorderOf(s) == c.rec[s] {
			setRecorder(s, nil)
		}
	}
	for ev, owner := range capState.events {
		if owner == c {
			delete(capState.events, ev)
		}
	}
	for i, x := range capState.list {
		if x == c {
			capState.list = append(capState.list[:i], capState.list[i+1:]...)
			break
		}
	}
	core.ActiveCaptures.Add(-1)
}

func initCapState() {
	if capState.events == nil {
		capState.events = map[*tsfw.Event]*capture{}
		capState.modes = map[*core.Thread]int32{}
		capState.byStrm = map[*core.Stream]*ModelRI{}
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
	capState.mu.Lock()
	defer capState.mu.Unlock()
	initCapState()
	if r := recorderOf(s); r != nil {
		if r.kind == recCapture {
			return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is already capturing", fn, s.ID)
		}
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d is re-issuing a task group (aclmdlRICaptureTaskUpdateBegin)", fn, s.ID)
	}
	ri := newModelRI(s.Ctx, true)
	c := &capture{ri: ri, mode: mode, thread: t, origin: s, dev: s.Ctx.Dev,
		evmap: map[*tsfw.Event]*tsfw.Event{}, lastRec: map[*tsfw.Event]int{},
		grp: map[*core.Stream]*taskGrp{}, rec: map[*core.Stream]*recorder{}}
	ri.cap = c
	c.joinLocked(s)
	capState.list = append(capState.list, c)
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
	capState.mu.Lock()
	r := recorderOf(s)
	if r == nil || r.kind != recCapture {
		capState.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %d is not capturing", fn, s.ID)
	}
	c := r.cap
	if c.origin != s {
		capState.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, "%s: stream %d joined a capture that began on stream %d: end it there", fn, s.ID, c.origin.ID)
	}
	if c.mode != abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED && c.thread != t {
		capState.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, "%s: the capture of stream %d began on another thread (only ACL_MODEL_RI_CAPTURE_MODE_RELAXED captures may end elsewhere)", fn, s.ID)
	}
	c.detachLocked()
	ri := c.ri
	var fail error
	switch {
	case c.invalid != nil:
		fail = abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "%s: the capture was invalidated: %s", fn, messageOf(c.invalid))
	default:
		if u := c.unjoined(); u != nil {
			fail = abi.Errorf(abi.ACL_ERROR_RT_STREAM_UNJOINED, "%s: stream %d joined the capture but its work was not joined back into stream %d (record an event on it and wait for it on the origin stream)", fn, u.ID, s.ID)
		}
	}
	for _, g := range c.grp {
		g.open = false
	}
	ri.cap = nil
	capState.mu.Unlock()
	if fail != nil {
		ri.release()
		return fail
	}
	if err := ri.finishCapture(fn, c); err != nil {
		ri.release()
		return err
	}
	*out = ri.h
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
	capState.mu.Lock()
	defer capState.mu.Unlock()
	*status = abi.ACL_MODEL_RI_CAPTURE_STATUS_NONE
	r := recorderOf(s)
	if r == nil || r.kind != recCapture {
		return nil
	}
	*status = abi.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE
	if r.cap.invalid != nil {
		*status = abi.ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
	}
	if out != nil {
		*out = r.cap.ri.h
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
	capState.mu.Lock()
	defer capState.mu.Unlock()
	initCapState()
	old, ok := capState.modes[t]
	if !ok {
		old = abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
	}
	capState.modes[t] = *mode
	*mode = old
	return nil
}

// errBlocked is the error of a call a capture forbids.
func errBlocked(fn, why string) error {
	return abi.Errorf(abi.ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
		"%s: operation not permitted while %s", fn, why)
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
	capState.mu.Lock()
	defer capState.mu.Unlock()
	tm, ok := capState.modes[t]
	if !ok {
		tm = abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
	}
	if tm == abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED {
		return nil
	}
	var err error
	for _, c := range capState.list {
		own := c.thread == t && c.mode != abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED
		global := tm == abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && c.mode == abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
		if own || global {
			if err == nil {
				err = errBlocked(fn, "a stream is capturing and the capture mode is not relaxed")
			}
			c.invalidate(err)
		}
	}
	return err
}

// streamGuard refuses synchronising or querying a capturing stream, and
// invalidates its capture.
func streamGuard(s *core.Stream, fn string) error {
	r := recorderOf(s)
	if r == nil || r.kind != recCapture {
		return nil
	}
	err := errBlocked(fn, "the stream is capturing")
	capState.mu.Lock()
	r.cap.invalidate(err)
	capState.mu.Unlock()
	return err
}

// eventGuard refuses synchronising or querying an event whose latest
// record was captured by an active capture, and invalidates the capture.
func eventGuard(e *core.Event, fn string) error {
	if core.ActiveCaptures.Load() == 0 {
		return nil
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	c := capState.events[e.TSEvent]
	if c == nil || c.ended {
		return nil
	}
	err := errBlocked(fn, "the event's latest record belongs to an active capture")
	c.invalidate(err)
	return err
}

// deviceGuard refuses synchronising a device while one of its streams
// captures, and invalidates those captures.
func deviceGuard(d *core.Device, fn string) error {
	if core.ActiveCaptures.Load() == 0 {
		return nil
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	var err error
	for _, c := range capState.list {
		if c.dev == d {
			if err == nil {
				err = errBlocked(fn, "a stream of the device is capturing")
			}
			c.invalidate(err)
		}
	}
	return err
}

// pageableGuard refuses an asynchronous copy with pageable host memory on
// a capturing stream (it would have to run at once).
func pageableGuard(s *core.Stream, fn string) error {
	r := recorderOf(s)
	if r == nil || r.kind != recCapture {
		return nil
	}
	err := errBlocked(fn, "the stream is capturing: asynchronous copies with pageable host memory cannot be captured (use aclrtMallocHost memory)")
	capState.mu.Lock()
	r.cap.invalidate(err)
	capState.mu.Unlock()
	return err
}

// dropRecorder detaches a dying stream from what it records into: a
// capture whose origin dies ends invalidated; a joined stream invalidates
// its capture; a bound stream leaves its RI.
// Precondition: core.Runtime.Mu held (capState.mu is taken inside).
func dropRecorder(s *core.Stream) {
	r := recorderOf(s)
	if r == nil {
		return
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	switch r.kind {
	case recCapture:
		c := r.cap
		c.invalidate(abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "stream %d was destroyed while capturing", s.ID))
		if c.origin == s {
			c.detachLocked()
		}
	case recUpdate:
		r.upd.grp.updating = nil
	}
	setRecorder(s, nil)
}

// captureExternal records an external event record or wait (flag
// ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL) on the capturing
// stream s: at every replay it records or waits for the application's
// event itself. The event must come from aclrtCreateEventExWithFlag with
// ACL_EVENT_SYNC.
func captureExternal(s *core.Stream, fn string, e *core.Event, task tsfw.Task) error {
	r := recorderOf(s)
	if r == nil || r.kind != recCapture {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: the EXTERNAL flag is only valid on a capturing stream (stream %d is not capturing)", fn, s.ID)
	}
	if e.Kind != core.EventEx || e.Flags&abi.ACL_EVENT_SYNC == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: an external record or wait needs an event from aclrtCreateEventExWithFlag(ACL_EVENT_SYNC)", fn)
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	for _, st := range r.cap.ri.steps {
		if st.ext != 0 && st.userEv == e.TSEvent && st.task.IsRecord() == task.IsRecord() {
			err := abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the event already has an external %s in this capture (one per event per graph)", fn, task.Kind())
			r.cap.invalidate(err)
			return err
		}
	}
	return r.cap.addLocked(s, fn, task, nil, stepExternal)
}

// valueOp is a recorded value write or wait (aclrtValueWrite /
// aclrtValueWait), kept by value in its step so that
// aclmdlRITaskGetParams reads it and aclmdlRITaskSetParams replaces it.
//
// A value wait parks on the cancellation of the queue it runs on, so its
// descriptor is bound to a queue: the step holds a placeholder, and every
// plan (mdlri.go) or flow segment (mdlri_flow.go) builds the real wait for
// the queue that replays it. For a captured RI the origin stream's tasks
// run on the execution's target stream, known only at execution, so
// submitPlan rebinds those waits per execution.
type valueOp struct {
	wait  bool
	addr  uintptr
	value uint64
	flag  uint32 // waits: ACL_STREAM_WAIT_VALUE_*
}

// task returns op's descriptor for a replay on q (q is unused by writes).
// The parameters were checked when they were recorded or set.
func (op valueOp) task(q *tsfw.Queue) tsfw.Task {
	var t tsfw.Task
	var err error
	if op.wait {
		t, err = q.ValueWaitTask(op.addr, op.value, op.flag)
	} else {
		t, err = tsfw.ValueWriteTask(op.addr, op.value)
	}
	if err != nil {
		return tsfw.HostTask(func() error { return err })
	}
	return t
}

// valuePlaceholder is the descriptor a value-wait step keeps: replays
// substitute the wait bound to their queue, so it never runs.
func valuePlaceholder() error {
	return abi.Errorf(abi.ACL_ERROR_RT_MODEL_EXECUTE, "a recorded value wait ran outside the replay of its model run instance")
}

// setValueOp makes st the value write or wait op.
// Precondition: capState.mu held (or st not published yet).
func (st *step) setValueOp(op *valueOp) {
	cp := *op
	st.vop = &cp
	if op.wait {
		st.typ = abi.ACL_MODEL_RI_TASK_VALUE_WAIT
		st.task = tsfw.HostTask(valuePlaceholder)
		return
	}
	st.typ = abi.ACL_MODEL_RI_TASK_VALUE_WRITE
	st.task = op.task(nil)
}

// replayTask is st's descriptor for a replay on q.
func (st *step) replayTask(q *tsfw.Queue) tsfw.Task {
	if st.vop != nil && st.vop.wait {
		return st.vop.task(q)
	}
	return st.task
}
