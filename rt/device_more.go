package rt

import (
	"math"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// The device family, round 9: the rest of the priority-A device calls.
// Decisions where the documentation is silent:
//
//   - rtSetDeviceWithoutTsd / rtDeviceResetWithoutTsd are rtSetDevice /
//     rtDeviceReset: npuemu starts no TSD daemon (the AI CPU scheduler) on
//     any path, so leaving it out changes nothing.
//   - rtSetDefaultDeviceId sets the device a thread without a current
//     context gets (what aclInit's "defaultDevice" sets); -1 clears it.
//   - rtGetDeviceInfo is the driver's answer (halGetDeviceInfo's table,
//     hal/device.go), its code converted to the runtime's; the call goes
//     through rt/stack, so a halGetDeviceInfo hook sees it.
//   - rtGetAllUtilizations is one field of aclrtGetDeviceUtilizationRate;
//     a kind the SoC lacks (AI Vector on SoCs without separate vector
//     cores) is ACL_ERROR_RT_FEATURE_NOT_SUPPORT, which the vendor's ACL
//     reports as -1.

// devsInfoTypeTopology is RT_DEVS_INFO_TYPE_TOPOLOGY (rtPairDevicesInfoType,
// rt-types.md), the one pair-info type the runtime documents.
const devsInfoTypeTopology = 0

// SGetDevice implements rtsGetDevice: the current context's device, as
// rtGetDevice.
func SGetDevice(t *core.Thread, id *int32) error {
	if id == nil {
		return invalid("rtsGetDevice", "devId must not be NULL")
	}
	return wrap("rtsGetDevice", core.GetDevice(t, id))
}

// SetDeviceWithoutTsd implements rtSetDeviceWithoutTsd (as rtSetDevice).
func SetDeviceWithoutTsd(t *core.Thread, id int32) error {
	return wrap("rtSetDeviceWithoutTsd", core.RuntimeSetDevice(t, id))
}

// DeviceResetWithoutTsd implements rtDeviceResetWithoutTsd (as
// rtDeviceReset).
func DeviceResetWithoutTsd(t *core.Thread, id int32) error {
	return wrap("rtDeviceResetWithoutTsd", core.ResetDevice(t, id))
}

// SetDefaultDeviceID implements rtSetDefaultDeviceId: id becomes the
// device of threads without a current context (-1: none).
func SetDefaultDeviceID(t *core.Thread, id int32) error {
	const fn = "rtSetDefaultDeviceId"
	if id != -1 {
		if err := core.CheckDeviceID(fn, id); err != nil {
			return wrap(fn, err)
		}
	}
	atomic.StoreInt32(&core.Runtime.DefaultDevice, id)
	return nil
}

// SetTSDevice implements rtSetTSDevice: tsId numbers the schedulers as
// aclrtTsId (passed unchanged by aclrtSetTsDevice); one scheduler serves
// both kinds of core on every emulated SoC, so a valid choice changes
// nothing.
func SetTSDevice(t *core.Thread, tsID uint32) error {
	const fn = "rtSetTSDevice"
	if tsID > math.MaxInt32 {
		return invalid(fn, "tsId %d: want ACL_TS_ID_AICORE (0) or ACL_TS_ID_AIVECTOR (1)", tsID)
	}
	return wrap(fn, acl.SetTsDevice(t, int32(tsID)))
}

// DeviceGetCapability implements rtsDeviceGetCapability: devFeatureType is
// aclrtDevFeatureType's (passed unchanged); neither documented feature is
// modelled, so both read 0 (not supported).
func DeviceGetCapability(t *core.Thread, dev, feature int32, val *int32) error {
	const fn = "rtsDeviceGetCapability"
	if val == nil {
		return invalid(fn, "val must not be NULL")
	}
	return wrap(fn, acl.GetDeviceCapability(t, dev, feature, val))
}

// GetPairDevicesInfo implements rtsGetPairDevicesInfo for
// RT_DEVS_INFO_TYPE_TOPOLOGY: how the two devices are linked, an
// RT_DEVS_TOPOLOGY_* value (numbered as ACL_RT_DEVS_TOPOLOGY_*).
func GetPairDevicesInfo(t *core.Thread, dev, other uint32, infoType int32, val *uint64) error {
	const fn = "rtsGetPairDevicesInfo"
	if val == nil {
		return invalid(fn, "val must not be NULL")
	}
	if infoType != devsInfoTypeTopology {
		return invalid(fn, "infoType %d: only RT_DEVS_INFO_TYPE_TOPOLOGY (0) is documented", infoType)
	}
	return wrap(fn, acl.GetDevicesTopo(t, dev, other, val))
}

// GetAllUtilizations implements rtGetAllUtilizations: the utilisation in
// percent of one kind of core of device dev (rtTypeUtil_t).
func GetAllUtilizations(t *core.Thread, dev, kind int32, util *uint8) error {
	const fn = "rtGetAllUtilizations"
	if util == nil {
		return invalid(fn, "util must not be NULL")
	}
	if kind < abi.RT_UTIL_TYPE_AICORE || kind >= abi.RT_UTIL_TYPE_MAX {
		return invalid(fn, "kind %d is not an rtTypeUtil_t", kind)
	}
	var u acl.UtilizationInfo
	if err := acl.GetDeviceUtilizationRate(t, dev, &u); err != nil {
		return wrap(fn, err)
	}
	v := u.CubeUtilization
	switch kind {
	case abi.RT_UTIL_TYPE_AIVECTOR:
		v = u.VectorUtilization
	case abi.RT_UTIL_TYPE_AICPU:
		v = u.AicpuUtilization
	}
	if v < 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: device %d has no separate cores of kind %d", fn, dev, kind)
	}
	*util = uint8(min(v, 100))
	return nil
}

// GetDeviceInfo implements rtGetDeviceInfo: halGetDeviceInfo's value for
// (moduleType, infoType) of device id, asked through the driver's exported
// symbol (rt/stack), as the runtime does, after checking id against the
// driver's device count (drvGetDevNum, core.CheckDeviceID).
func GetDeviceInfo(t *core.Thread, id uint32, module, info int32, val *int64) error {
	const fn = "rtGetDeviceInfo"
	if val == nil {
		return invalid(fn, "val must not be NULL")
	}
	if id > math.MaxInt32 {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range", fn, id)
	}
	if err := core.CheckDeviceID(fn, int32(id)); err != nil {
		return wrap(fn, err)
	}
	return wrap(fn, stack.GetDeviceInfo(id, module, info, val))
}
