package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Conditional tasks of model run instances (semantics.md §18):
// aclmdlRICondHandleCreate gives an RI a condition word (8 bytes of device
// memory the runtime owns), aclmdlRIAddCondTask records an IF, WHILE or
// SWITCH node on a recording stream and creates its sub-graphs (RIs filled
// with aclmdlRICaptureToModelRIBegin … aclmdlRICaptureEnd).
//
// A node is a host task of the recorded plan: when the replay reaches it
// (so after every earlier task of its stream, including kernels or value
// writes that set the word), it reads the word, runs the chosen sub-graph
// on the sub-graph's own streams and waits for it before the stream goes
// on. WHILE re-reads the word after each run of its body. The condition
// words whose handle asks for it (ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT)
// are set to their default value by a value write at the start of every
// execution of their RI.
//
// Chosen readings where the documentation is silent: IF runs sub-graph 0
// when the word is non-zero and sub-graph 1 (if any) otherwise; SWITCH
// runs sub-graph word when word < size and nothing otherwise; WHILE runs
// its body while the word is non-zero. A sub-graph that was never captured
// is empty (a WHILE with an empty body and a non-zero word fails instead of
// spinning forever). Sub-graphs cannot be destroyed directly: they die
// with the RI of their node.

var condHandles = core.NewTable[condHandle](core.KindCondHandle)

// condHandle is one condition word of an RI.
type condHandle struct {
	h      core.Handle
	ri     *ModelRI
	addr   uintptr
	def    uint32
	assign bool
}

// condNode is one recorded IF / WHILE / SWITCH task.
type condNode struct {
	typ  int32
	cond *condHandle
	subs []*ModelRI
}

// condState links RIs to their condition words and sub-graphs.
// Guarded by capState.mu.
var condState struct {
	handles  map[*ModelRI][]*condHandle
	children map[*ModelRI][]*ModelRI
	parent   map[*ModelRI]*ModelRI
}

func initCondState() {
	if condState.handles == nil {
		condState.handles = map[*ModelRI][]*condHandle{}
		condState.children = map[*ModelRI][]*ModelRI{}
		condState.parent = map[*ModelRI]*ModelRI{}
	}
}

// CondHandleCreate implements aclmdlRICondHandleCreate.
func CondHandleCreate(t *core.Thread, rh core.Handle, def uint32, flag int32, out *core.Handle) error {
	const fn = "aclmdlRICondHandleCreate"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handle must not be NULL", fn)
	}
	if flag != 0 && flag != abi.ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %d: want 0 or ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT (1)", fn, flag)
	}
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if st := ri.state.Load(); st != riCapturing && st != riBuilding {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: model run instance %d is not being captured or built", fn, ri.id)
	}
	d := ri.dev
	addr, err := d.Emu.HBM.Alloc(core.PageSmall, core.AllocAlign)
	if err != nil {
		return abi.Wrapf(err, "%s: condition word on device %d", fn, d.ID)
	}
	pokeU64(addr, uint64(def))
	// Registered like an allocation so that the application's value
	// writes, copies and kernels may target the word.
	d.AllocMu.Lock()
	d.Allocs[addr] = core.Allocation{Base: addr, Size: 8, Pages: core.PageSmall}
	d.AllocMu.Unlock()
	ch := &condHandle{ri: ri, addr: addr, def: def, assign: flag == abi.ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT}
	capState.mu.Lock()
	initCondState()
	condState.handles[ri] = append(condState.handles[ri], ch)
	capState.mu.Unlock()
	ch.h = condHandles.Add(ch)
	*out = ch.h
	return nil
}

func resolveCond(fn string, h core.Handle) (*condHandle, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: condition handle must not be NULL", fn)
	}
	ch, err := condHandles.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return ch, nil
}

// CondHandleGetCondPtr implements aclmdlRICondHandleGetCondPtr.
func CondHandleGetCondPtr(t *core.Thread, h core.Handle, out *uintptr) error {
	const fn = "aclmdlRICondHandleGetCondPtr"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	}
	ch, err := resolveCond(fn, h)
	if err != nil {
		return err
	}
	*out = ch.addr
	return nil
}

// CondTaskParams is aclmdlRICondTaskParams; Subs views modelRIArray
// (Size entries, nil for a NULL array).
type CondTaskParams struct {
	Handle core.Handle
	Type   int32
	Size   uint32
	Subs   []core.Handle
}

