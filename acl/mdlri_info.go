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
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if err := ri.ready(fn); err != nil {
		return err
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	n := len(ri.streams)
	if out != nil {
		if len(out) < n {
			return abi.Errorf(abi.ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, "%s: room for %d streams, the model run instance has %d", fn, len(out), n)
		}
		for i, s := range ri.streams {
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
	capState.mu.Lock()
	defer capState.mu.Unlock()
	ri := capState.byStrm[s]
	if ri == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d belongs to no model run instance", fn, s.ID)
	}
	if ri.state.Load() != riReady {
		return abi.Errorf(abi.ACL_ERROR_RT_MODEL_EXECUTE, "%s: model run instance %d is not built yet", fn, ri.id)
	}
	idx := -1
	for i, x := range ri.streams {
		if x == s {
			idx = i
		}
	}
	var mine []*step
	for _, st := range ri.steps {
		if int(st.sidx) == idx {
			mine = append(mine, st)
		}
	}
	if out != nil {
		if len(out) < len(mine) {
			return abi.Errorf(abi.ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, "%s: room for %d tasks, stream %d has %d", fn, len(out), s.ID, len(mine))
		}
		for i, st := range mine {
			if st.h == 0 {
				st.h = riTasks.Add(st)
			}
			out[i] = st.h
		}
	}
	*num = uint32(len(mine))
	return nil
}

// resolveTask resolves an aclmdlRITask of a live RI.
func resolveTask(fn string, h core.Handle) (*step, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: task must not be NULL", fn)
	}
	st, err := riTasks.Get(h)
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
	*typ = st.typ
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
	*id = st.seq
	return nil
}

