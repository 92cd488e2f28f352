package emu

import (
	"time"

	"github.com/npuemu/npuemu/tsfw"
)

// QueueDepth is the number of RTSQ entries per stream: a stream with this
// many tasks in flight makes the next submission wait (npuemu's choice).
const QueueDepth = 1024

// CostModel returns the modelled transfer rates of a family (npuemu's
// choices, documented in docs/configuration.md): host links are PCIe
// (4.0 x16 ≈ 25 GB/s, 5.0 on 950), on-device copies move at half the memory
// bandwidth (each byte is read and written), peer copies run over HCCS.
func CostModel(family string) tsfw.CostModel {
	const g = 1e9
	// Host-to-host copies are host memcpy, whatever the NPU.
	c := tsfw.CostModel{H2HBytesPerSec: 10 * g, TaskOverhead: time.Microsecond}
	switch family {
	case Family950:
		c.H2DBytesPerSec, c.D2HBytesPerSec, c.D2DBytesPerSec, c.P2PBytesPerSec, c.MemsetBytesPerSec = 50*g, 50*g, 2000*g, 100*g, 4000*g
	case FamilyA3, FamilyA2:
		c.H2DBytesPerSec, c.D2HBytesPerSec, c.D2DBytesPerSec, c.P2PBytesPerSec, c.MemsetBytesPerSec = 25*g, 25*g, 800*g, 56*g, 1600*g
	case Family310P:
		c.H2DBytesPerSec, c.D2HBytesPerSec, c.D2DBytesPerSec, c.P2PBytesPerSec, c.MemsetBytesPerSec = 25*g, 25*g, 100*g, 25*g, 200*g
	case Family310B:
		// Host and device share LPDDR: "host" copies run at memory speed;
		// there is no peer link, the rate only keeps the model defined.
		c.H2DBytesPerSec, c.D2HBytesPerSec, c.D2DBytesPerSec, c.P2PBytesPerSec, c.MemsetBytesPerSec = 25*g, 25*g, 25*g, 1*g, 50*g
	default: // A1
		c.H2DBytesPerSec, c.D2HBytesPerSec, c.D2DBytesPerSec, c.P2PBytesPerSec, c.MemsetBytesPerSec = 25*g, 25*g, 600*g, 30*g, 1200*g
	}
	return c
}

// newScheduler starts the task-scheduler firmware of one device.
func newScheduler(name string, soc SoC, pacing float64) *tsfw.Device {
	return newSchedulerBusy(name, soc, pacing, nil)
}

// newSchedulerBusy is newScheduler whose busy time goes to onBusy (the
// node directory's utilization counters, nodeutil.go).
func newSchedulerBusy(name string, soc SoC, pacing float64, onBusy func(tsfw.BusyEngine, time.Duration, time.Duration)) *tsfw.Device {
	return newSchedulerNode(name, soc, pacing, onBusy, nil)
}

// newSchedulerNode is newSchedulerBusy whose AI Cores are shared through
// cores (the node directory's core occupancy, nodecores.go; nil: not shared).
func newSchedulerNode(name string, soc SoC, pacing float64, onBusy func(tsfw.BusyEngine, time.Duration, time.Duration), cores tsfw.CoreArbiter) *tsfw.Device {
	return tsfw.NewDevice(tsfw.Config{
		Cores:       cores,
		OnBusy:      onBusy,
		Name:        name,
		SDMAEngines: soc.SDMAEngines,
		QueueDepth:  QueueDepth,
		MaxEvents:   soc.MaxEvents,
		MaxNotifies: soc.MaxNotifies,
		CubeCores:   soc.CubeCores,
		VectorCores: soc.VectorCores,
		Cost:        CostModel(soc.Family),
		Pacing:      pacing,
	})
}
