package rt

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exceptions, round 9: the runtime's side of exception reporting
// (acl/exception.go), state callbacks (rt/core/statecb.go), device task
// abort callbacks and hardware-error queries (acl/uce.go). The callbacks
// are the ones the aclrt* calls register: an rtTaskFailCallback receives
// the same record aclrtExceptionInfoCallback does (libfake's layout of
// struct rtExceptionInfo: the five uint32 of the vendor, then npuemu's
// own fields where the vendor has expandInfo, which is not filled).

// taskFailModules names the rtRegTaskFailCallbackByModule registrations:
// one callback per module name, kept in the process-wide registry of
// aclrtExceptionInfoCallbackRegister under a key that is not a function
// address (1..maxTaskFailModules, inside the never-mapped first page).
var taskFailModules struct {
	mu   sync.Mutex
	keys map[string]uintptr
}

const maxTaskFailModules = 4095

// RegTaskFailCallbackByModule implements rtRegTaskFailCallbackByModule:
// fn becomes moduleName's exception callback, replacing the module's
// previous one; a nil fn (NULL callback) removes it. The callbacks run
// with the aclrtExceptionInfoCallbackRegister ones, for every failing task.
func RegTaskFailCallbackByModule(t *core.Thread, module string, haveModule bool, fn core.ExceptionCallback) error {
	const name = "rtRegTaskFailCallbackByModule"
	if !haveModule {
		return invalid(name, "moduleName must not be NULL")
	}
	taskFailModules.mu.Lock()
	defer taskFailModules.mu.Unlock()
	key, ok := taskFailModules.keys[module]
	if !ok {
		if fn == nil {
			return nil
		}
		if len(taskFailModules.keys) >= maxTaskFailModules {
			return invalid(name, "%d modules already registered a callback", len(taskFailModules.keys))
		}
		if taskFailModules.keys == nil {
			taskFailModules.keys = map[string]uintptr{}
		}
		key = uintptr(len(taskFailModules.keys) + 1)
		taskFailModules.keys[module] = key
	}
	if err := acl.ExceptionInfoCallbackUnregister(t, key); err != nil {
		return wrap(name, err)
	}
	if fn == nil {
		return nil
	}
	return wrap(name, acl.ExceptionInfoCallbackRegister(t, key, fn))
}

// BinarySetExceptionCallback implements rtBinarySetExceptionCallback: as
// aclrtBinarySetExceptionCallback (fn nil removes it).
func BinarySetExceptionCallback(t *core.Thread, bin core.Handle, fn core.ExceptionCallback) error {
	const name = "rtBinarySetExceptionCallback"
	if bin == 0 {
		return invalid(name, "binHandle must not be NULL")
	}
	return wrap(name, acl.BinarySetExceptionCallback(t, bin, fn))
}

// GetFuncHandleFromExceptionInfo implements
// rtGetFuncHandleFromExceptionInfo: the function handle of the failing
// kernel; info is nil for a NULL info or one that is not the info of a
// running callback (libfake checks).
func GetFuncHandleFromExceptionInfo(t *core.Thread, info *core.ExceptionInfo, out *uintptr) error {
	const fn = "rtGetFuncHandleFromExceptionInfo"
	if info == nil || out == nil {
		return invalid(fn, "info (of a running exception callback) and func must not be NULL")
	}
	return wrap(fn, acl.GetFuncHandleFromExceptionInfo(t, info, out))
}

// RegDeviceStateCallback implements rtsRegDeviceStateCallback: as
// aclrtRegDeviceStateCallback (rtDeviceState is numbered as
// aclrtDeviceState; a NULL callback removes regName's).
func RegDeviceStateCallback(t *core.Thread, name string, haveName bool, cb core.DeviceStateFunc) error {
	const fn = "rtsRegDeviceStateCallback"
	if !haveName {
		return invalid(fn, "regName must not be NULL")
	}
	return wrap(fn, core.RegDeviceStateCallback(t, name, true, cb))
}

// RegStreamStateCallback implements rtsRegStreamStateCallback: as
// aclrtRegStreamStateCallback.
func RegStreamStateCallback(t *core.Thread, name string, haveName bool, cb core.StreamStateFunc) error {
	const fn = "rtsRegStreamStateCallback"
	if !haveName {
		return invalid(fn, "regName must not be NULL")
	}
	return wrap(fn, core.RegStreamStateCallback(t, name, true, cb))
}

