package acl

import (
	"github.com/npuemu/npuemu/abi"
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

// maxRIName is the longest name kept by aclmdlRISetName, NUL included.
const maxRIName = 512

// Execute implements aclmdlRIExecute: run on the RI's own stream and wait
// (timeout in ms, −1 = forever).
func Execute(t *core.Thread, rh core.Handle, timeoutMs int32) error {
	const fn = "aclmdlRIExecute"
	if err := core.CheckTimeout(fn, timeoutMs); err != nil {
		return err
	}
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	if err := ri.Ready(fn); err != nil {
		return err
	}
	ri.ExecMu.Lock()
	if err := ri.Ready(fn); err != nil {
		ri.ExecMu.Unlock()
		return err
	}
	s := ri.Exec
	if core.Sanitizing {
		core.SanitizeReplay(t, fn, s, ri)
	}
	err = ri.SubmitPlan(fn, s)
	ri.ExecMu.Unlock()
	if err != nil {
		return err
	}
	if err := s.SQ.Synchronize(core.MsTimeout(timeoutMs)); err != nil {
		return abi.Wrapf(err, "%s: model run instance %d", fn, ri.Id)
	}
	if core.Sanitizing {
		core.SanitizeSyncStream(t, s)
	}
	return nil
}

// Destroy implements aclmdlRIDestroy: it waits for the RI's executions
// still running, releases what it owns, then calls the registered destroy
// callbacks.
func Destroy(t *core.Thread, rh core.Handle) error {
	const fn = "aclmdlRIDestroy"
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	if err := condSubGuard(fn, ri); err != nil {
		return err
	}
	return ri.Destroy(fn)
}

// Abort implements aclmdlRIAbort for built RIs: the queued tasks of its
// streams are discarded (running ones finish).
func Abort(t *core.Thread, rh core.Handle) error {
	const fn = "aclmdlRIAbort"
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	if ri.Captured {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: model run instance %d was captured; aclmdlRIAbort is only for instances built with aclmdlRIBuildBegin", fn, ri.Id)
	}
	if err := ri.Ready(fn); err != nil {
		return err
	}
	core.CapState.Mu.Lock()
	streams := append([]*core.Stream(nil), ri.Streams...)
	core.CapState.Mu.Unlock()
	ri.ExecMu.Lock()
	exec := ri.Exec
	ri.ExecMu.Unlock()
	aborted := abi.Errorf(abi.ACL_ERROR_RT_MODEL_ABORT_NORMAL, "model run instance %d was aborted", ri.Id)
	ri.AbortFlow(aborted)
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
	core.CapState.Mu.Lock()
	initCapState()
	core.CapState.Mu.Unlock()
	*out = core.NewModelRI(c, false).H
	return nil
}

// Flags of aclmdlRIBindStream (documented values; not in the runtime
// headers).
const (
	modelStreamFlagDefault = 0x7FFFFFFF
)

// BindStream implements aclmdlRIBindStream.
func BindStream(t *core.Thread, rh, sh core.Handle, flag uint32) error {
	const fn = "aclmdlRIBindStream"
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	if sh == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL (the default stream cannot be bound)", fn)
	}
	if flag != core.ModelStreamFlagHead && flag != modelStreamFlagDefault {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %#x: want ACL_MODEL_STREAM_FLAG_HEAD (0) or ACL_MODEL_STREAM_FLAG_DEFAULT (0x7FFFFFFF)", fn, flag)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if s.Flags&abi.ACL_STREAM_PERSISTENT == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d was not created with ACL_STREAM_PERSISTENT", fn, s.ID)
	}
	if s.Ctx.Dev != ri.Dev {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CONTEXT, "%s: stream %d is on device %d, the model run instance on device %d", fn, s.ID, s.Ctx.Dev.ID, ri.Dev.ID)
	}
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	if ri.Captured || ri.State.Load() != core.RiBuilding {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: model run instance %d is not being built (aclmdlRIBuildBegin)", fn, ri.Id)
	}
	if prev := core.CapState.ByStream[s]; core.RecorderOf(s) != nil || (prev != nil && !prev.Unbound[s]) {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d is already bound to a model run instance", fn, s.ID)
	}
	core.SetRecorder(s, &core.Recorder{Kind: core.RecBuild, Ri: ri})
	ri.Streams = append(ri.Streams, s)
	ri.BindFlag[s] = flag
	core.CapState.ByStream[s] = ri
	return nil
}

