package core

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// recKind says what a stream's recorder records for.
type recKind uint8

const (
	RecCapture recKind = iota + 1 // a capture, origin or joined stream
	RecBuild                      // a persistent stream bound to an RI
	RecUpdate                     // a stream re-issuing a task group
)

// Recorder is what a stream records into; nil when it queues normally.
type Recorder struct {
	Kind   recKind
	Cap    *Capture
	Ri     *ModelRI
	Update *TaskUpdate

	// Guarded by capState.mu.
	last    uint32 // sequence id of the latest task recorded from this stream
	hasLast bool
}

// Capture is one capture sequence, from CaptureBegin to CaptureEnd.
type Capture struct {
	Ri     *ModelRI
	Mode   int32
	Thread *Thread
	Origin *Stream
	Dev    *Device

	// Guarded by capState.mu.
	streams  []*Stream                   // joined streams; [0] is the origin
	Invalid  error                       // the error that invalidated the capture
	Ended    bool                        // CaptureEnd ran, or the origin died
	EventMap map[*tsfw.Event]*tsfw.Event // application event → the RI's event
	LastRec  map[*tsfw.Event]int         // RI event → index of its latest record step
	Grp      map[*Stream]*TaskGrp        // open task group per stream
	Rec      map[*Stream]*Recorder       // each joined stream's recorder
}

var CapState struct {
	Mu sync.Mutex
	// Guarded by mu.
	List     []*Capture               // active captures
	Events   map[*tsfw.Event]*Capture // application events whose latest record was captured
	Modes    map[*Thread]int32        // aclmdlRICaptureThreadExchangeMode, default GLOBAL
	ByStream map[*Stream]*ModelRI     // RI streams (internal or bound) → their RI
}

// RecorderOf returns the recorder s records into, nil when it queues
// normally.
func RecorderOf(s *Stream) *Recorder { return s.Rec.Load() }

// SetRecorder makes s record into r (nil: queue normally again).
func SetRecorder(s *Stream, r *Recorder) { s.Rec.Store(r) }

// captureSubmitOp is the submission path of a stream for which capturing()
// holds (called by the queueing point, rt/core/submit.go). It reports whether it
// handled the task; when it did not, the task is queued as usual. l is the
// launch of a kernel task (nil otherwise); when the task is handled without
// error the recorder owns l. A value write or wait (op non-nil) is
// recorded with its parameters.
func captureSubmitOp(s *Stream, fn string, task tsfw.Task, l *Launch, op *ValueOp) (bool, error) {
	r := RecorderOf(s)
	if r == nil {
		if s.Flags&abi.ACL_STREAM_PERSISTENT != 0 {
			return true, abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL,
				"%s: stream %d is persistent (ACL_STREAM_PERSISTENT): bind it to a model run instance with aclmdlRIBindStream before issuing tasks", fn, s.ID)
		}
		return joinCapture(s, fn, task, l)
	}
	switch r.Kind {
	case RecCapture:
		CapState.Mu.Lock()
		defer CapState.Mu.Unlock()
		return true, r.Cap.addLockedOp(s, fn, task, l, 0, op)
	case RecBuild:
		return true, r.Ri.addBuiltOp(s, fn, task, l, op)
	case RecUpdate:
		return true, r.Update.addOp(s, fn, task, l, op)
	}
	return false, nil
}

// captureSubmitByOp is captureSubmitOp for a task that counts as thread
// t's: a task recorded into a model run instance (capture or bound stream)
// becomes the thread's last task (aclrtGetThreadLastTaskId), and its id is
// its sequence id in its stream (aclmdlRITaskGetSeqId). That is the id
// aclrtTaskUpdateAsync names. Re-issued tasks of a task-group update keep
// the thread's previous id: they replace tasks that already have one.
func captureSubmitByOp(s *Stream, t *Thread, fn string, task tsfw.Task, l *Launch, op *ValueOp) (bool, error) {
	done, err := captureSubmitOp(s, fn, task, l, op)
	if !done || err != nil {
		return done, err
	}
	CapState.Mu.Lock()
	r := RecorderOf(s)
	id, ok := uint32(0), false
	if r != nil {
		id, ok = r.last, r.hasLast
	}
	CapState.Mu.Unlock()
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
	LaunchDataDump                    // ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP
	LaunchProfiling                   // ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING
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
		return LaunchDataDump
	case abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
		return LaunchProfiling
	}
	return 0
}

