package acl

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Model run instances (aclmdlRI*, semantics.md §18): the recorded task
// descriptors of a capture (capture.go) or of persistent streams bound
// with aclmdlRIBindStream, replayed by aclmdlRIExecute(Async).
//
// A replay submits a prepared plan of descriptors to tsfw in one call
// (tsfw.Device.SubmitGraph): the captured origin stream's tasks go to the
// target stream, each joined branch to a stream the RI created at
// CaptureEnd, in capture order, so every wait meets the record it met
// during the capture. A built RI runs each bound stream's tasks on that
// stream, forked from and joined back into the target stream; one with
// labels, switches or activations executes as a flow (mdlri_flow.go). Every plan
// starts with a wait for the previous execution's end and ends with a
// record of it, so executions of one RI never overlap (their recorded
// kernel argument images and branch streams are shared).

var (
	modelRIs = core.NewTable[ModelRI](core.KindModelRI)
	riTasks  = core.NewTable[step](core.KindRITask)
	taskGrps = core.NewTable[taskGrp](core.KindTaskGrp)
	nextRIID atomic.Uint32
)

// States of a ModelRI.
const (
	riCapturing int32 = iota
	riBuilding
	riReady
	riDead
)

// maxRIName is the longest name kept by aclmdlRISetName, NUL included.
const maxRIName = 512

// ModelRI is one model run instance.
type ModelRI struct {
	h        core.Handle
	id       uint32
	ctx      *core.Context
	dev      *core.Device
	captured bool
	state    atomic.Int32

	// Guarded by capState.mu.
	cap       *capture
	steps     []*step
	perStream []uint32       // tasks recorded per stream (next seq id)
	events    []*tsfw.Event  // events the RI owns
	streams   []*core.Stream // capture: the RI's own streams; build: the bound streams
	unbound   map[*core.Stream]bool
	ended     map[*core.Stream]bool
	bindFlag  map[*core.Stream]uint32
	name      string
	callbacks []riCallback
	groups    []*taskGrp
	retired   []*launch               // launches replaced by an update, freed at destroy
	labels    map[*core.Label]flowPos // labels set on the bound streams (mdlri_flow.go)
	hasCtl    bool                    // control steps recorded: executes as a flow

	execMu sync.Mutex // serialises executions and plan rebuilds
	// Guarded by execMu.
	plan   []tsfw.Task
	qidx   []uint16
	queues []*tsfw.Queue // [0] is the target of the execution
	exec   *core.Stream  // the stream of aclmdlRIExecute
	done   *tsfw.Event   // recorded at the end of every execution
	fork   *tsfw.Event   // built RIs: start of the bound streams
	joins  []*tsfw.Event // built RIs: end of each bound stream
	flow   *flowPlan     // built RIs with control steps (mdlri_flow.go)
	flowAt int           // index of the flow step in plan
	waits  []planWait    // value waits of plan, bound to their queue per execution

	abortGen atomic.Uint64 // aclmdlRIAbort calls, for flows queued before one
}

// step is one recorded task.
type step struct {
	h        core.Handle // aclmdlRITask, 0 until asked for
	ri       *ModelRI
	sidx     uint16
	seq      uint32
	task     tsfw.Task
	typ      int32
	ext      uint32      // stepExternal for external records/waits
	userEv   *tsfw.Event // the application's event of a record/wait/reset
	launch   *launch     // kernel steps: the launch the RI owns
	grp      *taskGrp
	deps     []int // cross-stream: index of the record step a wait waits for
	disabled bool
	ctl      *ctlOp   // control steps (labels, switches, activations)
	vop      *valueOp // value write/wait steps (capture.go)
}

// planWait is a value wait of a plan: plan[i] is rebuilt for the queue
// it runs on at every execution, from the parameters op had when the plan
// was built (a later aclmdlRITaskSetParams waits for aclmdlRIUpdate).
type planWait struct {
	i  int
	op valueOp
}

type riCallback struct {
	key uintptr
	fn  func()
}

// taskGrp is a group of tasks captured between TaskGrpBegin and End.
type taskGrp struct {
	h        core.Handle
	ri       *ModelRI
	stream   *core.Stream
	steps    []*step
	open     bool
	updating *taskUpdate
}

