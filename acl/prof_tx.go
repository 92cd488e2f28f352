package acl

import (
	"bytes"
	"sync"
	"syscall"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/timeline"
)

// msproftx (aclprofCreateStamp ... aclprofRangeStop, aclprofMarkEx), step
// markers and tensor ranges (prof-api.md §6), and the tx event log that
// mstx (mstx.go) shares. Stamps work only while a collection with
// ACL_PROF_MSPROFTX runs; their failures return the reference engine's raw
// -1 (errTx), not an ACL code.

// errTxCode is the stamp functions' failure value.
const errTxCode = abi.Code(-1)

// maxStamps is the process-wide stamp pool.
const maxStamps = 100

// txEvent is one host annotation: a mark (start == end) or a range.
type txEvent struct {
	tid       int
	category  uint32
	eventType string // marker, push/pop, start/end, marker_ex
	msg       string
	domain    string
	start     int64 // wall clock, ns since the epoch
	end       int64
	dev       int // -1: host only
	devStart  time.Duration
	devEnd    time.Duration
}

type stamp struct {
	msg      string
	category uint32
	start    int64
	tid      int
}

var tx struct {
	mu sync.Mutex
	// Guarded by mu.
	events []txEvent
	stamps [maxStamps]*stamp
	stack  []*stamp // aclprofPush: one process-wide stack
	ranges map[uint32]*stamp
	markID uint64 // shared by marks, ranges and aclprofMarkEx (mstx.go too)
	stepN  uint64
	pushed *pushedRange // aclprofRangePushEx: a single slot
	steps  map[uintptr]*stepInfo
}

type pushedRange struct {
	attr  uintptr
	start int64
	tid   int
}

type stepInfo struct {
	index      uint64
	start, end bool
}

func wallNow() int64 { return time.Now().UnixNano() }

func txCount() int {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	return len(tx.events)
}

func txSince(n int) []txEvent {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if n > len(tx.events) {
		return nil
	}
	return append([]txEvent(nil), tx.events[n:]...)
}

// addTx logs e and puts it on the timeline (host events at the device
// time the host has reached on e.dev, or on device 0).
// Precondition: tx.mu held.
func addTx(e txEvent) {
	tx.events = append(tx.events, e)
	dev := max(e.dev, 0)
	track := "mstx " + e.domain
	if e.dev >= 0 {
		if e.devStart == e.devEnd {
			timeline.Mark(dev, e.domain, e.msg, e.devStart)
		} else {
			timeline.Span(dev, track, "mstx", e.msg, e.devStart, e.devEnd, map[string]any{"domain": e.domain, "event_type": e.eventType})
		}
	}
}

const stampTag = uintptr(0x5053) << 48

func stampHandle(i int) uintptr { return stampTag | uintptr(i+1)<<4 }

// Precondition: tx.mu held.
func stampOf(h uintptr) (int, *stamp) {
	if h&^(uintptr(0xFFFF)<<48) == 0 || h&(uintptr(0xFFFF)<<48) != stampTag {
		return -1, nil
	}
	i := int(h&^(uintptr(0xFFFF)<<48))>>4 - 1
	if i < 0 || i >= maxStamps {
		return -1, nil
	}
	return i, tx.stamps[i]
}

func txErr(fn, why string) error { return abi.Errorf(errTxCode, "%s: %s", fn, why) }

// ProfCreateStamp implements aclprofCreateStamp (0: none).
func ProfCreateStamp(t *core.Thread) uintptr {
	if !profCollecting() {
		t.Fail(txErr("aclprofCreateStamp", "no collection with ACL_PROF_MSPROFTX is running"))
		return 0
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	for i := range tx.stamps {
		if tx.stamps[i] == nil {
			tx.stamps[i] = &stamp{}
			return stampHandle(i)
		}
	}
	t.Fail(txErr("aclprofCreateStamp", "all 100 stamps are in use"))
	return 0
}

// ProfDestroyStamp implements aclprofDestroyStamp.
func ProfDestroyStamp(t *core.Thread, h uintptr) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if i, s := stampOf(h); s != nil {
		tx.stamps[i] = nil
	}
}

