package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Stream control inside model run instances (semantics.md §4):
// aclrtActiveStream and aclrtSwitchStream act only on streams bound to a
// model run instance; aclrtPersistentTaskClean empties a persistent
// stream. The tasks recorded on a bound persistent stream belong to the
// model run instance (acl/mdlri.go); the control flow is mdlri_flow.go.

// ActiveStream implements aclrtActiveStream.
func ActiveStream(t *core.Thread, activeHandle, sh core.Handle) error {
	const fn = "aclrtActiveStream"
	if activeHandle == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: activeStream must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	a, err := core.ResolveStream(t, fn, activeHandle)
	if err != nil {
		return err
	}
	if a == s {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: a stream cannot activate itself", fn)
	}
	return recordControl(fn, s, &core.CtlOp{Kind: core.CtlActive, Target: a})
}

// SwitchStream implements aclrtSwitchStream: compares *left with *right
// and activates trueStream when cond holds. falseStream must be NULL.
func SwitchStream(t *core.Thread, left uintptr, cond int32, right uintptr, dataType int32, trueHandle, falseHandle, sh core.Handle) error {
	const fn = "aclrtSwitchStream"
	if left == 0 || right == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: leftValue and rightValue must not be NULL", fn)
	}
	if cond < abi.ACL_RT_EQUAL || cond > abi.ACL_RT_LESS_OR_EQUAL {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: cond %d is not an aclrtCondition (0..5)", fn, cond)
	}
	if dataType != abi.ACL_RT_SWITCH_INT32 && dataType != abi.ACL_RT_SWITCH_INT64 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dataType %d: want ACL_RT_SWITCH_INT32 (0) or ACL_RT_SWITCH_INT64 (1)", fn, dataType)
	}
	if trueHandle == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: trueStream must not be NULL", fn)
	}
	if falseHandle != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: falseStream is reserved and must be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	ts, err := core.ResolveStream(t, fn, trueHandle)
	if err != nil {
		return err
	}
	size := uint64(4)
	if dataType == abi.ACL_RT_SWITCH_INT64 {
		size = 8
	}
	if err := deviceOperand(fn, "leftValue", s, left, size); err != nil {
		return err
	}
	if err := deviceOperand(fn, "rightValue", s, right, size); err != nil {
		return err
	}
	if ts == s {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: a stream cannot activate itself", fn)
	}
	return recordControl(fn, s, &core.CtlOp{Kind: core.CtlSwitchStream, Target: ts, Left: left, Right: right, Cond: cond, Dt: dataType})
}

// PersistentTaskClean implements aclrtPersistentTaskClean (950/A3/A2 per
// the documentation) for a persistent stream. A persistent stream that is
// not bound to a model run instance holds no task (its submissions are
// refused), so there is nothing to clean; the tasks of a bound stream
// belong to its model run instance, which npuemu does not let this call
// edit.
func PersistentTaskClean(t *core.Thread, sh core.Handle) error {
	const fn = "aclrtPersistentTaskClean"
	if sh == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL (the default stream is not persistent)", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if s.Flags&abi.ACL_STREAM_PERSISTENT == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d was not created with ACL_STREAM_PERSISTENT", fn, s.ID)
	}
	if r := core.RecorderOf(s); r != nil && r.Kind == core.RecBuild {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream %d is bound to a model run instance; npuemu cannot remove the tasks it recorded (unbind and destroy the instance instead)", fn, s.ID)
	}
	return nil
}
