package core

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/tsfw"
)

// EventKind says which create call made an event; it decides which calls
// the event accepts (semantics.md §5, §21 items 6–7).
type EventKind int

const (
	EventPlain    EventKind = iota // aclrtCreateEvent
	EventWithFlag                  // aclrtCreateEventWithFlag
	EventEx                        // aclrtCreateEventExWithFlag: re-recordable, no reset/QueryEvent
)

// Event is a runtime event (aclrtEvent, rtEvent_t) over a tsfw event of its
// context's device; the ACL calls on it are acl/event.go's.
type Event struct {
	H       Handle
	Ctx     *Context
	TSEvent *tsfw.Event
	Flags   uint32
	Kind    EventKind
	Dead    atomic.Bool

	WaitMu  sync.Mutex // guards waiters
	Waiters []*Stream  // streams that waited on e since its last reset

	Share *EventShare // IPC event with opened handles (acl/event_flag_timeout_ipc.go); guarded by Runtime.Mu
	Node  *NodeEvent  // IPC event in a shared node's table (event.go, below); set under Runtime.Mu
}

var Events = NewTable[Event](KindEvent)

// CtxEvents files each context's events, for its destruction; Runtime.Mu
// guards it.
var CtxEvents = ByContext[*Event]{}

// DestroyContextEvents releases the events of c, which is being
// destroyed. Precondition: Runtime.Mu held.
func DestroyContextEvents(c *Context) {
	for e := range CtxEvents[c] {
		e.DestroyLocked()
	}
}

// DestroyLocked releases e. Precondition: Runtime.Mu held.
func (e *Event) DestroyLocked() {
	if e.Dead.Swap(true) {
		return
	}
	if e.Share != nil {
		e.Share.Refs--
	}
	if e.Share == nil || e.Share.Refs == 0 {
		e.TSEvent.Destroy()
		e.nodeClose()
	}
	Events.Remove(e.H)
	PoolEventGone(e) // memory pools' event dependencies (mempool.go)
	CtxEvents.Remove(e.Ctx, e)
	e.Ctx.Dev.NEvents--
	Unregister(TableEvents, uint64(e.H))
}

func ResolveEvent(fn string, h Handle) (*Event, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: event must not be NULL", fn)
	}
	e, err := Events.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return e, nil
}

// timed reports whether e carries timestamps: plain events always do;
// flagged events only with ACL_EVENT_TIME_LINE.
func (e *Event) timed() bool {
	return e.Kind == EventPlain || e.Flags&abi.ACL_EVENT_TIME_LINE != 0
}

// Timestamp returns the virtual time of e's latest completed record.
func (e *Event) Timestamp(fn string) (time.Duration, error) {
	if !e.timed() {
		return 0, abi.Errorf(abi.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "%s: event %#x has no timestamps (create it with ACL_EVENT_TIME_LINE)", fn, uintptr(e.H))
	}
	if !e.TSEvent.Recorded() {
		return 0, abi.Errorf(abi.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "%s: event %#x was never recorded", fn, uintptr(e.H))
	}
	if !e.TSEvent.Complete() {
		return 0, abi.Errorf(abi.ACL_ERROR_RT_EVENT_NOT_COMPLETE, "%s: event %#x has not completed", fn, uintptr(e.H))
	}
	ts, ok := e.TSEvent.Timestamp()
	if !ok {
		return 0, abi.Errorf(abi.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "%s: event %#x has no timestamp", fn, uintptr(e.H))
	}
	return ts, nil
}

// EventShare counts the handles on one IPC event: the exporter's and the
// ones opened from its IPC handle. Guarded by Runtime.Mu.
type EventShare struct{ Refs int }

// NodeEvent links an acl event to its node entry.
type NodeEvent struct {
	Dir      *emu.NodeDir
	Ref      emu.NodeEventRef
	Entry    *emu.NodeEvent
	Exporter bool
}

// nodeClose ends the node side of e when its last handle goes.
// Precondition: Runtime.Mu held.
func (e *Event) nodeClose() {
	if n := e.Node; n != nil {
		n.Dir.CloseEvent(n.Ref, n.Exporter)
	}
}

