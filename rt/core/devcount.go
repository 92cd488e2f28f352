package core

import (
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/stack"
)

// The device count. The runtime learns how many devices there are from
// the driver, drvGetDevNum, asked through the driver's exported symbol
// (rt/stack): an interposed driver (a sharing layer that hides devices)
// decides what every caller sees. DeviceCount is the one place that asks;
// it asks on every call, as the vendor's rtGetDeviceCount, rtSetDevice and
// the other functions whose rt-to-hal.tsv rows list drvGetDevNum do, and
// keeps the answer. The few rt* functions whose rows do not list
// drvGetDevNum (the vendor checks their device id against the count its
// runtime learned at boot) check against that kept answer instead
// (KnownDeviceCount: aclInit with a default device, npuemu's boot, asks,
// and so does any earlier call; one that finds nothing learned asks).

// learned is the driver's last answer, for the node it was asked on.
type learned struct {
	node  *emu.Node
	count int
}

var lastCount atomic.Pointer[learned]

// DeviceCount asks the driver how many devices there are (drvGetDevNum).
func DeviceCount(fn string) (int, error) {
	n, err := TheNode()
	if err != nil {
		return 0, abi.Wrapf(err, "%s: emulator configuration", fn)
	}
	var c uint32
	if err := stack.GetDevNum(&c); err != nil {
		return 0, abi.Errorf(abi.RTCodeOf(err), "%s: drvGetDevNum: %s", fn, abi.MessageOf(err))
	}
	if l := lastCount.Load(); l == nil || l.node != n || l.count != int(c) {
		lastCount.Store(&learned{node: n, count: int(c)})
	}
	return int(c), nil
}

// KnownDeviceCount is the count the runtime learned last on this node,
// asking the driver only when it never has.
func KnownDeviceCount(fn string) (int, error) {
	n, err := TheNode()
	if err != nil {
		return 0, abi.Wrapf(err, "%s: emulator configuration", fn)
	}
	if l := lastCount.Load(); l != nil && l.node == n {
		return l.count, nil
	}
	return DeviceCount(fn)
}

// checkIDAgainst validates id against count devices.
func checkIDAgainst(fn string, id int32, count int) error {
	if id < 0 || int(id) >= count {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range (the driver reports %d devices)", fn, id, count)
	}
	return nil
}

// CheckDeviceID validates id against the driver's device count (asked now)
// without opening the device.
func CheckDeviceID(fn string, id int32) error {
	c, err := DeviceCount(fn)
	if err != nil {
		return err
	}
	return checkIDAgainst(fn, id, c)
}

// CheckKnownDeviceID validates id against the count the runtime learned
// (KnownDeviceCount), for the calls whose vendor counterpart does not ask
// the driver.
func CheckKnownDeviceID(fn string, id int32) error {
	c, err := KnownDeviceCount(fn)
	if err != nil {
		return err
	}
	return checkIDAgainst(fn, id, c)
}

// DeviceLocked returns the runtime device id, opening it on first use,
// after checking id against the driver's device count (asked now).
// Precondition: Runtime.Mu held.
func DeviceLocked(fn string, id int32) (*Device, error) {
	if err := CheckDeviceID(fn, id); err != nil {
		return nil, err
	}
	return openDeviceLocked(fn, id)
}

// KnownDeviceLocked is DeviceLocked checking against the count the
// runtime learned (CheckKnownDeviceID). Precondition: Runtime.Mu held.
func KnownDeviceLocked(fn string, id int32) (*Device, error) {
	if err := CheckKnownDeviceID(fn, id); err != nil {
		return nil, err
	}
	return openDeviceLocked(fn, id)
}

// OpenKnownDevice is OpenDevice checking against the count the runtime
// learned (CheckKnownDeviceID).
func OpenKnownDevice(fn string, id int32) (*Device, error) {
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	return KnownDeviceLocked(fn, id)
}
