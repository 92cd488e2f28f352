package acl

import (
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// CreateEvent implements aclrtCreateEvent.
func CreateEvent(t *core.Thread, out *core.Handle) error {
	return core.CreateEvent(t, "aclrtCreateEvent", out, 0, core.EventPlain)
}

// CreateEventWithFlag implements aclrtCreateEventWithFlag.
func CreateEventWithFlag(t *core.Thread, out *core.Handle, flags uint32) error {
	return core.CreateEvent(t, "aclrtCreateEventWithFlag", out, flags, core.EventWithFlag)
}

// CreateEventExWithFlag implements aclrtCreateEventExWithFlag.
func CreateEventExWithFlag(t *core.Thread, out *core.Handle, flags uint32) error {
	return core.CreateEvent(t, "aclrtCreateEventExWithFlag", out, flags, core.EventEx)
}

// DestroyEvent implements aclrtDestroyEvent: non-blocking; the tsfw event
// is released once pending records complete.
func DestroyEvent(t *core.Thread, h core.Handle) error {
	e, err := core.ResolveEvent("aclrtDestroyEvent", h)
	if err != nil {
		return err
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	e.DestroyLocked()
	return nil
}

// RecordEvent implements aclrtRecordEvent / aclrtRecordEventWithFlag
// (ACL_EVENT_RECORD_DEFAULT only; EXTERNAL belongs to capture).
func RecordEvent(t *core.Thread, h, sh core.Handle, flag uint32) error {
	const fn = "aclrtRecordEvent"
	if flag != abi.ACL_EVENT_RECORD_DEFAULT && flag != abi.ACL_EVENT_RECORD_EXTERNAL {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtRecordEventWithFlag: unknown flag %d", flag)
	}
	e, err := core.ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if s.Ctx.Dev != e.Ctx.Dev {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CONTEXT, "%s: event of device %d recorded on a stream of device %d", fn, e.Ctx.Dev.ID, s.Ctx.Dev.ID)
	}
	if flag == abi.ACL_EVENT_RECORD_EXTERNAL {
		return captureExternal(s, "aclrtRecordEventWithFlag", e, tsfw.RecordTask(e.TSEvent))
	}
	if core.ImportedNode(e) != nil {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: event %#x was opened from another process's IPC handle: only the exporting process records it", fn, uintptr(h))
	}
	if err := s.Queue(t, fn, tsfw.RecordTask(e.TSEvent), core.Queued{Sync: e.TSEvent}); err != nil {
		return err
	}
	core.NodeRecorded(e)
	core.PoolEventRecorded(e, s) // memory pools' event dependencies (rt/core/mempool.go)
	return nil
}

// StreamWaitEvent implements aclrtStreamWaitEvent.
func StreamWaitEvent(t *core.Thread, sh, h core.Handle) error {
	return core.StreamWaitEvent(t, "aclrtStreamWaitEvent", sh, h, core.DefaultWaitTimeout())
}

// StreamWaitEventWithTimeout implements aclrtStreamWaitEventWithTimeout:
// timeout in seconds, ≥ 0, 0 = never; an expired wait is the stream's
// asynchronous error (ACL_ERROR_RT_WAIT_TIMEOUT).
func StreamWaitEventWithTimeout(t *core.Thread, sh, h core.Handle, timeoutSec int32) error {
	const fn = "aclrtStreamWaitEventWithTimeout"
	if timeoutSec < 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: timeout %d s: want >= 0 (0 = never)", fn, timeoutSec)
	}
	return core.StreamWaitEvent(t, fn, sh, h, time.Duration(timeoutSec)*time.Second)
}

// QueryEventWaitStatus implements aclrtQueryEventWaitStatus: COMPLETE (0)
// once every stream that waited on e has run all its submitted tasks (a
// conservative reading of "the tasks waiting on the event have finished").
func QueryEventWaitStatus(t *core.Thread, h core.Handle, status *int32) error {
	const fn = "aclrtQueryEventWaitStatus"
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: status must not be NULL", fn)
	}
	e, err := core.ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	if e.Kind == core.EventEx {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: events from aclrtCreateEventExWithFlag have no wait status", fn)
	}
	if err := eventGuard(e, fn); err != nil {
		return err
	}
	e.WaitMu.Lock()
	defer e.WaitMu.Unlock()
	*status = abi.ACL_EVENT_WAIT_STATUS_COMPLETE
	for _, w := range e.Waiters {
		if !w.Dead.Load() && !w.SQ.Query() {
			*status = abi.ACL_EVENT_WAIT_STATUS_NOT_READY
		}
	}
	return nil
}

