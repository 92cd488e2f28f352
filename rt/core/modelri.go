package core

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/tsfw"
)

var (
	ModelRIs = NewTable[ModelRI](KindModelRI)
	RiTasks  = NewTable[Step](KindRITask)
	TaskGrps = NewTable[TaskGrp](KindTaskGrp)
)

// States of a ModelRI.
const (
	RiCapturing int32 = iota
	RiBuilding
	RiReady
	RiDead
)

// ModelRI is one model run instance.
type ModelRI struct {
	H        Handle
	Id       uint32
	Ctx      *Context
	Dev      *Device
	Captured bool
	State    atomic.Int32

	// Guarded by capState.mu.
	Cap       *Capture
	Steps     []*Step
	PerStream []uint32      // tasks recorded per stream (next seq id)
	Events    []*tsfw.Event // events the RI owns
	Streams   []*Stream     // capture: the RI's own streams; build: the bound streams
	Unbound   map[*Stream]bool
	Ended     map[*Stream]bool
	BindFlag  map[*Stream]uint32
	Name      string
	Callbacks []RiCallback
	Groups    []*TaskGrp
	Retired   []*Launch          // launches replaced by an update, freed at destroy
	Labels    map[*Label]FlowPos // labels set on the bound streams (mdlri_flow.go)
	HasCtl    bool               // control steps recorded: executes as a flow

	ExecMu sync.Mutex // serialises executions and plan rebuilds
	// Guarded by execMu.
	Plan   []tsfw.Task
	qidx   []uint16
	queues []*tsfw.Queue // [0] is the target of the execution
	Exec   *Stream       // the stream of aclmdlRIExecute
	Done   *tsfw.Event   // recorded at the end of every execution
	Fork   *tsfw.Event   // built RIs: start of the bound streams
	Joins  []*tsfw.Event // built RIs: end of each bound stream
	Flow   *flowPlan     // built RIs with control steps (mdlri_flow.go)
	flowAt int           // index of the flow step in plan
	Waits  []planWait    // value waits of plan, bound to their queue per execution

	abortGen atomic.Uint64 // aclmdlRIAbort calls, for flows queued before one
}

// Step is one recorded task.
type Step struct {
	H           Handle // aclmdlRITask, 0 until asked for
	Ri          *ModelRI
	StreamIndex uint16
	Seq         uint32
	Task        tsfw.Task
	TaskType    int32
	Ext         uint32      // stepExternal for external records/waits
	UserEv      *tsfw.Event // the application's event of a record/wait/reset
	Launch      *Launch     // kernel steps: the launch the RI owns
	Grp         *TaskGrp
	deps        []int // cross-stream: index of the record step a wait waits for
	Disabled    bool
	Ctl         *CtlOp   // control steps (labels, switches, activations)
	ValueOp     *ValueOp // value write/wait steps (capture.go)
}

// planWait is a value wait of a plan: plan[i] is rebuilt for the queue
// it runs on at every execution, from the parameters op had when the plan
// was built (a later aclmdlRITaskSetParams waits for aclmdlRIUpdate).
type planWait struct {
	i  int
	op ValueOp
}

type RiCallback struct {
	Key uintptr
	Fn  func()
}

// TaskGrp is a group of tasks captured between TaskGrpBegin and End.
type TaskGrp struct {
	H        Handle
	Ri       *ModelRI
	Stream   *Stream
	Steps    []*Step
	Open     bool
	Updating *TaskUpdate
}

// TaskUpdate collects the tasks re-issued between TaskUpdateBegin and End.
type TaskUpdate struct {
	Grp      *TaskGrp
	S        *Stream
	Tasks    []tsfw.Task
	Vops     []*ValueOp // per task: its value write/wait, nil for others
	Launches []*Launch
	Err      error
}

// RiKernel is a captured kernel: unlike a plain launch it survives its
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
type RiKernel struct {
	L    *Launch
	Live atomic.Pointer[riLive] // nil until an aclrtTaskUpdateAsync ran
}

// riLive is a kernel as an aclrtTaskUpdateAsync left it.
type riLive struct {
	L      *Launch
	blocks uint32
}

