package rt

import (
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Callbacks and host functions, round 8: the report subscription of
// acl/callback.go under the runtime's names. Threads are named by their
// pthread id; rtProcessReport serves the calling thread (libfake passes
// pthread_self()). rtCallbackLaunch's isBlock is
// ACL_CALLBACK_BLOCK/ACL_CALLBACK_NO_BLOCK. The host-function subscribe
// trio (rtSubscribeHostFunc, rtProcessHostFunc, rtUnSubscribeHostFunc) stays
// unsupported, as its ACL counterparts: no product supports it.

// SubscribeReport implements rtSubscribeReport.
func SubscribeReport(t *core.Thread, tid uint64, s core.Handle) error {
	return wrap("rtSubscribeReport", acl.SubscribeReport(t, tid, s))
}

// UnSubscribeReport implements rtUnSubscribeReport.
func UnSubscribeReport(t *core.Thread, tid uint64, s core.Handle) error {
	return wrap("rtUnSubscribeReport", acl.UnSubscribeReport(t, tid, s))
}

// ProcessReport implements rtProcessReport for the calling thread (pthread
// id tid): waits up to timeoutMs (-1: forever) and runs every pending
// callback; ACL_ERROR_RT_REPORT_TIMEOUT when none arrived.
func ProcessReport(t *core.Thread, tid uint64, timeoutMs int32) error {
	const fn = "rtProcessReport"
	if timeoutMs == 0 || timeoutMs < -1 {
		return invalid(fn, "timeout %d: want -1 (forever) or > 0 ms", timeoutMs)
	}
	return wrap(fn, acl.ProcessReport(t, tid, timeoutMs))
}

// CallbackLaunch implements rtCallbackLaunch: fn runs on the thread
// subscribed to the stream when the stream reaches it; with isBlock the
// stream's later tasks wait until it has run.
func CallbackLaunch(t *core.Thread, fn func(), s core.Handle, isBlock bool) error {
	const name = "rtCallbackLaunch"
	if fn == nil {
		return invalid(name, "callBackFunc must not be NULL")
	}
	var bt int32 = core.CallbackNoBlock
	if isBlock {
		bt = core.CallbackBlock
	}
	return wrap(name, acl.LaunchCallback(t, fn, bt, s))
}

// LaunchHostFunc implements rtsLaunchHostFunc: fn runs on a runtime
// goroutine when the stream reaches it; later tasks wait for it.
func LaunchHostFunc(t *core.Thread, s core.Handle, fn func()) error {
	const name = "rtsLaunchHostFunc"
	if fn == nil {
		return invalid(name, "callBackFunc must not be NULL")
	}
	return wrap(name, acl.LaunchHostFunc(t, s, fn))
}
