package acl

import (
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

// SubscribeReport implements aclrtSubscribeReport: thread tid (a pthread
// id) will run the callbacks of the stream.
func SubscribeReport(t *core.Thread, tid uint64, sh core.Handle) error {
	const fn = "aclrtSubscribeReport"
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	core.CbState.Mu.Lock()
	defer core.CbState.Mu.Unlock()
	core.PruneLocked()
	r := core.ReporterLocked(tid)
	if owner := core.CbState.ByStream[s]; owner != nil {
		if owner == r {
			return abi.Errorf(abi.ACL_ERROR_RT_STREAM_SUBSCRIBE, "%s: stream %d is already subscribed by thread %#x", fn, s.ID, tid)
		}
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_SUBSCRIBE, "%s: stream %d is already served by thread %#x (a stream has at most one thread)", fn, s.ID, owner.Tid)
	}
	if len(r.Streams) > 0 && r.Dev != s.Ctx.Dev {
		return abi.Errorf(abi.ACL_ERROR_RT_THREAD_SUBSCRIBE, "%s: thread %#x already serves streams of device %d; a thread may not serve two devices (stream %d is on device %d)",
			fn, tid, r.Dev.ID, s.ID, s.Ctx.Dev.ID)
	}
	if len(r.Streams) == 0 {
		if core.CbState.SubscribedThreads >= core.MaxReportThreads {
			return abi.Errorf(abi.ACL_ERROR_RT_THREAD_SUBSCRIBE, "%s: %d threads are subscribed already (the limit per process)", fn, core.MaxReportThreads)
		}
		core.CbState.SubscribedThreads++
		r.Dev = s.Ctx.Dev
	}
	r.Streams[s] = struct{}{}
	core.CbState.ByStream[s] = r
	return nil
}

// UnSubscribeReport implements aclrtUnSubscribeReport.
func UnSubscribeReport(t *core.Thread, tid uint64, sh core.Handle) error {
	const fn = "aclrtUnSubscribeReport"
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	core.CbState.Mu.Lock()
	defer core.CbState.Mu.Unlock()
	r := core.CbState.ByStream[s]
	if r == nil || r.Tid != tid {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_SUBSCRIBE, "%s: stream %d is not subscribed by thread %#x", fn, s.ID, tid)
	}
	if r.Running == s {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_SUBSCRIBE, "%s: stream %d: cannot unsubscribe from inside one of its running callbacks", fn, s.ID)
	}
	r.UnbindLocked(s)
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
	core.CbState.Mu.Lock()
	r := core.ReporterLocked(tid)
	core.CbState.Mu.Unlock()
	var expire <-chan time.Time
	if timeoutMs > 0 {
		tm := time.NewTimer(time.Duration(timeoutMs) * time.Millisecond)
		defer tm.Stop()
		expire = tm.C
	}
	for {
		core.CbState.Mu.Lock()
		items := r.Items
		r.Items = nil
		core.CbState.Mu.Unlock()
		if len(items) > 0 {
			r.Run(t, items)
			return nil
		}
		select {
		case <-r.Signal:
		case <-expire:
			return abi.Errorf(abi.ACL_ERROR_RT_REPORT_TIMEOUT, "%s: no callback arrived within %d ms", fn, timeoutMs)
		}
	}
}

// LaunchCallback implements aclrtLaunchCallback: fn runs on the thread
// subscribed to the stream when the stream reaches the task.
func LaunchCallback(t *core.Thread, fn func(), blockType int32, sh core.Handle) error {
	const name = "aclrtLaunchCallback"
	if fn == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: fn must not be NULL", name)
	}
	if blockType != core.CallbackNoBlock && blockType != core.CallbackBlock {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: blockType %d: want ACL_CALLBACK_NO_BLOCK (0) or ACL_CALLBACK_BLOCK (1)", name, blockType)
	}
	s, err := core.ResolveStream(t, name, sh)
	if err != nil {
		return err
	}
	core.CbState.Mu.Lock()
	subscribed := core.CbState.ByStream[s] != nil
	core.CbState.Mu.Unlock()
	if !subscribed {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NO_CB_REG, "%s: stream %d has no thread subscribed with aclrtSubscribeReport", name, s.ID)
	}
	block := blockType == core.CallbackBlock
	var order *core.CbOrder
	if core.Sanitizing {
		order = &core.CbOrder{}
	}
	return s.Queue(t, name, tsfw.HostTask(func() error { return core.HandOver(s, fn, block, order) }), core.Queued{Sync: order, Counted: true})
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
