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

// busyCounter returns the tsfw.Config.OnBusy of physical device phys.
func (d *NodeDir) busyCounter(phys int) func(tsfw.BusyEngine, time.Duration) {
	rec := d.Device(phys)
	self := d.Self()
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
		now := uint64(time.Now().UnixNano())
		for {
			c := atomic.LoadUint64(&rec.ClockNS)
			if c >= now || atomic.CompareAndSwapUint64(&rec.ClockNS, c, now) {
				return
			}
		}
	}
}
