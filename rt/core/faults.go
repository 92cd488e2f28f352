package core

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/emu"
)

type faultKind uint8

const (
	FaultOOM faultKind = iota
	FaultAICore
	FaultSDMA
	FaultUCE
	FaultECC
	FaultTimeout
	FaultLost
	FaultHeartbeat
)

var FaultNames = map[string]faultKind{
	"oom": FaultOOM, "aicore": FaultAICore, "sdma": FaultSDMA, "uce": FaultUCE, "ecc": FaultECC,
	"timeout": FaultTimeout, "lost": FaultLost, "heartbeat": FaultHeartbeat,
}

func (k faultKind) String() string {
	for n, v := range FaultNames {
		if v == k {
			return n
		}
	}
	return "fault"
}

// FaultRule is one parsed rule and its count. Guarded by faults.mu.
type FaultRule struct {
	Kind   faultKind
	Dev    int32 // -1: any device
	Nth    uint64
	Every  uint64
	P      float64 // percent
	Kernel string
	Addr   uintptr
	Length uint64
	Rng    *rand.Rand
	Count  uint64
}

var Faults struct {
	Active atomic.Bool // a plan with rules is loaded: the hooks do work
	Mu     sync.Mutex
	Rules  []*FaultRule
	Uce    map[int32][]MemUceInfo // injected UCE/ECC ranges per device
}

// Hit counts one event and reports whether the rule fires on it.
// Precondition: faults.mu held.
func (r *FaultRule) Hit() bool {
	r.Count++
	switch {
	case r.Nth > 0:
		return r.Count == r.Nth
	case r.Every > 0:
		return r.Count%r.Every == 0
	default:
		return r.Rng.Float64()*100 < r.P
	}
}

// clearInjectedFaults forgets a device's injected memory errors
// (aclrtResetDevice, aclFinalize): the reset recovers the device (its loss
// is forgotten by the runtime core, rt/core/device.go).
func clearInjectedFaults(dev int32) {
	if !Faults.Active.Load() {
		return
	}
	Faults.Mu.Lock()
	delete(Faults.Uce, dev)
	Faults.Mu.Unlock()
	emu.ReportHealth(emu.HealthEvent{Device: dev, Level: emu.HealthOK, Reason: "device reset"})
}

// MemUceInfo is one aclrtMemUceInfo (address range of an error).
type MemUceInfo struct {
	Addr uintptr
	Len  uint64
}
