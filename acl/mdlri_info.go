package acl

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Introspection, update and debug output of model run instances.

// GetStreams implements aclmdlRIGetStreams: with out == nil only *num is
// set; otherwise out must hold every stream (else 107039).
func GetStreams(t *core.Thread, rh core.Handle, out []core.Handle, num *uint32) error {
	const fn = "aclmdlRIGetStreams"
	if num == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: numStreams must not be NULL", fn)
	}
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	if err := ri.Ready(fn); err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	n := len(ri.Streams)
	if out != nil {
		if len(out) < n {
			return abi.Errorf(abi.ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, "%s: room for %d streams, the model run instance has %d", fn, len(out), n)
		}
		for i, s := range ri.Streams {
			out[i] = s.H
		}
	}
	*num = uint32(n)
	return nil
}

// GetTasksByStream implements aclmdlRIGetTasksByStream for a stream of a
// ready RI (as aclmdlRIGetStreams returns them).
func GetTasksByStream(t *core.Thread, sh core.Handle, out []core.Handle, num *uint32) error {
	const fn = "aclmdlRIGetTasksByStream"
	if num == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: numTasks must not be NULL", fn)
	}
	if sh == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	ri := core.CapState.ByStream[s]
	if ri == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d belongs to no model run instance", fn, s.ID)
	}
	if ri.State.Load() != core.RiReady {
		return abi.Errorf(abi.ACL_ERROR_RT_MODEL_EXECUTE, "%s: model run instance %d is not built yet", fn, ri.Id)
	}
	idx := -1
	for i, x := range ri.Streams {
		if x == s {
			idx = i
		}
	}
	var mine []*core.Step
	for _, st := range ri.Steps {
		if int(st.StreamIndex) == idx {
			mine = append(mine, st)
		}
	}
	if out != nil {
		if len(out) < len(mine) {
			return abi.Errorf(abi.ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, "%s: room for %d tasks, stream %d has %d", fn, len(out), s.ID, len(mine))
		}
		for i, st := range mine {
			if st.H == 0 {
				st.H = core.RiTasks.Add(st)
			}
			out[i] = st.H
		}
	}
	*num = uint32(len(mine))
	return nil
}

// resolveTask resolves an aclmdlRITask of a live RI.
func resolveTask(fn string, h core.Handle) (*core.Step, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: task must not be NULL", fn)
	}
	st, err := core.RiTasks.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return st, nil
}

// TaskGetType implements aclmdlRITaskGetType.
func TaskGetType(t *core.Thread, th core.Handle, typ *int32) error {
	const fn = "aclmdlRITaskGetType"
	if typ == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: type must not be NULL", fn)
	}
	st, err := resolveTask(fn, th)
	if err != nil {
		return err
	}
	*typ = st.TaskType
	return nil
}

// TaskGetSeqID implements aclmdlRITaskGetSeqId: the task's 0-based
// position among the tasks of its stream.
func TaskGetSeqID(t *core.Thread, th core.Handle, id *uint32) error {
	const fn = "aclmdlRITaskGetSeqId"
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: id must not be NULL", fn)
	}
	st, err := resolveTask(fn, th)
	if err != nil {
		return err
	}
	*id = st.Seq
	return nil
}

// Offsets inside the union (acl-types.md).
const (
	kpFunc       = 0
	kpArgs       = 16
	kpIsHostArgs = 24
	kpArgsSize   = 32
	kpNumBlocks  = 40
	epEvent      = 0
	epEventFlag  = 8
	epFlag       = 12
	vpAddr       = 0 // valueWriteTaskParams / valueWaitTaskParams
	vpValue      = 8
	vpFlag       = 16 // valueWaitTaskParams only
)

var le = binary.LittleEndian