// RunBlock implements tsfw.Kernel.
func (k *RiKernel) RunBlock(b, n uint32) error {
	lv := k.Live.Load()
	if lv == nil {
		return k.L.RunBlock(b, n)
	}
	if lv.blocks == n {
		return lv.L.RunBlock(b, n)
	}
	for x := b; x < lv.blocks; x += n {
		if err := lv.L.RunBlock(x, lv.blocks); err != nil {
			return err
		}
	}
	return nil
}

// Done implements tsfw.Kernel: the output is flushed, the launch kept.
func (k *RiKernel) Done(err error) error {
	l := k.L
	if lv := k.Live.Load(); lv != nil {
		l = lv.L
	}
	l.Host.Flush(l.Buf[:LaunchHeader])
	return err
}

func persistentKernel(task tsfw.Task, l *Launch) tsfw.Task {
	_, spec := task.KernelOf()
	return tsfw.KernelTask(&RiKernel{L: l}, spec)
}

// FreeLaunch ends a launch the RI owned.
func FreeLaunch(l *Launch) {
	l.F.Bin.ReleaseIn(l.shard)
	PutLaunch(l)
}

// LiveRIs lists the RIs not released yet, for aclFinalize.
var LiveRIs = struct {
	sync.Mutex
	M map[*ModelRI]struct{}
}{M: map[*ModelRI]struct{}{}}

// AppendStepLocked adds st. Precondition: capState.mu held.
func (ri *ModelRI) AppendStepLocked(st *Step) {
	for int(st.StreamIndex) >= len(ri.PerStream) {
		ri.PerStream = append(ri.PerStream, 0)
	}
	st.Seq = ri.PerStream[st.StreamIndex]
	ri.PerStream[st.StreamIndex]++
	ri.Steps = append(ri.Steps, st)
	if st.Grp != nil {
		st.Grp.Steps = append(st.Grp.Steps, st)
	}
}

// Release frees everything the RI owns except its streams' queues (see
// destroy) and its handle.
func (ri *ModelRI) Release() {
	ri.State.Store(RiDead)
	CapState.Mu.Lock()
	steps, events, retired, groups := ri.Steps, ri.Events, ri.Retired, ri.Groups
	ri.Steps, ri.Events, ri.Retired, ri.Groups = nil, nil, nil, nil
	for _, s := range ri.Streams {
		if CapState.ByStream[s] == ri {
			delete(CapState.ByStream, s)
		}
		if r := RecorderOf(s); r != nil && r.Kind == RecBuild && r.Ri == ri {
			SetRecorder(s, nil)
		}
	}
	CapState.Mu.Unlock()
	for _, st := range steps {
		if st.Launch != nil {
			FreeLaunch(st.Launch)
		}
		if st.H != 0 {
			RiTasks.Remove(st.H)
		}
	}
	for _, l := range retired {
		FreeLaunch(l)
	}
	for _, g := range groups {
		if g.H != 0 {
			TaskGrps.Remove(g.H)
		}
	}
	for _, e := range events {
		e.Destroy()
	}
	ModelRIs.Remove(ri.H)
	LiveRIs.Lock()
	delete(LiveRIs.M, ri)
	LiveRIs.Unlock()
	condRelease(ri) // cond.go: condition words and sub-graphs
}

// FinishCapture gives a captured RI its streams and its plan.
func (ri *ModelRI) FinishCapture(fn string, c *Capture) error {
	prios := make([]uint32, len(c.streams))
	for i, s := range c.streams {
		s.Mu.Lock()
		prios[i] = s.Priority
		s.Mu.Unlock()
	}
	Runtime.Mu.Lock()
	if ri.Ctx.Dead.Load() {
		Runtime.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the capture's context was destroyed", fn)
	}
	var own []*Stream
	for _, p := range prios {
		s, err := NewStreamLocked(fn, ri.Ctx, p, 0, false)
		if err != nil {
			for _, x := range own {
				x.DestroyLocked(false)
			}
			Runtime.Mu.Unlock()
			return err
		}
		own = append(own, s)
	}
	Runtime.Mu.Unlock()
	done, err := ri.Dev.Emu.TS.NewEvent(abi.ACL_EVENT_SYNC)
	if err != nil {
		Runtime.Mu.Lock()
		for _, x := range own {
			x.DestroyLocked(false)
		}
		Runtime.Mu.Unlock()
		return abi.Wrapf(err, "%s", fn)
	}
	ri.ExecMu.Lock()
	defer ri.ExecMu.Unlock()
	CapState.Mu.Lock()
	defer CapState.Mu.Unlock()
	ri.Streams = own
	for _, s := range own {
		CapState.ByStream[s] = ri
	}
	ri.Events = append(ri.Events, done)
	ri.Done, ri.Exec = done, own[0]
	ri.RebuildLocked()
	ri.State.Store(RiReady)
	return nil
}

