package core

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
)

// MaxReportThreads is the documented limit of subscribed threads per process.
const MaxReportThreads = 1024

// Callback block types (aclrtCallbackBlockType).
const (
	CallbackNoBlock = abi.ACL_CALLBACK_NO_BLOCK
	CallbackBlock   = abi.ACL_CALLBACK_BLOCK
)

// reporter is one thread that may run callbacks: created by the first
// SubscribeReport naming it or by its first ProcessReport.
type reporter struct {
	Tid    uint64
	Signal chan struct{} // buffered 1: a callback was handed over

	// Guarded by cbState.mu.
	Dev     *Device // device of its streams; meaningful while streams is non-empty
	Streams map[*Stream]struct{}
	Items   []*cbItem
	Running *Stream // stream of the callback being run, nil between callbacks
}

// cbItem is one callback handed to a reporter.
type cbItem struct {
	s    *Stream
	fn   func()
	done chan struct{} // closed once fn ran or was skipped
	san  *CbOrder      // the sanitizer's key of the callback task (nil when off)
}

// CbOrder orders, for the sanitizer, the thread that runs a callback after
// the tasks queued before the callback (sanitize.go).
type CbOrder struct{ _ byte }

var CbState struct {
	Mu                sync.Mutex
	ByTid             map[uint64]*reporter
	ByStream          map[*Stream]*reporter
	SubscribedThreads int // reporters with at least one stream
}

// ReporterLocked returns the reporter of tid, creating it.
// Precondition: cbState.mu held.
func ReporterLocked(tid uint64) *reporter {
	if CbState.ByTid == nil {
		CbState.ByTid = map[uint64]*reporter{}
		CbState.ByStream = map[*Stream]*reporter{}
	}
	r := CbState.ByTid[tid]
	if r == nil {
		r = &reporter{Tid: tid, Signal: make(chan struct{}, 1), Streams: map[*Stream]struct{}{}}
		CbState.ByTid[tid] = r
	}
	return r
}

// PruneLocked forgets the subscriptions of destroyed streams.
// Precondition: cbState.mu held.
func PruneLocked() {
	for s, r := range CbState.ByStream {
		if s.Dead.Load() {
			r.UnbindLocked(s)
		}
	}
}

// UnbindLocked removes s from r and skips its pending callbacks.
// Precondition: cbState.mu held.
func (r *reporter) UnbindLocked(s *Stream) {
	delete(r.Streams, s)
	delete(CbState.ByStream, s)
	if len(r.Streams) == 0 {
		CbState.SubscribedThreads--
	}
	keep := r.Items[:0]
	for _, it := range r.Items {
		if it.s == s {
			close(it.done)
			continue
		}
		keep = append(keep, it)
	}
	clear(r.Items[len(keep):])
	r.Items = keep
}

// Run runs the callbacks handed to r, in order, on the calling thread.
func (r *reporter) Run(t *Thread, items []*cbItem) {
	for _, it := range items {
		CbState.Mu.Lock()
		r.Running = it.s
		CbState.Mu.Unlock()
		if it.san != nil && Sanitizing {
			sanitizeCallback(t, it.san)
		}
		it.fn()
		CbState.Mu.Lock()
		r.Running = nil
		CbState.Mu.Unlock()
		close(it.done)
	}
}

// HandOver gives fn to the stream's subscribed thread and, when block is
// set, waits until that thread has run it. It runs as a host task.
func HandOver(s *Stream, fn func(), block bool, order *CbOrder) error {
	it := &cbItem{s: s, fn: fn, done: make(chan struct{}), san: order}
	CbState.Mu.Lock()
	r := CbState.ByStream[s]
	if r != nil {
		r.Items = append(r.Items, it)
	}
	CbState.Mu.Unlock()
	if r == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NO_CB_REG, "aclrtLaunchCallback: stream %d was unsubscribed before its callback ran", s.ID)
	}
	select {
	case r.Signal <- struct{}{}:
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