// eventHandleOf finds the application's event handle of a tsfw event
// (0 when it was destroyed).
func eventHandleOf(te *tsfw.Event) (core.Handle, uint32) {
	core.Events.Mu.RLock()
	defer core.Events.Mu.RUnlock()
	for i, sl := range core.Events.Slots {
		if sl.Obj != nil && sl.Obj.TSEvent == te {
			return core.MakeHandle(core.KindEvent, sl.Gen, uint32(i)), sl.Obj.Flags
		}
	}
	return 0, 0
}

// TaskGetParams implements aclmdlRITaskGetParams.
func TaskGetParams(t *core.Thread, th core.Handle, p *RITaskParams) error {
	const fn = "aclmdlRITaskGetParams"
	if p == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: params must not be NULL", fn)
	}
	st, err := resolveTask(fn, th)
	if err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	*p = RITaskParams{Type: uint32(st.TaskType)}
	if st.Grp != nil {
		p.TaskGrp = uintptr(st.Grp.H)
	}
	u := p.Rsv2[:]
	switch st.TaskType {
	case abi.ACL_MODEL_RI_TASK_KERNEL:
		if l := st.Launch; l != nil {
			_, spec := st.Task.KernelOf()
			le.PutUint64(u[kpFunc:], uint64(l.F.H))
			le.PutUint64(u[kpArgs:], uint64(l.Args))
			le.PutUint64(u[kpArgsSize:], l.Size)
			le.PutUint32(u[kpNumBlocks:], spec.Blocks)
		}
	case abi.ACL_MODEL_RI_TASK_EVENT_RECORD, abi.ACL_MODEL_RI_TASK_EVENT_WAIT, abi.ACL_MODEL_RI_TASK_EVENT_RESET:
		h, flags := eventHandleOf(st.UserEv)
		le.PutUint64(u[epEvent:], uint64(h))
		le.PutUint32(u[epEventFlag:], flags)
		if st.TaskType != abi.ACL_MODEL_RI_TASK_EVENT_RESET {
			le.PutUint32(u[epFlag:], st.Ext)
		}
	case abi.ACL_MODEL_RI_TASK_VALUE_WRITE, abi.ACL_MODEL_RI_TASK_VALUE_WAIT:
		if op := st.ValueOp; op != nil {
			le.PutUint64(u[vpAddr:], uint64(op.Addr))
			le.PutUint64(u[vpValue:], op.Value)
			if op.Wait {
				le.PutUint32(u[vpFlag:], op.Flag)
			}
		}
	}
	return nil
}

// TaskSetParams implements aclmdlRITaskSetParams for kernel tasks (the
// function, its arguments — device memory, or host memory copied now —
// and the block count) and value write/wait tasks (address, value, wait
// condition); the change takes effect at aclmdlRIUpdate. Event tasks are
// refused: see docs/capture.md.
func TaskSetParams(t *core.Thread, th core.Handle, p *RITaskParams) error {
	const fn = "aclmdlRITaskSetParams"
	if p == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: params must not be NULL", fn)
	}
	st, err := resolveTask(fn, th)
	if err != nil {
		return err
	}
	if int32(p.Type) != st.TaskType {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: type %d does not match the task's type %d", fn, int32(p.Type), st.TaskType)
	}
	if st.TaskType == abi.ACL_MODEL_RI_TASK_VALUE_WRITE || st.TaskType == abi.ACL_MODEL_RI_TASK_VALUE_WAIT {
		return setValueParams(fn, st, p)
	}
	if st.TaskType != abi.ACL_MODEL_RI_TASK_KERNEL || st.Launch == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: npuemu updates the parameters of kernel and value write/wait tasks only (task type %d)", fn, st.TaskType)
	}
	u := p.Rsv2[:]
	f, err := core.ResolveFunction(fn, core.Handle(le.Uint64(u[kpFunc:])))
	if err != nil {
		return err
	}
	blocks := le.Uint32(u[kpNumBlocks:])
	if err := core.CheckBlocks(fn, blocks); err != nil {
		return err
	}
	args, size, host := uintptr(le.Uint64(u[kpArgs:])), le.Uint64(u[kpArgsSize:]), le.Uint32(u[kpIsHostArgs:])
	if size > 0 && args == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: args must not be NULL when argsSize is %d", fn, size)
	}
	if host > 1 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: isHostArgs %d: want 0 or 1", fn, host)
	}
	if err := f.Bin.Acquire(fn); err != nil {
		return err
	}
	var nl *core.Launch
	if host == 1 {
		nl = core.GetLaunch(nil, f.Bin.Host, int(size))
		copy(nl.Buf[core.LaunchHeader:core.LaunchHeader+int(size)], core.HostBytes(args, size))
		nl.Args, nl.Size = nl.Addr+core.LaunchHeader, size
	} else {
		nl = core.GetLaunch(nil, f.Bin.Host, 0)
		nl.Args, nl.Size = args, size
	}
	nl.F = f
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	nl.Attr = st.Launch.Attr // the launch attributes stay those of the recorded launch
	_, spec := st.Task.KernelOf()
	spec.Blocks = blocks
	st.Ri.Retired = append(st.Ri.Retired, st.Launch)
	st.Launch = nl
	st.Task = tsfw.KernelTask(&core.RiKernel{L: nl}, spec)
	return nil
}