// RebuildLocked prepares the plan an execution submits.
// Precondition: execMu and capState.mu held.
func (ri *ModelRI) RebuildLocked() {
	if !ri.Captured && ri.HasCtl {
		ri.rebuildFlowLocked()
		return
	}
	off := 0
	if !ri.Captured {
		off = 1
	}
	ri.Plan, ri.qidx, ri.Waits = ri.Plan[:0], ri.qidx[:0], ri.Waits[:0]
	add := func(q int, t tsfw.Task) {
		ri.Plan = append(ri.Plan, t)
		ri.qidx = append(ri.qidx, uint16(q))
	}
	add(0, tsfw.WaitTask(ri.Done))
	ri.condPrologueLocked(add) // cond.go: default values of condition words
	// Built RIs: only the streams that start an execution run; with no
	// control step nothing activates the others (mdlri_flow.go).
	var head []bool
	if !ri.Captured {
		head = ri.headsLocked()
		add(0, tsfw.RecordTask(ri.Fork))
		for k := range ri.Streams {
			if head[k] {
				add(k+1, tsfw.WaitTask(ri.Fork))
			}
		}
	}
	for _, st := range ri.Steps {
		if st.Disabled && !st.Task.IsRecord() && !st.Task.IsWait() && !st.Task.IsReset() {
			continue // a disabled event task still orders its streams
		}
		if head != nil && !head[st.StreamIndex] {
			continue
		}
		if st.ValueOp != nil && st.ValueOp.Wait {
			ri.Waits = append(ri.Waits, planWait{len(ri.Plan), *st.ValueOp})
		}
		add(int(st.StreamIndex)+off, st.Task)
	}
	if !ri.Captured {
		for k := range ri.Streams {
			if head[k] {
				add(k+1, tsfw.RecordTask(ri.Joins[k]))
				add(0, tsfw.WaitTask(ri.Joins[k]))
			}
		}
	}
	add(0, tsfw.RecordTask(ri.Done))
	ri.queues = make([]*tsfw.Queue, len(ri.Streams)+off)
	for k, s := range ri.Streams {
		ri.queues[k+off] = s.SQ
	}
}

// Ready refuses an RI that cannot run yet.
func (ri *ModelRI) Ready(fn string) error {
	switch ri.State.Load() {
	case RiReady:
		return nil
	case RiCapturing:
		return abi.Errorf(abi.ACL_ERROR_RT_MODEL_CAPTURED, "%s: model run instance %d is still being captured (call aclmdlRICaptureEnd first)", fn, ri.Id)
	case RiBuilding:
		return abi.Errorf(abi.ACL_ERROR_RT_MODEL_EXECUTE, "%s: model run instance %d is still being built (call aclmdlRIBuildEnd first)", fn, ri.Id)
	}
	return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: model run instance %d was destroyed", fn, ri.Id)
}

// SubmitPlan submits one execution with target as queue 0.
// Precondition: execMu held.
func (ri *ModelRI) SubmitPlan(fn string, target *Stream) error {
	ri.queues[0] = target.SQ
	if fp := ri.Flow; fp != nil {
		tq, gen := target.SQ, ri.abortGen.Load()
		ri.Plan[ri.flowAt] = tsfw.HostTask(func() error { return fp.run(tq, gen) })
	}
	for _, w := range ri.Waits {
		ri.Plan[w.i] = w.op.task(ri.queues[ri.qidx[w.i]])
	}
	if emu.SealPending() {
		emu.SealAll() // as at the queueing point (rt/core/submit.go)
	}
	err := ri.Dev.Emu.TS.SubmitGraph(ri.queues, ri.Plan, ri.qidx)
	ri.queues[0] = nil
	if err != nil {
		return abi.Wrapf(err, "%s: model run instance %d on stream %d", fn, ri.Id, target.ID)
	}
	return nil
}

