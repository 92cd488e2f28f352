package emu

import (
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/tsfw"
)

// Utilization counters of a node directory (docs/node.md,
// "Utilization"): every task a process submits adds its busy time on the
// device clock to the device record (per engine, in core-nanoseconds for
// kernels) and, for AI Core kernels, to the process's slot. clock_ns is
// the device clock (nodecores.go: a process's virtual time plus its clock
// base): the latest end of the work any process has stamped on the device,
// raised when it lags behind a task's end by more than clockLag. Busy time
// and clock advance together at submission, so a reader's Δbusy / Δclock
// is the device's share of busy cores over that stretch of device time,
// whatever the pacing.

// clockLag: a process raises clock_ns only when it lags by more than this
// (one compare-and-swap per clockLag of device time at most; DCMI's
// windows are 10 ms of device time or more).
const clockLag = uint64(100 * time.Microsecond)

// busyCounter returns the tsfw.Config.OnBusy of physical device phys. The
// process's clock base on phys must be fixed already (joinCores).
func (d *NodeDir) busyCounter(phys int) func(tsfw.BusyEngine, time.Duration, time.Duration) {
	rec := d.Device(phys)
	self := d.Self()
	base := atomic.LoadUint64(&self.ClockBaseNS[phys])
	return func(e tsfw.BusyEngine, busy, end time.Duration) {
		if busy > 0 {
			ns := uint64(busy)
			switch e {
			case tsfw.BusyCube:
				atomic.AddUint64(&rec.BusyNS[NodeEngineAICore], ns)
				atomic.AddUint64(&self.AICoreBusyNS[phys], ns)
			case tsfw.BusyVector:
				atomic.AddUint64(&rec.BusyNS[NodeEngineVector], ns)
			case tsfw.BusySDMA:
				atomic.AddUint64(&rec.BusyNS[NodeEngineSDMA], ns)
			}
		}
		now := base + uint64(max(end, 0))
		for {
			c := atomic.LoadUint64(&rec.ClockNS)
			if now <= c || (c != 0 && now <= c+clockLag) {
				return
			}
			if atomic.CompareAndSwapUint64(&rec.ClockNS, c, now) {
				return
			}
		}
	}
}