// Offsets inside the union (acl-types.md).
const (
	kpFunc       = 0
	kpCfg        = 8
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
	capState.mu.Lock()
	defer capState.mu.Unlock()
	*p = RITaskParams{Type: uint32(st.typ)}
	if st.grp != nil {
		p.TaskGrp = uintptr(st.grp.h)
	}
	u := p.Rsv2[:]
	switch st.typ {
	case abi.ACL_MODEL_RI_TASK_KERNEL:
		if l := st.launch; l != nil {
			_, spec := st.task.KernelOf()
			le.PutUint64(u[kpFunc:], uint64(l.f.H))
			le.PutUint64(u[kpArgs:], uint64(l.args))
			le.PutUint64(u[kpArgsSize:], l.size)
			le.PutUint32(u[kpNumBlocks:], spec.Blocks)
		}
	case abi.ACL_MODEL_RI_TASK_EVENT_RECORD, abi.ACL_MODEL_RI_TASK_EVENT_WAIT, abi.ACL_MODEL_RI_TASK_EVENT_RESET:
		h, flags := eventHandleOf(st.userEv)
		le.PutUint64(u[epEvent:], uint64(h))
		le.PutUint32(u[epEventFlag:], flags)
		if st.typ != abi.ACL_MODEL_RI_TASK_EVENT_RESET {
			le.PutUint32(u[epFlag:], st.ext)
		}
	case abi.ACL_MODEL_RI_TASK_VALUE_WRITE, abi.ACL_MODEL_RI_TASK_VALUE_WAIT:
		if op := st.vop; op != nil {
			le.PutUint64(u[vpAddr:], uint64(op.addr))
			le.PutUint64(u[vpValue:], op.value)
			if op.wait {
				le.PutUint32(u[vpFlag:], op.flag)
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
	if int32(p.Type) != st.typ {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: type %d does not match the task's type %d", fn, int32(p.Type), st.typ)
	}
	if st.typ == abi.ACL_MODEL_RI_TASK_VALUE_WRITE || st.typ == abi.ACL_MODEL_RI_TASK_VALUE_WAIT {
		return setValueParams(fn, st, p)
	}
	if st.typ != abi.ACL_MODEL_RI_TASK_KERNEL || st.launch == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: npuemu updates the parameters of kernel and value write/wait tasks only (task type %d)", fn, st.typ)
	}
	u := p.Rsv2[:]
	f, err := core.ResolveFunction(fn, core.Handle(le.Uint64(u[kpFunc:])))
	if err != nil {
		return err
	}
	blocks := le.Uint32(u[kpNumBlocks:])
	if err := checkBlocks(fn, blocks); err != nil {
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
	var nl *launch
	if host == 1 {
		nl = getLaunch(f.Bin.Host, int(size))
		copy(nl.buf[launchHeader:launchHeader+int(size)], hostBytes(args, size))
		nl.args, nl.size = nl.addr+launchHeader, size
	} else {
		nl = getLaunch(f.Bin.Host, 0)
		nl.args, nl.size = args, size
	}
	nl.f = f
	capState.mu.Lock()
	defer capState.mu.Unlock()
	nl.attr = st.launch.attr // the launch attributes stay those of the recorded launch
	_, spec := st.task.KernelOf()
	spec.Blocks = blocks
	st.ri.retired = append(st.ri.retired, st.launch)
	st.launch = nl
	st.task = tsfw.KernelTask(&riKernel{l: nl}, spec)
	return nil
}

// setValueParams changes a recorded value write or wait; the address is
// checked as aclrtValueWrite / aclrtValueWait check it.
func setValueParams(fn string, st *step, p *RITaskParams) error {
	u := p.Rsv2[:]
	op := valueOp{wait: st.typ == abi.ACL_MODEL_RI_TASK_VALUE_WAIT,
		addr: uintptr(le.Uint64(u[vpAddr:])), value: le.Uint64(u[vpValue:])}
	if op.wait {
		op.flag = le.Uint32(u[vpFlag:])
		if op.flag > abi.ACL_STREAM_WAIT_VALUE_NOR {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: valueWaitTaskParams.flag %d: want ACL_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR (0..3)", fn, op.flag)
		}
	}
	if op.addr == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devAddr must not be NULL", fn)
	}
	if op.addr%8 != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devAddr %#x must be 8-byte aligned", fn, op.addr)
	}
	capState.mu.Lock()
	var s *core.Stream
	if int(st.sidx) < len(st.ri.streams) {
		s = st.ri.streams[st.sidx]
	}
	capState.mu.Unlock()
	if s == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: the task's model run instance was destroyed", fn)
	}
	if err := deviceOperand(fn, "devAddr", s, op.addr, 8); err != nil {
		return err
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	st.setValueOp(&op)
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
	capState.mu.Lock()
	defer capState.mu.Unlock()
	st.disabled = true
	return nil
}

// Update implements aclmdlRIUpdate: parameter changes and disabled tasks
// take effect for the executions issued afterwards.
func Update(t *core.Thread, rh core.Handle) error {
	const fn = "aclmdlRIUpdate"
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if err := ri.ready(fn); err != nil {
		return err
	}
	ri.execMu.Lock()
	defer ri.execMu.Unlock()
	capState.mu.Lock()
	defer capState.mu.Unlock()
	ri.rebuildLocked()
	return nil
}

// SetName implements aclmdlRISetName (longer names are truncated).
func SetName(t *core.Thread, rh core.Handle, name string, isNull bool) error {
	const fn = "aclmdlRISetName"
	if isNull {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: name must not be NULL", fn)
	}
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if len(name) > maxRIName-1 {
		name = name[:maxRIName-1]
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	ri.name = name
	return nil
}

// GetName implements aclmdlRIGetName: the name, truncated to fit buf with
// its NUL; "" when never set.
func GetName(t *core.Thread, rh core.Handle, buf []byte) error {
	const fn = "aclmdlRIGetName"
	if len(buf) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: name must not be NULL and maxLen must be > 0", fn)
	}
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	n := copy(buf[:len(buf)-1], ri.name)
	buf[n] = 0
	return nil
}

// GetID implements aclmdlRIGetId.
func GetID(t *core.Thread, rh core.Handle, id *uint32) error {
	const fn = "aclmdlRIGetId"
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: modelRIId must not be NULL", fn)
	}
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	*id = ri.id
	return nil
}

// DestroyRegisterCallback implements aclmdlRIDestroyRegisterCallback: fn
// runs when the RI is destroyed; key identifies it for unregistering.
func DestroyRegisterCallback(t *core.Thread, rh core.Handle, key uintptr, fn func()) error {
	const name = "aclmdlRIDestroyRegisterCallback"
	if fn == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: func must not be NULL", name)
	}
	ri, err := resolveRI(name, rh)
	if err != nil {
		return err
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	for i, cb := range ri.callbacks {
		if cb.key == key {
			ri.callbacks[i].fn = fn // the latest user data wins
			return nil
		}
	}
	ri.callbacks = append(ri.callbacks, riCallback{key: key, fn: fn})
	return nil
}

