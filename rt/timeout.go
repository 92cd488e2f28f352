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

// The kernel execution timeout in finer units, round 9. The documentation
// (aclrtGetOpTimeOutInterval) gives the units — the interval and
// aclrtSetOpExecuteTimeOutV2's timeouts are microseconds — and the rule:
// the timeout in force is interval × N with N in [1, 254], a request
// rounded up to the next multiple and capped at 254 × interval. It does not
// give the interval per SoC, but it does give the largest AI Core timeout
// per SoC (aclrtSetOpExecuteTimeOut, semantics.md §15), which is 254
// intervals: so npuemu's interval is that maximum / 254, rounded up to a
// microsecond (4 295 276 µs on A2/A3/310B/950, 2 153 544 on 310P,
// 8 566 930 on A1). npuemu holds kernels to whole seconds: the timeout in
// force is actualTimeout rounded up to a second (rtGetOpExecuteTimeoutV2
// reports that, in milliseconds).

// opTimeoutSteps is the largest N of interval × N.
const opTimeoutSteps = 254

// opTimeoutInterval is the emulated SoC's interval in microseconds.
func opTimeoutInterval(fn string) (uint64, error) {
	s, _, err := core.SoC(fn)
	if err != nil {
		return 0, err
	}
	maxUs := uint64(s.OpExecTimeoutMaxSec) * 1_000_000
	return (maxUs + opTimeoutSteps - 1) / opTimeoutSteps, nil
}

// GetOpTimeOutInterval implements rtGetOpTimeOutInterval (microseconds).
func GetOpTimeOutInterval(t *core.Thread, interval *uint64) error {
	const fn = "rtGetOpTimeOutInterval"
	if interval == nil {
		return invalid(fn, "interval must not be NULL")
	}
	iv, err := opTimeoutInterval(fn)
	if err != nil {
		return wrap(fn, err)
	}
	*interval = iv
	return nil
}

// SetOpExecuteTimeOutV2 implements rtSetOpExecuteTimeOutV2: timeout in
// microseconds, 0 = the maximum; *actual is the interval multiple in force.
func SetOpExecuteTimeOutV2(t *core.Thread, timeoutUs uint64, actual *uint64) error {
	const fn = "rtSetOpExecuteTimeOutV2"
	if actual == nil {
		return invalid(fn, "actualTimeout must not be NULL")
	}
	iv, err := opTimeoutInterval(fn)
	if err != nil {
		return wrap(fn, err)
	}
	n := uint64(opTimeoutSteps)
	if timeoutUs != 0 {
		n = min(timeoutUs/iv+min(timeoutUs%iv, 1), opTimeoutSteps)
	}
	act := n * iv
	sec := (act + 999_999) / 1_000_000
	if err := acl.SetOpExecuteTimeOut(t, uint32(sec)); err != nil { // caps at the SoC's maximum
		return wrap(fn, err)
	}
	*actual = act
	return nil
}

// GetOpExecuteTimeoutV2 implements rtGetOpExecuteTimeoutV2: the timeout in
// force in milliseconds (the SoC's default until one is set), as
// aclrtGetOpExecuteTimeout.
func GetOpExecuteTimeoutV2(t *core.Thread, ms *uint32) error {
	const fn = "rtGetOpExecuteTimeoutV2"
	if ms == nil {
		return invalid(fn, "timeout must not be NULL")
	}
	return wrap(fn, acl.GetOpExecuteTimeout(t, ms))
}
