package acl

import (
	"slices"
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// aclInitCallbackRegister / aclFinalizeCallbackRegister: application hooks
// around aclInit and aclFinalize. The C function pointer is the key (the
// unregister calls name it), Call invokes it; libfake builds Call.

// lifeCBs holds the registrations in order. Its own mutex, not core.Runtime.Mu:
// callbacks run outside the runtime lock, so they may call ACL functions.
var lifeCBs struct {
	mu   sync.Mutex
	init []core.InitCallback
	fin  []core.FinalizeCallback
}

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
	lifeCBs.mu.Lock()
	i := slices.IndexFunc(lifeCBs.init, func(c core.InitCallback) bool { return c.Type == cb.Type && c.Key == cb.Key })
	if i >= 0 {
		lifeCBs.init[i] = cb
	} else {
		lifeCBs.init = append(lifeCBs.init, cb)
	}
	lifeCBs.mu.Unlock()
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
	lifeCBs.mu.Lock()
	defer lifeCBs.mu.Unlock()
	i := slices.IndexFunc(lifeCBs.init, func(c core.InitCallback) bool { return c.Type == typ && c.Key == key })
	if i < 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: function %#x is not registered for type %d", fn, key, typ)
	}
	lifeCBs.init = slices.Delete(lifeCBs.init, i, i+1)
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
	lifeCBs.mu.Lock()
	defer lifeCBs.mu.Unlock()
	i := slices.IndexFunc(lifeCBs.fin, func(c core.FinalizeCallback) bool { return c.Type == cb.Type && c.Key == cb.Key })
	if i >= 0 {
		lifeCBs.fin[i] = cb
	} else {
		lifeCBs.fin = append(lifeCBs.fin, cb)
	}
	return nil
}

// FinalizeCallbackUnRegister implements aclFinalizeCallbackUnRegister.
func FinalizeCallbackUnRegister(t *core.Thread, typ int32, key uintptr) error {
	const fn = "aclFinalizeCallbackUnRegister"
	if err := checkRegType(fn, typ); err != nil {
		return err
	}
	lifeCBs.mu.Lock()
	defer lifeCBs.mu.Unlock()
	i := slices.IndexFunc(lifeCBs.fin, func(c core.FinalizeCallback) bool { return c.Type == typ && c.Key == key })
	if i < 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: function %#x is not registered for type %d", fn, key, typ)
	}
	lifeCBs.fin = slices.Delete(lifeCBs.fin, i, i+1)
	return nil
}

// runInitCallbacks runs after a successful aclInit, outside core.Runtime.Mu. Their
// return codes are ignored: the runtime documents no effect for them.
func runInitCallbacks(config []byte) {
	lifeCBs.mu.Lock()
	cbs := slices.Clone(lifeCBs.init)
	lifeCBs.mu.Unlock()
	for _, c := range cbs {
		c.Call(config)
	}
}

// runFinalizeCallbacks runs at the start of aclFinalize, outside core.Runtime.Mu,
// while the runtime is still usable.
func runFinalizeCallbacks() {
	lifeCBs.mu.Lock()
	cbs := slices.Clone(lifeCBs.fin)
	lifeCBs.mu.Unlock()
	for _, c := range cbs {
		c.Call()
	}
}
