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
		return st.ApplyUpdate(fn, b, entryAt, blocksAt)
	})))
}

// updatableTask finds task id of stream ts, which must be bound to a built
// model run instance, and checks that es may carry its update.
func updatableTask(fn string, ts *core.Stream, id uint32, es *core.Stream) (*core.Step, error) {
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	ri := core.CapState.ByStream[ts]
	if ri == nil || ri.Captured || ri.Unbound[ts] {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: taskStream %d is not bound to a model run instance (aclmdlRIBindStream); captured instances are updated with aclmdlRITaskSetParams", fn, ts.ID)
	}
	if err := ri.Ready(fn); err != nil {
		return nil, err
	}
	if x := core.CapState.ByStream[es]; es == ts || es.Flags&abi.ACL_STREAM_PERSISTENT != 0 || (x != nil && !x.Unbound[es]) {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: execStream %d is a model stream: the update must run on an ordinary stream", fn, es.ID)
	}
	if core.RecorderOf(es) != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: execStream %d is capturing or re-issuing a task group: npuemu does not record task updates", fn, es.ID)
	}
	sidx := ri.StreamIndexLocked(ts)
	for _, st := range ri.Steps {
		if int(st.StreamIndex) != sidx || st.Seq != id {
			continue
		}
		if st.TaskType != abi.ACL_MODEL_RI_TASK_KERNEL || st.Launch == nil {
			return nil, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: task %d of stream %d is not a kernel task (aclmdlRITaskType %d)", fn, id, ts.ID, st.TaskType)
		}
		return st, nil
	}
	n := uint32(0)
	if sidx >= 0 && sidx < len(ri.PerStream) {
		n = ri.PerStream[sidx]
	}
	return nil, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d has no task %d in model run instance %d (its task ids are 0..%d, as aclrtGetThreadLastTaskId reported them)", fn, ts.ID, id, ri.Id, int64(n)-1)
}
