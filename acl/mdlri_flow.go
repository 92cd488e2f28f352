package acl

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Stream control flow inside built model run instances (semantics.md §4,
// §7): aclrtSetLabel, aclrtSwitchLabelByIndex, aclrtActiveStream and
// aclrtSwitchStream issued to a bound persistent stream record control
// steps. An RI holding any of them executes as a *flow*: its bound streams
// are programs, and what runs next is decided on the device at execution
// time, not laid out in advance.
//
// Activation model (the real runtime's rule for bound streams): a stream
// bound with ACL_MODEL_STREAM_FLAG_HEAD starts at every execution; a
// stream bound with ACL_MODEL_STREAM_FLAG_DEFAULT runs only when a task of
// the RI activates it (ActiveStream, a SwitchStream whose condition holds,
// or a SwitchLabelByIndex choosing one of its labels). When no stream is
// bound HEAD, the first bound stream is the main stream and starts.
// Every activation runs the stream once from its first task; activating a
// stream that is still running queues the new run behind the current one.
//
// A stream's program is cut into straight-line segments: the recorded
// tasks up to the next switch or activation, which becomes a host task
// ending the segment (labels are mere positions). When the replay reaches
// it, that host task reads device memory, queues the continuation(s) with
// tsfw.Device.SubmitAfter — placed on the virtual clock after itself —
// and the stream goes on. The execution, a host step of the target
// stream, starts the head streams and ends when every run has ended, so
// the target stream's later work follows the whole flow. The target
// stream's virtual clock sees the flow as that one host step; the tasks
// of the bound streams carry their own exact virtual timestamps, the same
// at every replay as long as no two streams decide at the same moment.

// ctlKind is the kind of a control step.
type ctlKind uint8

const (
	ctlLabel ctlKind = iota + 1
	ctlSwitchLabel
	ctlActive
	ctlSwitchStream
)

// ctlOp is one recorded control task.
type ctlOp struct {
	kind        ctlKind
	label       *core.Label   // ctlLabel
	list        []*core.Label // ctlSwitchLabel
	ptr         uintptr       // ctlSwitchLabel: the uint32 index
	maxValue    uint32
	target      *core.Stream // ctlActive, ctlSwitchStream: the stream activated
	left, right uintptr      // ctlSwitchStream operands
	cond, dt    int32
}

// flowPos is a position in a bound stream's program: stream index, seq.
type flowPos struct{ k, pos int }

// ctlPlaceholder is the descriptor of a control step: control steps are
// interpreted by the flow, never queued as such.
func ctlPlaceholder() error {
	return abi.Errorf(abi.ACL_ERROR_RT_MODEL_EXECUTE, "a control-flow task ran outside the flow of its model run instance")
}

// recordControl records op issued to s (which must be bound to an RI
// being built).
func recordControl(fn string, s *core.Stream, op *ctlOp) error {
	r := recorderOf(s)
	if r == nil || r.kind != recBuild {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d is not bound to a model run instance (aclmdlRIBindStream)", fn, s.ID)
	}
	ri := r.ri
	capState.mu.Lock()
	defer capState.mu.Unlock()
	if ri.state.Load() != riBuilding {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d belongs to model run instance %d, which is built: no more tasks", fn, s.ID, ri.id)
	}
	idx := ri.streamIndexLocked(s)
	if op.target != nil {
		if o := capState.byStrm[op.target]; o != nil && o != ri {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d belongs to model run instance %d, not %d", fn, op.target.ID, o.id, ri.id)
		}
	}
	if op.kind == ctlLabel {
		if p, ok := ri.labels[op.label]; ok {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the label is already set in model run instance %d (stream %d, task %d)", fn, ri.id, ri.streams[p.k].ID, p.pos)
		}
	}
	st := &step{ri: ri, sidx: uint16(idx), task: tsfw.HostTask(ctlPlaceholder), typ: abi.ACL_MODEL_RI_TASK_DEFAULT, ctl: op}
	ri.appendStepLocked(st)
	if op.kind == ctlLabel {
		if ri.labels == nil {
			ri.labels = map[*core.Label]flowPos{}
		}
		ri.labels[op.label] = flowPos{idx, int(st.seq)}
	}
	ri.hasCtl = true
	return nil
}

// streamIndexLocked is s's index in ri.streams (-1 if absent).
// Precondition: capState.mu held.
func (ri *ModelRI) streamIndexLocked(s *core.Stream) int {
	for i, x := range ri.streams {
		if x == s {
			return i
		}
	}
	return -1
}

// checkFlowLocked verifies, at BuildEnd, what recording could not: every
// activated stream is bound to ri and every label a switch may choose is
// set in ri. Precondition: capState.mu held.
func (ri *ModelRI) checkFlowLocked(fn string) error {
	for _, st := range ri.steps {
		op := st.ctl
		if op == nil {
			continue
		}
		if op.target != nil && ri.streamIndexLocked(op.target) < 0 {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: task %d of stream %d activates stream %d, which is not bound to model run instance %d", fn, st.seq, ri.streams[st.sidx].ID, op.target.ID, ri.id)
		}
		for i, l := range op.list {
			if _, ok := ri.labels[l]; !ok {
				return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: task %d of stream %d switches to labels[%d], which is not set (aclrtSetLabel) on any stream of model run instance %d", fn, st.seq, ri.streams[st.sidx].ID, i, ri.id)
			}
		}
	}
	return nil
}

// headsLocked tells, per bound stream, whether it starts every execution:
// bound HEAD, or the first stream when none is.
// Precondition: capState.mu held.
func (ri *ModelRI) headsLocked() []bool {
	head := make([]bool, len(ri.streams))
	some := false
	for k, s := range ri.streams {
		head[k] = ri.bindFlag[s] == modelStreamFlagHead
		some = some || head[k]
	}
	if !some && len(head) > 0 {
		head[0] = true
	}
	return head
}

// flowPlan is the prepared program of a built RI with control flow.
type flowPlan struct {
	ri     *ModelRI
	dev    *tsfw.Device
	queues []*tsfw.Queue      // the bound streams' queues
	segs   []map[int]*flowSeg // per stream: entry position → segment
	heads  []int              // streams started by every execution
	labels map[*core.Label]flowPos
	cur    atomic.Pointer[flowExec]
}

// flowSeg is a straight-line run of one stream's tasks, from an entry
// position up to a decision (op) or the end of the program (op nil). Each
// queuing appends the host task that decides for its execution.
type flowSeg struct {
	tasks []tsfw.Task
	qidx  []uint16 // len(tasks)+1 entries, all k
	k     int
	op    *ctlOp
	next  int // position after op
	tk    int // index of the stream op activates (-1: none)
}

// flowExec is the state of one execution.
type flowExec struct {
	mu      sync.Mutex
	pending int // stream runs not ended
	err     error
	ended   bool
	done    chan struct{}
}

// rebuildFlowLocked prepares the flow plan and the target stream's part
// of an execution: wait for the previous one, default values of condition
// words, the flow's host step, record of the end.
// Precondition: execMu and capState.mu held.
func (ri *ModelRI) rebuildFlowLocked() {
	fp := &flowPlan{ri: ri, dev: ri.dev.Emu.TS, labels: ri.labels}
	progs := make([][]*step, len(ri.streams))
	for _, st := range ri.steps {
		progs[st.sidx] = append(progs[st.sidx], st)
	}
	for _, s := range ri.streams {
		fp.queues = append(fp.queues, s.SQ)
	}
	for k, h := range ri.headsLocked() {
		if h {
			fp.heads = append(fp.heads, k)
		}
	}
	entries := make([]map[int]bool, len(progs))
	for k := range progs {
		entries[k] = map[int]bool{0: true}
	}
	for _, p := range ri.labels {
		entries[p.k][p.pos] = true
	}
	for k, prog := range progs {
		for i, st := range prog {
			if st.ctl != nil && !st.disabled && (st.ctl.kind == ctlActive || st.ctl.kind == ctlSwitchStream) {
				entries[k][i+1] = true
			}
		}
	}
	fp.segs = make([]map[int]*flowSeg, len(progs))
	for k, prog := range progs {
		fp.segs[k] = map[int]*flowSeg{}
		for pos := range entries[k] {
			fp.segs[k][pos] = fp.segment(k, prog, pos)
		}
	}
	ri.flow = fp
	ri.plan, ri.qidx, ri.waits = ri.plan[:0], ri.qidx[:0], ri.waits[:0] // segments bind their value waits
	add := func(_ int, t tsfw.Task) {
		ri.plan = append(ri.plan, t)
		ri.qidx = append(ri.qidx, 0)
	}
	add(0, tsfw.WaitTask(ri.done))
	ri.condPrologueLocked(add)
	ri.flowAt = len(ri.plan)
	add(0, tsfw.HostTask(ctlPlaceholder)) // the flow step, set per execution
	add(0, tsfw.RecordTask(ri.done))
	ri.queues = make([]*tsfw.Queue, 1)
}

// segment builds stream k's segment starting at pos.
// Precondition: capState.mu held.
func (fp *flowPlan) segment(k int, prog []*step, pos int) *flowSeg {
	sg := &flowSeg{k: k, tk: -1}
	for i := pos; i < len(prog); i++ {
		st := prog[i]
		if st.ctl == nil {
			if st.disabled && !st.task.IsRecord() && !st.task.IsWait() && !st.task.IsReset() {
				continue // a disabled event task still orders its streams
			}
			sg.tasks = append(sg.tasks, st.replayTask(fp.queues[k]))
			continue
		}
		if st.ctl.kind == ctlLabel || st.disabled {
			continue // a label is a position; a disabled switch does nothing
		}
		sg.op, sg.next = st.ctl, i+1
		if sg.op.target != nil {
			sg.tk = fp.ri.streamIndexLocked(sg.op.target)
		}
		break
	}
	sg.qidx = make([]uint16, len(sg.tasks)+1)
	for i := range sg.qidx {
		sg.qidx[i] = uint16(k)
	}
	return sg
}

// run is the flow step of an execution on target: it starts the head
// streams and waits until every stream run has ended. gen is the RI's
// abort count when the execution was queued: an aclmdlRIAbort since then
// discards it before it starts.
func (fp *flowPlan) run(target *tsfw.Queue, gen uint64) error {
	ex := &flowExec{done: make(chan struct{})}
	fp.cur.Store(ex)
	// Abort counts first and then ends the current execution: one of the
	// two sees the other.
	if fp.ri.abortGen.Load() != gen {
		ex.finish(abi.Errorf(abi.ACL_ERROR_RT_MODEL_ABORT_NORMAL, "model run instance %d was aborted", fp.ri.id), true)
	}
	after := target.RunningEnd()
	ex.mu.Lock()
	ex.pending = len(fp.heads)
	ex.mu.Unlock()
	for _, k := range fp.heads {
		fp.start(ex, after, k, 0, true)
	}
	select {
	case <-ex.done:
	case <-target.Cancelled():
		ex.finish(abi.Errorf(abi.ACL_ERROR_RT_STREAM_ABORT, "model run instance %d: the execution's stream was cancelled", fp.ri.id), true)
	}
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return ex.err
}

// start queues the run of stream k from pos. counted tells whether the run
// is already in ex.pending.
func (fp *flowPlan) start(ex *flowExec, after time.Duration, k, pos int, counted bool) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.ended {
		return
	}
	if !counted {
		ex.pending++
	}
	sg := fp.segs[k][pos]
	// The deciding host task is bound to ex: a decision of an aborted
	// execution still running can never act for a later one.
	tasks := make([]tsfw.Task, len(sg.tasks)+1)
	copy(tasks, sg.tasks)
	tasks[len(sg.tasks)] = tsfw.HostTask(func() error { return fp.decide(ex, sg) })
	if err := fp.dev.SubmitAfter(after, fp.queues, tasks, sg.qidx); err != nil {
		ex.failLocked(abi.Wrapf(err, "model run instance %d: stream %d", fp.ri.id, fp.ri.streams[k].ID))
		ex.endRunLocked()
	}
}

