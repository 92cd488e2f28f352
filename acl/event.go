package acl

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// eventKind says which create call made an event; it decides which calls
// the event accepts (semantics.md §5, §21 items 6–7).
type eventKind int

const (
	evPlain    eventKind = iota // aclrtCreateEvent
	evWithFlag                  // aclrtCreateEventWithFlag
	evEx                        // aclrtCreateEventExWithFlag: re-recordable, no reset/QueryEvent
)

// Event is an ACL event over a tsfw event of its context's device.
type Event struct {
	h     core.Handle
	ctx   *core.Context
	ev    *tsfw.Event
	flags uint32
	kind  eventKind
	dead  atomic.Bool

	waitMu  sync.Mutex     // guards waiters
	waiters []*core.Stream // streams that waited on e since its last reset

	share *eventShare // IPC event with opened handles (acl/event_flag_timeout_ipc.go); guarded by core.Runtime.Mu
	node  *nodeEvent  // IPC event in a shared node's table (acl/ipcevent_node.go); set under core.Runtime.Mu
}

var events = core.NewTable[Event](core.KindEvent)

// Flags accepted by the create calls.
const (
	eventFlagsWithFlag = abi.ACL_EVENT_SYNC | abi.ACL_EVENT_CAPTURE_STREAM_PROGRESS | abi.ACL_EVENT_TIME_LINE |
		abi.ACL_EVENT_DEVICE_USE_ONLY | abi.ACL_EVENT_EXTERNAL
	eventFlagsEx = eventFlagsWithFlag | abi.ACL_EVENT_IPC
)

func createEvent(t *core.Thread, fn string, out *core.Handle, flags uint32, kind eventKind) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: event must not be NULL", fn)
	}
	switch kind {
	case evWithFlag, evEx:
		allowed := uint32(eventFlagsWithFlag)
		if kind == evEx {
			allowed = eventFlagsEx
		}
		if flags == 0 || flags&^allowed != 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %#x is not a valid combination of ACL_EVENT_* flags", fn, flags)
		}
		if flags&abi.ACL_EVENT_EXTERNAL != 0 && flags != abi.ACL_EVENT_EXTERNAL {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ACL_EVENT_EXTERNAL cannot be combined with other flags", fn)
		}
		if flags&abi.ACL_EVENT_IPC != 0 && flags != abi.ACL_EVENT_IPC {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ACL_EVENT_IPC cannot be combined with other flags", fn)
		}
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	if c.Dead.Load() {
		return abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the current context was destroyed", fn)
	}
	// Only events that need a hardware id take one of the SoC's pool
	// (semantics.md §5): plain events (npuemu takes the id at creation
	// rather than at the first record) and flagged events with SYNC or
	// EXTERNAL; Ex events never do.
	var te *tsfw.Event
	if kind == evPlain || kind == evWithFlag && flags&(abi.ACL_EVENT_SYNC|abi.ACL_EVENT_EXTERNAL) != 0 {
		te, err = c.Dev.Emu.TS.NewEvent(flags)
		if err != nil {
			return abi.Wrapf(err, "%s: device %d", fn, c.Dev.ID)
		}
	} else {
		te = c.Dev.Emu.TS.NewEventUnpooled(flags)
	}
	e := &Event{ctx: c, ev: te, flags: flags, kind: kind}
	e.h = events.Add(e)
	ctxEvents.Add(c, e)
	c.Dev.NEvents++
	core.Register(core.TableEvents, core.Record{ID: uint64(e.h), Device: int(c.Dev.ID), Owner: uint64(c.H),
		Summary: fmt.Sprintf("event %#x (flags %#x)", uintptr(e.h), flags)})
	*out = e.h
	return nil
}

// CreateEvent implements aclrtCreateEvent.
func CreateEvent(t *core.Thread, out *core.Handle) error {
	return createEvent(t, "aclrtCreateEvent", out, 0, evPlain)
}

// CreateEventWithFlag implements aclrtCreateEventWithFlag.
func CreateEventWithFlag(t *core.Thread, out *core.Handle, flags uint32) error {
	return createEvent(t, "aclrtCreateEventWithFlag", out, flags, evWithFlag)
}

// CreateEventExWithFlag implements aclrtCreateEventExWithFlag.
func CreateEventExWithFlag(t *core.Thread, out *core.Handle, flags uint32) error {
	return createEvent(t, "aclrtCreateEventExWithFlag", out, flags, evEx)
}

// ctxEvents files each context's events, for its destruction; core.Runtime.Mu
// guards it.
var ctxEvents = core.ByContext[*Event]{}

// destroyContextEvents releases the events of c, which is being
// destroyed. Precondition: core.Runtime.Mu held.
func destroyContextEvents(c *core.Context) {
	for e := range ctxEvents[c] {
		e.destroyLocked()
	}
}

