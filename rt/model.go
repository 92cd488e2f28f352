package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// ModelExecute implements rtModelExecute: run the model run instance on the
// stream (flag must be 0, the only value the runtime defines).
func ModelExecute(t *core.Thread, m, s core.Handle, flag uint32) error {
	const fn = "rtModelExecute"
	if m == 0 {
		return invalid(fn, "mdl must not be NULL")
	}
	if flag != 0 {
		return invalid(fn, "flag %#x: only 0 is defined", flag)
	}
	return wrap(fn, core.ExecuteAsync(t, m, s))
}

// The model family (round 8): the rts* model calls aclmdlRI* makes
// (acl-to-rt.tsv); rtModel_t is aclmdlRI and the work is still in the acl
// entry points (acl/mdlri.go, acl/mdlri_info.go). Bind flags
// RT_MODEL_STREAM_FLAG_* are checked by name against the ACL ones.

// ModelCreate implements rtsModelCreate: a model to build from bound
// streams (flag must be 0).
func ModelCreate(t *core.Thread, out *core.Handle, flag uint32) error {
	const fn = "rtsModelCreate"
	if out == nil {
		return invalid(fn, "mdl must not be NULL")
	}
	if flag != 0 {
		return invalid(fn, "flag %#x: must be 0", flag)
	}
	return wrap(fn, acl.BuildBegin(t, out, 0))
}

// ModelBindStream implements rtsModelBindStream (the stream must have
// been created persistent).
func ModelBindStream(t *core.Thread, m, s core.Handle, flag uint32) error {
	const fn = "rtsModelBindStream"
	if m == 0 || s == 0 {
		return invalid(fn, "mdl and stm must not be NULL")
	}
	var f uint32
	switch flag {
	case abi.RT_MODEL_STREAM_FLAG_HEAD:
		f = abi.ACL_MODEL_STREAM_FLAG_HEAD
	case abi.RT_MODEL_STREAM_FLAG_DEFAULT:
		f = abi.ACL_MODEL_STREAM_FLAG_DEFAULT
	default:
		return invalid(fn, "flag %#x: want RT_MODEL_STREAM_FLAG_HEAD or _DEFAULT", flag)
	}
	return wrap(fn, acl.BindStream(t, m, s, f))
}

// EndGraph implements rtsEndGraph: the end of stm's tasks in the model.
func EndGraph(t *core.Thread, m, s core.Handle) error {
	const fn = "rtsEndGraph"
	if m == 0 || s == 0 {
		return invalid(fn, "mdl and stm must not be NULL")
	}
	return wrap(fn, acl.EndTask(t, m, s))
}

// ModelLoadComplete implements rtsModelLoadComplete: the build ends and
// the model can run (reserve must be NULL).
func ModelLoadComplete(t *core.Thread, m core.Handle, reserve uintptr) error {
	const fn = "rtsModelLoadComplete"
	if m == 0 {
		return invalid(fn, "mdl must not be NULL")
	}
	if reserve != 0 {
		return invalid(fn, "reserve must be NULL")
	}
	return wrap(fn, acl.BuildEnd(t, m, 0))
}

// ModelUnbindStream implements rtsModelUnbindStream.
func ModelUnbindStream(t *core.Thread, m, s core.Handle) error {
	const fn = "rtsModelUnbindStream"
	if m == 0 || s == 0 {
		return invalid(fn, "mdl and stm must not be NULL")
	}
	return wrap(fn, acl.UnbindStream(t, m, s))
}

// ModelExecuteSync implements rtsModelExecute: run the model on its own
// stream and wait (timeout in ms, -1 = forever).
func ModelExecuteSync(t *core.Thread, m core.Handle, timeout int32) error {
	const fn = "rtsModelExecute"
	if m == 0 {
		return invalid(fn, "mdl must not be NULL")
	}
	return wrap(fn, acl.Execute(t, m, timeout))
}

// ModelAbort implements rtsModelAbort.
func ModelAbort(t *core.Thread, m core.Handle) error {
	const fn = "rtsModelAbort"
	if m == 0 {
		return invalid(fn, "mdl must not be NULL")
	}
	return wrap(fn, acl.Abort(t, m))
}

// ModelDestroy implements rtModelDestroy.
func ModelDestroy(t *core.Thread, m core.Handle) error {
	const fn = "rtModelDestroy"
	if m == 0 {
		return invalid(fn, "mdl must not be NULL")
	}
	return wrap(fn, acl.Destroy(t, m))
}

// ModelSetName implements rtsModelSetName (longer names are truncated as
// aclmdlRISetName truncates them).
func ModelSetName(t *core.Thread, m core.Handle, name string, isNull bool) error {
	const fn = "rtsModelSetName"
	if m == 0 || isNull {
		return invalid(fn, "mdl and mdlName must not be NULL")
	}
	return wrap(fn, acl.SetName(t, m, name, false))
}

// ModelGetName implements rtsModelGetName: the name with its NUL,
// truncated to fit buf.
func ModelGetName(t *core.Thread, m core.Handle, buf []byte) error {
	const fn = "rtsModelGetName"
	if m == 0 || len(buf) == 0 {
		return invalid(fn, "mdl and mdlName must not be NULL and maxLen must be > 0")
	}
	return wrap(fn, acl.GetName(t, m, buf))
}

// ModelGetID implements rtModelGetId.
func ModelGetID(t *core.Thread, m core.Handle, id *uint32) error {
	const fn = "rtModelGetId"
	if m == 0 || id == nil {
		return invalid(fn, "mdl and modelId must not be NULL")
	}
	return wrap(fn, acl.GetID(t, m, id))
}
