package tsfw

import (
	"sync"
	"time"

	"github.com/npuemu/npuemu/abi"
)

// defaultMaxNotifies is the notify pool of a device whose Config leaves
// MaxNotifies at 0: the largest table of any SoC (the 950's), so that a
// smaller per-SoC limit enforced above never meets a smaller pool.
const defaultMaxNotifies = 65535

// notifyPool hands out the notify ids of a device. Plain and counting
// notifies share it: both are slots of the same notify table.
type notifyPool struct {
	mu sync.Mutex
	// Guarded by mu.
	free []int32
	next int32
	live int
}

func (d *Device) maxNotifies() int {
	if d.cfg.MaxNotifies > 0 {
		return d.cfg.MaxNotifies
	}
	return defaultMaxNotifies
}

func (d *Device) takeNotifyID() (int32, error) {
	p := &d.nf
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live >= d.maxNotifies() {
		return 0, abi.DevErrorf(abi.DevNoNotify, "%s: all %d notify ids are in use", d.cfg.Name, d.maxNotifies())
	}
	var id int32
	if n := len(p.free); n > 0 {
		id = p.free[n-1]
		p.free = p.free[:n-1]
	} else {
		id = p.next
		p.next++
	}
	p.live++
	return id, nil
}

func (d *Device) releaseNotifyID(id int32) {
	p := &d.nf
	p.mu.Lock()
	p.free = append(p.free, id)
	p.live--
	p.mu.Unlock()
}

// NotifiesInUse returns how many notify ids (plain and counting) are taken.
func (d *Device) NotifiesInUse() int {
	d.nf.mu.Lock()
	defer d.nf.mu.Unlock()
	return d.nf.live
}

// signal is what plain and counting notifies share: identity, the
// destroyed flag and the devices to kick when the value changes.
type signal struct {
	d  *Device
	id int32

	mu sync.Mutex
	// Guarded by mu.
	destroyed bool
	kicks     []*Device // devices with a wait blocked on this notify
}

// ID returns the notify's hardware id.
func (s *signal) ID() int { return int(s.id) }

// Device returns the device owning the notify.
func (s *signal) Device() *Device { return s.d }

// destroy marks the notify destroyed and returns its id to the pool. Tasks
// already queued keep the object alive and still act on it.
func (s *signal) destroy() {
	s.mu.Lock()
	if s.destroyed {
		s.mu.Unlock()
		return
	}
	s.destroyed = true
	s.mu.Unlock()
	s.d.releaseNotifyID(s.id)
}

// alive fails once the notify is destroyed.
// Precondition: s.mu held.
func (s *signal) aliveLocked(what string) error {
	if s.destroyed {
		return abi.DevErrorf(abi.DevInvalidValue, "%s: %s of destroyed notify %d", s.d.cfg.Name, what, s.id)
	}
	return nil
}

// blocked registers d to be kicked by the next change.
// Precondition: s.mu held.
func (s *signal) blocked(d *Device) {
	for _, k := range s.kicks {
		if k == d {
			return
		}
	}
	s.kicks = append(s.kicks, d)
}

// takeKicks returns and clears the devices to kick.
// Precondition: s.mu held.
func (s *signal) takeKicks() []*Device {
	k := s.kicks
	s.kicks = nil
	return k
}

// kickAll kicks every device but self (self is inside its arbiter pass,
// which rescans after an inline completion).
func kickAll(kicks []*Device, self *Device) {
	for _, k := range kicks {
		if k != self {
			k.kick()
		}
	}
}

// Notify is one hardware notify: a flag that a record sets and a wait
// consumes, so one record releases exactly one wait (records on a set flag
// do not accumulate). Unlike an Event it carries no timestamp.
type Notify struct {
	signal
	// Guarded by mu.
	set bool
	// Submission-time bookkeeping for virtual time, guarded by mu: a record
	// submitted and not yet paired with a submitted wait, and its end.
	pend     bool
	pendVEnd time.Duration
}

// NewNotify takes a notify id from the device's pool; an exhausted pool
// fails with ACL_ERROR_RT_NO_NOTIFY_RESOURCE.
func (d *Device) NewNotify() (*Notify, error) {
	id, err := d.takeNotifyID()
	if err != nil {
		return nil, err
	}
	return &Notify{signal: signal{d: d, id: id}}, nil
}

// Destroy releases the notify's id.
func (n *Notify) Destroy() { n.destroy() }

// IsSet reports whether the notify is set (recorded and not yet consumed).
func (n *Notify) IsSet() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.set
}

// Reset clears the notify from the host at once (aclrtNotifyBatchReset).
func (n *Notify) Reset() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if err := n.aliveLocked("reset"); err != nil {
		return err
	}
	n.set, n.pend = false, false
	return nil
}

// NotifyRecordTask sets n when the stream reaches it. n may belong to
// another device: a record writes the notify wherever it lives.
func NotifyRecordTask(n *Notify) Task { return Task{kind: kindNotifyRecord, nt: n} }