// taskUpdate collects the tasks re-issued between TaskUpdateBegin and End.
type taskUpdate struct {
	grp      *taskGrp
	s        *core.Stream
	tasks    []tsfw.Task
	vops     []*valueOp // per task: its value write/wait, nil for others
	launches []*launch
	err      error
}

// riKernel is a captured kernel: unlike a plain launch it survives its
// completion, since every replay runs it again.
//
// aclrtTaskUpdateAsync (taskupdate.go) changes a kernel in stream order,
// after executions may already have been submitted with its old
// descriptor: it stores the new launch and block count in live, which
// every later run reads. A run dispatched with another block count than
// live says runs the live count of logical blocks on the dispatched
// ones (block b runs b, b+n, ...), so the data is that of the new
// numBlocks; the virtual duration stays that of the submitted descriptor
// until the plan is rebuilt.
type riKernel struct {
	l    *launch
	live atomic.Pointer[riLive] // nil until an aclrtTaskUpdateAsync ran
}

// riLive is a kernel as an aclrtTaskUpdateAsync left it.
type riLive struct {
	l      *launch
	blocks uint32
}

// RunBlock implements tsfw.Kernel.
func (k *riKernel) RunBlock(b, n uint32) error {
	lv := k.live.Load()
	if lv == nil {
		return k.l.RunBlock(b, n)
	}
	if lv.blocks == n {
		return lv.l.RunBlock(b, n)
	}
	for x := b; x < lv.blocks; x += n {
		if err := lv.l.RunBlock(x, lv.blocks); err != nil {
			return err
		}
	}
	return nil
}

// Done implements tsfw.Kernel: the output is flushed, the launch kept.
func (k *riKernel) Done(err error) error {
	l := k.l
	if lv := k.live.Load(); lv != nil {
		l = lv.l
	}
	l.host.Flush(l.buf[:launchHeader])
	return err
}

func persistentKernel(task tsfw.Task, l *launch) tsfw.Task {
	_, spec := task.KernelOf()
	return tsfw.KernelTask(&riKernel{l: l}, spec)
}

// freeLaunch ends a launch the RI owned.
func freeLaunch(l *launch) {
	l.f.Bin.Release()
	putLaunch(l)
}

func newModelRI(c *core.Context, captured bool) *ModelRI {
	ri := &ModelRI{ctx: c, dev: c.Dev, captured: captured, id: nextRIID.Add(1),
		unbound: map[*core.Stream]bool{}, ended: map[*core.Stream]bool{}, bindFlag: map[*core.Stream]uint32{}}
	if captured {
		ri.state.Store(riCapturing)
	} else {
		ri.state.Store(riBuilding)
	}
	ri.h = modelRIs.Add(ri)
	liveRIs.Lock()
	liveRIs.m[ri] = struct{}{}
	liveRIs.Unlock()
	return ri
}

// liveRIs lists the RIs not released yet, for aclFinalize.
var liveRIs = struct {
	sync.Mutex
	m map[*ModelRI]struct{}
}{m: map[*ModelRI]struct{}{}}

// finalizeModelRIs destroys, at aclFinalize, the model run instances the
// application left alive (built or captured, not sub-graphs, which go with
// their parent), as aclmdlRIDestroy would: each waits for its last
// execution, then its destroy callbacks run. RIs still being captured
// end with their capture's streams.
func finalizeModelRIs() {
	liveRIs.Lock()
	list := make([]*ModelRI, 0, len(liveRIs.m))
	for ri := range liveRIs.m {
		list = append(list, ri)
	}
	liveRIs.Unlock()
	slices.SortFunc(list, func(a, b *ModelRI) int { return cmp.Compare(a.id, b.id) })
	for _, ri := range list {
		capState.mu.Lock()
		sub := condState.parent[ri] != nil
		st := ri.state.Load()
		capState.mu.Unlock()
		if sub || st == riCapturing || st == riDead {
			continue
		}
		_ = ri.destroy("aclmdlRIDestroy")
	}
}

// appendStepLocked adds st. Precondition: capState.mu held.
func (ri *ModelRI) appendStepLocked(st *step) {
	for int(st.sidx) >= len(ri.perStream) {
		ri.perStream = append(ri.perStream, 0)
	}
	st.seq = ri.perStream[st.sidx]
	ri.perStream[st.sidx]++
	ri.steps = append(ri.steps, st)
	if st.grp != nil {
		st.grp.steps = append(st.grp.steps, st)
	}
}

