package acl

import (
	"sync"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Callbacks and host functions (semantics.md §16).
//
// aclrtLaunchHostFunc queues a tsfw host task: a runtime goroutine runs
// the function when the stream reaches it, and the stream's later tasks
// wait for it to return.
//
// aclrtLaunchCallback queues a host task that hands the callback to the
// thread subscribed to the stream (aclrtSubscribeReport) and, for
// ACL_CALLBACK_BLOCK, waits until that thread has run it. The subscribed
// thread runs callbacks inside aclrtProcessReport, which parks on its
// reporter's channel (no polling) until a callback arrives or the timeout
// expires. Threads are named by their pthread id, as in the C API; libfake
// passes the caller's pthread_self() to ProcessReport.
//
// A host task waiting for a subscribed thread also selects on its queue's
// cancel channel, so aborting, stopping or destroying the stream, or
// closing the device, never strands it. Unsubscribing a stream releases
// its callbacks that were handed over but not run yet (they are skipped).
//
// Lock order: cbState.mu is a leaf; no other lock is taken under it, and
// callbacks run with no lock held.

// maxReportThreads is the documented limit of subscribed threads per process.
const maxReportThreads = 1024

// Callback block types (aclrtCallbackBlockType).
const (
	callbackNoBlock = abi.ACL_CALLBACK_NO_BLOCK
	callbackBlock   = abi.ACL_CALLBACK_BLOCK
)

// reporter is one thread that may run callbacks: created by the first
// SubscribeReport naming it or by its first ProcessReport.
type reporter struct {
	tid    uint64
	signal chan struct{} // buffered 1: a callback was handed over

	// Guarded by cbState.mu.
	dev     *core.Device // device of its streams; meaningful while streams is non-empty
	streams map[*core.Stream]struct{}
	items   []*cbItem
	running *core.Stream // stream of the callback being run, nil between callbacks
}

// cbItem is one callback handed to a reporter.
type cbItem struct {
	s    *core.Stream
	fn   func()
	done chan struct{} // closed once fn ran or was skipped
	san  *cbOrder      // the sanitizer's key of the callback task (nil when off)
}

// cbOrder orders, for the sanitizer, the thread that runs a callback after
// the tasks queued before the callback (acl/sanitize.go).
type cbOrder struct{ _ byte }

var cbState struct {
	mu         sync.Mutex
	byTid      map[uint64]*reporter
	byStream   map[*core.Stream]*reporter
	nsubThread int // reporters with at least one stream
}

// reporterLocked returns the reporter of tid, creating it.
// Precondition: cbState.mu held.
func reporterLocked(tid uint64) *reporter {
	if cbState.byTid == nil {
		cbState.byTid = map[uint64]*reporter{}
		cbState.byStream = map[*core.Stream]*reporter{}
	}
	r := cbState.byTid[tid]
	if r == nil {
		r = &reporter{tid: tid, signal: make(chan struct{}, 1), streams: map[*core.Stream]struct{}{}}
		cbState.byTid[tid] = r
	}
	return r
}

// pruneLocked forgets the subscriptions of destroyed streams.
// Precondition: cbState.mu held.
func pruneLocked() {
	for s, r := range cbState.byStream {
		if s.Dead.Load() {
			r.unbindLocked(s)
		}
	}
}

// unbindLocked removes s from r and skips its pending callbacks.
// Precondition: cbState.mu held.
func (r *reporter) unbindLocked(s *core.Stream) {
	delete(r.streams, s)
	delete(cbState.byStream, s)
	if len(r.streams) == 0 {
		cbState.nsubThread--
	}
	keep := r.items[:0]
	for _, it := range r.items {
		if it.s == s {
			close(it.done)
			continue
		}
		keep = append(keep, it)
	}
	clear(r.items[len(keep):])
	r.items = keep
}

// SubscribeReport implements aclrtSubscribeReport: thread tid (a pthread
// id) will run the callbacks of the stream.
func SubscribeReport(t *core.Thread, tid uint64, sh core.Handle) error {
	const fn = "aclrtSubscribeReport"
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	cbState.mu.Lock()
	defer cbState.mu.Unlock()
	pruneLocked()
	r := reporterLocked(tid)
	if owner := cbState.byStream[s]; owner != nil {
		if owner == r {
			return abi.Errorf(abi.ACL_ERROR_RT_STREAM_SUBSCRIBE, "%s: stream %d is already subscribed by thread %#x", fn, s.ID, tid)
		}
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_SUBSCRIBE, "%s: stream %d is already served by thread %#x (a stream has at most one thread)", fn, s.ID, owner.tid)
	}
	if len(r.streams) > 0 && r.dev != s.Ctx.Dev {
		return abi.Errorf(abi.ACL_ERROR_RT_THREAD_SUBSCRIBE, "%s: thread %#x already serves streams of device %d; a thread may not serve two devices (stream %d is on device %d)",
			fn, tid, r.dev.ID, s.ID, s.Ctx.Dev.ID)
	}
	if len(r.streams) == 0 {
		if cbState.nsubThread >= maxReportThreads {
			return abi.Errorf(abi.ACL_ERROR_RT_THREAD_SUBSCRIBE, "%s: %d threads are subscribed already (the limit per process)", fn, maxReportThreads)
		}
		cbState.nsubThread++
		r.dev = s.Ctx.Dev
	}
	r.streams[s] = struct{}{}
	cbState.byStream[s] = r
	return nil
}