// NotifyWaitTask blocks the stream until n is set, then clears it. A
// timeout > 0 makes the wait fail with ACL_ERROR_RT_WAIT_TIMEOUT (the
// queue's asynchronous error) once it has waited that long; 0 waits
// forever.
func NotifyWaitTask(n *Notify, timeout time.Duration) Task {
	return Task{kind: kindNotifyWait, nt: n, timeout: timeout}
}

// CntNotify is one counting notify: a 32-bit counter that records set,
// add, or and and into, and that waits compare against a value.
type CntNotify struct {
	signal
	// Guarded by mu.
	count     uint32
	recorded  bool          // a record has been submitted (virtual time)
	lastVEnd  time.Duration // virtual end of the latest submitted record
	lastReset time.Duration // virtual end of the latest submitted reset
}

// NewCntNotify takes an id from the device's notify pool.
func (d *Device) NewCntNotify() (*CntNotify, error) {
	id, err := d.takeNotifyID()
	if err != nil {
		return nil, err
	}
	return &CntNotify{signal: signal{d: d, id: id}}, nil
}

// Destroy releases the counting notify's id.
func (c *CntNotify) Destroy() { c.destroy() }

// Count returns the current counter value.
func (c *CntNotify) Count() uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.count
}

// CntRecordMode is what a counting-notify record does to the counter: set
// it to the value, add, OR or AND the value. acl decodes
// aclrtCntNotifyRecordMode into it.
type CntRecordMode uint8

// The record modes.
const (
	CntSet CntRecordMode = iota
	CntAdd
	CntOr
	CntAnd
	cntRecordModes // not a mode: their number
)

// CntWaitMode is the condition a counting-notify wait waits for, comparing
// the counter with the wait's value: count < value, ==, >, >=, and
// (count & value) == value. acl decodes aclrtCntNotifyWaitMode into it.
type CntWaitMode uint8

// The wait conditions.
const (
	CntLess CntWaitMode = iota
	CntEqual
	CntBigger
	CntBiggerEqual
	CntEqualBitmask
	cntWaitModes // not a mode: their number
)

// cntOp is the operand of a counting-notify task.
type cntOp struct {
	record CntRecordMode // record tasks
	wait   CntWaitMode   // wait tasks
	value  uint32
	clear  bool // wait: reset the counter to 0 when released
}

// CntRecordTask applies mode with value to c's counter when the stream
// reaches it.
func CntRecordTask(c *CntNotify, mode CntRecordMode, value uint32) Task {
	return Task{kind: kindCntRecord, cn: c, cnt: cntOp{record: mode, value: value}}
}

// CntWaitTask blocks the stream until c's counter satisfies mode against
// value; clear resets the counter to 0 when the wait is released. timeout
// as for NotifyWaitTask.
func CntWaitTask(c *CntNotify, mode CntWaitMode, value uint32, clear bool, timeout time.Duration) Task {
	return Task{kind: kindCntWait, cn: c, cnt: cntOp{wait: mode, value: value, clear: clear}, timeout: timeout}
}

// CntResetTask sets c's counter to 0 when the stream reaches it.
func CntResetTask(c *CntNotify) Task { return Task{kind: kindCntReset, cn: c} }

// holds reports whether count satisfies the wait condition.
func (o cntOp) holds(count uint32) bool {
	switch o.wait {
	case CntLess:
		return count < o.value
	case CntEqual:
		return count == o.value
	case CntBigger:
		return count > o.value
	case CntBiggerEqual:
		return count >= o.value
	case CntEqualBitmask:
		return count&o.value == o.value
	}
	return false
}

// apply returns the counter after a record.
func (o cntOp) apply(count uint32) uint32 {
	switch o.record {
	case CntSet:
		return o.value
	case CntAdd:
		return count + o.value // wraps, as a 32-bit hardware register does
	case CntOr:
		return count | o.value
	case CntAnd:
		return count & o.value
	}
	return count
}

// validateSignal checks notify tasks before they are queued.
func (t *Task) validateSignal() error {
	switch t.kind {
	case kindNotifyRecord, kindNotifyWait:
		if t.nt == nil {
			return abi.DevErrorf(abi.DevInvalidValue, "%s task: nil notify", t.kind)
		}
	case kindCntRecord, kindCntWait, kindCntReset:
		if t.cn == nil {
			return abi.DevErrorf(abi.DevInvalidValue, "%s task: nil counting notify", t.kind)
		}
		if t.kind == kindCntRecord && t.cnt.record >= cntRecordModes {
			return abi.DevErrorf(abi.DevInvalidValue, "%s task: invalid record mode %d", t.kind, t.cnt.record)
		}
		if t.kind == kindCntWait && t.cnt.wait >= cntWaitModes {
			return abi.DevErrorf(abi.DevInvalidValue, "%s task: invalid wait mode %d", t.kind, t.cnt.wait)
		}
	}
	if t.timeout < 0 {
		return abi.DevErrorf(abi.DevInvalidValue, "%s task: negative timeout", t.kind)
	}
	return nil
}