// release frees everything the RI owns except its streams' queues (see
// destroy) and its handle.
func (ri *ModelRI) release() {
	ri.state.Store(riDead)
	capState.mu.Lock()
	steps, events, retired, groups := ri.steps, ri.events, ri.retired, ri.groups
	ri.steps, ri.events, ri.retired, ri.groups = nil, nil, nil, nil
	for _, s := range ri.streams {
		if capState.byStrm[s] == ri {
			delete(capState.byStrm, s)
		}
		if r := recorderOf(s); r != nil && r.kind == recBuild && r.ri == ri {
			setRecorder(s, nil)
		}
	}
	capState.mu.Unlock()
	for _, st := range steps {
		if st.launch != nil {
			freeLaunch(st.launch)
		}
		if st.h != 0 {
			riTasks.Remove(st.h)
		}
	}
	for _, l := range retired {
		freeLaunch(l)
	}
	for _, g := range groups {
		if g.h != 0 {
			taskGrps.Remove(g.h)
		}
	}
	for _, e := range events {
		e.Destroy()
	}
	modelRIs.Remove(ri.h)
	liveRIs.Lock()
	delete(liveRIs.m, ri)
	liveRIs.Unlock()
	condRelease(ri) // cond.go: condition words and sub-graphs
}

// finishCapture gives a captured RI its streams and its plan.
func (ri *ModelRI) finishCapture(fn string, c *capture) error {
	prios := make([]uint32, len(c.streams))
	for i, s := range c.streams {
		s.Mu.Lock()
		prios[i] = s.Priority
		s.Mu.Unlock()
	}
	core.Runtime.Mu.Lock()
	if ri.ctx.Dead.Load() {
		core.Runtime.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the capture's context was destroyed", fn)
	}
	var own []*core.Stream
	for _, p := range prios {
		s, err := core.NewStreamLocked(fn, ri.ctx, p, 0, false)
		if err != nil {
			for _, x := range own {
				x.DestroyLocked(false)
			}
			core.Runtime.Mu.Unlock()
			return err
		}
		own = append(own, s)
	}
	core.Runtime.Mu.Unlock()
	done, err := ri.dev.Emu.TS.NewEvent(abi.ACL_EVENT_SYNC)
	if err != nil {
		core.Runtime.Mu.Lock()
		for _, x := range own {
			x.DestroyLocked(false)
		}
		core.Runtime.Mu.Unlock()
		return abi.Wrapf(err, "%s", fn)
	}
	ri.execMu.Lock()
	defer ri.execMu.Unlock()
	capState.mu.Lock()
	defer capState.mu.Unlock()
	ri.streams = own
	for _, s := range own {
		capState.byStrm[s] = ri
	}
	ri.events = append(ri.events, done)
	ri.done, ri.exec = done, own[0]
	ri.rebuildLocked()
	ri.state.Store(riReady)
	return nil
}

// rebuildLocked prepares the plan an execution submits.
// Precondition: execMu and capState.mu held.
func (ri *ModelRI) rebuildLocked() {
	if !ri.captured && ri.hasCtl {
		ri.rebuildFlowLocked()
		return
	}
	off := 0
	if !ri.captured {
		off = 1
	}
	ri.plan, ri.qidx, ri.waits = ri.plan[:0], ri.qidx[:0], ri.waits[:0]
	add := func(q int, t tsfw.Task) {
		ri.plan = append(ri.plan, t)
		ri.qidx = append(ri.qidx, uint16(q))
	}
	add(0, tsfw.WaitTask(ri.done))
	ri.condPrologueLocked(add) // cond.go: default values of condition words
	// Built RIs: only the streams that start an execution run; with no
	// control step nothing activates the others (mdlri_flow.go).
	var head []bool
	if !ri.captured {
		head = ri.headsLocked()
		add(0, tsfw.RecordTask(ri.fork))
		for k := range ri.streams {
			if head[k] {
				add(k+1, tsfw.WaitTask(ri.fork))
			}
		}
	}
	for _, st := range ri.steps {
		if st.disabled && !st.task.IsRecord() && !st.task.IsWait() && !st.task.IsReset() {
			continue // a disabled event task still orders its streams
		}
		if head != nil && !head[st.sidx] {
			continue
		}
		if st.vop != nil && st.vop.wait {
			ri.waits = append(ri.waits, planWait{len(ri.plan), *st.vop})
		}
		add(int(st.sidx)+off, st.task)
	}
	if !ri.captured {
		for k := range ri.streams {
			if head[k] {
				add(k+1, tsfw.RecordTask(ri.joins[k]))
				add(0, tsfw.WaitTask(ri.joins[k]))
			}
		}
	}
	add(0, tsfw.RecordTask(ri.done))
	ri.queues = make([]*tsfw.Queue, len(ri.streams)+off)
	for k, s := range ri.streams {
		ri.queues[k+off] = s.SQ
	}
}

