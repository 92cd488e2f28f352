package acl

import (
	"os"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// GetRunMode implements aclrtGetRunMode (and rtGetRunMode over it): the
// run mode is the driver's platform (drvGetPlatformInfo, asked through its
// exported symbol, rt/stack): 1, the host side, is ACL_HOST; 0, the device
// side, is ACL_DEVICE. npuemu's driver always answers 1.
func GetRunMode(t *core.Thread, mode *int32) error {
	const fn = "aclrtGetRunMode"
	if mode == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: runMode must not be NULL", fn)
	}
	var platform uint32
	if err := stack.GetPlatformInfo(&platform); err != nil {
		return core.DriverErr(fn, err)
	}
	switch platform {
	case platformDevice:
		*mode = abi.ACL_DEVICE
	case platformHost:
		*mode = abi.ACL_HOST
	default:
		return abi.Errorf(abi.ACL_ERROR_RT_INTERNAL_ERROR, "%s: drvGetPlatformInfo answered %d: neither 0 (device side) nor 1 (host side)", fn, platform)
	}
	return nil
}

// drvGetPlatformInfo's answers (hal-api.md).
const (
	platformDevice = 0
	platformHost   = 1
)

// SetDevice implements aclrtSetDevice.
func SetDevice(t *core.Thread, id int32) error { return core.SetDeviceFiring(t, id, true) }

// ResetDeviceForce implements aclrtResetDeviceForce: it releases the
// primary context whatever the reference count, once.
func ResetDeviceForce(t *core.Thread, id int32) error {
	core.FireDeviceState(id, abi.ACL_RT_DEVICE_STATE_RESET_PRE)
	core.FireStreamsDestroyPre(func() []*core.Stream { return core.PrimaryReleasedLocked(id, true) })
	if err := resetDeviceForce(t, id); err != nil {
		return err
	}
	core.FireDeviceState(id, abi.ACL_RT_DEVICE_STATE_RESET_POST)
	return nil
}

func resetDeviceForce(t *core.Thread, id int32) error {
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	d, err := core.DeviceLocked("aclrtResetDeviceForce", id)
	if err != nil {
		return err
	}
	if d.Refs == 0 {
		if d.Forced {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "aclrtResetDeviceForce: device %d was already released by aclrtResetDeviceForce", id)
		}
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "aclrtResetDeviceForce: device %d is not set", id)
	}
	d.Refs = 0
	d.Forced = true
	d.ReleasePrimaryLocked(true)
	if t.Ctx != nil && t.Ctx.Dead.Load() {
		t.Ctx = nil
	}
	return nil
}

// QueryDeviceStatus implements aclrtQueryDeviceStatus: an emulated device
// is always healthy.
func QueryDeviceStatus(t *core.Thread, id int32, status *int32) error {
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtQueryDeviceStatus: deviceStatus must not be NULL")
	}
	if err := core.CheckDeviceID("aclrtQueryDeviceStatus", id); err != nil {
		return err
	}
	*status = abi.ACL_RT_DEVICE_STATUS_NORMAL
	return nil
}

// DeviceGetStreamPriorityRange implements aclrtDeviceGetStreamPriorityRange.
func DeviceGetStreamPriorityRange(t *core.Thread, least, greatest *int32) error {
	if least == nil || greatest == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetStreamPriorityRange: leastPriority and greatestPriority must not be NULL")
	}
	s, _, err := core.SoC("aclrtDeviceGetStreamPriorityRange")
	if err != nil {
		return err
	}
	*least, *greatest = int32(s.PriorityLeast), int32(s.PriorityGreatest)
	return nil
}

// DeviceGetBareTgid implements aclrtDeviceGetBareTgid: the process id as
// the device sees it (no container namespace here).
func DeviceGetBareTgid(t *core.Thread, pid *int32) error {
	if pid == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetBareTgid: pid must not be NULL")
	}
	*pid = int32(os.Getpid())
	return nil
}

// CheckArchCompatibility implements aclrtCheckArchCompatibility: a binary
// built for socVersion runs here when its NPU architecture equals the
// emulated SoC's.
func CheckArchCompatibility(t *core.Thread, socVersion string, haveSoc bool, can *int32) error {
	if !haveSoc || can == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtCheckArchCompatibility: socVersion and canCompatible must not be NULL")
	}
	s, _, err := core.SoC("aclrtCheckArchCompatibility")
	if err != nil {
		return err
	}
	other, ok := emu.LookupSoC(socVersion)
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtCheckArchCompatibility: unknown SoC version %q", socVersion)
	}
	*can = 0
	if other.NpuArch == s.NpuArch {
		*can = 1
	}
	return nil
}

// GetErrorVerbose implements aclrtGetErrorVerbose: the emulated hardware
// raises no memory/link errors, so it reports ACL_RT_NO_ERROR.
func GetErrorVerbose(t *core.Thread, id int32, info *ErrorInfo) error {
	if info == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetErrorVerbose: errorInfo must not be NULL")
	}
	if err := core.CheckDeviceID("aclrtGetErrorVerbose", id); err != nil {
		return err
	}
	*info = ErrorInfo{ErrorType: abi.ACL_RT_NO_ERROR}
	return nil
}

// SocName implements aclrtGetSocName (works before aclInit); the runtime
// does the work (core.SocName, which the rt* API calls too).
func SocName(t *core.Thread) (string, error) { return core.SocName(t) }

// GetDeviceCount implements aclrtGetDeviceCount; the runtime does the work
// (core.GetDeviceCount, which the rt* API calls too).
func GetDeviceCount(t *core.Thread, count *uint32) error { return core.GetDeviceCount(t, count) }

// ResetDevice implements aclrtResetDevice; the runtime does the work
// (core.ResetDevice, which the rt* API calls too).
func ResetDevice(t *core.Thread, id int32) error { return core.ResetDevice(t, id) }

// GetDevice implements aclrtGetDevice; the runtime does the work
// (core.GetDevice, which the rt* API calls too).
func GetDevice(t *core.Thread, id *int32) error { return core.GetDevice(t, id) }

// SynchronizeDevice implements aclrtSynchronizeDevice; the runtime does the
// work (core.SynchronizeDevice, which the rt* API calls too).
func SynchronizeDevice(t *core.Thread) error { return core.SynchronizeDevice(t) }

// SynchronizeDeviceWithTimeout implements aclrtSynchronizeDeviceWithTimeout;
// the runtime does the work (core.SynchronizeDeviceWithTimeout, which the
// rt* API calls too).
func SynchronizeDeviceWithTimeout(t *core.Thread, timeoutMs int32) error {
	return core.SynchronizeDeviceWithTimeout(t, timeoutMs)
}