// EndTask implements aclmdlRIEndTask: the end of s's tasks in ri.
func EndTask(t *core.Thread, rh, sh core.Handle) error {
	const fn = "aclmdlRIEndTask"
	ri, err := core.ResolveRI(fn, rh)
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
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	if err := ri.BoundStream(fn, s); err != nil {
		return err
	}
	if ri.State.Load() != core.RiBuilding {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: model run instance %d is already built", fn, ri.Id)
	}
	ri.Ended[s] = true
	return nil
}

// BuildEnd implements aclmdlRIBuildEnd.
func BuildEnd(t *core.Thread, rh core.Handle, reserve uintptr) error {
	const fn = "aclmdlRIBuildEnd"
	ri, err := core.ResolveRI(fn, rh)
	if err != nil {
		return err
	}
	if reserve != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: reserve must be NULL", fn)
	}
	core.CapState.Mu.Lock()
	if ri.Captured || ri.State.Load() != core.RiBuilding {
		core.CapState.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: model run instance %d is not being built", fn, ri.Id)
	}
	if len(ri.Ended) == 0 {
		core.CapState.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_MODEL_EXECUTE, "%s: model run instance %d has no end task: call aclmdlRIEndTask on its stream(s) first", fn, ri.Id)
	}
	if err := ri.CheckFlowLocked(fn); err != nil {
		core.CapState.Mu.Unlock()
		return err
	}
	n := len(ri.Streams)
	core.CapState.Mu.Unlock()

	evs := make([]*tsfw.Event, 0, n+2)
	for range n + 2 {
		e, err := ri.Dev.Emu.TS.NewEvent(abi.ACL_EVENT_SYNC)
		if err != nil {
			for _, x := range evs {
				x.Destroy()
			}
			return abi.Wrapf(err, "%s", fn)
		}
		evs = append(evs, e)
	}
	core.Runtime.Mu.Lock()
	exec, err := core.NewStreamLocked(fn, ri.Ctx, 0, 0, false)
	core.Runtime.Mu.Unlock()
	if err != nil {
		for _, x := range evs {
			x.Destroy()
		}
		return err
	}
	ri.ExecMu.Lock()
	defer ri.ExecMu.Unlock()
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	ri.Events = append(ri.Events, evs...)
	ri.Done, ri.Fork, ri.Joins, ri.Exec = evs[0], evs[1], evs[2:], exec
	ri.RebuildLocked()
	ri.State.Store(core.RiReady)
	return nil
}

// UnbindStream implements aclmdlRIUnbindStream: s queues normally again;
// the RI keeps the tasks recorded on it.
func UnbindStream(t *core.Thread, rh, sh core.Handle) error {
	const fn = "aclmdlRIUnbindStream"
	ri, err := core.ResolveRI(fn, rh)
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
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	if ri.Unbound[s] {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d was already unbound", fn, s.ID)
	}
	if err := ri.BoundStream(fn, s); err != nil {
		return err
	}
	ri.Unbound[s] = true
	if r := core.RecorderOf(s); r != nil && r.Ri == ri {
		core.SetRecorder(s, nil)
	}
	return nil
}

// ExecuteAsync implements aclmdlRIExecuteAsync; the runtime does the work
// (core.ExecuteAsync, which the rt* API calls too).
func ExecuteAsync(t *core.Thread, rh, sh core.Handle) error {
	return core.ExecuteAsync(t, rh, sh)
}
