package acl

import "github.com/npuemu/npuemu/abi"

// CreateContext implements aclrtCreateContext: the new context becomes the
// calling thread's current context.
func CreateContext(t *Thread, out *Handle, id int32) error { return createContext(t, out, id, true) }

// RuntimeCreateContext is rtCtxCreateEx's context creation: without the
// ACL's aclInit requirement (the runtime boots on its first call).
func RuntimeCreateContext(t *Thread, out *Handle, id int32) error {
	return createContext(t, out, id, false)
}

func createContext(t *Thread, out *Handle, id int32, needInit bool) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context must not be NULL")
	}
	defer flushStreamStates() // after the unlock below
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if needInit && rt.initRefs == 0 {
		return errUninitialized("aclrtCreateContext")
	}
	d, err := deviceLocked("aclrtCreateContext", id)
	if err != nil {
		return err
	}
	c, err := newContextLocked("aclrtCreateContext", d, false)
	if err != nil {
		return err
	}
	t.Ctx = c
	*out = c.h
	return nil
}

// DestroyContext implements aclrtDestroyContext (explicit contexts only).
func DestroyContext(t *Thread, h Handle) error {
	if c, err := contexts.get(h); err == nil && !c.primary {
		fireStreamsDestroyPre(func() []*Stream { return contextStreamsLocked(c) })
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	c, err := resolveContext("aclrtDestroyContext", h)
	if err != nil {
		return err
	}
	if c.primary {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
			"aclrtDestroyContext: %#x is the default context of device %d; release it with aclrtResetDevice", uintptr(h), c.dev.id)
	}
	c.destroyLocked(true)
	if t.Ctx == c {
		t.Ctx = nil
	}
	return nil
}

// SetCurrentContext implements aclrtSetCurrentContext; it also switches
// the thread's current device.
func SetCurrentContext(t *Thread, h Handle) error {
	c, err := resolveContext("aclrtSetCurrentContext", h)
	if err != nil {
		return err
	}
	t.Ctx = c
	return nil
}

// GetCurrentContext implements aclrtGetCurrentContext.
func GetCurrentContext(t *Thread, out *Handle) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context must not be NULL")
	}
	c, err := current(t, "aclrtGetCurrentContext")
	if err != nil {
		return err
	}
	*out = c.h
	return nil
}

// CtxGetCurrentDefaultStream implements aclrtCtxGetCurrentDefaultStream:
// the default stream's handle (usable wherever NULL is).
func CtxGetCurrentDefaultStream(t *Thread, out *Handle) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtCtxGetCurrentDefaultStream: stream must not be NULL")
	}
	c, err := current(t, "aclrtCtxGetCurrentDefaultStream")
	if err != nil {
		return err
	}
	*out = c.defStream.h
	return nil
}

// GetPrimaryCtxState implements aclrtGetPrimaryCtxState.
func GetPrimaryCtxState(t *Thread, id int32, flags *uint32, active *int32) error {
	if active == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetPrimaryCtxState: active must not be NULL")
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	d, err := deviceLocked("aclrtGetPrimaryCtxState", id)
	if err != nil {
		return err
	}
	if flags != nil {
		*flags = 0
	}
	*active = 0
	if d.primary != nil {
		*active = 1
	}
	return nil
}

func checkSysOpt(fn string, opt int32) error {
	if opt < 0 || opt >= sysParamOptCount {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclSysParamOpt %d", fn, opt)
	}
	return nil
}

// CtxSetSysParamOpt implements aclrtCtxSetSysParamOpt.
func CtxSetSysParamOpt(t *Thread, opt int32, value int64) error {
	if err := checkSysOpt("aclrtCtxSetSysParamOpt", opt); err != nil {
		return err
	}
	c, err := current(t, "aclrtCtxSetSysParamOpt")
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sysOpts == nil {
		c.sysOpts = map[int32]int64{}
	}
	c.sysOpts[opt] = value
	return nil
}

// CtxGetSysParamOpt implements aclrtCtxGetSysParamOpt: Get before Set fails.
func CtxGetSysParamOpt(t *Thread, opt int32, value *int64) error {
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtCtxGetSysParamOpt: value must not be NULL")
	}
	if err := checkSysOpt("aclrtCtxGetSysParamOpt", opt); err != nil {
		return err
	}
	c, err := current(t, "aclrtCtxGetSysParamOpt")
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.sysOpts[opt]
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, "aclrtCtxGetSysParamOpt: option %d was never set on this context", opt)
	}
	*value = v
	return nil
}

// SetSysParamOpt implements the process-wide aclrtSetSysParamOpt.
func SetSysParamOpt(t *Thread, opt int32, value int64) error {
	if err := checkSysOpt("aclrtSetSysParamOpt", opt); err != nil {
		return err
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.sysOpts == nil {
		rt.sysOpts = map[int32]int64{}
	}
	rt.sysOpts[opt] = value
	return nil
}

// GetSysParamOpt implements aclrtGetSysParamOpt: an unset option reads 0.
func GetSysParamOpt(t *Thread, opt int32, value *int64) error {
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetSysParamOpt: value must not be NULL")
	}
	if err := checkSysOpt("aclrtGetSysParamOpt", opt); err != nil {
		return err
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	*value = rt.sysOpts[opt]
	return nil
}