// setValueParams changes a recorded value write or wait; the address is
// checked as aclrtValueWrite / aclrtValueWait check it.
func setValueParams(fn string, st *core.Step, p *RITaskParams) error {
	u := p.Rsv2[:]
	op := core.ValueOp{Wait: st.TaskType == abi.ACL_MODEL_RI_TASK_VALUE_WAIT,
		Addr: uintptr(le.Uint64(u[vpAddr:])), Value: le.Uint64(u[vpValue:])}
	if op.Wait {
		op.Flag = le.Uint32(u[vpFlag:])
		if op.Flag > abi.ACL_STREAM_WAIT_VALUE_NOR {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: valueWaitTaskParams.flag %d: want ACL_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR (0..3)", fn, op.Flag)
		}
	}
	if op.Addr == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devAddr must not be NULL", fn)
	}
	if op.Addr%8 != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devAddr %#x must be 8-byte aligned", fn, op.Addr)
	}
	core.CapState.Mu.Lock()
	var s *core.Stream
	if int(st.StreamIndex) < len(st.Ri.Streams) {
		s = st.Ri.Streams[st.StreamIndex]
	}
	core.CapState.Mu.Unlock()
	if s == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: the task's model run instance was destroyed", fn)
	}
	if err := deviceOperand(fn, "devAddr", s, op.Addr, 8); err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	st.SetValueOp(&op)
	return nil
}

// TaskDisable implements aclmdlRITaskDisable: from the next
// aclmdlRIUpdate on, the task no longer runs (a disabled event task keeps
// ordering its streams).
func TaskDisable(t *core.Thread, th core.Handle) error {
	st, err := resolveTask("aclmdlRITaskDisable", th)
	if err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	st.Disabled = true
	return nil
}

// Update implements aclmdlRIUpdate: parameter changes and disabled tasks
// take effect for the executions issued afterwards.
func Update(t *core.Thread, rh core.Handle) error {
	const fn = "aclmdlRIUpdate"
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	if err := ri.Ready(fn); err != nil {
		return err
	}
	ri.ExecMu.Lock()
	defer ri.ExecMu.Unlock()
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	ri.RebuildLocked()
	return nil
}

// SetName implements aclmdlRISetName (longer names are truncated).
func SetName(t *core.Thread, rh core.Handle, name string, isNull bool) error {
	const fn = "aclmdlRISetName"
	if isNull {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: name must not be NULL", fn)
	}
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	if len(name) > maxRIName-1 {
		name = name[:maxRIName-1]
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	ri.Name = name
	return nil
}

// GetName implements aclmdlRIGetName: the name, truncated to fit buf with
// its NUL; "" when never set.
func GetName(t *core.Thread, rh core.Handle, buf []byte) error {
	const fn = "aclmdlRIGetName"
	if len(buf) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: name must not be NULL and maxLen must be > 0", fn)
	}
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	n := copy(buf[:len(buf)-1], ri.Name)
	buf[n] = 0
	return nil
}