// destroyLocked releases e. Precondition: core.Runtime.Mu held.
func (e *Event) destroyLocked() {
	if e.dead.Swap(true) {
		return
	}
	if e.share != nil {
		e.share.refs--
	}
	if e.share == nil || e.share.refs == 0 {
		e.ev.Destroy()
		e.nodeClose()
	}
	events.Remove(e.h)
	poolEventGone(e) // memory pools' event dependencies (mempool.go)
	ctxEvents.Remove(e.ctx, e)
	e.ctx.Dev.NEvents--
	core.Unregister(core.TableEvents, uint64(e.h))
}

func resolveEvent(fn string, h core.Handle) (*Event, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: event must not be NULL", fn)
	}
	e, err := events.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return e, nil
}

// DestroyEvent implements aclrtDestroyEvent: non-blocking; the tsfw event
// is released once pending records complete.
func DestroyEvent(t *core.Thread, h core.Handle) error {
	e, err := resolveEvent("aclrtDestroyEvent", h)
	if err != nil {
		return err
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	e.destroyLocked()
	return nil
}

// RecordEvent implements aclrtRecordEvent / aclrtRecordEventWithFlag
// (ACL_EVENT_RECORD_DEFAULT only; EXTERNAL belongs to capture).
func RecordEvent(t *core.Thread, h, sh core.Handle, flag uint32) error {
	const fn = "aclrtRecordEvent"
	if flag != abi.ACL_EVENT_RECORD_DEFAULT && flag != abi.ACL_EVENT_RECORD_EXTERNAL {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtRecordEventWithFlag: unknown flag %d", flag)
	}
	e, err := resolveEvent(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if s.Ctx.Dev != e.ctx.Dev {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CONTEXT, "%s: event of device %d recorded on a stream of device %d", fn, e.ctx.Dev.ID, s.Ctx.Dev.ID)
	}
	if flag == abi.ACL_EVENT_RECORD_EXTERNAL {
		return captureExternal(s, "aclrtRecordEventWithFlag", e, tsfw.RecordTask(e.ev))
	}
	if e.importedNode() != nil {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: event %#x was opened from another process's IPC handle: only the exporting process records it", fn, uintptr(h))
	}
	if err := s.Queue(t, fn, tsfw.RecordTask(e.ev), core.Queued{Sync: e.ev}); err != nil {
		return err
	}
	e.nodeRecorded()
	poolEventRecorded(e, s) // memory pools' event dependencies (mempool.go)
	return nil
}

// StreamWaitEvent implements aclrtStreamWaitEvent.
func StreamWaitEvent(t *core.Thread, sh, h core.Handle) error {
	return streamWaitEvent(t, "aclrtStreamWaitEvent", sh, h, defaultWaitTimeout())
}

// StreamWaitEventWithTimeout implements aclrtStreamWaitEventWithTimeout:
// timeout in seconds, ≥ 0, 0 = never; an expired wait is the stream's
// asynchronous error (ACL_ERROR_RT_WAIT_TIMEOUT).
func StreamWaitEventWithTimeout(t *core.Thread, sh, h core.Handle, timeoutSec int32) error {
	const fn = "aclrtStreamWaitEventWithTimeout"
	if timeoutSec < 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: timeout %d s: want >= 0 (0 = never)", fn, timeoutSec)
	}
	return streamWaitEvent(t, fn, sh, h, time.Duration(timeoutSec)*time.Second)
}

