package rt

import "github.com/npuemu/npuemu/rt/core"

// The device's fault events (round 9). rtGetFaultEvent reads the DMS
// (device management) fault-event log of a device, halGetFaultEvent
// underneath on hardware; aclGetRecentErrMsg asks it for the faults behind
// a failure. The emulated devices have no RAS hardware and raise no fault
// event (as rtDeviceStatusQuery reports RT_DEVICE_STATUS_NORMAL and
// aclrtGetMemUceInfo an empty list), so a valid query always finds none.

// GetFaultEvent implements rtGetFaultEvent: the fault events of device id
// that pass filter, at most n of them into events, their number into
// *count. filter->filterFlag 0 takes every event. The emulated devices
// raise none: *count is 0 and events is not written.
func GetFaultEvent(t *core.Thread, id int32, haveFilter, haveEvents bool, n uint32, count *uint32) error {
	const fn = "rtGetFaultEvent"
	if !haveFilter || !haveEvents || count == nil {
		return invalid(fn, "filter, dmsEvent and eventCount must not be NULL")
	}
	if n == 0 {
		return invalid(fn, "len must be at least 1")
	}
	if err := core.CheckDeviceID(fn, id); err != nil {
		return named(err)
	}
	*count = 0
	return nil
}
