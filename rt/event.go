package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// EventCreate implements rtEventCreate (default flags).
func EventCreate(t *core.Thread, out *core.Handle) error {
	if out == nil {
		return invalid("rtEventCreate", "evt must not be NULL")
	}
	return wrap("rtEventCreate", core.CreateEvent(t, out))
}

// EventDestroy implements rtEventDestroy.
func EventDestroy(t *core.Thread, e core.Handle) error {
	if e == 0 {
		return invalid("rtEventDestroy", "evt must not be NULL")
	}
	return wrap("rtEventDestroy", core.DestroyEvent(t, e))
}

// EventRecord implements rtEventRecord.
func EventRecord(t *core.Thread, e, s core.Handle) error {
	if e == 0 {
		return invalid("rtEventRecord", "evt must not be NULL")
	}
	return wrap("rtEventRecord", core.RecordEvent(t, e, s, 0))
}

// EventReset implements rtEventReset.
func EventReset(t *core.Thread, e, s core.Handle) error {
	if e == 0 {
		return invalid("rtEventReset", "evt must not be NULL")
	}
	return wrap("rtEventReset", core.ResetEvent(t, e, s))
}

// EventSynchronize implements rtEventSynchronize.
func EventSynchronize(t *core.Thread, e core.Handle) error {
	if e == 0 {
		return invalid("rtEventSynchronize", "evt must not be NULL")
	}
	return wrap("rtEventSynchronize", core.SynchronizeEvent(t, e, -1))
}

// EventQuery implements rtEventQuery: success when the recorded work is
// complete, ACL_ERROR_RT_EVENT_NOT_COMPLETE while it is not. It is
// aclrtQueryEvent's answer before that function's translation
// (acl-to-rt.tsv: NOT_COMPLETE is ACL_EVENT_STATUS_NOT_READY there), so
// the two agree on every event, routed or not (docs/stack.md).
func EventQuery(t *core.Thread, e core.Handle) error {
	const fn = "rtEventQuery"
	if e == 0 {
		return invalid(fn, "evt must not be NULL")
	}
	var st int32
	if err := core.QueryEvent(t, e, &st); err != nil {
		return wrap(fn, err)
	}
	if st != abi.ACL_EVENT_STATUS_COMPLETE {
		return abi.Errorf(abi.ACL_ERROR_RT_EVENT_NOT_COMPLETE, "%s: event %#x is not complete", fn, uintptr(e))
	}
	return nil
}

// EventQueryStatus implements rtEventQueryStatus: RT_EVENT_RECORDED once
// the recorded work is complete, RT_EVENT_INIT before.
func EventQueryStatus(t *core.Thread, e core.Handle, status *int32) error {
	const fn = "rtEventQueryStatus"
	if e == 0 || status == nil {
		return invalid(fn, "evt and status must not be NULL")
	}
	var st int32
	if err := core.QueryEventStatus(t, e, &st); err != nil {
		return wrap(fn, err)
	}
	*status = abi.RT_EVENT_INIT
	if st == abi.ACL_EVENT_RECORDED_STATUS_COMPLETE {
		*status = abi.RT_EVENT_RECORDED
	}
	return nil
}

// EventElapsedTime implements rtEventElapsedTime (milliseconds).
func EventElapsedTime(t *core.Thread, ms *float32, start, end core.Handle) error {
	if ms == nil || start == 0 || end == 0 {
		return invalid("rtEventElapsedTime", "timeInterval, startEvent and endEvent must not be NULL")
	}
	return wrap("rtEventElapsedTime", core.EventElapsedTime(t, ms, start, end))
}

// EventQueryWaitStatus implements rtEventQueryWaitStatus (the
// rtEventWaitStatus_t numbering is aclrtEventWaitStatus's).
func EventQueryWaitStatus(t *core.Thread, e core.Handle, status *int32) error {
	if e == 0 || status == nil {
		return invalid("rtEventQueryWaitStatus", "evt and status must not be NULL")
	}
	return wrap("rtEventQueryWaitStatus", core.QueryEventWaitStatus(t, e, status))
}