// NewEventLocked creates an event of context c (flags already checked for
// the create call kind). Precondition: Runtime.Mu held.
func NewEventLocked(fn string, c *Context, flags uint32, kind EventKind) (*Event, error) {
	if c.Dead.Load() {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the current context was destroyed", fn)
	}
	// Only events that need a hardware id take one of the SoC's pool
	// (semantics.md §5): plain events (npuemu takes the id at creation
	// rather than at the first record) and flagged events with SYNC or
	// EXTERNAL; Ex events never do.
	var te *tsfw.Event
	if kind == EventPlain || kind == EventWithFlag && flags&(abi.ACL_EVENT_SYNC|abi.ACL_EVENT_EXTERNAL) != 0 {
		var err error
		te, err = c.Dev.Emu.TS.NewEvent(flags)
		if err != nil {
			return nil, abi.Wrapf(err, "%s: device %d", fn, c.Dev.ID)
		}
	} else {
		te = c.Dev.Emu.TS.NewEventUnpooled(flags)
	}
	e := &Event{Ctx: c, TSEvent: te, Flags: flags, Kind: kind}
	e.H = Events.Add(e)
	CtxEvents.Add(c, e)
	c.Dev.NEvents++
	Register(TableEvents, Record{ID: uint64(e.H), Device: int(c.Dev.ID), Owner: uint64(c.H),
		Summary: "event " + hexStr(uint64(e.H)) + " (flags " + hexStr(uint64(flags)) + ")"})
	return e, nil
}

// Flags accepted by the create calls.
const (
	eventFlagsWithFlag = abi.ACL_EVENT_SYNC | abi.ACL_EVENT_CAPTURE_STREAM_PROGRESS | abi.ACL_EVENT_TIME_LINE |
		abi.ACL_EVENT_DEVICE_USE_ONLY | abi.ACL_EVENT_EXTERNAL
	eventFlagsEx = eventFlagsWithFlag | abi.ACL_EVENT_IPC
)

func CreateEventOfKind(t *Thread, fn string, out *Handle, flags uint32, kind EventKind) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: event must not be NULL", fn)
	}
	switch kind {
	case EventWithFlag, EventEx:
		allowed := uint32(eventFlagsWithFlag)
		if kind == EventEx {
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
	c, err := Current(t, fn)
	if err != nil {
		return err
	}
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	ev, err := NewEventLocked(fn, c, flags, kind)
	if err != nil {
		return err
	}
	*out = ev.H
	return nil
}

func WaitEventOnStream(t *Thread, fn string, sh, h Handle, timeout time.Duration) error {
	e, err := ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	if e.Kind != EventPlain && e.Flags&abi.ACL_EVENT_SYNC == 0 && e.Flags != abi.ACL_EVENT_IPC {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: event %#x was created without ACL_EVENT_SYNC and cannot be waited on", fn, uintptr(h))
	}
	s, err := ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	task := waitTask(e, timeout)
	if n := ImportedNode(e); n != nil {
		task = nodeWaitTask(n, timeout)
	}
	if err := s.Queue(t, fn, task, Queued{Sync: e.TSEvent, Strict: SanitizeStrict(e)}); err != nil {
		return err
	}
	PoolEventWaited(s, e) // memory pools' event dependencies (rt/core/mempool.go)
	e.WaitMu.Lock()
	defer e.WaitMu.Unlock()
	for _, w := range e.Waiters {
		if w == s {
			return nil
		}
	}
	e.Waiters = append(e.Waiters, s)
	return nil
}

// ImportedNode returns e's node link when e was opened from another
// process's handle.
func ImportedNode(e *Event) *NodeEvent {
	if n := e.Node; n != nil && !n.Exporter {
		return n
	}
	return nil
}

// nodeWaitTask is the wait of an imported event: the records the exporter
// had submitted when the wait was issued.
func nodeWaitTask(n *NodeEvent, timeout time.Duration) tsfw.Task {
	target, _, _ := emu.NodeEventStatus(n.Entry, n.Ref.Gen)
	if timeout <= 0 {
		timeout = -1
	}
	return tsfw.HostTask(func() error { return n.Dir.NodeEventWait(n.Entry, n.Ref.Gen, target, timeout) })
}

// NodeQuery answers aclrtQueryEventStatus for an imported event.
func NodeQuery(fn string, n *NodeEvent, status *int32) error {
	rec, done, ok := emu.NodeEventStatus(n.Entry, n.Ref.Gen)
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the IPC event was destroyed by its exporter (or the exporter died)", fn)
	}
	*status = abi.ACL_EVENT_RECORDED_STATUS_NOT_READY
	if done >= rec {
		*status = abi.ACL_EVENT_RECORDED_STATUS_COMPLETE
	}
	return nil
}