// ProfSetStampTraceMessage implements aclprofSetStampTraceMessage.
func ProfSetStampTraceMessage(t *core.Thread, h uintptr, msg []byte) error {
	const fn = "aclprofSetStampTraceMessage"
	if msg == nil || len(msg) >= 128 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the message must be non-NULL and shorter than 128 bytes", fn)
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	_, s := stampOf(h)
	if s == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %#x is not a live stamp", fn, h)
	}
	if i := bytes.IndexByte(msg, 0); i >= 0 {
		msg = msg[:i]
	}
	s.msg = string(msg)
	return nil
}

// ProfMark implements aclprofMark.
func ProfMark(t *core.Thread, h uintptr) error {
	return stampEvent(t, "aclprofMark", h, func(s *stamp, now int64) error {
		addTx(txEvent{tid: syscall.Gettid(), category: s.category, eventType: "marker", msg: s.msg, start: now, end: now, dev: -1})
		return nil
	})
}

func stampEvent(t *core.Thread, fn string, h uintptr, do func(*stamp, int64) error) error {
	if !profCollecting() {
		return txErr(fn, "no collection with ACL_PROF_MSPROFTX is running")
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	_, s := stampOf(h)
	if s == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %#x is not a live stamp", fn, h)
	}
	return do(s, wallNow())
}

// ProfPush implements aclprofPush.
func ProfPush(t *core.Thread, h uintptr) error {
	return stampEvent(t, "aclprofPush", h, func(s *stamp, now int64) error {
		s.start, s.tid = now, syscall.Gettid()
		tx.stack = append(tx.stack, s)
		return nil
	})
}

// ProfPop implements aclprofPop.
func ProfPop(t *core.Thread) error {
	if !profCollecting() {
		return txErr("aclprofPop", "no collection with ACL_PROF_MSPROFTX is running")
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	n := len(tx.stack)
	if n == 0 {
		return txErr("aclprofPop", "no aclprofPush to pop")
	}
	s := tx.stack[n-1]
	tx.stack = tx.stack[:n-1]
	addTx(txEvent{tid: s.tid, category: s.category, eventType: "push/pop", msg: s.msg, start: s.start, end: wallNow(), dev: -1})
	return nil
}

// ProfRangeStart implements aclprofRangeStart: the range id is the
// stamp's slot (0..99).
func ProfRangeStart(t *core.Thread, h uintptr, id *uint32) error {
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclprofRangeStart: rangeId must not be NULL")
	}
	return stampEvent(t, "aclprofRangeStart", h, func(s *stamp, now int64) error {
		i, _ := stampOf(h)
		s.start, s.tid = now, syscall.Gettid()
		if tx.ranges == nil {
			tx.ranges = map[uint32]*stamp{}
		}
		tx.ranges[uint32(i)] = s
		*id = uint32(i)
		return nil
	})
}

// ProfRangeStop implements aclprofRangeStop.
func ProfRangeStop(t *core.Thread, id uint32) error {
	if !profCollecting() {
		return txErr("aclprofRangeStop", "no collection with ACL_PROF_MSPROFTX is running")
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	s := tx.ranges[id]
	if s == nil {
		return txErr("aclprofRangeStop", "no range started with this id")
	}
	delete(tx.ranges, id)
	addTx(txEvent{tid: s.tid, category: s.category, eventType: "start/end", msg: s.msg, start: s.start, end: wallNow(), dev: -1})
	return nil
}

// ProfMarkEx implements aclprofMarkEx: a host instant plus a marker on
// stream's device timeline where the stream reaches it.
func ProfMarkEx(t *core.Thread, msg []byte, sh core.Handle) error {
	const fn = "aclprofMarkEx"
	if msg == nil || sh == 0 || len(msg) < 1 || len(msg) > 155 || bytes.IndexByte(msg, 0) >= 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: want a message of 1..155 bytes (its strlen) and a stream", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if !profCollecting() {
		return txErr(fn, "no collection with ACL_PROF_MSPROFTX is running")
	}
	dev, at := streamClock(s)
	now := wallNow()
	tx.mu.Lock()
	defer tx.mu.Unlock()
	tx.markID++
	addTx(txEvent{tid: syscall.Gettid(), eventType: "marker_ex", msg: string(msg), start: now, end: now, dev: dev, devStart: at, devEnd: at})
	return nil
}

