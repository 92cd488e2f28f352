package acl

import (
	"os"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

// SocName implements aclrtGetSocName (works before aclInit).
func SocName(t *core.Thread) (string, error) {
	s, _, err := core.SoC("aclrtGetSocName")
	if err != nil {
		return "", err
	}
	return s.Name, nil
}

// GetDeviceCount implements aclrtGetDeviceCount.
func GetDeviceCount(t *core.Thread, count *uint32) error {
	if count == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count must not be NULL")
	}
	_, n, err := core.SoC("aclrtGetDeviceCount")
	if err != nil {
		return err
	}
	*count = uint32(n.DeviceCount())
	return nil
}

// GetRunMode implements aclrtGetRunMode: the emulated devices are always
// host-attached.
func GetRunMode(t *core.Thread, mode *int32) error {
	if mode == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode: runMode must not be NULL")
	}
	*mode = abi.ACL_HOST
	return nil
}

// SetDevice implements aclrtSetDevice.
func SetDevice(t *core.Thread, id int32) error { return setDeviceFiring(t, id, true) }

// RuntimeSetDevice is rtSetDevice: aclrtSetDevice without the ACL's
// aclInit requirement (the runtime boots on its first call).
func RuntimeSetDevice(t *core.Thread, id int32) error { return setDeviceFiring(t, id, false) }

func setDeviceFiring(t *core.Thread, id int32, needInit bool) error {
	core.FireDeviceState(id, abi.ACL_RT_DEVICE_STATE_SET_PRE)
	err := setDevice(t, id, needInit)
	core.FlushStreamStates()
	if err == nil {
		core.FireDeviceState(id, abi.ACL_RT_DEVICE_STATE_SET_POST)
	}
	return err
}

func setDevice(t *core.Thread, id int32, needInit bool) error {
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	if needInit && core.Runtime.InitRefs == 0 {
		return core.ErrUninitialized("aclrtSetDevice")
	}
	c, err := core.SetDeviceLocked("aclrtSetDevice", id)
	if err != nil {
		return err
	}
	t.Ctx = c
	return nil
}

// ResetDevice implements aclrtResetDevice.
func ResetDevice(t *core.Thread, id int32) error {
	core.FireDeviceState(id, abi.ACL_RT_DEVICE_STATE_RESET_PRE)
	core.FireStreamsDestroyPre(func() []*core.Stream { return core.PrimaryReleasedLocked(id, false) })
	if err := resetDevice(t, id); err != nil {
		return err
	}
	core.FireDeviceState(id, abi.ACL_RT_DEVICE_STATE_RESET_POST)
	return nil
}

func resetDevice(t *core.Thread, id int32) error {
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	d, err := core.DeviceLocked("aclrtResetDevice", id)
	if err != nil {
		return err
	}
	if d.Refs == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "aclrtResetDevice: device %d is not set (no aclrtSetDevice reference left)", id)
	}
	d.Refs--
	if d.Refs == 0 {
		d.ReleasePrimaryLocked(true)
	}
	if t.Ctx != nil && t.Ctx.Dead.Load() {
		t.Ctx = nil
	}
	return nil
}

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

// GetDevice implements aclrtGetDevice.
func GetDevice(t *core.Thread, id *int32) error {
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId must not be NULL")
	}
	c, err := core.Current(t, "aclrtGetDevice")
	if err != nil {
		return err
	}
	*id = c.Dev.ID
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

// SynchronizeDevice implements aclrtSynchronizeDevice.
func SynchronizeDevice(t *core.Thread) error {
	return core.SynchronizeDevice(t, "aclrtSynchronizeDevice", -1)
}

// SynchronizeDeviceWithTimeout implements
// aclrtSynchronizeDeviceWithTimeout: timeout in ms, −1 = forever.
func SynchronizeDeviceWithTimeout(t *core.Thread, timeoutMs int32) error {
	const fn = "aclrtSynchronizeDeviceWithTimeout"
	if err := checkTimeout(fn, timeoutMs); err != nil {
		return err
	}
	return core.SynchronizeDevice(t, fn, timeoutMs)
}

// checkTimeout validates a millisecond timeout: −1 (forever) or > 0.
func checkTimeout(fn string, ms int32) error {
	if ms < -1 || ms == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: timeout %d: want -1 (forever) or > 0 ms", fn, ms)
	}
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