// NodeRecorded mirrors a record of an exported event into the node.
func NodeRecorded(e *Event) {
	if n := e.Node; n != nil && n.Exporter {
		emu.NodeEventRecorded(n.Entry, e.TSEvent.LastRecord())
	}
}

// CreateEvent implements aclrtCreateEvent.
func CreateEvent(t *Thread, out *Handle) error {
	return CreateEventOfKind(t, "aclrtCreateEvent", out, 0, EventPlain)
}

// DestroyEvent implements aclrtDestroyEvent: non-blocking; the tsfw event
// is released once pending records complete.
func DestroyEvent(t *Thread, h Handle) error {
	e, err := ResolveEvent("aclrtDestroyEvent", h)
	if err != nil {
		return err
	}
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	e.DestroyLocked()
	return nil
}

// RecordEvent implements aclrtRecordEvent / aclrtRecordEventWithFlag
// (ACL_EVENT_RECORD_DEFAULT only; EXTERNAL belongs to capture).
func RecordEvent(t *Thread, h, sh Handle, flag uint32) error {
	const fn = "aclrtRecordEvent"
	if flag != abi.ACL_EVENT_RECORD_DEFAULT && flag != abi.ACL_EVENT_RECORD_EXTERNAL {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtRecordEventWithFlag: unknown flag %d", flag)
	}
	e, err := ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	s, err := ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if s.Ctx.Dev != e.Ctx.Dev {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_CONTEXT, "%s: event of device %d recorded on a stream of device %d", fn, e.Ctx.Dev.ID, s.Ctx.Dev.ID)
	}
	if flag == abi.ACL_EVENT_RECORD_EXTERNAL {
		return CaptureExternal(s, "aclrtRecordEventWithFlag", e, tsfw.RecordTask(e.TSEvent))
	}
	if ImportedNode(e) != nil {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: event %#x was opened from another process's IPC handle: only the exporting process records it", fn, uintptr(h))
	}
	if err := s.Queue(t, fn, tsfw.RecordTask(e.TSEvent), Queued{Sync: e.TSEvent}); err != nil {
		return err
	}
	NodeRecorded(e)
	PoolEventRecorded(e, s) // memory pools' event dependencies (rt/core/mempool.go)
	return nil
}

// StreamWaitEvent implements aclrtStreamWaitEvent.
func StreamWaitEvent(t *Thread, sh, h Handle) error {
	return WaitEventOnStream(t, "aclrtStreamWaitEvent", sh, h, DefaultWaitTimeout())
}

// QueryEventWaitStatus implements aclrtQueryEventWaitStatus: COMPLETE (0)
// once every stream that waited on e has run all its submitted tasks (a
// conservative reading of "the tasks waiting on the event have finished").
func QueryEventWaitStatus(t *Thread, h Handle, status *int32) error {
	const fn = "aclrtQueryEventWaitStatus"
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: status must not be NULL", fn)
	}
	e, err := ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	if e.Kind == EventEx {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: events from aclrtCreateEventExWithFlag have no wait status", fn)
	}
	if err := eventGuard(e, fn); err != nil {
		return err
	}
	e.WaitMu.Lock()
	*status = abi.ACL_EVENT_WAIT_STATUS_COMPLETE
	for _, w := range e.Waiters {
		if !w.Dead.Load() && !w.SQ.Query() {
			*status = abi.ACL_EVENT_WAIT_STATUS_NOT_READY
		}
	}
	e.WaitMu.Unlock()
	if *status == abi.ACL_EVENT_WAIT_STATUS_NOT_READY {
		t.NotReady()
	}
	return nil
}

// ResetEvent implements aclrtResetEvent: for events created with the
// default flags (aclrtCreateEvent) or with aclrtCreateEventWithFlag
// (ACL_EVENT_SYNC). The runtime resets a default-flag event too
// (rtEventReset); semantics.md §5 said otherwise and was corrected against
// the vendor's source (issue #13).
func ResetEvent(t *Thread, h, sh Handle) error {
	const fn = "aclrtResetEvent"
	e, err := ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	if e.Kind != EventPlain && (e.Kind != EventWithFlag || e.Flags&abi.ACL_EVENT_SYNC == 0) {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
			"%s: only events from aclrtCreateEvent or aclrtCreateEventWithFlag(ACL_EVENT_SYNC) can be reset", fn)
	}
	s, err := ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if err := s.Submit(t, fn, tsfw.ResetTask(e.TSEvent)); err != nil {
		return err
	}
	PoolEventGone(e) // memory pools' event dependencies (rt/core/mempool.go)
	return nil
}

