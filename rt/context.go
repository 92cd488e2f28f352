package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
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

// CtxGetCurrentDefaultStream implements rtsCtxGetCurrentDefaultStream: the
// current context's default stream (a handle usable wherever NULL is).
func CtxGetCurrentDefaultStream(t *core.Thread, out *core.Handle) error {
	if out == nil {
		return invalid("rtsCtxGetCurrentDefaultStream", "stm must not be NULL")
	}
	return wrap("rtsCtxGetCurrentDefaultStream", acl.CtxGetCurrentDefaultStream(t, out))
}

// GetPrimaryCtxState implements rtsGetPrimaryCtxState: active is 1 while
// the device's primary context exists; flags (may be NULL) is 0, the one
// context mode npuemu has.
func GetPrimaryCtxState(t *core.Thread, dev int32, flags *uint32, active *int32) error {
	if active == nil {
		return invalid("rtsGetPrimaryCtxState", "active must not be NULL")
	}
	return wrap("rtsGetPrimaryCtxState", acl.GetPrimaryCtxState(t, dev, flags, active))
}

// checkSysParamOpt refuses an rtSysParamOpt outside SYS_OPT_DETERMINISTIC
// .. SYS_OPT_ENABLE_KERNEL_EARLY_START (numbered as aclSysParamOpt).
func checkSysParamOpt(fn string, opt int32) error {
	if opt < abi.SYS_OPT_DETERMINISTIC || opt >= abi.SYS_OPT_RESERVED {
		return invalid(fn, "configOpt %d: not an rtSysParamOpt (0..%d)", opt, abi.SYS_OPT_RESERVED-1)
	}
	return nil
}

// CtxSetSysParamOpt implements rtCtxSetSysParamOpt: the option's value in
// the current context.
func CtxSetSysParamOpt(t *core.Thread, opt int32, value int64) error {
	const fn = "rtCtxSetSysParamOpt"
	if err := checkSysParamOpt(fn, opt); err != nil {
		return err
	}
	return wrap(fn, acl.CtxSetSysParamOpt(t, opt, value))
}

// CtxGetSysParamOpt implements rtCtxGetSysParamOpt: an option never set on
// the current context is ACL_ERROR_RT_SYSPARAMOPT_NOT_SET.
func CtxGetSysParamOpt(t *core.Thread, opt int32, value *int64) error {
	const fn = "rtCtxGetSysParamOpt"
	if value == nil {
		return invalid(fn, "configVal must not be NULL")
	}
	if err := checkSysParamOpt(fn, opt); err != nil {
		return err
	}
	return wrap(fn, acl.CtxGetSysParamOpt(t, opt, value))
}

// SetSysParamOpt implements rtSetSysParamOpt: the process-wide value.
func SetSysParamOpt(t *core.Thread, opt int32, value int64) error {
	const fn = "rtSetSysParamOpt"
	if err := checkSysParamOpt(fn, opt); err != nil {
		return err
	}
	return wrap(fn, acl.SetSysParamOpt(t, opt, value))
}

// GetSysParamOpt implements rtGetSysParamOpt: the process-wide value, 0
// while never set.
func GetSysParamOpt(t *core.Thread, opt int32, value *int64) error {
	const fn = "rtGetSysParamOpt"
	if value == nil {
		return invalid(fn, "configVal must not be NULL")
	}
	if err := checkSysParamOpt(fn, opt); err != nil {
		return err
	}
	return wrap(fn, acl.GetSysParamOpt(t, opt, value))
}