// decide runs the decision ending segment sg (its control step, or the
// end of the stream's program) when the replay reaches it.
func (fp *flowPlan) decide(ex *flowExec, sg *flowSeg) error {
	k, op, next, tk := sg.k, sg.op, sg.next, sg.tk
	after := fp.queues[k].RunningEnd()
	switch {
	case op == nil:
		ex.endRun()
	case op.kind == ctlActive:
		fp.start(ex, after, tk, 0, false)
		fp.start(ex, after, k, next, true)
	case op.kind == ctlSwitchStream:
		if compareOperands(op) {
			fp.start(ex, after, tk, 0, false)
		}
		fp.start(ex, after, k, next, true)
	case op.kind == ctlSwitchLabel:
		idx := peekU32(op.ptr)
		l := op.list[len(op.list)-1]
		if idx <= op.maxValue && int(idx) < len(op.list) {
			l = op.list[idx]
		}
		p := fp.labels[l]
		fp.start(ex, after, p.k, p.pos, true) // this stream's run moves there
	}
	return nil
}

// compareOperands evaluates a SwitchStream condition on device memory.
func compareOperands(op *ctlOp) bool {
	var l, r int64
	if op.dt == abi.ACL_RT_SWITCH_INT64 {
		l, r = int64(peekU64(op.left)), int64(peekU64(op.right))
	} else {
		l, r = int64(int32(peekU32(op.left))), int64(int32(peekU32(op.right)))
	}
	switch op.cond {
	case abi.ACL_RT_EQUAL:
		return l == r
	case abi.ACL_RT_NOT_EQUAL:
		return l != r
	case abi.ACL_RT_GREATER:
		return l > r
	case abi.ACL_RT_GREATER_OR_EQUAL:
		return l >= r
	case abi.ACL_RT_LESS:
		return l < r
	}
	return l <= r // ACL_RT_LESS_OR_EQUAL
}

