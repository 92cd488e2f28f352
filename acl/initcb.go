package acl

import (
	"slices"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// aclInitCallbackRegister / aclFinalizeCallbackRegister: application hooks
// around aclInit and aclFinalize. The C function pointer is the key (the
// unregister calls name it), Call invokes it; libfake builds Call.

// checkRegType accepts the aclRegisterCallbackType values.
func checkRegType(fn string, typ int32) error {
	if (typ >= abi.ACL_REG_TYPE_ACL_MODEL && typ <= abi.ACL_REG_TYPE_ACL_RETR) || typ == abi.ACL_REG_TYPE_OTHER {
		return nil
	}
	return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: type %d is not an aclRegisterCallbackType", fn, typ)
}

// InitCallbackRegister implements aclInitCallbackRegister: before aclInit
// the callback runs during aclInit; after it, it also runs at once. Registering
// the same (type, function) again replaces its userData.
func InitCallbackRegister(t *core.Thread, cb core.InitCallback) error {
	const fn = "aclInitCallbackRegister"
	if err := checkRegType(fn, cb.Type); err != nil {
		return err
	}
	if cb.Key == 0 || cb.Call == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: cbFunc must not be NULL", fn)
	}
	core.LifeCBs.Mu.Lock()
	i := slices.IndexFunc(core.LifeCBs.Init, func(c core.InitCallback) bool { return c.Type == cb.Type && c.Key == cb.Key })
	if i >= 0 {
		core.LifeCBs.Init[i] = cb
	} else {
		core.LifeCBs.Init = append(core.LifeCBs.Init, cb)
	}
	core.LifeCBs.Mu.Unlock()
	core.Runtime.Mu.Lock()
	inited, config := core.Runtime.InitRefs > 0, core.Runtime.InitConfig
	core.Runtime.Mu.Unlock()
	if inited {
		cb.Call(config)
	}
	return nil
}

// InitCallbackUnRegister implements aclInitCallbackUnRegister.
func InitCallbackUnRegister(t *core.Thread, typ int32, key uintptr) error {
	const fn = "aclInitCallbackUnRegister"
	if err := checkRegType(fn, typ); err != nil {
		return err
	}
	core.LifeCBs.Mu.Lock()
	defer core.LifeCBs.Mu.Unlock()
	i := slices.IndexFunc(core.LifeCBs.Init, func(c core.InitCallback) bool { return c.Type == typ && c.Key == key })
	if i < 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: function %#x is not registered for type %d", fn, key, typ)
	}
	core.LifeCBs.Init = slices.Delete(core.LifeCBs.Init, i, i+1)
	return nil
}

// FinalizeCallbackRegister implements aclFinalizeCallbackRegister.
func FinalizeCallbackRegister(t *core.Thread, cb core.FinalizeCallback) error {
	const fn = "aclFinalizeCallbackRegister"
	if err := checkRegType(fn, cb.Type); err != nil {
		return err
	}
	if cb.Key == 0 || cb.Call == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: cbFunc must not be NULL", fn)
	}
	core.LifeCBs.Mu.Lock()
	defer core.LifeCBs.Mu.Unlock()
	i := slices.IndexFunc(core.LifeCBs.Finalize, func(c core.FinalizeCallback) bool { return c.Type == cb.Type && c.Key == cb.Key })
	if i >= 0 {
		core.LifeCBs.Finalize[i] = cb
	} else {
		core.LifeCBs.Finalize = append(core.LifeCBs.Finalize, cb)
	}
	return nil
}

// FinalizeCallbackUnRegister implements aclFinalizeCallbackUnRegister.
func FinalizeCallbackUnRegister(t *core.Thread, typ int32, key uintptr) error {
	const fn = "aclFinalizeCallbackUnRegister"
	if err := checkRegType(fn, typ); err != nil {
		return err
	}
	core.LifeCBs.Mu.Lock()
	defer core.LifeCBs.Mu.Unlock()
	i := slices.IndexFunc(core.LifeCBs.Finalize, func(c core.FinalizeCallback) bool { return c.Type == typ && c.Key == key })
	if i < 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: function %#x is not registered for type %d", fn, key, typ)
	}
	core.LifeCBs.Finalize = slices.Delete(core.LifeCBs.Finalize, i, i+1)
	return nil
}
