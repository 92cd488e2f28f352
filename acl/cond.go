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

func initCondState() {
	if core.CondState.Handles == nil {
		core.CondState.Handles = map[*core.ModelRI][]*core.CondHandle{}
		core.CondState.Children = map[*core.ModelRI][]*core.ModelRI{}
		core.CondState.Parent = map[*core.ModelRI]*core.ModelRI{}
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
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	if st := ri.State.Load(); st != core.RiCapturing && st != core.RiBuilding {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: model run instance %d is not being captured or built", fn, ri.Id)
	}
	d := ri.Dev
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
	ch := &core.CondHandle{Ri: ri, Addr: addr, Def: def, Assign: flag == abi.ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT}
	core.CapState.Mu.Lock()
	initCondState()
	core.CondState.Handles[ri] = append(core.CondState.Handles[ri], ch)
	core.CapState.Mu.Unlock()
	ch.H = core.CondHandles.Add(ch)
	*out = ch.H
	return nil
}

func resolveCond(fn string, h core.Handle) (*core.CondHandle, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: condition handle must not be NULL", fn)
	}
	ch, err := core.CondHandles.Get(h)
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
	*out = ch.Addr
	return nil
}

// AddCondTask implements aclmdlRIAddCondTask.
func AddCondTask(t *core.Thread, p core.CondTaskParams, sh core.Handle, flags uint32) error {
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
	r := core.RecorderOf(s)
	var owner *core.ModelRI
	switch {
	case r != nil && r.Kind == core.RecCapture:
		owner = r.Cap.Ri
	case r != nil && r.Kind == core.RecBuild:
		owner = r.Ri
	default:
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %d is not capturing or bound to a model run instance", fn, s.ID)
	}
	if owner != ch.Ri {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the condition handle belongs to model run instance %d, stream %d records for %d", fn, ch.Ri.Id, s.ID, owner.Id)
	}
	n := &core.CondNode{Typ: p.Type, Cond: ch}
	for range p.Size {
		n.Subs = append(n.Subs, core.NewModelRI(owner.Ctx, true))
	}
	task := tsfw.HostTask(n.Run)
	if r.Kind == core.RecCapture {
		core.CapState.Mu.Lock()
		err = r.Cap.AddLocked(s, fn, task, nil, 0)
		core.CapState.Mu.Unlock()
	} else {
		err = owner.AddBuilt(s, fn, task, nil)
	}
	if err != nil {
		for _, sub := range n.Subs {
			sub.Release()
		}
		return err
	}
	core.CapState.Mu.Lock()
	initCondState()
	for _, sub := range n.Subs {
		core.CondState.Parent[sub] = owner
	}
	core.CondState.Children[owner] = append(core.CondState.Children[owner], n.Subs...)
	core.CapState.Mu.Unlock()
	for i, sub := range n.Subs {
		p.Subs[i] = sub.H
	}
	return nil
}

// condSubGuard refuses destroying a sub-graph directly.
func condSubGuard(fn string, ri *core.ModelRI) error {
	core.CapState.Mu.Lock()
	p := core.CondState.Parent[ri]
	core.CapState.Mu.Unlock()
	if p != nil {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: model run instance %d is a sub-graph of a conditional task of model run instance %d: it is destroyed with it", fn, ri.Id, p.Id)
	}
	return nil
}

// CaptureToModelRIBegin implements aclmdlRICaptureToModelRIBegin: s
// captures into rh, a sub-graph of a conditional task; aclmdlRICaptureEnd
// ends it.
func CaptureToModelRIBegin(t *core.Thread, sh, rh core.Handle, mode int32) error {
	const fn = "aclmdlRICaptureToModelRIBegin"
	if err := checkCaptureMode(fn, mode); err != nil {
		return err
	}
	ri, err := core.ResolveRI(fn, rh)
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
	if s.Ctx.Dev != ri.Dev {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CONTEXT, "%s: stream %d is on device %d, the model run instance on device %d", fn, s.ID, s.Ctx.Dev.ID, ri.Dev.ID)
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	initCapState()
	initCondState()
	if core.CondState.Parent[ri] == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: model run instance %d is not a sub-graph of a conditional task (aclmdlRIAddCondTask)", fn, ri.Id)
	}
	if ri.State.Load() != core.RiCapturing || ri.Cap != nil || len(ri.Steps) != 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: sub-graph %d is already captured or being captured", fn, ri.Id)
	}
	if r := core.RecorderOf(s); r != nil {
		if r.Kind == core.RecCapture {
			return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is already capturing", fn, s.ID)
		}
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d records for another purpose", fn, s.ID)
	}
	c := &core.Capture{Ri: ri, Mode: mode, Thread: t, Origin: s, Dev: s.Ctx.Dev,
		EventMap: map[*tsfw.Event]*tsfw.Event{}, LastRec: map[*tsfw.Event]int{},
		Grp: map[*core.Stream]*core.TaskGrp{}, Rec: map[*core.Stream]*core.Recorder{}}
	ri.Cap = c
	c.JoinLocked(s)
	core.CapState.List = append(core.CapState.List, c)
	core.ActiveCaptures.Add(1)
	return nil
}