func resolveRI(fn string, h core.Handle) (*ModelRI, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: modelRI must not be NULL", fn)
	}
	ri, err := modelRIs.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return ri, nil
}

// ready refuses an RI that cannot run yet.
func (ri *ModelRI) ready(fn string) error {
	switch ri.state.Load() {
	case riReady:
		return nil
	case riCapturing:
		return abi.Errorf(abi.ACL_ERROR_RT_MODEL_CAPTURED, "%s: model run instance %d is still being captured (call aclmdlRICaptureEnd first)", fn, ri.id)
	case riBuilding:
		return abi.Errorf(abi.ACL_ERROR_RT_MODEL_EXECUTE, "%s: model run instance %d is still being built (call aclmdlRIBuildEnd first)", fn, ri.id)
	}
	return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: model run instance %d was destroyed", fn, ri.id)
}

// submitPlan submits one execution with target as queue 0.
// Precondition: execMu held.
func (ri *ModelRI) submitPlan(fn string, target *core.Stream) error {
	ri.queues[0] = target.SQ
	if fp := ri.flow; fp != nil {
		tq, gen := target.SQ, ri.abortGen.Load()
		ri.plan[ri.flowAt] = tsfw.HostTask(func() error { return fp.run(tq, gen) })
	}
	for _, w := range ri.waits {
		ri.plan[w.i] = w.op.task(ri.queues[ri.qidx[w.i]])
	}
	if emu.SealPending() {
		emu.SealAll() // as at the queueing point (rt/core/submit.go)
	}
	err := ri.dev.Emu.TS.SubmitGraph(ri.queues, ri.plan, ri.qidx)
	ri.queues[0] = nil
	if err != nil {
		return abi.Wrapf(err, "%s: model run instance %d on stream %d", fn, ri.id, target.ID)
	}
	return nil
}

// ExecuteAsync implements aclmdlRIExecuteAsync.
func ExecuteAsync(t *core.Thread, rh, sh core.Handle) error {
	const fn = "aclmdlRIExecuteAsync"
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if err := ri.ready(fn); err != nil {
		return err
	}
	if s.Ctx.Dev != ri.dev {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CONTEXT, "%s: stream %d is on device %d, the model run instance on device %d", fn, s.ID, s.Ctx.Dev.ID, ri.dev.ID)
	}
	if r := recorderOf(s); r != nil || s.Flags&abi.ACL_STREAM_PERSISTENT != 0 {
		if r != nil && r.kind == recCapture {
			return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: npuemu cannot capture the execution of a model run instance (stream %d is capturing)", fn, s.ID)
		}
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d records for a model run instance and cannot run one", fn, s.ID)
	}
	ri.execMu.Lock()
	defer ri.execMu.Unlock()
	if err := ri.ready(fn); err != nil {
		return err
	}
	if sanitizing {
		sanitizeReplay(t, fn, s, ri)
	}
	return ri.submitPlan(fn, s)
}

