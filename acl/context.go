package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// CreateContext implements aclrtCreateContext: the new context becomes the
// calling thread's current context.
func CreateContext(t *core.Thread, out *core.Handle, id int32) error {
	return core.CreateContext(t, out, id, true)
}

// CtxGetCurrentDefaultStream implements aclrtCtxGetCurrentDefaultStream:
// the default stream's handle (usable wherever NULL is).
func CtxGetCurrentDefaultStream(t *core.Thread, out *core.Handle) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtCtxGetCurrentDefaultStream: stream must not be NULL")
	}
	c, err := core.Current(t, "aclrtCtxGetCurrentDefaultStream")
	if err != nil {
		return err
	}
	*out = c.DefStream.H
	return nil
}

// GetPrimaryCtxState implements aclrtGetPrimaryCtxState.
func GetPrimaryCtxState(t *core.Thread, id int32, flags *uint32, active *int32) error {
	if active == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetPrimaryCtxState: active must not be NULL")
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	d, err := core.DeviceLocked("aclrtGetPrimaryCtxState", id)
	if err != nil {
		return err
	}
	if flags != nil {
		*flags = 0
	}
	*active = 0
	if d.Primary != nil {
		*active = 1
	}
	return nil
}

func checkSysOpt(fn string, opt int32) error {
	if opt < 0 || opt >= core.SysParamOptCount {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclSysParamOpt %d", fn, opt)
	}
	return nil
}

// CtxSetSysParamOpt implements aclrtCtxSetSysParamOpt.
func CtxSetSysParamOpt(t *core.Thread, opt int32, value int64) error {
	if err := checkSysOpt("aclrtCtxSetSysParamOpt", opt); err != nil {
		return err
	}
	c, err := core.Current(t, "aclrtCtxSetSysParamOpt")
	if err != nil {
		return err
	}
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if c.SysOpts == nil {
		c.SysOpts = map[int32]int64{}
	}
	c.SysOpts[opt] = value
	return nil
}

// CtxGetSysParamOpt implements aclrtCtxGetSysParamOpt: Get before Set fails.
func CtxGetSysParamOpt(t *core.Thread, opt int32, value *int64) error {
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtCtxGetSysParamOpt: value must not be NULL")
	}
	if err := checkSysOpt("aclrtCtxGetSysParamOpt", opt); err != nil {
		return err
	}
	c, err := core.Current(t, "aclrtCtxGetSysParamOpt")
	if err != nil {
		return err
	}
	c.Mu.Lock()
	defer c.Mu.Unlock()
	v, ok := c.SysOpts[opt]
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, "aclrtCtxGetSysParamOpt: option %d was never set on this context", opt)
	}
	*value = v
	return nil
}

// SetSysParamOpt implements the process-wide aclrtSetSysParamOpt.
func SetSysParamOpt(t *core.Thread, opt int32, value int64) error {
	if err := checkSysOpt("aclrtSetSysParamOpt", opt); err != nil {
		return err
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	if core.Runtime.SysOpts == nil {
		core.Runtime.SysOpts = map[int32]int64{}
	}
	core.Runtime.SysOpts[opt] = value
	return nil
}

// GetSysParamOpt implements aclrtGetSysParamOpt: an unset option reads 0.
func GetSysParamOpt(t *core.Thread, opt int32, value *int64) error {
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetSysParamOpt: value must not be NULL")
	}
	if err := checkSysOpt("aclrtGetSysParamOpt", opt); err != nil {
		return err
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	*value = core.Runtime.SysOpts[opt]
	return nil
}

// DestroyContext implements aclrtDestroyContext (explicit contexts only);
// the runtime does the work (core.DestroyContext, which the rt* API calls
// too).
func DestroyContext(t *core.Thread, h core.Handle) error {
	return core.DestroyContext(t, h)
}

// SetCurrentContext implements aclrtSetCurrentContext; the runtime does the
// work (core.SetCurrentContext, which the rt* API calls too).
func SetCurrentContext(t *core.Thread, h core.Handle) error {
	return core.SetCurrentContext(t, h)
}

// GetCurrentContext implements aclrtGetCurrentContext; the runtime does the
// work (core.GetCurrentContext, which the rt* API calls too).
func GetCurrentContext(t *core.Thread, out *core.Handle) error { return core.GetCurrentContext(t, out) }
