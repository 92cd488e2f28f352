package rt

import (
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
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

// The flagged, timed and identified events (round 8). Flags and timeouts
// reach the runtime unchanged from ACL (acl-to-rt.tsv: "flag passed
// unchanged"), so RT_EVENT_* create flags share the aclrtCreateEventWithFlag
// bit values (RT_EVENT_DDSYNC_NS == ACL_EVENT_SYNC, RT_EVENT_EXTERNAL ==
// ACL_EVENT_EXTERNAL, RT_EVENT_IPC == ACL_EVENT_IPC) and the record/wait
// flags RT_EVENT_RECORD_* / RT_EVENT_WAIT_* are the ACL_EVENT_* ones.

// named gives err, an error of core whose message already names the rt
// function (core was passed its name), the rt code.
func named(err error) error {
	if err == nil {
		return nil
	}
	return abi.Errorf(abi.RTCodeOf(err), "%s", message(err))
}

// EventCreateWithFlag implements rtEventCreateWithFlag: the flags of
// aclrtCreateEventWithFlag (SYNC, CAPTURE_STREAM_PROGRESS, TIME_LINE,
// DEVICE_USE_ONLY, EXTERNAL alone).
func EventCreateWithFlag(t *core.Thread, out *core.Handle, flag uint32) error {
	const fn = "rtEventCreateWithFlag"
	if out == nil {
		return invalid(fn, "evt must not be NULL")
	}
	return named(core.CreateEventOfKind(t, fn, out, flag, core.EventWithFlag))
}

// EventCreateExWithFlag implements rtEventCreateExWithFlag: the flags of
// rtEventCreateWithFlag, or RT_EVENT_IPC alone (an event that
// rtIpcGetEventHandle can export). Ex events take no hardware id.
func EventCreateExWithFlag(t *core.Thread, out *core.Handle, flag uint32) error {
	const fn = "rtEventCreateExWithFlag"
	if out == nil {
		return invalid(fn, "evt must not be NULL")
	}
	return named(core.CreateEventOfKind(t, fn, out, flag, core.EventEx))
}

// EventSynchronizeWithTimeout implements rtEventSynchronizeWithTimeout:
// timeout in milliseconds, -1 waits forever; an expired wait is
// ACL_ERROR_RT_EVENT_SYNC_TIMEOUT.
func EventSynchronizeWithTimeout(t *core.Thread, e core.Handle, timeoutMs int32) error {
	const fn = "rtEventSynchronizeWithTimeout"
	if e == 0 {
		return invalid(fn, "evt must not be NULL")
	}
	if timeoutMs < -1 || timeoutMs == 0 {
		return invalid(fn, "timeout %d: want -1 (forever) or > 0 ms", timeoutMs)
	}
	return wrap(fn, core.SynchronizeEvent(t, e, timeoutMs))
}

// EventGetTimeStamp implements rtEventGetTimeStamp: microseconds of virtual
// time since the device opened, at the event's latest completed record
// (as aclrtEventGetTimestamp). An event without timestamps (flagged
// without RT_EVENT_TIME_LINE) or never recorded is
// ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID.
func EventGetTimeStamp(t *core.Thread, ts *uint64, e core.Handle) error {
	const fn = "rtEventGetTimeStamp"
	if ts == nil || e == 0 {
		return invalid(fn, "timeStamp and evt must not be NULL")
	}
	ev, err := core.ResolveEvent(fn, e)
	if err != nil {
		return named(err)
	}
	v, err := ev.Timestamp(fn)
	if err != nil {
		return named(err)
	}
	*ts = uint64(v / time.Microsecond)
	return nil
}

// EventGetID implements rtsEventGetId: the event's hardware id (events
// created without one answer the id of their unpooled model event).
func EventGetID(t *core.Thread, e core.Handle, id *uint32) error {
	const fn = "rtsEventGetId"
	if e == 0 || id == nil {
		return invalid(fn, "evt and evtId must not be NULL")
	}
	ev, err := core.ResolveEvent(fn, e)
	if err != nil {
		return named(err)
	}
	*id = uint32(ev.TSEvent.ID())
	return nil
}

// EventWait implements rtsEventWait: stream waits for the event's latest
// record, timeout in seconds, 0 = never; an expired wait is the stream's
// asynchronous error ACL_ERROR_RT_WAIT_TIMEOUT (as
// aclrtStreamWaitEventWithTimeout).
func EventWait(t *core.Thread, s, e core.Handle, timeoutSec uint32) error {
	const fn = "rtsEventWait"
	if e == 0 {
		return invalid(fn, "evt must not be NULL")
	}
	return named(core.WaitEventOnStream(t, fn, s, e, time.Duration(timeoutSec)*time.Second))
}

// EventGetAvailNum implements rtsEventGetAvailNum: the hardware event ids
// still free on the current device (as aclrtGetEventAvailNum).
func EventGetAvailNum(t *core.Thread, n *uint32) error {
	const fn = "rtsEventGetAvailNum"
	if n == nil {
		return invalid(fn, "eventCount must not be NULL")
	}
	return wrap(fn, acl.GetEventAvailNum(t, n))
}

// EventRecordWithFlag implements rtEventRecordWithFlag:
// RT_EVENT_RECORD_DEFAULT is rtEventRecord on an existing stream;
// RT_EVENT_RECORD_EXTERNAL belongs to a capturing stream.
func EventRecordWithFlag(t *core.Thread, e, s core.Handle, flag uint32) error {
	const fn = "rtEventRecordWithFlag"
	if e == 0 {
		return invalid(fn, "evt must not be NULL")
	}
	if flag != abi.RT_EVENT_RECORD_DEFAULT && flag != abi.RT_EVENT_RECORD_EXTERNAL {
		return invalid(fn, "flag %d: want RT_EVENT_RECORD_DEFAULT or RT_EVENT_RECORD_EXTERNAL", flag)
	}
	return wrap(fn, acl.RecordEventWithFlag(t, e, s, flag))
}

// StreamWaitEventWithFlag implements rtStreamWaitEventWithFlag:
// RT_EVENT_WAIT_DEFAULT waits with a timeout in seconds (0 = never);
// RT_EVENT_WAIT_EXTERNAL belongs to a capturing stream and needs timeout 0.
func StreamWaitEventWithFlag(t *core.Thread, s, e core.Handle, timeoutSec, flag uint32) error {
	const fn = "rtStreamWaitEventWithFlag"
	if e == 0 {
		return invalid(fn, "evt must not be NULL")
	}
	return wrap(fn, acl.StreamWaitEventWithFlag(t, s, e, timeoutSec, flag))
}

// IpcGetEventHandle implements rtIpcGetEventHandle (rtIpcEventHandle_t has
// aclrtIpcEventHandle's 64 opaque bytes) for events created with
// rtEventCreateExWithFlag(RT_EVENT_IPC) (or the ACL equivalent).
func IpcGetEventHandle(t *core.Thread, e core.Handle, out *IpcEventHandle) error {
	const fn = "rtIpcGetEventHandle"
	if e == 0 || out == nil {
		return invalid(fn, "event and handle must not be NULL")
	}
	return wrap(fn, acl.IpcGetEventHandle(t, e, (*acl.IpcEventHandle)(out)))
}

// IpcOpenEventHandle implements rtIpcOpenEventHandle: a new event handle on
// the exported hardware event, in this process or another one on the
// node (as aclrtIpcOpenEventHandle).
func IpcOpenEventHandle(t *core.Thread, in IpcEventHandle, out *core.Handle) error {
	const fn = "rtIpcOpenEventHandle"
	if out == nil {
		return invalid(fn, "event must not be NULL")
	}
	return wrap(fn, acl.IpcOpenEventHandle(t, acl.IpcEventHandle(in), out))
}