// UnSubscribeReport implements aclrtUnSubscribeReport.
func UnSubscribeReport(t *core.Thread, tid uint64, sh core.Handle) error {
	const fn = "aclrtUnSubscribeReport"
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	cbState.mu.Lock()
	defer cbState.mu.Unlock()
	r := cbState.byStream[s]
	if r == nil || r.tid != tid {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_SUBSCRIBE, "%s: stream %d is not subscribed by thread %#x", fn, s.ID, tid)
	}
	if r.running == s {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_SUBSCRIBE, "%s: stream %d: cannot unsubscribe from inside one of its running callbacks", fn, s.ID)
	}
	r.unbindLocked(s)
	return nil
}

// ProcessReport implements aclrtProcessReport for the calling thread, whose
// pthread id is tid: it waits up to timeoutMs (−1: forever) for callbacks
// of the streams bound to the thread and runs every one pending.
func ProcessReport(t *core.Thread, tid uint64, timeoutMs int32) error {
	const fn = "aclrtProcessReport"
	if timeoutMs == 0 || timeoutMs < -1 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: timeout %d: want -1 (forever) or > 0 ms", fn, timeoutMs)
	}
	cbState.mu.Lock()
	r := reporterLocked(tid)
	cbState.mu.Unlock()
	var expire <-chan time.Time
	if timeoutMs > 0 {
		tm := time.NewTimer(time.Duration(timeoutMs) * time.Millisecond)
		defer tm.Stop()
		expire = tm.C
	}
	for {
		cbState.mu.Lock()
		items := r.items
		r.items = nil
		cbState.mu.Unlock()
		if len(items) > 0 {
			r.run(t, items)
			return nil
		}
		select {
		case <-r.signal:
		case <-expire:
			return abi.Errorf(abi.ACL_ERROR_RT_REPORT_TIMEOUT, "%s: no callback arrived within %d ms", fn, timeoutMs)
		}
	}
}

// run runs the callbacks handed to r, in order, on the calling thread.
func (r *reporter) run(t *core.Thread, items []*cbItem) {
	for _, it := range items {
		cbState.mu.Lock()
		r.running = it.s
		cbState.mu.Unlock()
		if it.san != nil && core.Sanitizing {
			sanitizeCallback(t, it.san)
		}
		it.fn()
		cbState.mu.Lock()
		r.running = nil
		cbState.mu.Unlock()
		close(it.done)
	}
}

// LaunchCallback implements aclrtLaunchCallback: fn runs on the thread
// subscribed to the stream when the stream reaches the task.
func LaunchCallback(t *core.Thread, fn func(), blockType int32, sh core.Handle) error {
	const name = "aclrtLaunchCallback"
	if fn == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: fn must not be NULL", name)
	}
	if blockType != callbackNoBlock && blockType != callbackBlock {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: blockType %d: want ACL_CALLBACK_NO_BLOCK (0) or ACL_CALLBACK_BLOCK (1)", name, blockType)
	}
	s, err := core.ResolveStream(t, name, sh)
	if err != nil {
		return err
	}
	cbState.mu.Lock()
	subscribed := cbState.byStream[s] != nil
	cbState.mu.Unlock()
	if !subscribed {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NO_CB_REG, "%s: stream %d has no thread subscribed with aclrtSubscribeReport", name, s.ID)
	}
	block := blockType == callbackBlock
	var order *cbOrder
	if core.Sanitizing {
		order = &cbOrder{}
	}
	return s.Queue(t, name, tsfw.HostTask(func() error { return handOver(s, fn, block, order) }), core.Queued{Sync: order, Counted: true})
}

// handOver gives fn to the stream's subscribed thread and, when block is
// set, waits until that thread has run it. It runs as a host task.
func handOver(s *core.Stream, fn func(), block bool, order *cbOrder) error {
	it := &cbItem{s: s, fn: fn, done: make(chan struct{}), san: order}
	cbState.mu.Lock()
	r := cbState.byStream[s]
	if r != nil {
		r.items = append(r.items, it)
	}
	cbState.mu.Unlock()
	if r == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NO_CB_REG, "aclrtLaunchCallback: stream %d was unsubscribed before its callback ran", s.ID)
	}
	select {
	case r.signal <- struct{}{}:
	default: // a wake-up is pending already
	}
	if !block {
		return nil
	}
	select {
	case <-it.done:
	case <-s.SQ.Cancelled():
	}
	return nil
}

// LaunchHostFunc implements aclrtLaunchHostFunc: fn runs on a runtime
// thread when the stream reaches it; later tasks of the stream wait for it.
func LaunchHostFunc(t *core.Thread, sh core.Handle, fn func()) error {
	const name = "aclrtLaunchHostFunc"
	if fn == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: fn must not be NULL", name)
	}
	s, err := core.ResolveStream(t, name, sh)
	if err != nil {
		return err
	}
	return s.SubmitTask(t, name, tsfw.HostTask(func() error { fn(); return nil }))
}
