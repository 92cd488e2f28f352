package tsfw

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
)

// Event is one hardware event of a device. Records are numbered in
// submission order; a wait targets the latest record submitted before it.
type Event struct {
	d      *Device
	id     int32
	flags  uint32
	pooled bool // id taken from the device's pool (returned on release)

	lastSubmitted atomic.Uint64                    // number of the latest submitted record
	completedSeq  atomic.Uint64                    // highest completed record number
	resetSeq      atomic.Uint64                    // completedSeq when the latest reset ran
	lastRecVEnd   atomic.Int64                     // virtual end of the latest submitted record
	onComplete    atomic.Pointer[func(seq uint64)] // SetOnComplete

	mu sync.Mutex
	// Guarded by mu.
	ts        time.Duration // virtual end of the record completedSeq
	destroyed bool
	released  bool      // the id went back to the pool
	kicks     []*Device // devices with a wait blocked on this event
	waiters   []*waiter
}

// NewEvent takes an event id from the device's pool; an exhausted pool
// fails with ACL_ERROR_RT_NO_EVENT_RESOURCE.
func (d *Device) NewEvent(flags uint32) (*Event, error) {
	d.evMu.Lock()
	defer d.evMu.Unlock()
	if d.evLive >= d.cfg.MaxEvents {
		return nil, abi.DevErrorf(abi.DevNoEvent, "%s: all %d event ids are in use", d.cfg.Name, d.cfg.MaxEvents)
	}
	var id int32
	if n := len(d.evFree); n > 0 {
		id = d.evFree[n-1]
		d.evFree = d.evFree[:n-1]
	} else {
		id = d.evNext
		d.evNext++
	}
	d.evLive++
	return &Event{d: d, id: id, flags: flags, pooled: true}, nil
}

// NewEventUnpooled creates an event that takes no id of the pool (events
// of aclrtCreateEventExWithFlag, flagged events without SYNC): its id is
// numbered after the pool's range, so it never collides with a pooled id.
func (d *Device) NewEventUnpooled(flags uint32) *Event {
	d.evMu.Lock()
	defer d.evMu.Unlock()
	id := int32(d.cfg.MaxEvents) + d.evOther
	d.evOther++
	return &Event{d: d, id: id, flags: flags}
}

// EventsInUse returns how many event ids are taken.
func (d *Device) EventsInUse() int {
	d.evMu.Lock()
	defer d.evMu.Unlock()
	return d.evLive
}

func (d *Device) releaseEventID(id int32) {
	d.evMu.Lock()
	d.evFree = append(d.evFree, id)
	d.evLive--
	d.evMu.Unlock()
}

// ID returns the event's hardware id.
func (e *Event) ID() int { return int(e.id) }

// Flags returns the flags given at creation.
func (e *Event) Flags() uint32 { return e.flags }

// Device returns the device owning the event.
func (e *Event) Device() *Device { return e.d }

// Destroy releases the event. Its id returns to the pool once the latest
// record has completed (at once if none is pending).
func (e *Event) Destroy() {
	e.mu.Lock()
	if e.destroyed {
		e.mu.Unlock()
		return
	}
	e.destroyed = true
	release := e.completedSeq.Load() >= e.lastSubmitted.Load() && e.pooled
	e.released = release || !e.pooled
	e.mu.Unlock()
	if release {
		e.d.releaseEventID(e.id)
	}
}

// LastRecord returns the number of the latest submitted record (0: none).
func (e *Event) LastRecord() uint64 { return e.lastSubmitted.Load() }

// SetOnComplete makes fn be told the number of every record of e that
// completes (an IPC event mirrored into a shared node). fn runs on the
// completing engine and must not block.
func (e *Event) SetOnComplete(fn func(seq uint64)) { e.onComplete.Store(&fn) }

// Recorded reports whether a record of e has been submitted.
func (e *Event) Recorded() bool { return e.lastSubmitted.Load() > 0 }

// Complete reports whether the latest submitted record has completed; an
// event never recorded is complete.
func (e *Event) Complete() bool {
	s := e.lastSubmitted.Load()
	return e.completedSeq.Load() >= s
}

// Timestamp returns the virtual time of the latest completed record; false
// if none has completed since creation or the latest reset.
func (e *Event) Timestamp() (time.Duration, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.completedSeq.Load()
	if c == 0 || c <= e.resetSeq.Load() {
		return 0, false
	}
	return e.ts, true
}