// ResetEvent implements aclrtResetEvent: for events created with the
// default flags (aclrtCreateEvent) or with aclrtCreateEventWithFlag
// (ACL_EVENT_SYNC). The runtime resets a default-flag event too
// (rtEventReset); semantics.md §5 said otherwise and was corrected against
// the vendor's source (issue #13).
func ResetEvent(t *core.Thread, h, sh core.Handle) error {
	const fn = "aclrtResetEvent"
	e, err := core.ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	if e.Kind != core.EventPlain && (e.Kind != core.EventWithFlag || e.Flags&abi.ACL_EVENT_SYNC == 0) {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
			"%s: only events from aclrtCreateEvent or aclrtCreateEventWithFlag(ACL_EVENT_SYNC) can be reset", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if err := s.Submit(t, fn, tsfw.ResetTask(e.TSEvent)); err != nil {
		return err
	}
	core.PoolEventGone(e) // memory pools' event dependencies (rt/core/mempool.go)
	return nil
}

// QueryEvent implements the deprecated aclrtQueryEvent: COMPLETE 0,
// NOT_READY 1.
func QueryEvent(t *core.Thread, h core.Handle, status *int32) error {
	const fn = "aclrtQueryEvent"
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: status must not be NULL", fn)
	}
	e, err := core.ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	if e.Kind == core.EventEx {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: events from aclrtCreateEventExWithFlag cannot be queried with aclrtQueryEvent (use aclrtQueryEventStatus)", fn)
	}
	if err := eventGuard(e, fn); err != nil {
		return err
	}
	*status = abi.ACL_EVENT_STATUS_NOT_READY
	if e.TSEvent.Complete() {
		*status = abi.ACL_EVENT_STATUS_COMPLETE
	}
	if core.Sanitizing {
		sanitizeSyncEvent(t, fn, e, *status == abi.ACL_EVENT_STATUS_COMPLETE)
	}
	return nil
}

// QueryEventStatus implements aclrtQueryEventStatus: NOT_READY 0 (also
// when never recorded, except Ex events which report complete), COMPLETE 1;
// IPC events included.
func QueryEventStatus(t *core.Thread, h core.Handle, status *int32) error {
	const fn = "aclrtQueryEventStatus"
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: status must not be NULL", fn)
	}
	e, err := core.ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	if err := eventGuard(e, fn); err != nil {
		return err
	}
	if n := core.ImportedNode(e); n != nil {
		return core.NodeQuery(fn, n, status)
	}
	// IPC events are queried like any other (the runtime's
	// rtEventQueryStatus makes no exception; issue #13).
	*status = abi.ACL_EVENT_RECORDED_STATUS_NOT_READY
	recorded := e.TSEvent.Recorded()
	if (recorded || e.Kind == core.EventEx) && e.TSEvent.Complete() {
		*status = abi.ACL_EVENT_RECORDED_STATUS_COMPLETE
	}
	if core.Sanitizing {
		sanitizeSyncEvent(t, fn, e, *status == abi.ACL_EVENT_RECORDED_STATUS_COMPLETE)
	}
	return nil
}

// SynchronizeEvent implements aclrtSynchronizeEvent(WithTimeout): timeout
// in ms, −1 = forever.
func SynchronizeEvent(t *core.Thread, h core.Handle, timeoutMs int32) error {
	fn := "aclrtSynchronizeEvent"
	if timeoutMs != -1 {
		fn = "aclrtSynchronizeEventWithTimeout"
		if timeoutMs < -1 || timeoutMs == 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: timeout %d: want -1 (forever) or > 0 ms", fn, timeoutMs)
		}
	}
	e, err := core.ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	if err := eventGuard(e, fn); err != nil {
		return err
	}
	if n := core.ImportedNode(e); n != nil {
		target, _, _ := emu.NodeEventStatus(n.Entry, n.Ref.Gen)
		if err := n.Dir.NodeEventWait(n.Entry, n.Ref.Gen, target, core.MsTimeout(timeoutMs)); err != nil {
			return abi.Wrapf(err, "%s", fn)
		}
		return nil
	}
	if err := e.TSEvent.Synchronize(core.MsTimeout(timeoutMs)); err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	if core.Sanitizing {
		sanitizeSyncEvent(t, fn, e, true)
	}
	core.PoolsSyncedDevice(e.Ctx.Dev) // memory pools' RELEASE_THRESHOLD (rt/core/mempool.go)
	return core.ManagedSynchronized(fn, e.Ctx.Dev)
}

// EventElapsedTime implements aclrtEventElapsedTime: milliseconds between
// two completed records on the same stream, from the virtual clock.
func EventElapsedTime(t *core.Thread, ms *float32, start, end core.Handle) error {
	const fn = "aclrtEventElapsedTime"
	if ms == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ms must not be NULL", fn)
	}
	s, err := core.ResolveEvent(fn, start)
	if err != nil {
		return err
	}
	e, err := core.ResolveEvent(fn, end)
	if err != nil {
		return err
	}
	if s.Ctx.Dev != e.Ctx.Dev {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: events of devices %d and %d have no common clock", fn, s.Ctx.Dev.ID, e.Ctx.Dev.ID)
	}
	t0, err := s.Timestamp(fn)
	if err != nil {
		return err
	}
	t1, err := e.Timestamp(fn)
	if err != nil {
		return err
	}
	if t1 < t0 {
		return abi.Errorf(abi.ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL, "%s: end event completed before the start event", fn)
	}
	*ms = float32(float64(t1-t0) / float64(time.Millisecond))
	return nil
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
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	*n = uint32(max(c.Dev.Emu.SoC.MaxEvents-c.Dev.Emu.TS.EventsInUse(), 0))
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
