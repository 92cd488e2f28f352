package acl

import (
	"syscall"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/timeline"
)

// mstx (mstx/ms_tools_ext.h; prof-api.md §8, docs/profiling.md): marks,
// ranges and domains. npuemu plays msprof's part: events are recorded
// while a collection with ACL_PROF_MSPROFTX runs (into msprof_tx_*.csv)
// and, whenever the timeline is on (NPUEMU_TIMELINE or a collection), on
// the device timeline's "mstx <domain>" track: with a stream, at the
// device time the stream reaches the call; without, at the device time
// the host has observed on the thread's current device (its last
// synchronize). Misuse is ignored, as documented: a mark is dropped and a
// range start returns 0.

const domainTag = uintptr(0x5044) << 48

type mstxRange struct {
	domain     string
	msg        string
	start      int64
	tid        int
	dev        int
	devStart   time.Duration
	streamDev  bool
	collecting bool
}

var mstx struct {
	// Guarded by tx.mu.
	domains map[string]uintptr
	names   map[uintptr]string
	next    uintptr
	open    map[uint64]*mstxRange
}

// mstxOn reports whether mstx events are recorded now.
func mstxOn() (collecting, on bool) {
	c := profCollecting()
	return c, c || timeline.Enabled()
}

// mstxMessageOK rejects NULL, empty and CSV-injection messages.
func mstxMessageOK(msg []byte) bool {
	if len(msg) == 0 {
		return false
	}
	switch msg[0] {
	case '=', '+', '-', '@':
		return false
	}
	return true
}

// mstxWhere is where an annotation goes on the device timeline: the
// stream's device at its virtual end, or the current device at the time
// the host has observed (dev -1 when the thread has no context).
func mstxWhere(t *core.Thread, sh core.Handle) (dev int, at time.Duration, onStream bool) {
	if sh != 0 {
		if s, err := core.ResolveStream(t, "mstx", sh); err == nil {
			d, a := streamClock(s)
			return d, a, true
		}
	}
	if c := t.Ctx; c != nil && !c.Dead.Load() {
		ts := c.Dev.Emu.TS
		return ts.TraceID(), ts.HostTime(), false
	}
	return -1, 0, false
}

// domainName resolves a domain handle (0: the default domain).
// Precondition: tx.mu held.
func domainName(h uintptr) (string, bool) {
	if h == 0 {
		return "default", true
	}
	n, ok := mstx.names[h]
	return n, ok
}

// MstxMark implements mstxMarkA and mstxDomainMarkA.
func MstxMark(t *core.Thread, domain uintptr, msg []byte, sh core.Handle) {
	collecting, on := mstxOn()
	if !on || !mstxMessageOK(msg) {
		return
	}
	dev, at, onStream := mstxWhere(t, sh)
	now := wallNow()
	tx.mu.Lock()
	defer tx.mu.Unlock()
	name, ok := domainName(domain)
	if !ok {
		return
	}
	tx.markID++
	e := txEvent{tid: syscall.Gettid(), eventType: "marker", msg: string(msg), domain: name, start: now, end: now, dev: -1, devStart: at, devEnd: at}
	if onStream {
		e.dev = dev
	}
	if collecting {
		addTx(e)
	}
	if dev >= 0 && (!collecting || !onStream) {
		timeline.Mark(dev, name, e.msg, at)
	}
}

// MstxRangeStart implements mstxRangeStartA and mstxDomainRangeStartA: the
// range id, 0 when nothing is recorded.
func MstxRangeStart(t *core.Thread, domain uintptr, msg []byte, sh core.Handle) uint64 {
	collecting, on := mstxOn()
	if !on || !mstxMessageOK(msg) {
		return 0
	}
	dev, at, onStream := mstxWhere(t, sh)
	now := wallNow()
	tx.mu.Lock()
	defer tx.mu.Unlock()
	name, ok := domainName(domain)
	if !ok {
		return 0
	}
	tx.markID++
	if mstx.open == nil {
		mstx.open = map[uint64]*mstxRange{}
	}
	mstx.open[tx.markID] = &mstxRange{domain: name, msg: string(msg), start: now, tid: syscall.Gettid(),
		dev: dev, devStart: at, streamDev: onStream, collecting: collecting}
	return tx.markID
}

// MstxRangeEnd implements mstxRangeEnd and mstxDomainRangeEnd: id 0, an
// id of another domain or one already ended is ignored.
func MstxRangeEnd(t *core.Thread, domain uintptr, id uint64, sh core.Handle) {
	if id == 0 {
		return
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	name, ok := domainName(domain)
	r := mstx.open[id]
	if !ok || r == nil || r.domain != name {
		return
	}
	delete(mstx.open, id)
	end := r.devStart
	if r.dev >= 0 {
		// The range ends where its stream (or the host) has got to now.
		if r.streamDev {
			end = max(end, streamEndOf(t, r.dev))
		} else if c := t.Ctx; c != nil && !c.Dead.Load() {
			end = max(end, c.Dev.Emu.TS.HostTime())
		}
	}
	e := txEvent{tid: r.tid, eventType: "start/end", msg: r.msg, domain: r.domain, start: r.start, end: wallNow(), dev: -1, devStart: r.devStart, devEnd: end}
	if r.streamDev {
		e.dev = r.dev
	}
	if r.collecting && profCollecting() {
		addTx(e)
		if r.streamDev {
			return
		}
	}
	if r.dev >= 0 {
		timeline.Span(r.dev, "mstx "+r.domain, "mstx", r.msg, r.devStart, end, map[string]any{"domain": r.domain, "id": id})
	}
}

// streamEndOf is the latest virtual end over the streams of the thread's
// current context on device dev, at least the device's host time.
func streamEndOf(t *core.Thread, dev int) time.Duration {
	c := t.Ctx
	if c == nil || c.Dead.Load() {
		return 0
	}
	ts := c.Dev.Emu.TS
	end := ts.HostTime()
	for _, q := range ts.Queues() {
		end = max(end, q.VirtualEnd())
	}
	return end
}

// MstxDomainCreate implements mstxDomainCreateA (0: NULL).
func MstxDomainCreate(t *core.Thread, name []byte) uintptr {
	if name == nil || len(name) == 0 || len(name) >= 1024 || string(name) == "default" {
		t.Fail(abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "mstxDomainCreateA: want a name of 1..1023 bytes other than \"default\""))
		return 0
	}
	c := name[0]
	if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
		t.Fail(abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "mstxDomainCreateA: the name must start with a letter, digit or underscore"))
		return 0
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if mstx.domains == nil {
		mstx.domains, mstx.names = map[string]uintptr{}, map[uintptr]string{}
	}
	if h, ok := mstx.domains[string(name)]; ok {
		return h
	}
	mstx.next++
	h := domainTag | mstx.next<<4
	mstx.domains[string(name)], mstx.names[h] = h, string(name)
	return h
}

// MstxDomainDestroy implements mstxDomainDestroy: later use of the handle
// is ignored.
func MstxDomainDestroy(t *core.Thread, h uintptr) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if n, ok := mstx.names[h]; ok {
		delete(mstx.names, h)
		delete(mstx.domains, n)
	}
}