// GetID implements aclmdlRIGetId.
func GetID(t *core.Thread, rh core.Handle, id *uint32) error {
	const fn = "aclmdlRIGetId"
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: modelRIId must not be NULL", fn)
	}
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	*id = ri.Id
	return nil
}

// DestroyRegisterCallback implements aclmdlRIDestroyRegisterCallback: fn
// runs when the RI is destroyed; key identifies it for unregistering.
func DestroyRegisterCallback(t *core.Thread, rh core.Handle, key uintptr, fn func()) error {
	const name = "aclmdlRIDestroyRegisterCallback"
	if fn == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: func must not be NULL", name)
	}
	ri, err := core.ResolveRI(name, rh)
	if err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	for i, cb := range ri.Callbacks {
		if cb.Key == key {
			ri.Callbacks[i].Fn = fn // the latest user data wins
			return nil
		}
	}
	ri.Callbacks = append(ri.Callbacks, core.RiCallback{Key: key, Fn: fn})
	return nil
}

// DestroyUnregisterCallback implements aclmdlRIDestroyUnregisterCallback.
func DestroyUnregisterCallback(t *core.Thread, rh core.Handle, key uintptr) error {
	const name = "aclmdlRIDestroyUnregisterCallback"
	if key == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: func must not be NULL", name)
	}
	ri, err := core.ResolveRI(name, rh)
	if err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	for i, cb := range ri.Callbacks {
		if cb.Key == key {
			ri.Callbacks = append(ri.Callbacks[:i], ri.Callbacks[i+1:]...)
			return nil
		}
	}
	return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the function was not registered on model run instance %d", name, ri.Id)
}

