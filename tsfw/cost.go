package tsfw

import (
	"fmt"
	"time"
)

// CopyDir is the direction of a copy; it selects the bandwidth of the cost
// model. Execution is a memmove whatever the direction.
type CopyDir int

// Copy directions.
const (
	HostToHost CopyDir = iota
	HostToDevice
	DeviceToHost
	DeviceToDevice
	PeerToPeer
)

func (d CopyDir) String() string {
	switch d {
	case HostToHost:
		return "HostToHost"
	case HostToDevice:
		return "HostToDevice"
	case DeviceToHost:
		return "DeviceToHost"
	case DeviceToDevice:
		return "DeviceToDevice"
	case PeerToPeer:
		return "PeerToPeer"
	}
	return fmt.Sprintf("CopyDir(%d)", int(d))
}

// CostModel gives the virtual duration of tasks. A zero field takes the
// default of DefaultCost, so a partly filled model is usable.
type CostModel struct {
	H2DBytesPerSec, D2HBytesPerSec, D2DBytesPerSec, P2PBytesPerSec, MemsetBytesPerSec float64
	// H2HBytesPerSec is the bandwidth of host-to-host copies.
	H2HBytesPerSec float64
	// TaskOverhead is the fixed virtual cost of every task.
	TaskOverhead time.Duration

	// AI Core pool sizes, set by NewDevice from the Config: a kernel's
	// duration depends on how many of its blocks run at once.
	cubeCores, vectorCores int
}

// DefaultCost is a model in the range of an Atlas A2 card on PCIe 4.0 x16:
// host links ~20 GB/s, an HBM-to-HBM copy ~500 GB/s (read + write of the
// 1.6 TB/s HBM), HCCS peer links ~50 GB/s, 1 µs per task.
var DefaultCost = CostModel{
	H2DBytesPerSec:    20e9,
	D2HBytesPerSec:    20e9,
	D2DBytesPerSec:    500e9,
	P2PBytesPerSec:    50e9,
	MemsetBytesPerSec: 1000e9,
	H2HBytesPerSec:    10e9,
	TaskOverhead:      time.Microsecond,
}

func (c CostModel) withDefaults() CostModel {
	def := func(v *float64, d float64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.H2DBytesPerSec, DefaultCost.H2DBytesPerSec)
	def(&c.D2HBytesPerSec, DefaultCost.D2HBytesPerSec)
	def(&c.D2DBytesPerSec, DefaultCost.D2DBytesPerSec)
	def(&c.P2PBytesPerSec, DefaultCost.P2PBytesPerSec)
	def(&c.MemsetBytesPerSec, DefaultCost.MemsetBytesPerSec)
	def(&c.H2HBytesPerSec, DefaultCost.H2HBytesPerSec)
	if c.TaskOverhead <= 0 {
		c.TaskOverhead = DefaultCost.TaskOverhead
	}
	return c
}

// bytes returns the virtual time to move n bytes at bw bytes/s.
func bytesCost(n uint64, bw float64) time.Duration {
	return time.Duration(float64(n) * 1e9 / bw)
}

// copyCost is the virtual duration of a copy task of n bytes.
func (c *CostModel) copyCost(n uint64, dir CopyDir) time.Duration {
	var bw float64
	switch dir {
	case HostToDevice:
		bw = c.H2DBytesPerSec
	case DeviceToHost:
		bw = c.D2HBytesPerSec
	case DeviceToDevice:
		bw = c.D2DBytesPerSec
	case PeerToPeer:
		bw = c.P2PBytesPerSec
	default:
		bw = c.H2HBytesPerSec
	}
	return c.TaskOverhead + bytesCost(n, bw)
}

// cost is the virtual duration of t.
func (c *CostModel) cost(t *Task) time.Duration {
	switch t.kind {
	case kindCopy:
		return c.copyCost(t.n, t.dir)
	case kindCopy2D:
		return c.copyCost(t.n*t.height, t.dir)
	case kindMemset:
		return c.TaskOverhead + bytesCost(t.n, c.MemsetBytesPerSec)
	case kindKernel:
		return c.TaskOverhead + t.ks.duration(c.cubeCores, c.vectorCores)
	}
	return c.TaskOverhead
}