// stampSignal does the submission-time bookkeeping of a notify task and
// returns the earliest virtual start its dependency allows. A wait pairs
// with the record submitted before it and not yet paired, if any; when the
// record comes later in submission order, the wait keeps the time computed
// from its own queue.
// Precondition: d.mu held.
func (t *Task) stampSignal(start, cost time.Duration) (time.Duration, error) {
	switch t.kind {
	case kindNotifyRecord:
		n := t.nt
		n.mu.Lock()
		defer n.mu.Unlock()
		if err := n.aliveLocked("record"); err != nil {
			return 0, err
		}
		if !n.pend {
			n.pend, n.pendVEnd = true, start+cost
		}
	case kindNotifyWait:
		n := t.nt
		n.mu.Lock()
		defer n.mu.Unlock()
		if err := n.aliveLocked("wait"); err != nil {
			return 0, err
		}
		if n.pend {
			start = max(start, n.pendVEnd)
			n.pend = false
		}
	case kindCntRecord, kindCntReset:
		c := t.cn
		c.mu.Lock()
		defer c.mu.Unlock()
		if err := c.aliveLocked(t.kind.String()); err != nil {
			return 0, err
		}
		if t.kind == kindCntRecord {
			c.recorded, c.lastVEnd = true, start+cost
		} else {
			c.lastReset = start + cost
		}
	case kindCntWait:
		c := t.cn
		c.mu.Lock()
		defer c.mu.Unlock()
		if err := c.aliveLocked("wait"); err != nil {
			return 0, err
		}
		if c.recorded && c.lastVEnd > c.lastReset {
			start = max(start, c.lastVEnd)
		}
	}
	return start, nil
}

// dispatchSignal runs a notify task at the head of q. It reports whether
// the task is finished (with err, for an expired wait); a wait that
// cannot proceed registers d to be kicked and arms its timeout.
// Precondition: d.mu held.
func (d *Device) dispatchSignal(t *Task) (bool, error) {
	switch t.kind {
	case kindNotifyRecord:
		if !d.paceReady(t.vEnd) {
			return false, nil
		}
		n := t.nt
		n.mu.Lock()
		n.set = true
		kicks := n.takeKicks()
		n.mu.Unlock()
		kickAll(kicks, d)
		return true, nil
	case kindNotifyWait:
		n := t.nt
		n.mu.Lock()
		ok := n.set
		if ok {
			n.set = false
		} else {
			n.blocked(d)
		}
		n.mu.Unlock()
		if !ok {
			return d.waitExpired(t)
		}
		// The wait has consumed the notify; pacing only delays its end.
		t.nt = nil
		t.kind = kindWaitDone
		return d.paceReady(t.vEnd), nil
	case kindCntRecord, kindCntReset:
		if !d.paceReady(t.vEnd) {
			return false, nil
		}
		c := t.cn
		c.mu.Lock()
		if t.kind == kindCntRecord {
			c.count = t.cnt.apply(c.count)
		} else {
			c.count = 0
		}
		kicks := c.takeKicks()
		c.mu.Unlock()
		kickAll(kicks, d)
		return true, nil
	case kindCntWait:
		c := t.cn
		c.mu.Lock()
		ok := t.cnt.holds(c.count)
		var kicks []*Device
		if ok && t.cnt.clear {
			c.count = 0
			kicks = c.takeKicks() // a LESS wait elsewhere may now hold
		} else if !ok {
			c.blocked(d)
		}
		c.mu.Unlock()
		if !ok {
			return d.waitExpired(t)
		}
		kickAll(kicks, d)
		t.cn = nil
		t.kind = kindWaitDone
		return d.paceReady(t.vEnd), nil
	case kindWaitDone:
		return d.paceReady(t.vEnd), nil
	}
	return false, nil
}

// waitExpired handles a queued wait (event or notify) that cannot proceed:
// at the first attempt it arms the wait's timeout, if any, with a timer
// that kicks the scheduler; once the deadline has passed it reports the
// wait finished with ACL_ERROR_RT_WAIT_TIMEOUT. Timeouts are wall clock.
// Precondition: d.mu held.
func (d *Device) waitExpired(t *Task) (bool, error) {
	if t.timeout <= 0 {
		return false, nil
	}
	now := time.Now()
	if t.deadline == 0 {
		t.deadline = now.Add(t.timeout).UnixNano()
		time.AfterFunc(t.timeout, d.kick)
		return false, nil
	}
	if now.UnixNano() < t.deadline {
		return false, nil
	}
	what := "notify"
	switch t.kind {
	case kindWait:
		what = "event"
	case kindCntWait:
		what = "counting notify"
	}
	return true, abi.DevErrorf(abi.DevWaitTimeout, "%s: %s wait timed out after %v", d.cfg.Name, what, t.timeout)
}