// Execute implements aclmdlRIExecute: run on the RI's own stream and wait
// (timeout in ms, −1 = forever).
func Execute(t *core.Thread, rh core.Handle, timeoutMs int32) error {
	const fn = "aclmdlRIExecute"
	if err := checkTimeout(fn, timeoutMs); err != nil {
		return err
	}
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if err := ri.ready(fn); err != nil {
		return err
	}
	ri.execMu.Lock()
	if err := ri.ready(fn); err != nil {
		ri.execMu.Unlock()
		return err
	}
	s := ri.exec
	if sanitizing {
		sanitizeReplay(t, fn, s, ri)
	}
	err = ri.submitPlan(fn, s)
	ri.execMu.Unlock()
	if err != nil {
		return err
	}
	if err := s.SQ.Synchronize(core.MsTimeout(timeoutMs)); err != nil {
		return abi.Wrapf(err, "%s: model run instance %d", fn, ri.id)
	}
	if sanitizing {
		sanitizeSyncStream(t, s)
	}
	return nil
}

// Destroy implements aclmdlRIDestroy: it waits for the RI's executions
// still running, releases what it owns, then calls the registered destroy
// callbacks.
func Destroy(t *core.Thread, rh core.Handle) error {
	const fn = "aclmdlRIDestroy"
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if err := condSubGuard(fn, ri); err != nil {
		return err
	}
	return ri.destroy(fn)
}

// destroy ends a model run instance that is not being captured: it waits
// for its last execution, releases it, destroys its streams and runs its
// destroy callbacks. fn names the API call in errors.
func (ri *ModelRI) destroy(fn string) error {
	capState.mu.Lock()
	switch ri.state.Load() {
	case riCapturing:
		capState.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_MODEL_CAPTURED, "%s: model run instance %d is being captured: end the capture first", fn, ri.id)
	case riDead:
		capState.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: model run instance %d was destroyed", fn, ri.id)
	}
	ri.state.Store(riDead)
	cbs := ri.callbacks
	ri.callbacks = nil
	own := ri.captured
	streams := append([]*core.Stream(nil), ri.streams...)
	capState.mu.Unlock()

	ri.execMu.Lock()
	if ri.done != nil {
		_ = ri.done.Synchronize(-1) // the last execution's end; its errors belong to its stream
	}
	exec := ri.exec
	ri.execMu.Unlock()
	ri.release()
	core.Runtime.Mu.Lock()
	if own {
		for _, s := range streams {
			s.DestroyLocked(true)
		}
	} else if exec != nil {
		exec.DestroyLocked(true)
	}
	core.Runtime.Mu.Unlock()
	for _, cb := range cbs {
		cb.fn()
	}
	return nil
}

// Abort implements aclmdlRIAbort for built RIs: the queued tasks of its
// streams are discarded (running ones finish).
func Abort(t *core.Thread, rh core.Handle) error {
	const fn = "aclmdlRIAbort"
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if ri.captured {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: model run instance %d was captured; aclmdlRIAbort is only for instances built with aclmdlRIBuildBegin", fn, ri.id)
	}
	if err := ri.ready(fn); err != nil {
		return err
	}
	capState.mu.Lock()
	streams := append([]*core.Stream(nil), ri.streams...)
	capState.mu.Unlock()
	ri.execMu.Lock()
	exec := ri.exec
	ri.execMu.Unlock()
	aborted := abi.Errorf(abi.ACL_ERROR_RT_MODEL_ABORT_NORMAL, "model run instance %d was aborted", ri.id)
	ri.abortFlow(aborted)
	for _, s := range append(streams, exec) {
		if s != nil && !s.Dead.Load() {
			s.SQ.Abort(aborted)
		}
	}
	return nil
}

// BuildBegin implements aclmdlRIBuildBegin.
func BuildBegin(t *core.Thread, out *core.Handle, flag uint32) error {
	const fn = "aclmdlRIBuildBegin"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: modelRI must not be NULL", fn)
	}
	if flag != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %#x: must be 0", fn, flag)
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	capState.mu.Lock()
	initCapState()
	capState.mu.Unlock()
	*out = newModelRI(c, false).h
	return nil
}

// Flags of aclmdlRIBindStream (documented values; not in the runtime
// headers).
const (
	modelStreamFlagHead    = 0x0
	modelStreamFlagDefault = 0x7FFFFFFF
)