// Destroy ends a model run instance that is not being captured: it waits
// for its last execution, releases it, destroys its streams and runs its
// destroy callbacks. fn names the API call in errors.
func (ri *ModelRI) Destroy(fn string) error {
	CapState.Mu.Lock()
	switch ri.State.Load() {
	case RiCapturing:
		CapState.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_MODEL_CAPTURED, "%s: model run instance %d is being captured: end the capture first", fn, ri.Id)
	case RiDead:
		CapState.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: model run instance %d was destroyed", fn, ri.Id)
	}
	ri.State.Store(RiDead)
	cbs := ri.Callbacks
	ri.Callbacks = nil
	own := ri.Captured
	streams := append([]*Stream(nil), ri.Streams...)
	CapState.Mu.Unlock()

	ri.ExecMu.Lock()
	if ri.Done != nil {
		_ = ri.Done.Synchronize(-1) // the last execution's end; its errors belong to its stream
	}
	exec := ri.Exec
	ri.ExecMu.Unlock()
	ri.Release()
	Runtime.Mu.Lock()
	if own {
		for _, s := range streams {
			s.DestroyLocked(true)
		}
	} else if exec != nil {
		exec.DestroyLocked(true)
	}
	Runtime.Mu.Unlock()
	for _, cb := range cbs {
		cb.Fn()
	}
	return nil
}

const (
	ModelStreamFlagHead = 0x0
)

// AddBuilt records a task issued to a persistent stream bound to ri.
func (ri *ModelRI) AddBuilt(s *Stream, fn string, task tsfw.Task, l *Launch) error {
	return ri.addBuiltOp(s, fn, task, l, nil)
}

