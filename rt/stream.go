package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
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

// streamFlagPairs pairs the ACL stream flags with the runtime's RT_STREAM_*
// bits, which number them differently (rt-constants.tsv); the pairing is
// the one aclrtCreateStreamWithConfig makes before rtsStreamCreate and
// aclrtStreamGetFlags undoes after rtStreamGetFlags (acl-to-rt.tsv:
// ACL_STREAM_DEVICE_USE_ONLY is RT_STREAM_CP_PROCESS_USE).
var streamFlagPairs = [...]struct{ acl, rt uint32 }{
	{abi.ACL_STREAM_FAST_LAUNCH, abi.RT_STREAM_FAST_LAUNCH},
	{abi.ACL_STREAM_FAST_SYNC, abi.RT_STREAM_FAST_SYNC},
	{abi.ACL_STREAM_PERSISTENT, abi.RT_STREAM_PERSISTENT},
	{abi.ACL_STREAM_HUGE, abi.RT_STREAM_HUGE},
	{abi.ACL_STREAM_CPU_SCHEDULE, abi.RT_STREAM_CPU_SCHEDULE},
	{abi.ACL_STREAM_DEVICE_USE_ONLY, abi.RT_STREAM_CP_PROCESS_USE},
}

// streamFlags converts the ACL stream flags a stream was created with to
// the runtime's RT_STREAM_* bits.
func streamFlags(acl uint32) uint32 {
	var f uint32
	for _, p := range streamFlagPairs {
		if acl&p.acl != 0 {
			f |= p.rt
		}
	}
	return f
}

// StreamGetPriority implements rtStreamGetPriority (NULL: the default
// stream).
func StreamGetPriority(t *core.Thread, s core.Handle, priority *uint32) error {
	if priority == nil {
		return invalid("rtStreamGetPriority", "priority must not be NULL")
	}
	return wrap("rtStreamGetPriority", acl.StreamGetPriority(t, s, priority))
}

// StreamGetFlags implements rtStreamGetFlags: the RT_STREAM_* bits of the
// flags the stream was created with (streamFlagPairs).
func StreamGetFlags(t *core.Thread, s core.Handle, flags *uint32) error {
	const fn = "rtStreamGetFlags"
	if flags == nil {
		return invalid(fn, "flags must not be NULL")
	}
	var f uint32
	if err := acl.StreamGetFlags(t, s, &f); err != nil {
		return wrap(fn, err)
	}
	*flags = streamFlags(f)
	return nil
}

// StreamGetID implements rtsStreamGetId: the stream's id on its device.
func StreamGetID(t *core.Thread, s core.Handle, id *int32) error {
	if id == nil {
		return invalid("rtsStreamGetId", "streamId must not be NULL")
	}
	return wrap("rtsStreamGetId", acl.StreamGetID(t, s, id))
}

// StreamGetAvailableNum implements rtsStreamGetAvailableNum: the streams
// the current device can still create.
func StreamGetAvailableNum(t *core.Thread, n *uint32) error {
	if n == nil {
		return invalid("rtsStreamGetAvailableNum", "streamCount must not be NULL")
	}
	return wrap("rtsStreamGetAvailableNum", acl.GetStreamAvailableNum(t, n))
}

// DeviceGetStreamPriorityRange implements rtsDeviceGetStreamPriorityRange:
// the emulated SoC's least and greatest stream priority.
func DeviceGetStreamPriorityRange(t *core.Thread, least, greatest *int32) error {
	const fn = "rtsDeviceGetStreamPriorityRange"
	if least == nil || greatest == nil {
		return invalid(fn, "leastPriority and greatestPriority must not be NULL")
	}
	return wrap(fn, acl.DeviceGetStreamPriorityRange(t, least, greatest))
}

// StreamDestroyForce implements rtStreamDestroyForce: destroy without
// waiting for the stream's tasks.
func StreamDestroyForce(t *core.Thread, s core.Handle) error {
	if s == 0 {
		return invalid("rtStreamDestroyForce", "stm must not be NULL")
	}
	return wrap("rtStreamDestroyForce", core.DestroyStream(t, s, true))
}