// streamClock is the device and the device time at which s reaches a task
// submitted now.
func streamClock(s *core.Stream) (int, time.Duration) {
	return s.SQ.Device().TraceID(), s.SQ.VirtualEnd()
}

// ProfCreateStepInfo implements aclprofCreateStepInfo.
func ProfCreateStepInfo(t *core.Thread) uintptr {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.steps == nil {
		tx.steps = map[uintptr]*stepInfo{}
	}
	tx.stepN++
	h := uintptr(0x5054)<<48 | uintptr(tx.stepN)<<4
	tx.steps[h] = &stepInfo{index: tx.stepN}
	return h
}

// ProfDestroyStepInfo implements aclprofDestroyStepInfo.
func ProfDestroyStepInfo(t *core.Thread, h uintptr) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	delete(tx.steps, h)
}

// ProfGetStepTimestamp implements aclprofGetStepTimestamp: a step
// boundary marker on the stream's device timeline.
func ProfGetStepTimestamp(t *core.Thread, h uintptr, tag int32, sh core.Handle) error {
	const fn = "aclprofGetStepTimestamp"
	tx.mu.Lock()
	si := tx.steps[h]
	tx.mu.Unlock()
	if si == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %#x is not a live aclprofStepInfo", fn, h)
	}
	if tag != abi.ACL_STEP_START && tag != abi.ACL_STEP_END {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: tag %d is not an aclprofStepTag", fn, tag)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	used := &si.start
	name := "step start"
	if tag == abi.ACL_STEP_END {
		used, name = &si.end, "step end"
	}
	if *used {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: this step info already has its %s", fn, name)
	}
	*used = true
	dev, at := streamClock(s)
	timeline.InstantAt(dev, at, name, map[string]any{"step": si.index})
	return nil
}

// ProfStr2Id implements aclprofStr2Id: two 32-bit rolling hashes (×29 and
// ×131) of the signed chars, high and low word; the empty string maps to
// UINT64_MAX.
func ProfStr2Id(s []byte) uint64 {
	if len(s) == 0 {
		return ^uint64(0)
	}
	var h, g uint32
	for _, c := range s {
		v := uint32(int32(int8(c)))
		h = h*29 + v
		g = g*131 + v
	}
	return uint64(h)<<32 | uint64(g)
}

// ProfRangePushEx implements aclprofRangePushEx (the attribute pointer is
// kept, as documented, until aclprofRangePop reads it).
func ProfRangePushEx(t *core.Thread, attr uintptr, messageType uint32) error {
	if attr == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclprofRangePushEx: attr must not be NULL")
	}
	if messageType != abi.ACL_PROF_MESSAGE_TYPE_TENSOR_INFO {
		return txErr("aclprofRangePushEx", "messageType must be ACL_PROF_MESSAGE_TYPE_TENSOR_INFO")
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	tx.pushed = &pushedRange{attr: attr, start: wallNow(), tid: syscall.Gettid()}
	return nil
}

// ProfRangePop implements aclprofRangePop: the tensor range becomes a
// push/pop tx event named after its op.
func ProfRangePop(t *core.Thread, opName string) error {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	p := tx.pushed
	if p == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclprofRangePop: no aclprofRangePushEx to pop")
	}
	tx.pushed = nil
	if profCollecting() {
		addTx(txEvent{tid: p.tid, eventType: "push/pop", msg: opName, start: p.start, end: wallNow(), dev: -1})
	}
	return nil
}

// PushedRangeAttr returns the attribute pointer of the pending
// aclprofRangePushEx (0: none), for the boundary to read the tensor info.
func PushedRangeAttr() uintptr {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.pushed == nil {
		return 0
	}
	return tx.pushed.attr
}
