package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// aclrtTaskUpdateAsync (semantics.md §15, §18): a task on an ordinary
// stream that, when that stream reaches it, rewrites a kernel task of a
// model run instance built on bound streams. The task is named by the
// stream it was issued to and the id aclrtGetThreadLastTaskId reported
// after issuing it (its sequence id in that stream, capture.go). The new
// function entry and numBlocks are read from device memory when the
// update runs, so a kernel queued before it on the same stream can
// compute them. The change is visible to every run of the kernel that
// starts after the update ran, including executions already submitted
// (riKernel.live).

// Offsets in aclrtAicAivTaskUpdateAttr (acl-types.md).
const (
	tuBinHandle  = 0
	tuFuncEntry  = 8
	tuBlockDimAt = 16
)

// TaskUpdateAsync implements aclrtTaskUpdateAsync.
func TaskUpdateAsync(t *core.Thread, taskSH core.Handle, taskID uint32, info *TaskUpdateInfo, execSH core.Handle) error {
	const fn = "aclrtTaskUpdateAsync"
	if info == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: info must not be NULL", fn)
	}
	if taskSH == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: taskStream must not be NULL: name the stream bound to the model run instance (aclmdlRIBindStream)", fn)
	}
	ts, err := core.ResolveStream(t, fn, taskSH)
	if err != nil {
		return err
	}
	es, err := core.ResolveStream(t, fn, execSH)
	if err != nil {
		return err
	}
	switch info.Id {
	case abi.ACL_RT_UPDATE_AIC_AIV_TASK:
	case abi.ACL_RT_UPDATE_RANDOM_TASK:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ACL_RT_UPDATE_RANDOM_TASK: npuemu records no random-number tasks; task %d of stream %d can only be updated as ACL_RT_UPDATE_AIC_AIV_TASK", fn, taskID, ts.ID)
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtUpdateTaskAttrId %d", fn, info.Id)
	}
	b, err := core.ResolveBinary(fn, core.Handle(le.Uint64(info.Val[tuBinHandle:])))
	if err != nil {
		return err
	}
	entryAt := uintptr(le.Uint64(info.Val[tuFuncEntry:]))
	blocksAt := uintptr(le.Uint64(info.Val[tuBlockDimAt:]))
	if entryAt == 0 && blocksAt == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: funcEntryAddr and blockDimAddr are both NULL: nothing to update", fn)
	}
	for _, c := range []struct {
		name string
		at   uintptr
		n    uint64
	}{{"funcEntryAddr", entryAt, 8}, {"blockDimAddr", blocksAt, 4}} {
		if c.at == 0 {
			continue
		}
		if base, size, ok := es.Ctx.Dev.Emu.HBM.Find(c.at); !ok || uint64(c.at-base)+c.n > size {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s %#x..+%d is not inside one allocation of device %d's memory", fn, c.name, c.at, c.n, es.Ctx.Dev.ID)
		}
	}
	st, err := updatableTask(fn, ts, taskID, es)
	if err != nil {
		return err
	}
	return es.SubmitTask(t, fn, tsfw.HostTask(faultSafe(fn, func() error {
		return st.applyUpdate(fn, b, entryAt, blocksAt)
	})))
}

// updatableTask finds task id of stream ts, which must be bound to a built
// model run instance, and checks that es may carry its update.
func updatableTask(fn string, ts *core.Stream, id uint32, es *core.Stream) (*step, error) {
	capState.mu.Lock()
	defer capState.mu.Unlock()
	ri := capState.byStrm[ts]
	if ri == nil || ri.captured || ri.unbound[ts] {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: taskStream %d is not bound to a model run instance (aclmdlRIBindStream); captured instances are updated with aclmdlRITaskSetParams", fn, ts.ID)
	}
	if err := ri.ready(fn); err != nil {
		return nil, err
	}
	if x := capState.byStrm[es]; es == ts || es.Flags&abi.ACL_STREAM_PERSISTENT != 0 || (x != nil && !x.unbound[es]) {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: execStream %d is a model stream: the update must run on an ordinary stream", fn, es.ID)
	}
	if recorderOf(es) != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: execStream %d is capturing or re-issuing a task group: npuemu does not record task updates", fn, es.ID)
	}
	sidx := ri.streamIndexLocked(ts)
	for _, st := range ri.steps {
		if int(st.sidx) != sidx || st.seq != id {
			continue
		}
		if st.typ != abi.ACL_MODEL_RI_TASK_KERNEL || st.launch == nil {
			return nil, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: task %d of stream %d is not a kernel task (aclmdlRITaskType %d)", fn, id, ts.ID, st.typ)
		}
		return st, nil
	}
	n := uint32(0)
	if sidx >= 0 && sidx < len(ri.perStream) {
		n = ri.perStream[sidx]
	}
	return nil, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d has no task %d in model run instance %d (its task ids are 0..%d, as aclrtGetThreadLastTaskId reported them)", fn, ts.ID, id, ri.id, int64(n)-1)
}

// applyUpdate is the update task: it reads the new function entry (a
// kernel of b) and numBlocks from device memory and installs them in
// st's kernel. An address of 0 keeps that part.
func (st *step) applyUpdate(fn string, b *core.Binary, entryAt, blocksAt uintptr) error {
	var f *core.Function
	if entryAt != 0 {
		entry := uintptr(peekU64(entryAt))
		for _, x := range b.Funcs {
			if x.Entry.Fn == entry {
				f = x
			}
		}
		if f == nil {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: function entry %#x read at %#x is not a kernel of binary %#x", fn, entry, entryAt, uintptr(b.H))
		}
	}
	var blocks uint32
	if blocksAt != 0 {
		blocks = peekU32(blocksAt)
		if err := checkBlocks(fn, blocks); err != nil {
			return err
		}
	}
	capState.mu.Lock()
	defer capState.mu.Unlock()
	ri := st.ri
	if ri.state.Load() != riReady || st.launch == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: model run instance %d was destroyed before the update ran", fn, ri.id)
	}
	kern, spec := st.task.KernelOf()
	k, ok := kern.(*riKernel)
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the task is no longer a kernel of model run instance %d", fn, ri.id)
	}
	if blocks == 0 {
		blocks = spec.Blocks
	}
	l := st.launch
	if f != nil && f != l.f {
		if err := f.Bin.Acquire(fn); err != nil {
			return err
		}
		// The new launch sees the recorded arguments: a copied image
		// stays in the retired launch, which lives until the RI does.
		nl := getLaunch(f.Bin.Host, 0)
		nl.f, nl.args, nl.size, nl.attr = f, l.args, l.size, l.attr
		ri.retired = append(ri.retired, l)
		st.launch, l = nl, nl
	}
	spec.Blocks = blocks
	k.live.Store(&riLive{l: l, blocks: blocks})
	st.task = tsfw.KernelTask(k, spec)
	return nil
}
