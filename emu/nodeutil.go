package emu

import (
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/tsfw"
)

// Utilization counters of a node directory (docs/node.md,
// "Utilization"): every task a process submits adds its busy time on the
// device clock to the device record (per engine, in core-nanoseconds for
// kernels) and, for AI Core kernels, to the process's slot; clock_ns is
// the host's CLOCK_REALTIME at the last addition. The busy times are the
// cost model's virtual durations, so a rate is real when the node runs
// with pacing 1 (the wall clock follows the device clock); with pacing 0
// the emulated device runs faster than real time and readers clamp to
// 100%.

// clockEvery: a process stamps clock_ns at every clockEvery-th busy addition.
const clockEvery = 32

// busyCounter returns the tsfw.Config.OnBusy of physical device phys.
func (d *NodeDir) busyCounter(phys int) func(tsfw.BusyEngine, time.Duration) {
	rec := d.Device(phys)
	self := d.Self()
	var adds atomic.Uint64 // this process's additions to the device
	return func(e tsfw.BusyEngine, busy time.Duration) {
		if busy <= 0 {
			return
		}
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
		// Reading the clock costs more than the rest of a launch's
		// submission on some hosts: stamp it at the first addition and
		// then every clockEvery-th (docs/node.md, "Utilization").
		if adds.Add(1)%clockEvery != 1 {
			return
		}
		now := uint64(time.Now().UnixNano())
		for {
			c := atomic.LoadUint64(&rec.ClockNS)
			if c >= now || atomic.CompareAndSwapUint64(&rec.ClockNS, c, now) {
				return
			}
		}
	}
}
