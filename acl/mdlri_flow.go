package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Stream control flow inside built model run instances (semantics.md §4,
// §7): aclrtSetLabel, aclrtSwitchLabelByIndex, aclrtActiveStream and
// aclrtSwitchStream issued to a bound persistent stream record control
// steps. An RI holding any of them executes as a *flow*: its bound streams
// are programs, and what runs next is decided on the device at execution
// time, not laid out in advance.
//
// Activation model (the real runtime's rule for bound streams): a stream
// bound with ACL_MODEL_STREAM_FLAG_HEAD starts at every execution; a
// stream bound with ACL_MODEL_STREAM_FLAG_DEFAULT runs only when a task of
// the RI activates it (ActiveStream, a SwitchStream whose condition holds,
// or a SwitchLabelByIndex choosing one of its labels). When no stream is
// bound HEAD, the first bound stream is the main stream and starts.
// Every activation runs the stream once from its first task; activating a
// stream that is still running queues the new run behind the current one.
//
// A stream's program is cut into straight-line segments: the recorded
// tasks up to the next switch or activation, which becomes a host task
// ending the segment (labels are mere positions). When the replay reaches
// it, that host task reads device memory, queues the continuation(s) with
// tsfw.Device.SubmitAfter — placed on the virtual clock after itself —
// and the stream goes on. The execution, a host step of the target
// stream, starts the head streams and ends when every run has ended, so
// the target stream's later work follows the whole flow. The target
// stream's virtual clock sees the flow as that one host step; the tasks
// of the bound streams carry their own exact virtual timestamps, the same
// at every replay as long as no two streams decide at the same moment.

// recordControl records op issued to s (which must be bound to an RI
// being built).
func recordControl(fn string, s *core.Stream, op *core.CtlOp) error {
	r := core.RecorderOf(s)
	if r == nil || r.Kind != core.RecBuild {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d is not bound to a model run instance (aclmdlRIBindStream)", fn, s.ID)
	}
	ri := r.Ri
	core.CapState.Mu.Lock()
	defer core.CapState.Mu.Unlock()
	if ri.State.Load() != core.RiBuilding {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d belongs to model run instance %d, which is built: no more tasks", fn, s.ID, ri.Id)
	}
	idx := ri.StreamIndexLocked(s)
	if op.Target != nil {
		if o := core.CapState.ByStream[op.Target]; o != nil && o != ri {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d belongs to model run instance %d, not %d", fn, op.Target.ID, o.Id, ri.Id)
		}
	}
	if op.Kind == core.CtlLabel {
		if p, ok := ri.Labels[op.Label]; ok {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the label is already set in model run instance %d (stream %d, task %d)", fn, ri.Id, ri.Streams[p.K].ID, p.Pos)
		}
	}
	st := &core.Step{Ri: ri, StreamIndex: uint16(idx), Task: tsfw.HostTask(core.CtlPlaceholder), TaskType: abi.ACL_MODEL_RI_TASK_DEFAULT, Ctl: op}
	ri.AppendStepLocked(st)
	if op.Kind == core.CtlLabel {
		if ri.Labels == nil {
			ri.Labels = map[*core.Label]core.FlowPos{}
		}
		ri.Labels[op.Label] = core.FlowPos{K: idx, Pos: int(st.Seq)}
	}
	ri.HasCtl = true
	return nil
}
