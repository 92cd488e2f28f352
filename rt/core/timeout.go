package core

import (
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/tsfw"
)

// OpExecTimeout is aclrtSetOpExecuteTimeOut's value in seconds; 0 means
// never set (the SoC default applies).
var OpExecTimeout atomic.Uint32

// OpExecuteTimeout returns the kernel execution timeout set with
// aclrtSetOpExecuteTimeOut, 0 if it was never set (the SoC default, far
// longer than any emulated kernel, applies).
func OpExecuteTimeout() time.Duration {
	return time.Duration(OpExecTimeout.Load()) * time.Second
}

// waitTask builds the wait of an event, with a timeout when > 0.
func waitTask(e *Event, timeout time.Duration) tsfw.Task {
	if timeout > 0 {
		return tsfw.WaitTaskTimeout(e.TSEvent, timeout)
	}
	return tsfw.WaitTask(e.TSEvent)
}

// OpWaitTimeout is aclrtSetOpWaitTimeout's value in seconds (0 = none).
var OpWaitTimeout atomic.Uint32

// DefaultWaitTimeout is the timeout of a plain aclrtStreamWaitEvent: the
// one set with aclrtSetOpWaitTimeout, 0 (never) by default.
func DefaultWaitTimeout() time.Duration {
	return time.Duration(OpWaitTimeout.Load()) * time.Second
}