// endRun ends one stream run.
func (ex *flowExec) endRun() {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	ex.endRunLocked()
}

// endRunLocked ends one stream run; the last one ends the execution.
// Precondition: ex.mu held.
func (ex *flowExec) endRunLocked() {
	if ex.ended {
		return
	}
	ex.pending--
	if ex.pending <= 0 {
		ex.ended = true
		close(ex.done)
	}
}

// failLocked keeps the execution's first error. Precondition: ex.mu held.
func (ex *flowExec) failLocked(err error) {
	if ex.err == nil {
		ex.err = err
	}
}

// finish ends the execution at once (abort, cancellation): no more
// segments are queued. report makes err the execution's error.
func (ex *flowExec) finish(err error, report bool) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if report {
		ex.failLocked(err)
	}
	if !ex.ended {
		ex.ended = true
		close(ex.done)
	}
}

// abortFlow ends ri's current flow execution, if any, and those queued
// but not started (aclmdlRIAbort).
func (ri *ModelRI) abortFlow(err error) {
	ri.abortGen.Add(1)
	ri.execMu.Lock()
	fp := ri.flow
	ri.execMu.Unlock()
	if fp == nil {
		return
	}
	if ex := fp.cur.Load(); ex != nil {
		ex.finish(err, true)
	}
}