// BindStream implements aclmdlRIBindStream.
func BindStream(t *core.Thread, rh, sh core.Handle, flag uint32) error {
	const fn = "aclmdlRIBindStream"
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if sh == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL (the default stream cannot be bound)", fn)
	}
	if flag != modelStreamFlagHead && flag != modelStreamFlagDefault {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %#x: want ACL_MODEL_STREAM_FLAG_HEAD (0) or ACL_MODEL_STREAM_FLAG_DEFAULT (0x7FFFFFFF)", fn, flag)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if s.Flags&abi.ACL_STREAM_PERSISTENT == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d was not created with ACL_STREAM_PERSISTENT", fn, s.ID)
	}
	if s.Ctx.Dev != ri.dev {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CONTEXT, "%s: stream %d is on device %d, the model run instance on device %d", fn, s.ID, s.Ctx.Dev.ID, ri.dev.ID)
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	if ri.captured || ri.state.Load() != riBuilding {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: model run instance %d is not being built (aclmdlRIBuildBegin)", fn, ri.id)
	}
	if prev := capState.byStrm[s]; recorderOf(s) != nil || (prev != nil && !prev.unbound[s]) {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d is already bound to a model run instance", fn, s.ID)
	}
	setRecorder(s, &recorder{kind: recBuild, ri: ri})
	ri.streams = append(ri.streams, s)
	ri.bindFlag[s] = flag
	capState.byStrm[s] = ri
	return nil
}

// addBuilt records a task issued to a persistent stream bound to ri.
func (ri *ModelRI) addBuilt(s *core.Stream, fn string, task tsfw.Task, l *launch) error {
	return ri.addBuiltOp(s, fn, task, l, nil)
}

// addBuiltOp is addBuilt for a task that may be a value write or wait (op
// non-nil).
func (ri *ModelRI) addBuiltOp(s *core.Stream, fn string, task tsfw.Task, l *launch, op *valueOp) error {
	capState.mu.Lock()
	defer capState.mu.Unlock()
	if ri.state.Load() != riBuilding {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d belongs to model run instance %d, which is built: no more tasks", fn, s.ID, ri.id)
	}
	if err := task.Validate(); err != nil {
		return abi.Wrapf(err, "%s: stream %d", fn, s.ID)
	}
	idx := -1
	for i, x := range ri.streams {
		if x == s {
			idx = i
		}
	}
	st := &step{ri: ri, sidx: uint16(idx), task: task, typ: taskType(&task), userEv: task.Event()}
	if l != nil {
		st.task, st.launch = persistentKernel(task, l), l
	}
	if op != nil {
		st.setValueOp(op)
	}
	ri.appendStepLocked(st)
	if r := recorderOf(s); r != nil {
		r.last, r.hasLast = st.seq, true
	}
	return nil
}

// taskType maps a descriptor to its aclmdlRITaskType.
func taskType(t *tsfw.Task) int32 {
	switch {
	case t.IsKernel():
		return abi.ACL_MODEL_RI_TASK_KERNEL
	case t.IsRecord():
		return abi.ACL_MODEL_RI_TASK_EVENT_RECORD
	case t.IsWait():
		return abi.ACL_MODEL_RI_TASK_EVENT_WAIT
	case t.IsReset():
		return abi.ACL_MODEL_RI_TASK_EVENT_RESET
	}
	return abi.ACL_MODEL_RI_TASK_DEFAULT
}

// boundStream checks that s is bound to ri.
// Precondition: capState.mu held.
func (ri *ModelRI) boundStream(fn string, s *core.Stream) error {
	if capState.byStrm[s] != ri || ri.captured {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d is not bound to model run instance %d", fn, s.ID, ri.id)
	}
	return nil
}

// EndTask implements aclmdlRIEndTask: the end of s's tasks in ri.
func EndTask(t *core.Thread, rh, sh core.Handle) error {
	const fn = "aclmdlRIEndTask"
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if sh == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	if err := ri.boundStream(fn, s); err != nil {
		return err
	}
	if ri.state.Load() != riBuilding {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: model run instance %d is already built", fn, ri.id)
	}
	ri.ended[s] = true
	return nil
}