// addBuiltOp is addBuilt for a task that may be a value write or wait (op
// non-nil).
func (ri *ModelRI) addBuiltOp(s *Stream, fn string, task tsfw.Task, l *Launch, op *ValueOp) error {
	CapState.Mu.Lock()
	defer CapState.Mu.Unlock()
	if ri.State.Load() != RiBuilding {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d belongs to model run instance %d, which is built: no more tasks", fn, s.ID, ri.Id)
	}
	if err := task.Validate(); err != nil {
		return abi.Wrapf(err, "%s: stream %d", fn, s.ID)
	}
	idx := -1
	for i, x := range ri.Streams {
		if x == s {
			idx = i
		}
	}
	st := &Step{Ri: ri, StreamIndex: uint16(idx), Task: task, TaskType: taskType(&task), UserEv: task.Event()}
	if l != nil {
		st.Task, st.Launch = persistentKernel(task, l), l
	}
	if op != nil {
		st.SetValueOp(op)
	}
	ri.AppendStepLocked(st)
	if r := RecorderOf(s); r != nil {
		r.last, r.hasLast = st.Seq, true
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

// BoundStream checks that s is bound to ri.
// Precondition: capState.mu held.
func (ri *ModelRI) BoundStream(fn string, s *Stream) error {
	if CapState.ByStream[s] != ri || ri.Captured {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d is not bound to model run instance %d", fn, s.ID, ri.Id)
	}
	return nil
}

// RiLeaks holds the model run instances alive when the last aclFinalize
// started: beforeFinalize destroys them (finalizeModelRIs) before the leak
// report is made, and the report must still tell the application about
// them. It belongs to the runtime of node.
var RiLeaks struct {
	sync.Mutex
	Node      *emu.Node
	Instances []*ModelRI
}

// ModelRIsAlive returns the live model run instances the application owns
// (sub-graphs go with their parent), by id.
func ModelRIsAlive() []*ModelRI {
	LiveRIs.Lock()
	list := make([]*ModelRI, 0, len(LiveRIs.M))
	for ri := range LiveRIs.M {
		list = append(list, ri)
	}
	LiveRIs.Unlock()
	CapState.Mu.Lock()
	kept := list[:0]
	for _, ri := range list {
		if CondState.Parent[ri] == nil && ri.State.Load() != RiDead {
			kept = append(kept, ri)
		}
	}
	CapState.Mu.Unlock()
	return kept
}

// liveModelRIs lists the model run instances alive now, and those alive
// when this runtime's aclFinalize started (noteLeakedRIs), by id.
func liveModelRIs() []Live {
	ris := ModelRIsAlive()
	RiLeaks.Lock()
	if RiLeaks.Node == Runtime.Node.Load() {
		for _, ri := range RiLeaks.Instances {
			if !slices.Contains(ris, ri) {
				ris = append(ris, ri)
			}
		}
	}
	RiLeaks.Unlock()
	sort.Slice(ris, func(i, j int) bool { return ris[i].Id < ris[j].Id })
	out := make([]Live, 0, len(ris))
	for _, ri := range ris {
		how := "built"
		if ri.Captured {
			how = "captured"
		}
		if ri.State.Load() == RiCapturing {
			how = "still being captured"
		}
		out = append(out, Live{Kind: "model run instance", Device: int(ri.Dev.ID),
			Summary: fmt.Sprintf("%#x: id %d, %s", uintptr(ri.H), ri.Id, how)})
	}
	return out
}

var (
	nextRIID atomic.Uint32
)

func NewModelRI(c *Context, captured bool) *ModelRI {
	ri := &ModelRI{Ctx: c, Dev: c.Dev, Captured: captured, Id: nextRIID.Add(1),
		Unbound: map[*Stream]bool{}, Ended: map[*Stream]bool{}, BindFlag: map[*Stream]uint32{}}
	if captured {
		ri.State.Store(RiCapturing)
	} else {
		ri.State.Store(RiBuilding)
	}
	ri.H = ModelRIs.Add(ri)
	LiveRIs.Lock()
	LiveRIs.M[ri] = struct{}{}
	LiveRIs.Unlock()
	return ri
}

// FinalizeModelRIs destroys, at aclFinalize, the model run instances the
// application left alive (built or captured, not sub-graphs, which go with
// their parent), as aclmdlRIDestroy would: each waits for its last
// execution, then its destroy callbacks run. RIs still being captured
// end with their capture's streams.
func FinalizeModelRIs() {
	LiveRIs.Lock()
	list := make([]*ModelRI, 0, len(LiveRIs.M))
	for ri := range LiveRIs.M {
		list = append(list, ri)
	}
	LiveRIs.Unlock()
	slices.SortFunc(list, func(a, b *ModelRI) int { return cmp.Compare(a.Id, b.Id) })
	for _, ri := range list {
		CapState.Mu.Lock()
		sub := CondState.Parent[ri] != nil
		st := ri.State.Load()
		CapState.Mu.Unlock()
		if sub || st == RiCapturing || st == RiDead {
			continue
		}
		_ = ri.Destroy("aclmdlRIDestroy")
	}
}

func ResolveRI(fn string, h Handle) (*ModelRI, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: modelRI must not be NULL", fn)
	}
	ri, err := ModelRIs.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return ri, nil
}

// NoteLeakedRIs remembers the model run instances the application left
// alive; called by beforeFinalize before they are destroyed.
func NoteLeakedRIs() {
	ris := ModelRIsAlive()
	RiLeaks.Lock()
	RiLeaks.Node, RiLeaks.Instances = Runtime.Node.Load(), ris
	RiLeaks.Unlock()
}

// ExecuteAsync implements aclmdlRIExecuteAsync.
func ExecuteAsync(t *Thread, rh, sh Handle) error {
	const fn = "aclmdlRIExecuteAsync"
	ri, err := ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	s, err := ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if err := ri.Ready(fn); err != nil {
		return err
	}
	if s.Ctx.Dev != ri.Dev {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CONTEXT, "%s: stream %d is on device %d, the model run instance on device %d", fn, s.ID, s.Ctx.Dev.ID, ri.Dev.ID)
	}
	if r := RecorderOf(s); r != nil || s.Flags&abi.ACL_STREAM_PERSISTENT != 0 {
		if r != nil && r.Kind == RecCapture {
			return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: npuemu cannot capture the execution of a model run instance (stream %d is capturing)", fn, s.ID)
		}
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d records for a model run instance and cannot run one", fn, s.ID)
	}
	ri.ExecMu.Lock()
	defer ri.ExecMu.Unlock()
	if err := ri.Ready(fn); err != nil {
		return err
	}
	if Sanitizing {
		SanitizeReplay(t, fn, s, ri)
	}
	return ri.SubmitPlan(fn, s)
}