// AddCondTask implements aclmdlRIAddCondTask.
func AddCondTask(t *core.Thread, p CondTaskParams, sh core.Handle, flags uint32) error {
	const fn = "aclmdlRIAddCondTask"
	if flags != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %#x: must be 0", fn, flags)
	}
	switch p.Type {
	case abi.ACL_MODEL_RI_COND_TYPE_IF:
		if p.Size < 1 || p.Size > 2 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: an IF task has 1 or 2 sub-graphs, not %d", fn, p.Size)
		}
	case abi.ACL_MODEL_RI_COND_TYPE_WHILE:
		if p.Size != 1 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: a WHILE task has exactly 1 sub-graph, not %d", fn, p.Size)
		}
	case abi.ACL_MODEL_RI_COND_TYPE_SWITCH:
		if p.Size == 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: a SWITCH task needs at least 1 sub-graph", fn)
		}
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: type %d: want ACL_MODEL_RI_COND_TYPE_IF (0), _WHILE (1) or _SWITCH (2)", fn, p.Type)
	}
	if len(p.Subs) < int(p.Size) {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: modelRIArray must not be NULL (it receives %d sub-graphs)", fn, p.Size)
	}
	ch, err := resolveCond(fn, p.Handle)
	if err != nil {
		return err
	}
	if sh == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: the default stream does not record for a model run instance", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	r := recorderOf(s)
	var owner *ModelRI
	switch {
	case r != nil && r.kind == recCapture:
		owner = r.cap.ri
	case r != nil && r.kind == recBuild:
		owner = r.ri
	default:
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %d is not capturing or bound to a model run instance", fn, s.ID)
	}
	if owner != ch.ri {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the condition handle belongs to model run instance %d, stream %d records for %d", fn, ch.ri.id, s.ID, owner.id)
	}
	n := &condNode{typ: p.Type, cond: ch}
	for range p.Size {
		n.subs = append(n.subs, newModelRI(owner.ctx, true))
	}
	task := tsfw.HostTask(n.run)
	if r.kind == recCapture {
		capState.mu.Lock()
		err = r.cap.addLocked(s, fn, task, nil, 0)
		capState.mu.Unlock()
	} else {
		err = owner.addBuilt(s, fn, task, nil)
	}
	if err != nil {
		for _, sub := range n.subs {
			sub.release()
		}
		return err
	}
	capState.mu.Lock()
	initCondState()
	for _, sub := range n.subs {
		condState.parent[sub] = owner
	}
	condState.children[owner] = append(condState.children[owner], n.subs...)
	capState.mu.Unlock()
	for i, sub := range n.subs {
		p.Subs[i] = sub.h
	}
	return nil
}

// run evaluates the node when the replay reaches it.
func (n *condNode) run() error {
	v := peekU64(n.cond.addr)
	switch n.typ {
	case abi.ACL_MODEL_RI_COND_TYPE_IF:
		if v != 0 {
			_, err := runSub(n.subs[0])
			return err
		}
		if len(n.subs) == 2 {
			_, err := runSub(n.subs[1])
			return err
		}
	case abi.ACL_MODEL_RI_COND_TYPE_SWITCH:
		if v < uint64(len(n.subs)) {
			_, err := runSub(n.subs[v])
			return err
		}
	case abi.ACL_MODEL_RI_COND_TYPE_WHILE:
		body := n.subs[0]
		for ; v != 0; v = peekU64(n.cond.addr) {
			ran, err := runSub(body)
			if err != nil {
				return err
			}
			if !ran {
				return abi.Errorf(abi.ACL_ERROR_RT_MODEL_EXECUTE, "conditional WHILE task: the condition word is %d but the body (model run instance %d) is empty: it would never end", v, body.id)
			}
		}
	}
	return nil
}

// runSub runs a sub-graph on its own streams and waits for it. It reports
// whether the sub-graph had tasks: one that was never captured, or that
// recorded nothing, is empty and runs nothing.
func runSub(sub *ModelRI) (bool, error) {
	const fn = "conditional task"
	sub.execMu.Lock()
	capState.mu.Lock()
	empty := sub.state.Load() != riReady || len(sub.steps) == 0
	capState.mu.Unlock()
	if empty {
		sub.execMu.Unlock()
		return false, nil
	}
	s := sub.exec
	err := sub.submitPlan(fn, s)
	sub.execMu.Unlock()
	if err != nil {
		return true, err
	}
	if err := s.SQ.Synchronize(-1); err != nil {
		return true, abi.Wrapf(err, "%s: sub-graph %d", fn, sub.id)
	}
	return true, nil
}