// SetDeviceTaskAbortCallback implements rtsSetDeviceTaskAbortCallback: as
// aclrtSetDeviceTaskAbortCallback (called PRE and POST by rtDeviceTaskAbort).
func SetDeviceTaskAbortCallback(t *core.Thread, name string, haveName bool, cb core.DeviceTaskAbortCallback) error {
	const fn = "rtsSetDeviceTaskAbortCallback"
	if !haveName {
		return invalid(fn, "regName must not be NULL")
	}
	return wrap(fn, acl.SetDeviceTaskAbortCallback(t, name, cb))
}

// MemUceInfo is rtMemUceInfo: the device's uncorrectable memory errors.
type MemUceInfo struct {
	DevID uint32
	Count uint32
	Addrs [abi.RT_MAX_RECORD_PA_NUM_PER_DEV]core.MemUceInfo
}

// GetMemUceInfo implements rtGetMemUceInfo: the uncorrectable errors of
// device id's memory, at most RT_MAX_RECORD_PA_NUM_PER_DEV; only the ones
// injected with NPUEMU_FAULTS exist (acl/uce.go), so normally none.
func GetMemUceInfo(t *core.Thread, id uint32, info *MemUceInfo) error {
	const fn = "rtGetMemUceInfo"
	if info == nil {
		return invalid(fn, "memUceInfo must not be NULL")
	}
	if id > maxDevID {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range", fn, id)
	}
	var out [abi.RT_MAX_RECORD_PA_NUM_PER_DEV]core.MemUceInfo
	var n uint64
	if err := acl.GetMemUceInfo(t, int32(id), out[:], true, &n); err != nil {
		return wrap(fn, err)
	}
	*info = MemUceInfo{DevID: id, Count: uint32(n), Addrs: out}
	return nil
}

// MemUceRepair implements rtMemUceRepair: each of the info's Count ranges
// must be one rtGetMemUceInfo reported.
func MemUceRepair(t *core.Thread, id uint32, info *MemUceInfo) error {
	const fn = "rtMemUceRepair"
	if info == nil {
		return invalid(fn, "memUceInfo must not be NULL")
	}
	if info.Count == 0 || info.Count > abi.RT_MAX_RECORD_PA_NUM_PER_DEV {
		return invalid(fn, "count %d: want 1..%d", info.Count, abi.RT_MAX_RECORD_PA_NUM_PER_DEV)
	}
	if id > maxDevID {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range", fn, id)
	}
	return wrap(fn, acl.MemUceRepair(t, int32(id), info.Addrs[:info.Count], true))
}

const maxDevID = 1<<31 - 1

// GetErrorVerbose implements rtsGetErrorVerbose: the device's pending
// hardware error, an rtErrType; the emulated hardware raises none, so it
// is RT_NO_ERROR with no detail (as aclrtGetErrorVerbose).
func GetErrorVerbose(t *core.Thread, id uint32, errType *uint32) error {
	const fn = "rtsGetErrorVerbose"
	if errType == nil {
		return invalid(fn, "errorInfo must not be NULL")
	}
	if id > maxDevID {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range", fn, id)
	}
	var info acl.ErrorInfo
	if err := acl.GetErrorVerbose(t, int32(id), &info); err != nil {
		return wrap(fn, err)
	}
	*errType = info.ErrorType // rtErrType numbers the types as aclrtErrorType
	return nil
}

// RepairError implements rtsRepairError for an error of rtsGetErrorVerbose:
// RT_NO_ERROR has nothing to repair; any other type was never raised
// (ACL_ERROR_RT_PARAM_INVALID).
func RepairError(t *core.Thread, id uint32, haveInfo bool, errType uint32) error {
	const fn = "rtsRepairError"
	if !haveInfo {
		return invalid(fn, "errorInfo must not be NULL")
	}
	if id > maxDevID {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range", fn, id)
	}
	switch errType {
	case abi.RT_NO_ERROR, abi.RT_ERROR_MEMORY, abi.RT_ERROR_L2, abi.RT_ERROR_AICORE, abi.RT_ERROR_LINK, abi.RT_ERROR_L3_PORT, abi.RT_ERROR_OTHERS:
	default:
		return invalid(fn, "errorType %d is not an rtErrType", errType)
	}
	return wrap(fn, acl.RepairError(t, int32(id), &acl.ErrorInfo{ErrorType: errType}))
}