// joinCapture handles a record or wait on a stream outside any capture
// while captures are active: a wait for an event whose latest record was
// captured pulls s into that capture; a record outside takes the event out
// of the capture.
func joinCapture(s *Stream, fn string, task tsfw.Task, l *Launch) (bool, error) {
	ev := task.Event()
	if ev == nil {
		return false, nil
	}
	CapState.Mu.Lock()
	defer CapState.Mu.Unlock()
	c := CapState.Events[ev]
	if c == nil || c.Ended {
		return false, nil
	}
	if task.IsRecord() {
		delete(CapState.Events, ev)
		return false, nil
	}
	if !task.IsWait() {
		return false, nil
	}
	if c.Invalid != nil {
		return true, c.invalidErr(fn)
	}
	if s.IsDefault {
		err := abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
			"%s: the default stream waits for an event recorded in a capture: the default stream cannot join a capture", fn)
		c.Invalidate(err)
		return true, err
	}
	if s.Ctx.Dev != c.Dev {
		err := abi.Errorf(abi.ACL_ERROR_STREAM_CAPTURE_CONFLICT,
			"%s: stream %d of device %d waits for an event captured on device %d", fn, s.ID, s.Ctx.Dev.ID, c.Dev.ID)
		c.Invalidate(err)
		return true, err
	}
	c.JoinLocked(s)
	return true, c.AddLocked(s, fn, task, l, 0)
}

// JoinLocked makes s part of c. Precondition: capState.mu held.
func (c *Capture) JoinLocked(s *Stream) {
	r := &Recorder{Kind: RecCapture, Cap: c}
	c.Rec[s] = r
	c.streams = append(c.streams, s)
	SetRecorder(s, r)
}

// index returns s's position in c.streams. Precondition: capState.mu held.
func (c *Capture) index(s *Stream) int {
	for i, x := range c.streams {
		if x == s {
			return i
		}
	}
	return -1
}

// invalidErr is the error of a submission to an invalidated capture.
func (c *Capture) invalidErr(fn string) error {
	return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
		"%s: the capture was invalidated by an earlier error: %s", fn, abi.MessageOf(c.Invalid))
}

// Invalidate records the first error that spoils c.
// Precondition: capState.mu held.
func (c *Capture) Invalidate(err error) {
	if c.Invalid == nil {
		c.Invalid = err
	}
}

// AddLocked records task, issued to s, in c. ext marks an external
// record or wait (ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL):
// it acts on the application's event at every replay.
// Precondition: capState.mu held; s is part of c.
func (c *Capture) AddLocked(s *Stream, fn string, task tsfw.Task, l *Launch, ext uint32) error {
	return c.addLockedOp(s, fn, task, l, ext, nil)
}