// Synchronize waits until the latest record submitted before the call has
// completed. timeout < 0 waits forever; on expiry it returns
// ACL_ERROR_RT_EVENT_SYNC_TIMEOUT.
func (e *Event) Synchronize(timeout time.Duration) error {
	target := e.lastSubmitted.Load()
	if !e.wait(target, timeout) {
		return abi.DevErrorf(abi.DevEventTimeout, "%s: event %d synchronize timed out after %v", e.d.cfg.Name, e.id, timeout)
	}
	atomicMax(&e.d.vHost, time.Duration(e.lastRecVEnd.Load()))
	return nil
}

func (e *Event) wait(target uint64, timeout time.Duration) bool {
	if e.completedSeq.Load() >= target {
		return true
	}
	var deadline time.Time
	if timeout >= 0 {
		deadline = time.Now().Add(timeout)
	}
	for range spinRounds {
		if e.completedSeq.Load() >= target {
			return true
		}
		runtime.Gosched()
	}
	var timer *time.Timer
	if timeout >= 0 {
		left := time.Until(deadline)
		if left <= 0 {
			return e.completedSeq.Load() >= target
		}
		timer = time.NewTimer(left)
		defer timer.Stop()
	}
	e.mu.Lock()
	if e.completedSeq.Load() >= target {
		e.mu.Unlock()
		return true
	}
	w := newWaiter(target)
	e.waiters = append(e.waiters, w)
	e.mu.Unlock()
	if timer == nil {
		<-w.ch
		return true
	}
	select {
	case <-w.ch:
		return true
	case <-timer.C:
	}
	e.mu.Lock()
	e.waiters = removeWaiter(e.waiters, w)
	e.mu.Unlock()
	return e.completedSeq.Load() >= target
}

func (e *Event) alive() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.destroyed {
		return abi.DevErrorf(abi.DevInvalidValue, "%s: event %d was destroyed", e.d.cfg.Name, e.id)
	}
	return nil
}

// addRecord numbers a new record ending at virtual time vEnd.
func (e *Event) addRecord(vEnd time.Duration) (uint64, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.destroyed {
		return 0, abi.DevErrorf(abi.DevInvalidValue, "%s: record of destroyed event %d", e.d.cfg.Name, e.id)
	}
	seq := e.lastSubmitted.Load() + 1
	e.lastRecVEnd.Store(int64(vEnd))
	e.lastSubmitted.Store(seq)
	return seq, nil
}

// waitTarget returns the record a wait submitted now depends on, and that
// record's virtual end (0 when never recorded).
func (e *Event) waitTarget() (uint64, time.Duration, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.destroyed {
		return 0, 0, abi.DevErrorf(abi.DevInvalidValue, "%s: wait on destroyed event %d", e.d.cfg.Name, e.id)
	}
	t := e.lastSubmitted.Load()
	if t == 0 {
		return 0, 0, nil
	}
	return t, time.Duration(e.lastRecVEnd.Load()), nil
}

// satisfied reports whether a wait for record target may proceed: never
// recorded → yes; a reset that ran after the target completed consumed it,
// so a newer record is needed.
func (e *Event) satisfied(target uint64) bool {
	if target == 0 {
		return true
	}
	need := target
	if r := e.resetSeq.Load(); r >= need {
		need = r + 1
	}
	return e.completedSeq.Load() >= need
}

// waitDone is satisfied, registering d to be kicked by the next record
// completion when it is not.
// Precondition: d.mu held.
func (e *Event) waitDone(target uint64, d *Device) bool {
	if e.satisfied(target) {
		return true
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.satisfied(target) {
		return true
	}
	for _, k := range e.kicks {
		if k == d {
			return false
		}
	}
	e.kicks = append(e.kicks, d)
	return false
}

// complete marks record seq done at virtual time vEnd, wakes host waiters
// and kicks the other devices whose queues wait on e.
// Precondition: d.mu held, d == e.d.
func (e *Event) complete(seq uint64, vEnd time.Duration, d *Device) {
	e.mu.Lock()
	if seq > e.completedSeq.Load() {
		e.completedSeq.Store(seq)
		e.ts = vEnd
	}
	if len(e.waiters) > 0 {
		e.waiters = wake(e.waiters, e.completedSeq.Load())
	}
	kicks := e.kicks
	e.kicks = nil
	release := e.destroyed && !e.released && e.completedSeq.Load() >= e.lastSubmitted.Load()
	if release {
		e.released = true
	}
	done := e.completedSeq.Load()
	e.mu.Unlock()
	if fn := e.onComplete.Load(); fn != nil {
		(*fn)(done)
	}
	for _, k := range kicks {
		if k != d { // d is inside its arbiter pass, which rescans
			k.kick()
		}
	}
	if release {
		d.releaseEventID(e.id)
	}
}

// reset runs a reset task: records completed so far no longer satisfy
// waits.
func (e *Event) reset() {
	e.mu.Lock()
	e.resetSeq.Store(e.completedSeq.Load())
	e.mu.Unlock()
}
