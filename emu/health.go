package emu

import "sync/atomic"

// Device health, as DCMI reports it (dcmi_get_device_health: 0 healthy,
// 1 minor, 2 major, 3 critical). The device model raises a change when a
// fault is injected (acl/faults.go, docs/faults.md); whoever keeps the
// node's state for DCMI readers (the node directory of issue #12) installs
// a HealthSink to publish it. Without a sink the changes are only kept for
// HealthOf.

// HealthLevel is a DCMI health value.
type HealthLevel uint32

// Health levels.
const (
	HealthOK       HealthLevel = 0
	HealthMinor    HealthLevel = 1
	HealthMajor    HealthLevel = 2
	HealthCritical HealthLevel = 3
)

// HealthEvent is one change of a device's health.
type HealthEvent struct {
	Device int32       // logical device id
	Level  HealthLevel // the device's health after the event
	Code   int32       // the aclError the runtime reports for it (0 when healthy again)
	Reason string      // one line: what happened ("injected heartbeat loss")
}

// HealthSink receives health changes; it is called on the goroutine that
// raised the change and must not block.
type HealthSink func(HealthEvent)

var (
	healthSink atomic.Pointer[HealthSink]
	healthNow  [maxHealthDevices]atomic.Uint32
)

const maxHealthDevices = 64

// SetHealthSink installs s (nil removes it). The node code calls it once.
func SetHealthSink(s HealthSink) {
	if s == nil {
		healthSink.Store(nil)
		return
	}
	healthSink.Store(&s)
}

// ReportHealth records e as the device's health and hands it to the sink.
func ReportHealth(e HealthEvent) {
	if e.Device >= 0 && e.Device < maxHealthDevices {
		healthNow[e.Device].Store(uint32(e.Level))
	}
	if s := healthSink.Load(); s != nil {
		(*s)(e)
	}
}

// HealthOf returns the last health reported for a device (HealthOK when
// none was).
func HealthOf(dev int32) HealthLevel {
	if dev < 0 || dev >= maxHealthDevices {
		return HealthOK
	}
	return HealthLevel(healthNow[dev].Load())
}
