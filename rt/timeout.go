package rt

import (
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The timeout family: process-wide timeouts of event waits and kernel
// execution (semantics.md "Timeouts of kernels"). The synchronise-with-
// timeout calls are in stream.go and device.go.

// SetOpWaitTimeOut implements rtSetOpWaitTimeOut: seconds, 0 = no
// timeout, for event waits issued later (rtStreamWaitEvent); the last call
// wins. Refused on the 310P family, as aclrtSetOpWaitTimeout.
func SetOpWaitTimeOut(t *core.Thread, sec uint32) error {
	return wrap("rtSetOpWaitTimeOut", acl.SetOpWaitTimeout(t, sec))
}

// SetOpExecuteTimeOut implements rtSetOpExecuteTimeOut: seconds, 0 = the
// SoC's maximum, larger values capped to it; kernels launched later
// without their own timeout are held to it.
func SetOpExecuteTimeOut(t *core.Thread, sec uint32) error {
	return wrap("rtSetOpExecuteTimeOut", acl.SetOpExecuteTimeOut(t, sec))
}