// condPrologueLocked adds, at the start of ri's plan, the value writes
// that assign the default values of its condition words.
// Precondition: capState.mu held.
func (ri *ModelRI) condPrologueLocked(add func(int, tsfw.Task)) {
	for _, ch := range condState.handles[ri] {
		if !ch.assign {
			continue
		}
		if task, err := tsfw.ValueWriteTask(ch.addr, uint64(ch.def)); err == nil {
			add(0, task)
		}
	}
}

// condSubGuard refuses destroying a sub-graph directly.
func condSubGuard(fn string, ri *ModelRI) error {
	capState.mu.Lock()
	p := condState.parent[ri]
	capState.mu.Unlock()
	if p != nil {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: model run instance %d is a sub-graph of a conditional task of model run instance %d: it is destroyed with it", fn, ri.id, p.id)
	}
	return nil
}

// condRelease frees ri's condition words and destroys its sub-graphs.
func condRelease(ri *ModelRI) {
	capState.mu.Lock()
	hs, subs := condState.handles[ri], condState.children[ri]
	delete(condState.handles, ri)
	delete(condState.children, ri)
	idle := make([]bool, len(subs))
	for i, sub := range subs {
		delete(condState.parent, sub)
		idle[i] = sub.state.Load() == riCapturing && sub.cap == nil
	}
	capState.mu.Unlock()
	for i, sub := range subs {
		if idle[i] {
			sub.release() // never captured: nothing to wait for
			continue
		}
		_ = sub.destroy("aclmdlRIDestroy") // a sub-graph still capturing stays with its capture
	}
	d := ri.dev
	for _, ch := range hs {
		condHandles.Remove(ch.h)
		// Only a word still registered as ours is freed: the application
		// may have freed it (aclrtFree) or reset the device, and the
		// address may belong to someone else by now (an aclrtMalloc
		// allocation is never 8 bytes long).
		d.AllocMu.Lock()
		a, ok := d.Allocs[ch.addr]
		ours := ok && a.Size == 8 && a.Pages == core.PageSmall
		if ours {
			delete(d.Allocs, ch.addr)
		}
		d.AllocMu.Unlock()
		if ours {
			_, _ = d.Emu.HBM.Free(ch.addr)
		}
	}
}

// CaptureToModelRIBegin implements aclmdlRICaptureToModelRIBegin: s
// captures into rh, a sub-graph of a conditional task; aclmdlRICaptureEnd
// ends it.
func CaptureToModelRIBegin(t *core.Thread, sh, rh core.Handle, mode int32) error {
	const fn = "aclmdlRICaptureToModelRIBegin"
	if err := checkCaptureMode(fn, mode); err != nil {
		return err
	}
	ri, err := resolveRI(fn, rh)
	if err != nil {
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
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d is persistent (ACL_STREAM_PERSISTENT)", fn, s.ID)
	}
	if s.Ctx.Dev != ri.dev {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CONTEXT, "%s: stream %d is on device %d, the model run instance on device %d", fn, s.ID, s.Ctx.Dev.ID, ri.dev.ID)
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	initCapState()
	initCondState()
	if condState.parent[ri] == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: model run instance %d is not a sub-graph of a conditional task (aclmdlRIAddCondTask)", fn, ri.id)
	}
	if ri.state.Load() != riCapturing || ri.cap != nil || len(ri.steps) != 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: sub-graph %d is already captured or being captured", fn, ri.id)
	}
	if r := recorderOf(s); r != nil {
		if r.kind == recCapture {
			return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is already capturing", fn, s.ID)
		}
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d records for another purpose", fn, s.ID)
	}
	c := &capture{ri: ri, mode: mode, thread: t, origin: s, dev: s.Ctx.Dev,
		evmap: map[*tsfw.Event]*tsfw.Event{}, lastRec: map[*tsfw.Event]int{},
		grp: map[*core.Stream]*taskGrp{}, rec: map[*core.Stream]*recorder{}}
	ri.cap = c
	c.joinLocked(s)
	capState.list = append(capState.list, c)
	core.ActiveCaptures.Add(1)
	return nil
}