// QueryEvent implements the deprecated aclrtQueryEvent: COMPLETE 0,
// NOT_READY 1.
func QueryEvent(t *Thread, h Handle, status *int32) error {
	const fn = "aclrtQueryEvent"
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: status must not be NULL", fn)
	}
	e, err := ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	if e.Kind == EventEx {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: events from aclrtCreateEventExWithFlag cannot be queried with aclrtQueryEvent (use aclrtQueryEventStatus)", fn)
	}
	if err := eventGuard(e, fn); err != nil {
		return err
	}
	*status = abi.ACL_EVENT_STATUS_NOT_READY
	if e.TSEvent.Complete() {
		*status = abi.ACL_EVENT_STATUS_COMPLETE
	}
	if Sanitizing {
		sanitizeSyncEvent(t, fn, e, *status == abi.ACL_EVENT_STATUS_COMPLETE)
	}
	if *status == abi.ACL_EVENT_STATUS_NOT_READY {
		t.NotReady()
	}
	return nil
}

// QueryEventStatus implements aclrtQueryEventStatus: NOT_READY 0 (also
// when never recorded, except Ex events which report complete), COMPLETE 1;
// IPC events included.
func QueryEventStatus(t *Thread, h Handle, status *int32) error {
	const fn = "aclrtQueryEventStatus"
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: status must not be NULL", fn)
	}
	e, err := ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	if err := eventGuard(e, fn); err != nil {
		return err
	}
	if n := ImportedNode(e); n != nil {
		return NodeQuery(fn, n, status)
	}
	// IPC events are queried like any other (the runtime's
	// rtEventQueryStatus makes no exception; issue #13).
	*status = abi.ACL_EVENT_RECORDED_STATUS_NOT_READY
	recorded := e.TSEvent.Recorded()
	if (recorded || e.Kind == EventEx) && e.TSEvent.Complete() {
		*status = abi.ACL_EVENT_RECORDED_STATUS_COMPLETE
	}
	if Sanitizing {
		sanitizeSyncEvent(t, fn, e, *status == abi.ACL_EVENT_RECORDED_STATUS_COMPLETE)
	}
	if *status == abi.ACL_EVENT_RECORDED_STATUS_NOT_READY {
		t.NotReady()
	}
	return nil
}

// SynchronizeEvent implements aclrtSynchronizeEvent(WithTimeout): timeout
// in ms, −1 = forever.
func SynchronizeEvent(t *Thread, h Handle, timeoutMs int32) error {
	fn := "aclrtSynchronizeEvent"
	if timeoutMs != -1 {
		fn = "aclrtSynchronizeEventWithTimeout"
		if timeoutMs < -1 || timeoutMs == 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: timeout %d: want -1 (forever) or > 0 ms", fn, timeoutMs)
		}
	}
	e, err := ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	if err := eventGuard(e, fn); err != nil {
		return err
	}
	if n := ImportedNode(e); n != nil {
		target, _, _ := emu.NodeEventStatus(n.Entry, n.Ref.Gen)
		if err := n.Dir.NodeEventWait(n.Entry, n.Ref.Gen, target, MsTimeout(timeoutMs)); err != nil {
			return abi.Wrapf(err, "%s", fn)
		}
		return nil
	}
	if err := e.TSEvent.Synchronize(MsTimeout(timeoutMs)); err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	if Sanitizing {
		sanitizeSyncEvent(t, fn, e, true)
	}
	PoolsSyncedDevice(e.Ctx.Dev) // memory pools' RELEASE_THRESHOLD (rt/core/mempool.go)
	return ManagedSynchronized(fn, e.Ctx.Dev)
}

// EventElapsedTime implements aclrtEventElapsedTime: milliseconds between
// two completed records on the same stream, from the virtual clock.
func EventElapsedTime(t *Thread, ms *float32, start, end Handle) error {
	const fn = "aclrtEventElapsedTime"
	if ms == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ms must not be NULL", fn)
	}
	s, err := ResolveEvent(fn, start)
	if err != nil {
		return err
	}
	e, err := ResolveEvent(fn, end)
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