// addLockedOp is addLocked for a task that may be a value write or wait
// (op non-nil). Precondition: capState.mu held; s is part of c.
func (c *Capture) addLockedOp(s *Stream, fn string, task tsfw.Task, l *Launch, ext uint32, op *ValueOp) error {
	if c.Invalid != nil {
		return c.invalidErr(fn)
	}
	if c.Ended {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %d: its capture has ended", fn, s.ID)
	}
	if err := task.Validate(); err != nil {
		err = abi.Wrapf(err, "%s: stream %d", fn, s.ID)
		c.Invalidate(err)
		return err
	}
	ri := c.Ri
	st := &Step{Ri: ri, StreamIndex: uint16(c.index(s)), Task: task, TaskType: abi.ACL_MODEL_RI_TASK_DEFAULT, Ext: ext, Grp: c.Grp[s]}
	switch ev := task.Event(); {
	case op != nil:
		st.SetValueOp(op)
	case task.IsRecord():
		st.TaskType, st.UserEv = abi.ACL_MODEL_RI_TASK_EVENT_RECORD, ev
		if ext == 0 {
			in, err := c.internal(ev)
			if err != nil {
				c.Invalidate(err)
				return err
			}
			CapState.Events[ev] = c
			st.Task = task.WithEvent(in)
			c.LastRec[in] = len(ri.Steps)
		}
	case task.IsWait():
		st.TaskType, st.UserEv = abi.ACL_MODEL_RI_TASK_EVENT_WAIT, ev
		if ext == 0 {
			owner := CapState.Events[ev]
			in := c.EventMap[ev]
			if owner != nil && owner != c && !owner.Ended {
				err := abi.Errorf(abi.ACL_ERROR_STREAM_CAPTURE_CONFLICT,
					"%s: stream %d waits for an event recorded in another capture", fn, s.ID)
				c.Invalidate(err)
				return err
			}
			if owner != c || in == nil {
				err := abi.Errorf(abi.ACL_ERROR_RT_CAPTURE_DEPENDENCY,
					"%s: stream %d waits for an event that has no record in this capture (record it on a capturing stream first, or wait with ACL_EVENT_WAIT_EXTERNAL)", fn, s.ID)
				c.Invalidate(err)
				return err
			}
			st.Task = task.WithEvent(in)
			if k, ok := c.LastRec[in]; ok {
				st.deps = append(st.deps, k)
			}
		}
	case task.IsReset():
		st.TaskType, st.UserEv = abi.ACL_MODEL_RI_TASK_EVENT_RESET, ev
		if in := c.EventMap[ev]; in != nil {
			st.Task = task.WithEvent(in)
		}
	case task.IsKernel():
		st.TaskType = abi.ACL_MODEL_RI_TASK_KERNEL
		if l != nil {
			st.Task, st.Launch = persistentKernel(task, l), l
		}
	}
	ri.AppendStepLocked(st)
	if r := c.Rec[s]; r != nil {
		r.last, r.hasLast = st.Seq, true
	}
	return nil
}

// internal returns the RI's event standing for the application's event ev
// in this capture, creating it at the first record.
// Precondition: capState.mu held.
func (c *Capture) internal(ev *tsfw.Event) (*tsfw.Event, error) {
	if in := c.EventMap[ev]; in != nil {
		return in, nil
	}
	in, err := c.Dev.Emu.TS.NewEvent(abi.ACL_EVENT_SYNC)
	if err != nil {
		return nil, abi.Wrapf(err, "capture: device %d", c.Dev.ID)
	}
	c.EventMap[ev] = in
	c.Ri.Events = append(c.Ri.Events, in)
	return in, nil
}

// Unjoined returns the first joined stream whose last captured task does
// not lead to the origin's last task through stream order and captured
// event waits (nil when every branch rejoined).
// Precondition: capState.mu held.
func (c *Capture) Unjoined() *Stream {
	steps := c.Ri.Steps
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
		if p := prev[st.StreamIndex]; p >= 0 {
			succ[p] = append(succ[p], i)
		}
		prev[st.StreamIndex] = i
		last[st.StreamIndex] = i
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

// DetachLocked ends c: its streams queue normally again and its events
// leave the capture. Precondition: capState.mu held.
func (c *Capture) DetachLocked() {
	if c.Ended {
		return
	}
	c.Ended = true
	for _, s := range c.streams {
		if RecorderOf(s) == c.Rec[s] {
			SetRecorder(s, nil)
		}
	}
	for ev, owner := range CapState.Events {
		if owner == c {
			delete(CapState.Events, ev)
		}
	}
	for i, x := range CapState.List {
		if x == c {
			CapState.List = append(CapState.List[:i], CapState.List[i+1:]...)
			break
		}
	}
	ActiveCaptures.Add(-1)
}

// dropRecorder detaches a dying stream from what it records into: a
// capture whose origin dies ends invalidated; a joined stream invalidates
// its capture; a bound stream leaves its RI.
// Precondition: core.Runtime.Mu held (capState.mu is taken inside).
func dropRecorder(s *Stream) {
	r := RecorderOf(s)
	if r == nil {
		return
	}
	CapState.Mu.Lock()
	defer CapState.Mu.Unlock()
	switch r.Kind {
	case RecCapture:
		c := r.Cap
		c.Invalidate(abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "stream %d was destroyed while capturing", s.ID))
		if c.Origin == s {
			c.DetachLocked()
		}
	case RecUpdate:
		r.Update.Grp.Updating = nil
	}
	SetRecorder(s, nil)
}