// DestroyUnregisterCallback implements aclmdlRIDestroyUnregisterCallback.
func DestroyUnregisterCallback(t *core.Thread, rh core.Handle, key uintptr) error {
	const name = "aclmdlRIDestroyUnregisterCallback"
	if key == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: func must not be NULL", name)
	}
	ri, err := resolveRI(name, rh)
	if err != nil {
		return err
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	for i, cb := range ri.callbacks {
		if cb.key == key {
			ri.callbacks = append(ri.callbacks[:i], ri.callbacks[i+1:]...)
			return nil
		}
	}
	return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the function was not registered on model run instance %d", name, ri.id)
}

// CaptureTaskGrpBegin implements aclmdlRICaptureTaskGrpBegin.
func CaptureTaskGrpBegin(t *core.Thread, sh core.Handle) error {
	const fn = "aclmdlRICaptureTaskGrpBegin"
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	r := recorderOf(s)
	if r == nil || r.kind != recCapture {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %d is not capturing", fn, s.ID)
	}
	c := r.cap
	if c.grp[s] != nil {
		return abi.Errorf(abi.ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %d already has an open task group", fn, s.ID)
	}
	g := &taskGrp{ri: c.ri, stream: s, open: true}
	c.grp[s] = g
	c.ri.groups = append(c.ri.groups, g)
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
	capState.mu.Lock()
	defer capState.mu.Unlock()
	r := recorderOf(s)
	if r == nil || r.kind != recCapture {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %d is not capturing", fn, s.ID)
	}
	g := r.cap.grp[s]
	if g == nil {
		return abi.Errorf(abi.ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %d has no open task group (aclmdlRICaptureTaskGrpBegin)", fn, s.ID)
	}
	delete(r.cap.grp, s)
	g.open = false
	g.h = taskGrps.Add(g)
	*out = g.h
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
	g, err := taskGrps.Get(gh)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	if err := g.ri.ready(fn); err != nil {
		return err
	}
	if s.IsDefault || s.Flags&abi.ACL_STREAM_PERSISTENT != 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d cannot re-issue a task group (default or persistent stream)", fn, s.ID)
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	if r := recorderOf(s); r != nil {
		if r.kind == recCapture {
			return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is capturing", fn, s.ID)
		}
		return abi.Errorf(abi.ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %d is already updating a task group", fn, s.ID)
	}
	if g.updating != nil {
		return abi.Errorf(abi.ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: the task group is already being updated", fn)
	}
	u := &taskUpdate{grp: g, s: s}
	g.updating = u
	setRecorder(s, &recorder{kind: recUpdate, upd: u})
	return nil
}

// addOp collects a re-issued task (op: a value write or wait, else nil).
func (u *taskUpdate) addOp(s *core.Stream, fn string, task tsfw.Task, l *launch, op *valueOp) error {
	capState.mu.Lock()
	defer capState.mu.Unlock()
	if err := task.Validate(); err != nil {
		err = abi.Wrapf(err, "%s: stream %d", fn, s.ID)
		if u.err == nil {
			u.err = err
		}
		return err
	}
	if l != nil {
		task = persistentKernel(task, l)
		u.launches = append(u.launches, l)
	}
	u.tasks = append(u.tasks, task)
	u.vops = append(u.vops, op)
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
	capState.mu.Lock()
	r := recorderOf(s)
	if r == nil || r.kind != recUpdate {
		capState.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %d is not updating a task group (aclmdlRICaptureTaskUpdateBegin)", fn, s.ID)
	}
	u := r.upd
	setRecorder(s, nil)
	u.grp.updating = nil
	g := u.grp
	fail := u.err
	if fail == nil && len(u.tasks) != len(g.steps) {
		fail = abi.Errorf(abi.ACL_ERROR_RT_MODEL_UPDATE_FAILED, "%s: %d tasks re-issued, the group has %d", fn, len(u.tasks), len(g.steps))
	}
	for i := 0; fail == nil && i < len(u.tasks); i++ {
		nt, st := &u.tasks[i], g.steps[i]
		if vop := u.vops[i]; (vop == nil) != (st.vop == nil) || (vop != nil && vop.wait != st.vop.wait) {
			fail = abi.Errorf(abi.ACL_ERROR_RT_MODEL_UPDATE_FAILED, "%s: task %d is not of the group's task's type %d", fn, i, st.typ)
		} else if nt.Kind() != st.task.Kind() {
			fail = abi.Errorf(abi.ACL_ERROR_RT_MODEL_UPDATE_FAILED, "%s: task %d is a %s task, the group's is a %s task", fn, i, nt.Kind(), st.task.Kind())
		} else if ev := nt.Event(); ev != nil && ev != st.userEv {
			fail = abi.Errorf(abi.ACL_ERROR_RT_MODEL_UPDATE_FAILED, "%s: task %d acts on another event than the group's", fn, i)
		}
	}
	capState.mu.Unlock()
	if fail != nil {
		for _, l := range u.launches {
			freeLaunch(l)
		}
		return fail
	}
	ri := g.ri
	ri.execMu.Lock()
	defer ri.execMu.Unlock()
	capState.mu.Lock()
	defer capState.mu.Unlock()
	if ri.state.Load() != riReady {
		for _, l := range u.launches {
			freeLaunch(l)
		}
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: the group's model run instance was destroyed", fn)
	}
	for i, st := range g.steps {
		nt := u.tasks[i]
		if nt.Event() != nil {
			continue // event tasks keep the RI's event mapping
		}
		if vop := u.vops[i]; vop != nil {
			st.setValueOp(vop)
			continue
		}
		if nt.IsKernel() {
			kern, _ := nt.KernelOf()
			if rk, ok := kern.(*riKernel); ok {
				if st.launch != nil {
					ri.retired = append(ri.retired, st.launch)
				}
				st.launch = rk.l
			}
		}
		st.task = nt
	}
	ri.rebuildLocked()
	return nil
}

// Debug output.

var riTypeNames = map[int32]string{
	abi.ACL_MODEL_RI_TASK_DEFAULT:      "DEFAULT",
	abi.ACL_MODEL_RI_TASK_KERNEL:       "KERNEL",
	abi.ACL_MODEL_RI_TASK_EVENT_RECORD: "EVENT_RECORD",
	abi.ACL_MODEL_RI_TASK_EVENT_WAIT:   "EVENT_WAIT",
	abi.ACL_MODEL_RI_TASK_EVENT_RESET:  "EVENT_RESET",
	abi.ACL_MODEL_RI_TASK_VALUE_WRITE:  "VALUE_WRITE",
	abi.ACL_MODEL_RI_TASK_VALUE_WAIT:   "VALUE_WAIT",
}

type riJSON struct {
	ID           uint32      `json:"id"`
	Name         string      `json:"name"`
	Source       string      `json:"source"`
	State        string      `json:"state"`
	Tasks        int         `json:"tasks"`
	Streams      []riStream  `json:"streams"`
	Dependencies []riDepJSON `json:"dependencies"`
	TaskGroups   []riGrpJSON `json:"task_groups,omitempty"`
}

type riStream struct {
	Index    int          `json:"index"`
	StreamID int32        `json:"stream_id"`
	Bind     string       `json:"bind,omitempty"`
	Tasks    []riTaskJSON `json:"tasks"`
}

type riTaskJSON struct {
	Seq      uint32         `json:"seq"`
	Type     string         `json:"type"`
	Disabled bool           `json:"disabled,omitempty"`
	External bool           `json:"external,omitempty"`
	Control  *riCtlJSON     `json:"control,omitempty"`
	Detail   *tsfw.TaskInfo `json:"detail,omitempty"`
}

// riCtlJSON describes a control step (mdlri_flow.go).
type riCtlJSON struct {
	Kind      string  `json:"kind"`                // label, switch_label, active_stream, switch_stream
	Activates *int    `json:"activates,omitempty"` // index of the stream activated
	Labels    []riRef `json:"labels,omitempty"`    // switch_label: where the list's labels are set
}

var ctlNames = map[ctlKind]string{ctlLabel: "label", ctlSwitchLabel: "switch_label", ctlActive: "active_stream", ctlSwitchStream: "switch_stream"}

// describeCtl renders a control step. Precondition: capState.mu held.
func (ri *ModelRI) describeCtl(op *ctlOp) *riCtlJSON {
	c := &riCtlJSON{Kind: ctlNames[op.kind]}
	if op.target != nil {
		k := ri.streamIndexLocked(op.target)
		c.Activates = &k
	}
	for _, l := range op.list {
		if p, ok := ri.labels[l]; ok {
			c.Labels = append(c.Labels, riRef{p.k, uint32(p.pos)})
		}
	}
	return c
}

type riRef struct {
	Stream int    `json:"stream"`
	Seq    uint32 `json:"seq"`
}

type riDepJSON struct {
	From riRef `json:"from"`
	To   riRef `json:"to"`
}

type riGrpJSON struct {
	Stream int      `json:"stream"`
	Tasks  []uint32 `json:"tasks"`
}

// describe renders ri for debug output. Precondition: capState.mu held.
func (ri *ModelRI) describe(verbose bool) riJSON {
	out := riJSON{ID: ri.id, Name: ri.name, Source: "build", State: "ready", Tasks: len(ri.steps),
		Dependencies: []riDepJSON{}}
	if ri.captured {
		out.Source = "capture"
	}
	switch ri.state.Load() {
	case riCapturing:
		out.State = "capturing"
	case riBuilding:
		out.State = "building"
	}
	for i, s := range ri.streams {
		rs := riStream{Index: i, StreamID: s.ID, Tasks: []riTaskJSON{}}
		if !ri.captured {
			rs.Bind = "default"
			if ri.bindFlag[s] == modelStreamFlagHead {
				rs.Bind = "head"
			}
		}
		out.Streams = append(out.Streams, rs)
	}
	for _, st := range ri.steps {
		if int(st.sidx) >= len(out.Streams) {
			continue // capturing: streams not created yet
		}
		tj := riTaskJSON{Seq: st.seq, Type: riTypeNames[st.typ], Disabled: st.disabled, External: st.ext != 0}
		if st.ctl != nil {
			tj.Control = ri.describeCtl(st.ctl)
		}
		if verbose {
			in := st.task.Info()
			if op := st.vop; op != nil { // the descriptor is a placeholder for waits
				in = tsfw.TaskInfo{Kind: "value_write", Dst: uint64(op.addr), Bytes: 8}
				if op.wait {
					in.Kind = "value_wait"
				}
			}
			tj.Detail = &in
		}
		out.Streams[st.sidx].Tasks = append(out.Streams[st.sidx].Tasks, tj)
		for _, d := range st.deps {
			from := ri.steps[d]
			out.Dependencies = append(out.Dependencies, riDepJSON{
				From: riRef{int(from.sidx), from.seq}, To: riRef{int(st.sidx), st.seq}})
		}
	}
	for _, g := range ri.groups {
		if len(g.steps) == 0 {
			continue
		}
		gj := riGrpJSON{Stream: int(g.steps[0].sidx)}
		for _, st := range g.steps {
			gj.Tasks = append(gj.Tasks, st.seq)
		}
		out.TaskGroups = append(out.TaskGroups, gj)
	}
	return out
}

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
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if err := ri.ready(fn); err != nil {
		return err
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, fmt.Sprintf("modelRI_%d.json", ri.id))
	} else if _, err := os.Stat(filepath.Dir(path)); err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: directory of %q does not exist", fn, path)
	}
	capState.mu.Lock()
	doc := ri.describe(flags == abi.ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE)
	capState.mu.Unlock()
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
	ri, err := resolveRI(fn, rh)
	if err != nil {
		return err
	}
	if err := ri.ready(fn); err != nil {
		return err
	}
	capState.mu.Lock()
	doc := ri.describe(false)
	capState.mu.Unlock()
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
	capState.mu.Lock()
	task := st.task
	var flags uint8
	if st.launch != nil {
		flags = st.launch.attr
	}
	capState.mu.Unlock()
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
		v[0] = flags & launchDataDump / launchDataDump
	case abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
		v[0] = flags & launchProfiling / launchProfiling
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtLaunchKernelAttrId %d", fn, id)
	}
	*out = v
	return nil
}