// BuildEnd implements aclmdlRIBuildEnd.
func BuildEnd(t *core.Thread, rh core.Handle, reserve uintptr) error {
	const fn = "aclmdlRIBuildEnd"
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if reserve != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: reserve must be NULL", fn)
	}
	capState.mu.Lock()
	if ri.captured || ri.state.Load() != riBuilding {
		capState.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: model run instance %d is not being built", fn, ri.id)
	}
	if len(ri.ended) == 0 {
		capState.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_MODEL_EXECUTE, "%s: model run instance %d has no end task: call aclmdlRIEndTask on its stream(s) first", fn, ri.id)
	}
	if err := ri.checkFlowLocked(fn); err != nil {
		capState.mu.Unlock()
		return err
	}
	n := len(ri.streams)
	capState.mu.Unlock()

	evs := make([]*tsfw.Event, 0, n+2)
	for range n + 2 {
		e, err := ri.dev.Emu.TS.NewEvent(abi.ACL_EVENT_SYNC)
		if err != nil {
			for _, x := range evs {
				x.Destroy()
			}
			return abi.Wrapf(err, "%s", fn)
		}
		evs = append(evs, e)
	}
	core.Runtime.Mu.Lock()
	exec, err := core.NewStreamLocked(fn, ri.ctx, 0, 0, false)
	core.Runtime.Mu.Unlock()
	if err != nil {
		for _, x := range evs {
			x.Destroy()
		}
		return err
	}
	ri.execMu.Lock()
	defer ri.execMu.Unlock()
	capState.mu.Lock()
	defer capState.mu.Unlock()
	ri.events = append(ri.events, evs...)
	ri.done, ri.fork, ri.joins, ri.exec = evs[0], evs[1], evs[2:], exec
	ri.rebuildLocked()
	ri.state.Store(riReady)
	return nil
}

// UnbindStream implements aclmdlRIUnbindStream: s queues normally again;
// the RI keeps the tasks recorded on it.
func UnbindStream(t *core.Thread, rh, sh core.Handle) error {
	const fn = "aclmdlRIUnbindStream"
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if sh == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	if ri.unbound[s] {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d was already unbound", fn, s.ID)
	}
	if err := ri.boundStream(fn, s); err != nil {
		return err
	}
	ri.unbound[s] = true
	if r := recorderOf(s); r != nil && r.ri == ri {
		setRecorder(s, nil)
	}
	return nil
}

// riLeaks holds the model run instances alive when the last aclFinalize
// started: beforeFinalize destroys them (finalizeModelRIs) before the leak
// report is made, and the report must still tell the application about
// them. It belongs to the runtime of node.
var riLeaks struct {
	sync.Mutex
	node *emu.Node
	ris  []*ModelRI
}

// noteLeakedRIs remembers the model run instances the application left
// alive; called by beforeFinalize before they are destroyed.
func noteLeakedRIs() {
	ris := modelRIsAlive()
	riLeaks.Lock()
	riLeaks.node, riLeaks.ris = core.Runtime.Node.Load(), ris
	riLeaks.Unlock()
}

// modelRIsAlive returns the live model run instances the application owns
// (sub-graphs go with their parent), by id.
func modelRIsAlive() []*ModelRI {
	liveRIs.Lock()
	list := make([]*ModelRI, 0, len(liveRIs.m))
	for ri := range liveRIs.m {
		list = append(list, ri)
	}
	liveRIs.Unlock()
	capState.mu.Lock()
	kept := list[:0]
	for _, ri := range list {
		if condState.parent[ri] == nil && ri.state.Load() != riDead {
			kept = append(kept, ri)
		}
	}
	capState.mu.Unlock()
	return kept
}

// liveModelRIs lists the model run instances alive now, and those alive
// when this runtime's aclFinalize started (noteLeakedRIs), by id.
func liveModelRIs() []core.Live {
	ris := modelRIsAlive()
	riLeaks.Lock()
	if riLeaks.node == core.Runtime.Node.Load() {
		for _, ri := range riLeaks.ris {
			if !slices.Contains(ris, ri) {
				ris = append(ris, ri)
			}
		}
	}
	riLeaks.Unlock()
	sort.Slice(ris, func(i, j int) bool { return ris[i].id < ris[j].id })
	out := make([]core.Live, 0, len(ris))
	for _, ri := range ris {
		how := "built"
		if ri.captured {
			how = "captured"
		}
		if ri.state.Load() == riCapturing {
			how = "still being captured"
		}
		out = append(out, core.Live{Kind: "model run instance", Device: int(ri.dev.ID),
			Summary: fmt.Sprintf("%#x: id %d, %s", uintptr(ri.h), ri.id, how)})
	}
	return out
}
