package rt

import (
	"github.com/npuemu/npuemu/rt/core"
)

// CtxCreateEx implements rtCtxCreateEx: a context on device devId, made
// current (flags: the runtime's context mode; npuemu has one).
func CtxCreateEx(t *core.Thread, out *core.Handle, flags uint32, dev int32) error {
	const fn = "rtCtxCreateEx"
	if out == nil {
		return invalid(fn, "createCtx must not be NULL")
	}
	if flags != 0 {
		return invalid(fn, "flags %#x: only RT_CTX_NORMAL_MODE (0) is modelled", flags)
	}
	return wrap(fn, core.RuntimeCreateContext(t, out, dev))
}

// CtxDestroyEx implements rtCtxDestroyEx.
func CtxDestroyEx(t *core.Thread, c core.Handle) error {
	if c == 0 {
		return invalid("rtCtxDestroyEx", "destroyCtx must not be NULL")
	}
	return wrap("rtCtxDestroyEx", core.DestroyContext(t, c))
}

// CtxSetCurrent implements rtCtxSetCurrent.
func CtxSetCurrent(t *core.Thread, c core.Handle) error {
	if c == 0 {
		return invalid("rtCtxSetCurrent", "currentCtx must not be NULL")
	}
	return wrap("rtCtxSetCurrent", core.SetCurrentContext(t, c))
}

// CtxGetCurrent implements rtCtxGetCurrent.
func CtxGetCurrent(t *core.Thread, out *core.Handle) error {
	if out == nil {
		return invalid("rtCtxGetCurrent", "currentCtx must not be NULL")
	}
	return wrap("rtCtxGetCurrent", core.GetCurrentContext(t, out))
}
