package rt

import (
	"io"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The capture family (round 8): stream capture into a model run instance
// (rtModel_t == aclmdlRI), task groups and their re-issue, and the
// captured model's introspection. The work is still in the acl entry
// points (acl/capture.go, acl/mdlri_info.go); these functions check the
// runtime's arguments, convert rt enums and return the runtime's codes.

// captureModeToACL converts an rtStreamCaptureMode to aclmdlRICaptureMode
// (acl-to-rt.tsv says the numbering is the same; converted by name so a
// difference would show here).
func captureModeToACL(fn string, m int32) (int32, error) {
	switch m {
	case abi.RT_STREAM_CAPTURE_MODE_GLOBAL:
		return abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, nil
	case abi.RT_STREAM_CAPTURE_MODE_THREAD_LOCAL:
		return abi.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL, nil
	case abi.RT_STREAM_CAPTURE_MODE_RELAXED:
		return abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED, nil
	}
	return 0, invalid(fn, "mode %d: want RT_STREAM_CAPTURE_MODE_GLOBAL, _THREAD_LOCAL or _RELAXED", m)
}

// captureModeFromACL is captureModeToACL's inverse.
func captureModeFromACL(m int32) int32 {
	switch m {
	case abi.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL:
		return abi.RT_STREAM_CAPTURE_MODE_THREAD_LOCAL
	case abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED:
		return abi.RT_STREAM_CAPTURE_MODE_RELAXED
	}
	return abi.RT_STREAM_CAPTURE_MODE_GLOBAL
}

// StreamBeginCapture implements rtStreamBeginCapture: stm starts recording
// its tasks into a new captured model.
func StreamBeginCapture(t *core.Thread, s core.Handle, mode int32) error {
	const fn = "rtStreamBeginCapture"
	m, err := captureModeToACL(fn, mode)
	if err != nil {
		return err
	}
	return wrap(fn, acl.CaptureBegin(t, s, m))
}

// StreamEndCapture implements rtStreamEndCapture: the capture ends and
// *mdl receives the captured model (written only on success).
func StreamEndCapture(t *core.Thread, s core.Handle, mdl *core.Handle) error {
	const fn = "rtStreamEndCapture"
	if mdl == nil {
		return invalid(fn, "captureMdl must not be NULL")
	}
	return wrap(fn, acl.CaptureEnd(t, s, mdl))
}

// ThreadExchangeCaptureMode implements rtThreadExchangeCaptureMode: the
// calling thread's mode becomes *mode, *mode receives the old one.
func ThreadExchangeCaptureMode(t *core.Thread, mode *int32) error {
	const fn = "rtThreadExchangeCaptureMode"
	if mode == nil {
		return invalid(fn, "mode must not be NULL")
	}
	m, err := captureModeToACL(fn, *mode)
	if err != nil {
		return err
	}
	if err := acl.CaptureThreadExchangeMode(t, &m); err != nil {
		return wrap(fn, err)
	}
	*mode = captureModeFromACL(m)
	return nil
}

// StreamBeginTaskGrp implements rtsStreamBeginTaskGrp: the capturing
// stream's next tasks form a task group.
func StreamBeginTaskGrp(t *core.Thread, s core.Handle) error {
	return wrap("rtsStreamBeginTaskGrp", acl.CaptureTaskGrpBegin(t, s))
}

// StreamEndTaskGrp implements rtsStreamEndTaskGrp: the group ends and
// *grp receives its handle.
func StreamEndTaskGrp(t *core.Thread, s core.Handle, grp *core.Handle) error {
	const fn = "rtsStreamEndTaskGrp"
	if grp == nil {
		return invalid(fn, "handle must not be NULL")
	}
	return wrap(fn, acl.CaptureTaskGrpEnd(t, s, grp))
}

// StreamBeginTaskUpdate implements rtsStreamBeginTaskUpdate: the stream's
// next tasks replace those of the task group grp.
func StreamBeginTaskUpdate(t *core.Thread, s, grp core.Handle) error {
	const fn = "rtsStreamBeginTaskUpdate"
	if grp == 0 {
		return invalid(fn, "handle must not be NULL")
	}
	return wrap(fn, acl.CaptureTaskUpdateBegin(t, s, grp))
}

// StreamEndTaskUpdate implements rtsStreamEndTaskUpdate.
func StreamEndTaskUpdate(t *core.Thread, s core.Handle) error {
	return wrap("rtsStreamEndTaskUpdate", acl.CaptureTaskUpdateEnd(t, s))
}

// ModelGetStreams implements rtModelGetStreams: with streams NULL only
// *num is set; otherwise streams holds *num entries and must have room
// for every stream of the model.
func ModelGetStreams(t *core.Thread, m core.Handle, streams []core.Handle, num *uint32) error {
	const fn = "rtModelGetStreams"
	if m == 0 || num == nil {
		return invalid(fn, "mdl and numStreams must not be NULL")
	}
	return wrap(fn, acl.GetStreams(t, m, streams, num))
}

// ModelDebugJsonPrint implements rtModelDebugJsonPrint; flags reach the
// runtime unchanged from aclmdlRIDebugJsonPrint (acl-to-rt.tsv), so they
// are ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY (0) or _VERBOSE (1).
func ModelDebugJsonPrint(t *core.Thread, m core.Handle, path string, isNull bool, flags uint32) error {
	const fn = "rtModelDebugJsonPrint"
	if m == 0 || isNull {
		return invalid(fn, "mdl and path must not be NULL")
	}
	return wrap(fn, acl.DebugJSONPrint(t, m, path, flags))
}

// ModelUpdate implements rtModelUpdate: task groups re-issued since the
// last update take effect in the model.
func ModelUpdate(t *core.Thread, m core.Handle) error {
	const fn = "rtModelUpdate"
	if m == 0 {
		return invalid(fn, "mdl must not be NULL")
	}
	return wrap(fn, acl.Update(t, m))
}

// ModelDebugDotPrint implements rtModelDebugDotPrint: the text summary
// aclmdlRIDebugPrint writes, on w (stderr from libfake).
func ModelDebugDotPrint(t *core.Thread, m core.Handle, w io.Writer) error {
	const fn = "rtModelDebugDotPrint"
	if m == 0 {
		return invalid(fn, "mdl must not be NULL")
	}
	return wrap(fn, acl.DebugPrint(t, m, w))
}
