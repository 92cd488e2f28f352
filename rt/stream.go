package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// StreamCreate implements rtStreamCreate: a stream of the current context
// with the given priority (clamped to the device's range, as the runtime
// does).
func StreamCreate(t *core.Thread, out *core.Handle, priority int32) error {
	const fn = "rtStreamCreate"
	if out == nil {
		return invalid(fn, "stm must not be NULL")
	}
	if priority < 0 {
		return invalid(fn, "priority %d is negative", priority)
	}
	return wrap(fn, core.CreateStreamWithConfig(t, out, uint32(priority), 0))
}

// StreamDestroy implements rtStreamDestroy.
func StreamDestroy(t *core.Thread, s core.Handle) error {
	if s == 0 {
		return invalid("rtStreamDestroy", "stm must not be NULL")
	}
	return wrap("rtStreamDestroy", core.DestroyStream(t, s, false))
}

// StreamSynchronize implements rtStreamSynchronize (NULL: the default
// stream).
func StreamSynchronize(t *core.Thread, s core.Handle) error {
	return wrap("rtStreamSynchronize", core.SynchronizeStream(t, s, -1))
}

// StreamWaitEvent implements rtStreamWaitEvent.
func StreamWaitEvent(t *core.Thread, s, e core.Handle) error {
	if e == 0 {
		return invalid("rtStreamWaitEvent", "evt must not be NULL")
	}
	return wrap("rtStreamWaitEvent", core.StreamWaitEvent(t, s, e))
}

// StreamGetCaptureInfo implements rtStreamGetCaptureInfo: the capture
// status of the stream (rtStreamCaptureStatus, numbered as
// aclmdlRICaptureStatus) and the model it is captured into.
func StreamGetCaptureInfo(t *core.Thread, s core.Handle, status *int32, model *core.Handle) error {
	if status == nil {
		return invalid("rtStreamGetCaptureInfo", "status must not be NULL")
	}
	return wrap("rtStreamGetCaptureInfo", core.CaptureGetInfo(t, s, status, model))
}

// StreamQuery implements rtStreamQuery: success when every task of the
// stream completed, ACL_ERROR_RT_STREAM_NOT_COMPLETE while one has not.
func StreamQuery(t *core.Thread, s core.Handle) error {
	const fn = "rtStreamQuery"
	var st int32
	if err := core.StreamQuery(t, s, &st); err != nil {
		return wrap(fn, err)
	}
	if st != abi.ACL_STREAM_STATUS_COMPLETE {
		return abi.Errorf(abi.ACL_ERROR_RT_STREAM_NOT_COMPLETE, "%s: stream %#x has tasks not complete", fn, uintptr(s))
	}
	return nil
}

// StreamSynchronizeWithTimeout implements rtStreamSynchronizeWithTimeout
// (milliseconds, -1 = forever).
func StreamSynchronizeWithTimeout(t *core.Thread, s core.Handle, timeoutMs int32) error {
	if timeoutMs < -1 {
		return invalid("rtStreamSynchronizeWithTimeout", "timeout %d: -1 (forever) or more", timeoutMs)
	}
	return wrap("rtStreamSynchronizeWithTimeout", core.SynchronizeStream(t, s, timeoutMs))
}
