package rt

import (
	"github.com/npuemu/npuemu/rt/core"
)

// SetDevice implements rtSetDevice: open device id (on first use) and make
// its primary context the thread's current one.
func SetDevice(t *core.Thread, id int32) error {
	return wrap("rtSetDevice", core.RuntimeSetDevice(t, id))
}

// GetDevice implements rtGetDevice.
func GetDevice(t *core.Thread, id *int32) error {
	if id == nil {
		return invalid("rtGetDevice", "devId must not be NULL")
	}
	return wrap("rtGetDevice", core.GetDevice(t, id))
}

// DeviceReset implements rtDeviceReset.
func DeviceReset(t *core.Thread, id int32) error {
	return wrap("rtDeviceReset", core.ResetDevice(t, id))
}

// DeviceSynchronize implements rtDeviceSynchronize: wait for every stream
// of the current device.
func DeviceSynchronize(t *core.Thread) error {
	return wrap("rtDeviceSynchronize", core.SynchronizeDevice(t))
}

// GetDeviceCount implements rtGetDeviceCount.
func GetDeviceCount(t *core.Thread, n *int32) error {
	if n == nil {
		return invalid("rtGetDeviceCount", "cnt must not be NULL")
	}
	var c uint32
	if err := core.GetDeviceCount(t, &c); err != nil {
		return wrap("rtGetDeviceCount", err)
	}
	*n = int32(c)
	return nil
}

// DeviceSynchronizeWithTimeout implements rtDeviceSynchronizeWithTimeout
// (milliseconds, -1 = forever).
func DeviceSynchronizeWithTimeout(t *core.Thread, timeoutMs int32) error {
	if timeoutMs < -1 {
		return invalid("rtDeviceSynchronizeWithTimeout", "timeout %d: -1 (forever) or more", timeoutMs)
	}
	return wrap("rtDeviceSynchronizeWithTimeout", core.SynchronizeDeviceWithTimeout(t, timeoutMs))
}

// GetSocVersion implements rtGetSocVersion: the SoC name, NUL-terminated,
// into a buffer of maxLen bytes (the caller copies it; libfake writes it).
func GetSocVersion(t *core.Thread, maxLen uint32) (string, error) {
	const fn = "rtGetSocVersion"
	name, err := core.SocName(t)
	if err != nil {
		return "", wrap(fn, err)
	}
	if uint32(len(name)) >= maxLen {
		return "", invalid(fn, "maxLen %d cannot hold %q and its NUL", maxLen, name)
	}
	return name, nil
}

// GetSocVersionNil is rtGetSocVersion's answer to a NULL buffer.
func GetSocVersionNil() error { return invalid("rtGetSocVersion", "ver must not be NULL") }
