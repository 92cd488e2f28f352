package acl

import (
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// CreateEventWithFlag implements aclrtCreateEventWithFlag.
func CreateEventWithFlag(t *core.Thread, out *core.Handle, flags uint32) error {
	return core.CreateEventOfKind(t, "aclrtCreateEventWithFlag", out, flags, core.EventWithFlag)
}

// CreateEventExWithFlag implements aclrtCreateEventExWithFlag.
func CreateEventExWithFlag(t *core.Thread, out *core.Handle, flags uint32) error {
	return core.CreateEventOfKind(t, "aclrtCreateEventExWithFlag", out, flags, core.EventEx)
}

// StreamWaitEventWithTimeout implements aclrtStreamWaitEventWithTimeout:
// timeout in seconds, ≥ 0, 0 = never; an expired wait is the stream's
// asynchronous error (ACL_ERROR_RT_WAIT_TIMEOUT).
func StreamWaitEventWithTimeout(t *core.Thread, sh, h core.Handle, timeoutSec int32) error {
	const fn = "aclrtStreamWaitEventWithTimeout"
	if timeoutSec < 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: timeout %d s: want >= 0 (0 = never)", fn, timeoutSec)
	}
	return core.WaitEventOnStream(t, fn, sh, h, time.Duration(timeoutSec)*time.Second)
}

// EventGetTimestamp implements aclrtEventGetTimestamp: microseconds of
// virtual time since the device opened.
func EventGetTimestamp(t *core.Thread, h core.Handle, ts *uint64) error {
	const fn = "aclrtEventGetTimestamp"
	if ts == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: timestamp must not be NULL", fn)
	}
	e, err := core.ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	v, err := e.Timestamp(fn)
	if err != nil {
		return err
	}
	*ts = uint64(v / time.Microsecond)
	return nil
}

// GetEventAvailNum implements aclrtGetEventAvailNum for the current device.
func GetEventAvailNum(t *core.Thread, n *uint32) error {
	if n == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetEventAvailNum: eventCount must not be NULL")
	}
	c, err := core.Current(t, "aclrtGetEventAvailNum")
	if err != nil {
		return err
	}
	// The driver's event ids of the device's scheduler (halResourceInfoQuery
	// through its exported symbol, rt/stack): capacity less those in use.
	var r hal.ResourceInfo
	if err := stack.ResourceInfoQuery(uint32(c.Dev.ID), 0, abi.DRV_RESOURCE_EVENT_ID, &r); err != nil {
		return core.DriverErr("aclrtGetEventAvailNum", err)
	}
	*n = r.Capacity - min(r.UsedNum, r.Capacity)
	return nil
}

// GetEventID implements aclrtGetEventId: the event's hardware id.
func GetEventID(t *core.Thread, h core.Handle, id *uint32) error {
	const fn = "aclrtGetEventId"
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: eventId must not be NULL", fn)
	}
	e, err := core.ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	*id = uint32(e.TSEvent.ID())
	return nil
}

// CreateEvent implements aclrtCreateEvent; the runtime does the work
// (core.CreateEvent, which the rt* API calls too).
func CreateEvent(t *core.Thread, out *core.Handle) error { return core.CreateEvent(t, out) }

// DestroyEvent implements aclrtDestroyEvent; the runtime does the work
// (core.DestroyEvent, which the rt* API calls too).
func DestroyEvent(t *core.Thread, h core.Handle) error {
	return core.DestroyEvent(t, h)
}

// RecordEvent implements aclrtRecordEvent / aclrtRecordEventWithFlag
// (ACL_EVENT_RECORD_DEFAULT only); the runtime does the work
// (core.RecordEvent, which the rt* API calls too).
func RecordEvent(t *core.Thread, h, sh core.Handle, flag uint32) error {
	return core.RecordEvent(t, h, sh, flag)
}

// StreamWaitEvent implements aclrtStreamWaitEvent; the runtime does the work
// (core.StreamWaitEvent, which the rt* API calls too).
func StreamWaitEvent(t *core.Thread, sh, h core.Handle) error {
	return core.StreamWaitEvent(t, sh, h)
}

// QueryEventWaitStatus implements aclrtQueryEventWaitStatus; the runtime
// does the work (core.QueryEventWaitStatus, which the rt* API calls too).
func QueryEventWaitStatus(t *core.Thread, h core.Handle, status *int32) error {
	return core.QueryEventWaitStatus(t, h, status)
}

// ResetEvent implements aclrtResetEvent; the runtime does the work
// (core.ResetEvent, which the rt* API calls too).
func ResetEvent(t *core.Thread, h, sh core.Handle) error {
	return core.ResetEvent(t, h, sh)
}

// QueryEvent implements the deprecated aclrtQueryEvent; the runtime does the
// work (core.QueryEvent, which the rt* API calls too).
func QueryEvent(t *core.Thread, h core.Handle, status *int32) error {
	return core.QueryEvent(t, h, status)
}

// QueryEventStatus implements aclrtQueryEventStatus; the runtime does the
// work (core.QueryEventStatus, which the rt* API calls too).
func QueryEventStatus(t *core.Thread, h core.Handle, status *int32) error {
	return core.QueryEventStatus(t, h, status)
}

// SynchronizeEvent implements aclrtSynchronizeEvent(WithTimeout); the
// runtime does the work (core.SynchronizeEvent, which the rt* API calls
// too).
func SynchronizeEvent(t *core.Thread, h core.Handle, timeoutMs int32) error {
	return core.SynchronizeEvent(t, h, timeoutMs)
}

// EventElapsedTime implements aclrtEventElapsedTime; the runtime does the
// work (core.EventElapsedTime, which the rt* API calls too).
func EventElapsedTime(t *core.Thread, ms *float32, start, end core.Handle) error {
	return core.EventElapsedTime(t, ms, start, end)
}
