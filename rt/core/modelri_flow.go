package core

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// ctlKind is the kind of a control step.
type ctlKind uint8

const (
	CtlLabel ctlKind = iota + 1
	CtlSwitchLabel
	CtlActive
	CtlSwitchStream
)

// CtlOp is one recorded control task.
type CtlOp struct {
	Kind        ctlKind
	Label       *Label   // ctlLabel
	List        []*Label // ctlSwitchLabel
	Ptr         uintptr  // ctlSwitchLabel: the uint32 index
	MaxValue    uint32
	Target      *Stream // ctlActive, ctlSwitchStream: the stream activated
	Left, Right uintptr // ctlSwitchStream operands
	Cond, Dt    int32
}

// FlowPos is a position in a bound stream's program: stream index, seq.
type FlowPos struct{ K, Pos int }

// CtlPlaceholder is the descriptor of a control step: control steps are
// interpreted by the flow, never queued as such.
func CtlPlaceholder() error {
	return abi.Errorf(abi.ACL_ERROR_RT_MODEL_EXECUTE, "a control-flow task ran outside the flow of its model run instance")
}

// StreamIndexLocked is s's index in ri.streams (-1 if absent).
// Precondition: capState.mu held.
func (ri *ModelRI) StreamIndexLocked(s *Stream) int {
	for i, x := range ri.Streams {
		if x == s {
			return i
		}
	}
	return -1
}

// CheckFlowLocked verifies, at BuildEnd, what recording could not: every
// activated stream is bound to ri and every label a switch may choose is
// set in ri. Precondition: capState.mu held.
func (ri *ModelRI) CheckFlowLocked(fn string) error {
	for _, st := range ri.Steps {
		op := st.Ctl
		if op == nil {
			continue
		}
		if op.Target != nil && ri.StreamIndexLocked(op.Target) < 0 {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: task %d of stream %d activates stream %d, which is not bound to model run instance %d", fn, st.Seq, ri.Streams[st.StreamIndex].ID, op.Target.ID, ri.Id)
		}
		for i, l := range op.List {
			if _, ok := ri.Labels[l]; !ok {
				return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: task %d of stream %d switches to labels[%d], which is not set (aclrtSetLabel) on any stream of model run instance %d", fn, st.Seq, ri.Streams[st.StreamIndex].ID, i, ri.Id)
			}
		}
	}
	return nil
}

// headsLocked tells, per bound stream, whether it starts every execution:
// bound HEAD, or the first stream when none is.
// Precondition: capState.mu held.
func (ri *ModelRI) headsLocked() []bool {
	head := make([]bool, len(ri.Streams))
	some := false
	for k, s := range ri.Streams {
		head[k] = ri.BindFlag[s] == ModelStreamFlagHead
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
	labels map[*Label]FlowPos
	cur    atomic.Pointer[flowExec]
}

// flowSeg is a straight-line run of one stream's tasks, from an entry
// position up to a decision (op) or the end of the program (op nil). Each
// queuing appends the host task that decides for its execution.
type flowSeg struct {
	tasks []tsfw.Task
	qidx  []uint16 // len(tasks)+1 entries, all k
	k     int
	op    *CtlOp
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
	fp := &flowPlan{ri: ri, dev: ri.Dev.Emu.TS, labels: ri.Labels}
	progs := make([][]*Step, len(ri.Streams))
	for _, st := range ri.Steps {
		progs[st.StreamIndex] = append(progs[st.StreamIndex], st)
	}
	for _, s := range ri.Streams {
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
	for _, p := range ri.Labels {
		entries[p.K][p.Pos] = true
	}
	for k, prog := range progs {
		for i, st := range prog {
			if st.Ctl != nil && !st.Disabled && (st.Ctl.Kind == CtlActive || st.Ctl.Kind == CtlSwitchStream) {
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
	ri.Flow = fp
	ri.Plan, ri.qidx, ri.Waits = ri.Plan[:0], ri.qidx[:0], ri.Waits[:0] // segments bind their value waits
	add := func(_ int, t tsfw.Task) {
		ri.Plan = append(ri.Plan, t)
		ri.qidx = append(ri.qidx, 0)
	}
	add(0, tsfw.WaitTask(ri.Done))
	ri.condPrologueLocked(add)
	ri.flowAt = len(ri.Plan)
	add(0, tsfw.HostTask(CtlPlaceholder)) // the flow step, set per execution
	add(0, tsfw.RecordTask(ri.Done))
	ri.queues = make([]*tsfw.Queue, 1)
}

// segment builds stream k's segment starting at pos.
// Precondition: capState.mu held.
func (fp *flowPlan) segment(k int, prog []*Step, pos int) *flowSeg {
	sg := &flowSeg{k: k, tk: -1}
	for i := pos; i < len(prog); i++ {
		st := prog[i]
		if st.Ctl == nil {
			if st.Disabled && !st.Task.IsRecord() && !st.Task.IsWait() && !st.Task.IsReset() {
				continue // a disabled event task still orders its streams
			}
			sg.tasks = append(sg.tasks, st.replayTask(fp.queues[k]))
			continue
		}
		if st.Ctl.Kind == CtlLabel || st.Disabled {
			continue // a label is a position; a disabled switch does nothing
		}
		sg.op, sg.next = st.Ctl, i+1
		if sg.op.Target != nil {
			sg.tk = fp.ri.StreamIndexLocked(sg.op.Target)
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
		ex.finish(abi.Errorf(abi.ACL_ERROR_RT_MODEL_ABORT_NORMAL, "model run instance %d was aborted", fp.ri.Id), true)
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
		ex.finish(abi.Errorf(abi.ACL_ERROR_RT_STREAM_ABORT, "model run instance %d: the execution's stream was cancelled", fp.ri.Id), true)
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
		ex.failLocked(abi.Wrapf(err, "model run instance %d: stream %d", fp.ri.Id, fp.ri.Streams[k].ID))
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
	case op.Kind == CtlActive:
		fp.start(ex, after, tk, 0, false)
		fp.start(ex, after, k, next, true)
	case op.Kind == CtlSwitchStream:
		if compareOperands(op) {
			fp.start(ex, after, tk, 0, false)
		}
		fp.start(ex, after, k, next, true)
	case op.Kind == CtlSwitchLabel:
		idx := peekU32(op.Ptr)
		l := op.List[len(op.List)-1]
		if idx <= op.MaxValue && int(idx) < len(op.List) {
			l = op.List[idx]
		}
		p := fp.labels[l]
		fp.start(ex, after, p.K, p.Pos, true) // this stream's run moves there
	}
	return nil
}

// compareOperands evaluates a SwitchStream condition on device memory.
func compareOperands(op *CtlOp) bool {
	var l, r int64
	if op.Dt == abi.ACL_RT_SWITCH_INT64 {
		l, r = int64(PeekU64(op.Left)), int64(PeekU64(op.Right))
	} else {
		l, r = int64(int32(peekU32(op.Left))), int64(int32(peekU32(op.Right)))
	}
	switch op.Cond {
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

// AbortFlow ends ri's current flow execution, if any, and those queued
// but not started (aclmdlRIAbort).
func (ri *ModelRI) AbortFlow(err error) {
	ri.abortGen.Add(1)
	ri.ExecMu.Lock()
	fp := ri.Flow
	ri.ExecMu.Unlock()
	if fp == nil {
		return
	}
	if ex := fp.cur.Load(); ex != nil {
		ex.finish(err, true)
	}
}