// CaptureTaskGrpBegin implements aclmdlRICaptureTaskGrpBegin.
func CaptureTaskGrpBegin(t *core.Thread, sh core.Handle) error {
	const fn = "aclmdlRICaptureTaskGrpBegin"
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	r := core.RecorderOf(s)
	if r == nil || r.Kind != core.RecCapture {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %d is not capturing", fn, s.ID)
	}
	c := r.Cap
	if c.Grp[s] != nil {
		return abi.Errorf(abi.ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %d already has an open task group", fn, s.ID)
	}
	g := &core.TaskGrp{Ri: c.Ri, Stream: s, Open: true}
	c.Grp[s] = g
	c.Ri.Groups = append(c.Ri.Groups, g)
	return nil
}

// CaptureTaskGrpEnd implements aclmdlRICaptureTaskGrpEnd.
func CaptureTaskGrpEnd(t *core.Thread, sh core.Handle, out *core.Handle) error {
	const fn = "aclmdlRICaptureTaskGrpEnd"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handle must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	r := core.RecorderOf(s)
	if r == nil || r.Kind != core.RecCapture {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %d is not capturing", fn, s.ID)
	}
	g := r.Cap.Grp[s]
	if g == nil {
		return abi.Errorf(abi.ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %d has no open task group (aclmdlRICaptureTaskGrpBegin)", fn, s.ID)
	}
	delete(r.Cap.Grp, s)
	g.Open = false
	g.H = core.TaskGrps.Add(g)
	*out = g.H
	return nil
}

// CaptureTaskUpdateBegin implements aclmdlRICaptureTaskUpdateBegin: the
// tasks issued to s (not capturing) until TaskUpdateEnd replace the
// group's tasks, one for one.
func CaptureTaskUpdateBegin(t *core.Thread, sh, gh core.Handle) error {
	const fn = "aclmdlRICaptureTaskUpdateBegin"
	if gh == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handle must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	g, err := core.TaskGrps.Get(gh)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	if err := g.Ri.Ready(fn); err != nil {
		return err
	}
	if s.IsDefault || s.Flags&abi.ACL_STREAM_PERSISTENT != 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d cannot re-issue a task group (default or persistent stream)", fn, s.ID)
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	if r := core.RecorderOf(s); r != nil {
		if r.Kind == core.RecCapture {
			return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is capturing", fn, s.ID)
		}
		return abi.Errorf(abi.ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %d is already updating a task group", fn, s.ID)
	}
	if g.Updating != nil {
		return abi.Errorf(abi.ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: the task group is already being updated", fn)
	}
	u := &core.TaskUpdate{Grp: g, S: s}
	g.Updating = u
	core.SetRecorder(s, &core.Recorder{Kind: core.RecUpdate, Update: u})
	return nil
}

// CaptureTaskUpdateEnd implements aclmdlRICaptureTaskUpdateEnd: the
// re-issued tasks must match the group's in number and kind (and event
// tasks their event); they replace the group's tasks for the executions
// issued afterwards.
func CaptureTaskUpdateEnd(t *core.Thread, sh core.Handle) error {
	const fn = "aclmdlRICaptureTaskUpdateEnd"
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	r := core.RecorderOf(s)
	if r == nil || r.Kind != core.RecUpdate {
		core.CapState.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %d is not updating a task group (aclmdlRICaptureTaskUpdateBegin)", fn, s.ID)
	}
	u := r.Update
	core.SetRecorder(s, nil)
	u.Grp.Updating = nil
	g := u.Grp
	fail := u.Err
	if fail == nil && len(u.Tasks) != len(g.Steps) {
		fail = abi.Errorf(abi.ACL_ERROR_RT_MODEL_UPDATE_FAILED, "%s: %d tasks re-issued, the group has %d", fn, len(u.Tasks), len(g.Steps))
	}
	for i := 0; fail == nil && i < len(u.Tasks); i++ {
		nt, st := &u.Tasks[i], g.Steps[i]
		if vop := u.Vops[i]; (vop == nil) != (st.ValueOp == nil) || (vop != nil && vop.Wait != st.ValueOp.Wait) {
			fail = abi.Errorf(abi.ACL_ERROR_RT_MODEL_UPDATE_FAILED, "%s: task %d is not of the group's task's type %d", fn, i, st.TaskType)
		} else if nt.Kind() != st.Task.Kind() {
			fail = abi.Errorf(abi.ACL_ERROR_RT_MODEL_UPDATE_FAILED, "%s: task %d is a %s task, the group's is a %s task", fn, i, nt.Kind(), st.Task.Kind())
		} else if ev := nt.Event(); ev != nil && ev != st.UserEv {
			fail = abi.Errorf(abi.ACL_ERROR_RT_MODEL_UPDATE_FAILED, "%s: task %d acts on another event than the group's", fn, i)
		}
	}
	core.CapState.Mu.Unlock()
	if fail != nil {
		for _, l := range u.Launches {
			core.FreeLaunch(l)
		}
		return fail
	}
	ri := g.Ri
	ri.ExecMu.Lock()
	defer ri.ExecMu.Unlock()
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	if ri.State.Load() != core.RiReady {
		for _, l := range u.Launches {
			core.FreeLaunch(l)
		}
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: the group's model run instance was destroyed", fn)
	}
	for i, st := range g.Steps {
		nt := u.Tasks[i]
		if nt.Event() != nil {
			continue // event tasks keep the RI's event mapping
		}
		if vop := u.Vops[i]; vop != nil {
			st.SetValueOp(vop)
			continue
		}
		if nt.IsKernel() {
			kern, _ := nt.KernelOf()
			if rk, ok := kern.(*core.RiKernel); ok {
				if st.Launch != nil {
					ri.Retired = append(ri.Retired, st.Launch)
				}
				st.Launch = rk.L
			}
		}
		st.Task = nt
	}
	ri.RebuildLocked()
	return nil
}

// Debug output.

// DebugJSONPrint implements aclmdlRIDebugJsonPrint: npuemu's own JSON
// (streams, their tasks, cross-stream dependencies, task groups) written
// to path; when path is an existing directory, to
// modelRI_<id>.json inside it.
func DebugJSONPrint(t *core.Thread, rh core.Handle, path string, flags uint32) error {
	const fn = "aclmdlRIDebugJsonPrint"
	if path == "" {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: path must not be NULL or empty", fn)
	}
	if flags != abi.ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY && flags != abi.ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %d: want ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY (0) or _VERBOSE (1)", fn, flags)
	}
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	if err := ri.Ready(fn); err != nil {
		return err
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, fmt.Sprintf("modelRI_%d.json", ri.Id))
	} else if _, err := os.Stat(filepath.Dir(path)); err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: directory of %q does not exist", fn, path)
	}
	core.CapState.Mu.Lock()
	doc := ri.Describe(flags == abi.ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE)
	core.CapState.Mu.Unlock()
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INTERNAL_ERROR, "%s: %v", fn, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %v", fn, err)
	}
	return nil
}