// StreamSetMode implements rtStreamSetMode: the failure mode
// (RT_STREAM_FAILURE_MODE_*, numbered as aclrtStreamFailureMode), settable
// once per stream.
func StreamSetMode(t *core.Thread, s core.Handle, mode uint64) error {
	const fn = "rtStreamSetMode"
	if mode != abi.RT_STREAM_FAILURE_MODE_CONTINUE_ON_FAILURE && mode != abi.RT_STREAM_FAILURE_MODE_STOP_ON_FAILURE {
		return invalid(fn, "stmMode %d: RT_STREAM_FAILURE_MODE_CONTINUE_ON_FAILURE (0) or _STOP_ON_FAILURE (1)", mode)
	}
	return wrap(fn, acl.SetStreamFailureMode(t, s, mode))
}

// StreamAbort implements rtStreamAbort: queued tasks are discarded and
// threads synchronising the stream get ACL_ERROR_RT_STREAM_ABORT; the
// stream stays usable.
func StreamAbort(t *core.Thread, s core.Handle) error {
	return wrap("rtStreamAbort", acl.StreamAbort(t, s))
}

// StreamStop implements rtsStreamStop: queued tasks are discarded and the
// stream accepts no more (ACL_ERROR_RT_STREAM_ABORT) until destroyed.
func StreamStop(t *core.Thread, s core.Handle) error {
	if s == 0 {
		return invalid("rtsStreamStop", "stm must not be NULL (the default stream cannot be stopped)")
	}
	return wrap("rtsStreamStop", acl.StreamStop(t, s))
}

// StreamSetAttribute implements rtsStreamSetAttribute: rtStreamAttr and
// rtStreamAttrValue_t number and lay out the attributes as aclrtStreamAttr
// and aclrtStreamAttrValue (16 bytes).
func StreamSetAttribute(t *core.Thread, s core.Handle, attr int32, v *StreamAttrValue) error {
	const fn = "rtsStreamSetAttribute"
	if v == nil {
		return invalid(fn, "attrValue must not be NULL")
	}
	if attr < abi.RT_STREAM_ATTR_FAILURE_MODE || attr >= abi.RT_STREAM_ATTR_MAX {
		return invalid(fn, "stmAttrId %d: not an rtStreamAttr", attr)
	}
	return wrap(fn, acl.SetStreamAttribute(t, s, attr, (*acl.StreamAttrValue)(v)))
}

// StreamGetAttribute implements rtsStreamGetAttribute.
func StreamGetAttribute(t *core.Thread, s core.Handle, attr int32, v *StreamAttrValue) error {
	const fn = "rtsStreamGetAttribute"
	if v == nil {
		return invalid(fn, "attrValue must not be NULL")
	}
	if attr < abi.RT_STREAM_ATTR_FAILURE_MODE || attr >= abi.RT_STREAM_ATTR_MAX {
		return invalid(fn, "stmAttrId %d: not an rtStreamAttr", attr)
	}
	return wrap(fn, acl.GetStreamAttribute(t, s, attr, (*acl.StreamAttrValue)(v)))
}

// ActiveStream implements rtsActiveStream: a task of stream (bound to a
// model run instance) that activates activeStream, as aclrtActiveStream.
func ActiveStream(t *core.Thread, active, s core.Handle) error {
	if active == 0 {
		return invalid("rtsActiveStream", "activeStream must not be NULL")
	}
	return wrap("rtsActiveStream", acl.ActiveStream(t, active, s))
}

// SwitchStream implements rtsSwitchStream: a task of stream that compares
// *leftValue with *rightValue (rtSwitchDataType_t wide) and activates
// trueStream when cond holds; rtCondition_t and rtSwitchDataType_t number
// as aclrtCondition and aclrtCompareDataType. falseStream must be NULL.
func SwitchStream(t *core.Thread, left uintptr, cond int32, right uintptr, dataType int32, trueStream, falseStream, s core.Handle) error {
	const fn = "rtsSwitchStream"
	if left == 0 || right == 0 {
		return invalid(fn, "leftValue and rightValue must not be NULL")
	}
	if cond < abi.RT_EQUAL || cond > abi.RT_LESS_OR_EQUAL {
		return invalid(fn, "cond %d: not an rtCondition_t (0..5)", cond)
	}
	if dataType != abi.RT_SWITCH_INT32 && dataType != abi.RT_SWITCH_INT64 {
		return invalid(fn, "dataType %d: RT_SWITCH_INT32 (0) or RT_SWITCH_INT64 (1)", dataType)
	}
	return wrap(fn, acl.SwitchStream(t, left, cond, right, dataType, trueStream, falseStream, s))
}
