package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Stream creation with a configuration, and the persistent-task clean
// (round 9).
//
// rtsStreamCreate is the call aclrtCreateStreamWithConfig makes
// (acl-to-rt.tsv): the ACL flags become RT_STREAM_* bits
// (streamFlagPairs) and travel with the priority as two attributes, so
// rtsStreamCreate takes RT_STREAM_* bits. rtStreamCreateWithConfig is the
// call of aclrtCreateStreamV2 (the vendor's lite ACL library), which hands
// the fields of its configuration on unchanged: its flag is numbered as
// the ACL_STREAM_* flags, as aclrtCreateStreamV2's ACL_RT_STREAM_FLAG is.

// StreamCreateAttr is one rtStreamCreateAttr_t: the attribute id and the
// 32-bit value (flags or priority) at the start of its union.
type StreamCreateAttr struct {
	ID    int32
	Value uint32
}

// streamFlagsToACL converts RT_STREAM_* bits to the ACL stream flags. Bits
// without an ACL counterpart (RT_STREAM_FORCE_COPY, _HEAD, _OVERFLOW, ...:
// the graph engine's and the runtime's own streams) are not modelled.
func streamFlagsToACL(fn string, rt uint32) (uint32, error) {
	var f, known uint32
	for _, p := range streamFlagPairs {
		known |= p.rt
		if rt&p.rt != 0 {
			f |= p.acl
		}
	}
	if extra := rt &^ known; extra != 0 {
		return 0, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream flag bits %#x are not modelled (npuemu knows RT_STREAM_FAST_LAUNCH, _FAST_SYNC, _PERSISTENT, _HUGE, _CPU_SCHEDULE and _CP_PROCESS_USE)", fn, extra)
	}
	return f, nil
}

// StreamsCreate implements rtsStreamCreate: a stream of the current
// context with the attributes' RT_STREAM_CREATE_ATTR_FLAGS (RT_STREAM_*
// bits) and RT_STREAM_CREATE_ATTR_PRIORITY (clamped to the device's range,
// as rtStreamCreate does); an attribute given twice takes its last value.
// A NULL config, or one without attributes, gives a default stream.
func StreamsCreate(t *core.Thread, out *core.Handle, attrs []StreamCreateAttr, badAttrs bool) error {
	const fn = "rtsStreamCreate"
	if out == nil {
		return invalid(fn, "stream must not be NULL")
	}
	if badAttrs {
		return invalid(fn, "config->attrs must not be NULL when config->numAttrs > 0")
	}
	var flags, priority uint32
	for i, a := range attrs {
		switch a.ID {
		case abi.RT_STREAM_CREATE_ATTR_FLAGS:
			flags = a.Value
		case abi.RT_STREAM_CREATE_ATTR_PRIORITY:
			priority = a.Value
		default:
			return invalid(fn, "attrs[%d].id %d: want RT_STREAM_CREATE_ATTR_FLAGS or _PRIORITY", i, a.ID)
		}
	}
	f, err := streamFlagsToACL(fn, flags)
	if err != nil {
		return err
	}
	return wrap(fn, core.CreateStreamWithConfig(t, out, priority, f))
}

// StreamCreateWithConfig implements rtStreamCreateWithConfig: a stream
// with the handle's priority (clamped) and flag (ACL_STREAM_* numbering,
// see above), as aclrtCreateStreamV2 creates it; the work area
// (workPtr/workSize) is not needed by the emulated queues.
func StreamCreateWithConfig(t *core.Thread, out *core.Handle, cfg *StreamConfigHandle) error {
	const fn = "rtStreamCreateWithConfig"
	if out == nil || cfg == nil {
		return invalid(fn, "stm and handle must not be NULL")
	}
	if cfg.Flag > 0xFFFFFFFF {
		return invalid(fn, "handle->flag %#x does not fit the 32-bit stream flags", cfg.Flag)
	}
	return named(core.CreateStream(t, fn, out, core.ClampPriority(cfg.Priority), uint32(cfg.Flag)))
}

// PersistentTaskClean implements rtsPersistentTaskClean, as
// aclrtPersistentTaskClean: a persistent stream not bound to a model holds
// no task (nothing to clean); the tasks of a bound one belong to its model
// and are not removed (ACL_ERROR_RT_FEATURE_NOT_SUPPORT).
func PersistentTaskClean(t *core.Thread, s core.Handle) error {
	const fn = "rtsPersistentTaskClean"
	if err := socGate(fn, "aclrtPersistentTaskClean"); err != nil {
		return err
	}
	if s == 0 {
		return invalid(fn, "stm must not be NULL (the default stream is not persistent)")
	}
	return wrap(fn, acl.PersistentTaskClean(t, s))
}