// DebugPrint implements the deprecated aclmdlRIDebugPrint: a text summary
// on w (stderr from libfake).
func DebugPrint(t *core.Thread, rh core.Handle, w io.Writer) error {
	const fn = "aclmdlRIDebugPrint"
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	if err := ri.Ready(fn); err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	doc := ri.Describe(false)
	core.CapState.Mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "[npuemu] model run instance %d %q (%s): %d tasks on %d streams, %d cross-stream dependencies\n",
		doc.ID, doc.Name, doc.Source, doc.Tasks, len(doc.Streams), len(doc.Dependencies))
	for _, s := range doc.Streams {
		fmt.Fprintf(&b, "[npuemu]   stream %d (id %d):", s.Index, s.StreamID)
		for _, tj := range s.Tasks {
			fmt.Fprintf(&b, " %s", tj.Type)
		}
		b.WriteString("\n")
	}
	_, err = io.WriteString(w, b.String())
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INTERNAL_ERROR, "%s: %v", fn, err)
	}
	return nil
}

// KernelTaskGetAttribute implements aclmdlRIKernelTaskGetAttribute: the
// launch attributes of a recorded kernel, as its launch gave them (the
// default when it did not): SCHEM_MODE and the timeout from the task
// descriptor, DATA_DUMP and ENABLE_PROFILING from the flags the launch
// keeps (they change nothing in npuemu). out receives the 16-byte
// aclrtLaunchKernelAttrValue. The documentation excludes ENGINE_TYPE,
// BLOCKDIM_OFFSET and BLOCK_TASK_PREFETCH.
func KernelTaskGetAttribute(t *core.Thread, th core.Handle, id int32, out *[16]byte) error {
	const fn = "aclmdlRIKernelTaskGetAttribute"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attrValue must not be NULL", fn)
	}
	st, err := resolveTask(fn, th)
	if err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	task := st.Task
	var flags uint8
	if st.Launch != nil {
		flags = st.Launch.Attr
	}
	core.CapState.Mu.Unlock()
	if !task.IsKernel() {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the task is not a kernel task (aclmdlRITaskGetType)", fn)
	}
	_, spec := task.KernelOf()
	var v [16]byte
	switch id {
	case abi.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
		if spec.Batch {
			v[0] = 1
		}
	case abi.ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
		// Only 0 is accepted at launch (no SIMT kernels): v stays 0.
	case abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
		// Whole seconds of the kernel's limit, whichever attribute set it.
		le.PutUint16(v[:], uint16(min(spec.Timeout/time.Second, 0xFFFF)))
	case abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
		us := uint64(spec.Timeout / time.Microsecond)
		le.PutUint32(v[:], uint32(us))
		le.PutUint32(v[4:], uint32(us>>32))
	case abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, abi.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, abi.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d cannot be queried on a recorded kernel (documented exclusion)", fn, id)
	case abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
		v[0] = flags & core.LaunchDataDump / core.LaunchDataDump
	case abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
		v[0] = flags & core.LaunchProfiling / core.LaunchProfiling
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtLaunchKernelAttrId %d", fn, id)
	}
	*out = v
	return nil
}