func streamWaitEvent(t *core.Thread, fn string, sh, h core.Handle, timeout time.Duration) error {
	e, err := resolveEvent(fn, h)
	if err != nil {
		return err
	}
	if e.kind != evPlain && e.flags&abi.ACL_EVENT_SYNC == 0 && e.flags != abi.ACL_EVENT_IPC {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: event %#x was created without ACL_EVENT_SYNC and cannot be waited on", fn, uintptr(h))
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	task := waitTask(e, timeout)
	if n := e.importedNode(); n != nil {
		task = nodeWaitTask(n, timeout)
	}
	if err := s.Queue(t, fn, task, core.Queued{Sync: e.ev, Strict: e.sanitizeStrict()}); err != nil {
		return err
	}
	poolEventWaited(s, e) // memory pools' event dependencies (mempool.go)
	e.waitMu.Lock()
	defer e.waitMu.Unlock()
	for _, w := range e.waiters {
		if w == s {
			return nil
		}
	}
	e.waiters = append(e.waiters, s)
	return nil
}

// QueryEventWaitStatus implements aclrtQueryEventWaitStatus: COMPLETE (0)
// once every stream that waited on e has run all its submitted tasks (a
// conservative reading of "the tasks waiting on the event have finished").
func QueryEventWaitStatus(t *core.Thread, h core.Handle, status *int32) error {
	const fn = "aclrtQueryEventWaitStatus"
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: status must not be NULL", fn)
	}
	e, err := resolveEvent(fn, h)
	if err != nil {
		return err
	}
	if e.kind == evEx {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: events from aclrtCreateEventExWithFlag have no wait status", fn)
	}
	if err := e.eventGuard(fn); err != nil {
		return err
	}
	e.waitMu.Lock()
	defer e.waitMu.Unlock()
	*status = abi.ACL_EVENT_WAIT_STATUS_COMPLETE
	for _, w := range e.waiters {
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
	e, err := resolveEvent(fn, h)
	if err != nil {
		return err
	}
	if e.kind != evPlain && (e.kind != evWithFlag || e.flags&abi.ACL_EVENT_SYNC == 0) {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
			"%s: only events from aclrtCreateEvent or aclrtCreateEventWithFlag(ACL_EVENT_SYNC) can be reset", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if err := s.Submit(t, fn, tsfw.ResetTask(e.ev)); err != nil {
		return err
	}
	poolEventGone(e) // memory pools' event dependencies (mempool.go)
	return nil
}

// QueryEvent implements the deprecated aclrtQueryEvent: COMPLETE 0,
// NOT_READY 1.
func QueryEvent(t *core.Thread, h core.Handle, status *int32) error {
	const fn = "aclrtQueryEvent"
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: status must not be NULL", fn)
	}
	e, err := resolveEvent(fn, h)
	if err != nil {
		return err
	}
	if e.kind == evEx {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: events from aclrtCreateEventExWithFlag cannot be queried with aclrtQueryEvent (use aclrtQueryEventStatus)", fn)
	}
	if err := e.eventGuard(fn); err != nil {
		return err
	}
	*status = abi.ACL_EVENT_STATUS_NOT_READY
	if e.ev.Complete() {
		*status = abi.ACL_EVENT_STATUS_COMPLETE
	}
	if sanitizing {
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
	e, err := resolveEvent(fn, h)
	if err != nil {
		return err
	}
	if err := e.eventGuard(fn); err != nil {
		return err
	}
	if n := e.importedNode(); n != nil {
		return nodeQuery(fn, n, status)
	}
	// IPC events are queried like any other (the runtime's
	// rtEventQueryStatus makes no exception; issue #13).
	*status = abi.ACL_EVENT_RECORDED_STATUS_NOT_READY
	recorded := e.ev.Recorded()
	if (recorded || e.kind == evEx) && e.ev.Complete() {
		*status = abi.ACL_EVENT_RECORDED_STATUS_COMPLETE
	}
	if sanitizing {
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
	e, err := resolveEvent(fn, h)
	if err != nil {
		return err
	}
	if err := e.eventGuard(fn); err != nil {
		return err
	}
	if n := e.importedNode(); n != nil {
		target, _, _ := emu.NodeEventStatus(n.entry, n.ref.Gen)
		if err := n.dir.NodeEventWait(n.entry, n.ref.Gen, target, core.MsTimeout(timeoutMs)); err != nil {
			return abi.Wrapf(err, "%s", fn)
		}
		return nil
	}
	if err := e.ev.Synchronize(core.MsTimeout(timeoutMs)); err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	if sanitizing {
		sanitizeSyncEvent(t, fn, e, true)
	}
	poolsSyncedDevice(e.ctx.Dev) // memory pools' RELEASE_THRESHOLD (mempool.go)
	return managedSynchronized(fn, e.ctx.Dev)
}

// timed reports whether e carries timestamps: plain events always do;
// flagged events only with ACL_EVENT_TIME_LINE.
func (e *Event) timed() bool {
	return e.kind == evPlain || e.flags&abi.ACL_EVENT_TIME_LINE != 0
}

// timestamp returns the virtual time of e's latest completed record.
func (e *Event) timestamp(fn string) (time.Duration, error) {
	if !e.timed() {
		return 0, abi.Errorf(abi.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "%s: event %#x has no timestamps (create it with ACL_EVENT_TIME_LINE)", fn, uintptr(e.h))
	}
	if !e.ev.Recorded() {
		return 0, abi.Errorf(abi.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "%s: event %#x was never recorded", fn, uintptr(e.h))
	}
	if !e.ev.Complete() {
		return 0, abi.Errorf(abi.ACL_ERROR_RT_EVENT_NOT_COMPLETE, "%s: event %#x has not completed", fn, uintptr(e.h))
	}
	ts, ok := e.ev.Timestamp()
	if !ok {
		return 0, abi.Errorf(abi.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "%s: event %#x has no timestamp", fn, uintptr(e.h))
	}
	return ts, nil
}

// EventElapsedTime implements aclrtEventElapsedTime: milliseconds between
// two completed records on the same stream, from the virtual clock.
func EventElapsedTime(t *core.Thread, ms *float32, start, end core.Handle) error {
	const fn = "aclrtEventElapsedTime"
	if ms == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ms must not be NULL", fn)
	}
	s, err := resolveEvent(fn, start)
	if err != nil {
		return err
	}
	e, err := resolveEvent(fn, end)
	if err != nil {
		return err
	}
	if s.ctx.Dev != e.ctx.Dev {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: events of devices %d and %d have no common clock", fn, s.ctx.Dev.ID, e.ctx.Dev.ID)
	}
	t0, err := s.timestamp(fn)
	if err != nil {
		return err
	}
	t1, err := e.timestamp(fn)
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
	e, err := resolveEvent(fn, h)
	if err != nil {
		return err
	}
	v, err := e.timestamp(fn)
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
	e, err := resolveEvent(fn, h)
	if err != nil {
		return err
	}
	*id = uint32(e.ev.ID())
	return nil
}