// ValueOp is a recorded value write or wait (aclrtValueWrite /
// aclrtValueWait), kept by value in its step so that
// aclmdlRITaskGetParams reads it and aclmdlRITaskSetParams replaces it.
//
// A value wait parks on the cancellation of the queue it runs on, so its
// descriptor is bound to a queue: the step holds a placeholder, and every
// plan (mdlri.go) or flow segment (mdlri_flow.go) builds the real wait for
// the queue that replays it. For a captured RI the origin stream's tasks
// run on the execution's target stream, known only at execution, so
// submitPlan rebinds those waits per execution.
type ValueOp struct {
	Wait  bool
	Addr  uintptr
	Value uint64
	Flag  uint32 // waits: ACL_STREAM_WAIT_VALUE_*
}

// task returns op's descriptor for a replay on q (q is unused by writes).
// The parameters were checked when they were recorded or set.
func (op ValueOp) task(q *tsfw.Queue) tsfw.Task {
	var t tsfw.Task
	var err error
	if op.Wait {
		t, err = q.ValueWaitTask(op.Addr, op.Value, op.Flag)
	} else {
		t, err = tsfw.ValueWriteTask(op.Addr, op.Value)
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

// SetValueOp makes st the value write or wait op.
// Precondition: capState.mu held (or st not published yet).
func (st *Step) SetValueOp(op *ValueOp) {
	cp := *op
	st.ValueOp = &cp
	if op.Wait {
		st.TaskType = abi.ACL_MODEL_RI_TASK_VALUE_WAIT
		st.Task = tsfw.HostTask(valuePlaceholder)
		return
	}
	st.TaskType = abi.ACL_MODEL_RI_TASK_VALUE_WRITE
	st.Task = op.task(nil)
}

// replayTask is st's descriptor for a replay on q.
func (st *Step) replayTask(q *tsfw.Queue) tsfw.Task {
	if st.ValueOp != nil && st.ValueOp.Wait {
		return st.ValueOp.task(q)
	}
	return st.Task
}

// recordTask is the recorder path of the queueing point (rt/core/submit.go): a
// task that counts as the thread's is recorded with its sequence id.
func recordTask(s *Stream, t *Thread, fn string, task tsfw.Task, x Queued) (bool, error) {
	if x.Counted {
		return captureSubmitByOp(s, t, fn, task, x.Launch, x.ValueOp)
	}
	return captureSubmitOp(s, fn, task, x.Launch, x.ValueOp)
}

// ErrBlocked is the error of a call a capture forbids.
func ErrBlocked(fn, why string) error {
	return abi.Errorf(abi.ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
		"%s: operation not permitted while %s", fn, why)
}

// StreamGuard refuses synchronising or querying a capturing stream, and
// invalidates its capture.
func StreamGuard(s *Stream, fn string) error {
	r := RecorderOf(s)
	if r == nil || r.Kind != RecCapture {
		return nil
	}
	err := ErrBlocked(fn, "the stream is capturing")
	CapState.Mu.Lock()
	r.Cap.Invalidate(err)
	CapState.Mu.Unlock()
	return err
}

// deviceGuard refuses synchronising a device while one of its streams
// captures, and invalidates those captures.
func deviceGuard(d *Device, fn string) error {
	if ActiveCaptures.Load() == 0 {
		return nil
	}
	CapState.Mu.Lock()
	defer CapState.Mu.Unlock()
	var err error
	for _, c := range CapState.List {
		if c.Dev == d {
			if err == nil {
				err = ErrBlocked(fn, "a stream of the device is capturing")
			}
			c.Invalidate(err)
		}
	}
	return err
}

// pageableGuard refuses an asynchronous copy with pageable host memory on
// a capturing stream (it would have to run at once).
func pageableGuard(s *Stream, fn string) error {
	r := RecorderOf(s)
	if r == nil || r.Kind != RecCapture {
		return nil
	}
	err := ErrBlocked(fn, "the stream is capturing: asynchronous copies with pageable host memory cannot be captured (use aclrtMallocHost memory)")
	CapState.Mu.Lock()
	r.Cap.Invalidate(err)
	CapState.Mu.Unlock()
	return err
}

// External record/wait flags of a captured event step.
const (
	stepExternal = 1
)

// CaptureGetInfo implements aclmdlRICaptureGetInfo.
func CaptureGetInfo(t *Thread, sh Handle, status *int32, out *Handle) error {
	const fn = "aclmdlRICaptureGetInfo"
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: status must not be NULL", fn)
	}
	s, err := ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	CapState.Mu.Lock()
	defer CapState.Mu.Unlock()
	*status = abi.ACL_MODEL_RI_CAPTURE_STATUS_NONE
	r := RecorderOf(s)
	if r == nil || r.Kind != RecCapture {
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

// UnsafeGuard refuses a potentially unsafe call (aclrtMemcpy, aclrtMemset,
// aclrtMemcpy2d) of thread t while a capture forbids it: a capture of t
// not begun RELAXED, or, unless t's own mode is THREAD_LOCAL or RELAXED, a
// GLOBAL capture of any thread. The captures that forbid it are
// invalidated.
func UnsafeGuard(t *Thread, fn string) error {
	if ActiveCaptures.Load() == 0 {
		return nil
	}
	CapState.Mu.Lock()
	defer CapState.Mu.Unlock()
	tm, ok := CapState.Modes[t]
	if !ok {
		tm = abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
	}
	if tm == abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED {
		return nil
	}
	var err error
	for _, c := range CapState.List {
		own := c.Thread == t && c.Mode != abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED
		global := tm == abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && c.Mode == abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
		if own || global {
			if err == nil {
				err = ErrBlocked(fn, "a stream is capturing and the capture mode is not relaxed")
			}
			c.Invalidate(err)
		}
	}
	return err
}

// eventGuard refuses synchronising or querying an event whose latest
// record was captured by an active capture, and invalidates the capture.
func eventGuard(e *Event, fn string) error {
	if ActiveCaptures.Load() == 0 {
		return nil
	}
	CapState.Mu.Lock()
	defer CapState.Mu.Unlock()
	c := CapState.Events[e.TSEvent]
	if c == nil || c.Ended {
		return nil
	}
	err := ErrBlocked(fn, "the event's latest record belongs to an active capture")
	c.Invalidate(err)
	return err
}

// CaptureExternal records an external event record or wait (flag
// ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL) on the capturing
// stream s: at every replay it records or waits for the application's
// event itself. The event must come from aclrtCreateEventExWithFlag with
// ACL_EVENT_SYNC.
func CaptureExternal(s *Stream, fn string, e *Event, task tsfw.Task) error {
	r := RecorderOf(s)
	if r == nil || r.Kind != RecCapture {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: the EXTERNAL flag is only valid on a capturing stream (stream %d is not capturing)", fn, s.ID)
	}
	if e.Kind != EventEx || e.Flags&abi.ACL_EVENT_SYNC == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: an external record or wait needs an event from aclrtCreateEventExWithFlag(ACL_EVENT_SYNC)", fn)
	}
	CapState.Mu.Lock()
	defer CapState.Mu.Unlock()
	for _, st := range r.Cap.Ri.Steps {
		if st.Ext != 0 && st.UserEv == e.TSEvent && st.Task.IsRecord() == task.IsRecord() {
			err := abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the event already has an external %s in this capture (one per event per graph)", fn, task.Kind())
			r.Cap.Invalidate(err)
			return err
		}
	}
	return r.Cap.AddLocked(s, fn, task, nil, stepExternal)
}
