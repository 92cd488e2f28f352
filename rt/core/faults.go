package core

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/tsfw"
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
	Active    atomic.Bool // a plan with rules is loaded: the hooks do work
	Mu        sync.Mutex
	Rules     []*FaultRule
	UCERanges map[int32][]MemUceInfo // injected UCE/ECC ranges per device
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
	delete(Faults.UCERanges, dev)
	Faults.Mu.Unlock()
	emu.ReportHealth(emu.HealthEvent{Device: dev, Level: emu.HealthOK, Reason: "device reset"})
}

// MemUceInfo is one aclrtMemUceInfo (address range of an error).
type MemUceInfo struct {
	Addr uintptr
	Len  uint64
}

// Fault injection (issue #14, point 5; docs/faults.md). NPUEMU_FAULTS,
// read at every aclInit, is a list of rules separated by ';':
//
//	rule = kind ["@" device] [":" opt {"," opt}]
//	kind = oom | aicore | sdma | uce | ecc | timeout | lost | heartbeat
//	opt  = nth=N | every=N | p=PERCENT | seed=N | kernel=NAME | addr=ADDR | len=BYTES
//
// A rule counts its events in program order: aclrtMalloc calls (oom),
// kernel launches, of kernel NAME if given (aicore, timeout), copy tasks
// (sdma), any task (uce, ecc, lost, heartbeat), on its device if one is
// given. It fires at the Nth event (nth), at every Nth (every) or with
// probability PERCENT from a generator seeded with seed (default 1), so
// a run is deterministic. oom fails the call; every other fault replaces
// the task so that it fails when its turn comes, reported where hardware
// reports it: the task error hook (exception callbacks,
// aclrtGetLastError), the next synchronisation, and the device health
// (emu.ReportHealth, which DCMI readers see through the node).

// ParseFaults parses an NPUEMU_FAULTS value.
func ParseFaults(spec string) ([]*FaultRule, error) {
	var rules []*FaultRule
	for _, part := range strings.Split(spec, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		head, opts, _ := strings.Cut(part, ":")
		name, dev, hasDev := strings.Cut(head, "@")
		k, ok := FaultNames[strings.TrimSpace(name)]
		if !ok {
			return nil, fmt.Errorf("rule %q: unknown fault %q (oom, aicore, sdma, uce, ecc, timeout, lost, heartbeat)", part, name)
		}
		r := &FaultRule{Kind: k, Dev: -1}
		if hasDev {
			n, err := strconv.ParseInt(strings.TrimSpace(dev), 10, 32)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("rule %q: device %q is not a device id", part, dev)
			}
			r.Dev = int32(n)
		}
		seed := uint64(1)
		for _, o := range strings.Split(opts, ",") {
			o = strings.TrimSpace(o)
			if o == "" {
				continue
			}
			key, val, ok := strings.Cut(o, "=")
			if !ok {
				return nil, fmt.Errorf("rule %q: option %q is not key=value", part, o)
			}
			var err error
			switch key {
			case "nth":
				r.Nth, err = strconv.ParseUint(val, 0, 64)
			case "every":
				r.Every, err = strconv.ParseUint(val, 0, 64)
			case "p":
				r.P, err = strconv.ParseFloat(val, 64)
				if err == nil && (r.P < 0 || r.P > 100) {
					err = fmt.Errorf("out of 0..100")
				}
			case "seed":
				seed, err = strconv.ParseUint(val, 0, 64)
			case "kernel":
				r.Kernel = val
			case "addr":
				var a uint64
				a, err = strconv.ParseUint(val, 0, 64)
				r.Addr = uintptr(a)
			case "len":
				r.Length, err = strconv.ParseUint(val, 0, 64)
			default:
				err = fmt.Errorf("unknown option")
			}
			if err != nil {
				return nil, fmt.Errorf("rule %q: option %q: %v", part, o, err)
			}
		}
		if r.Nth == 0 && r.Every == 0 && r.P == 0 {
			r.Nth = 1
		}
		if r.Kernel != "" && k != FaultAICore && k != FaultTimeout {
			return nil, fmt.Errorf("rule %q: kernel= applies to aicore and timeout only", part)
		}
		if (k == FaultUCE || k == FaultECC) && r.Length == 0 {
			r.Length = 64
		}
		r.Rng = rand.New(rand.NewPCG(seed, uint64(len(rules))))
		rules = append(rules, r)
	}
	return rules, nil
}

// LoadFaultPlan reads NPUEMU_FAULTS (aclInit): counts start again, and
// the injected device state (lost devices, UCE lists) is cleared.
func LoadFaultPlan() error {
	rules, err := ParseFaults(os.Getenv("NPUEMU_FAULTS"))
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclInit: NPUEMU_FAULTS: %v (docs/faults.md)", err)
	}
	Faults.Mu.Lock()
	Faults.Rules = rules
	Faults.UCERanges = map[int32][]MemUceInfo{}
	Faults.Mu.Unlock()
	ForgetLostDevices() // device.go
	Faults.Active.Store(len(rules) > 0)
	if len(rules) > 0 {
		tsfw.SetSubmitHook(faultSubmit)
	} else {
		tsfw.SetSubmitHook(nil)
	}
	return nil
}

// FaultMalloc fails an aclrtMalloc when an oom rule fires.
func FaultMalloc(fn string, dev int32, size uint64) error {
	if !Faults.Active.Load() {
		return nil
	}
	Faults.Mu.Lock()
	defer Faults.Mu.Unlock()
	var err error
	for _, r := range Faults.Rules {
		if r.Kind == FaultOOM && (r.Dev < 0 || r.Dev == dev) && r.Hit() && err == nil {
			err = abi.Errorf(abi.ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: %d bytes on device %d: injected out-of-memory (NPUEMU_FAULTS rule %d, allocation %d)", fn, size, dev, ruleIndex(r), r.Count)
		}
	}
	return err
}

// Precondition: faults.mu held.
func ruleIndex(r *FaultRule) int {
	for i, x := range Faults.Rules {
		if x == r {
			return i + 1
		}
	}
	return 0
}

// queueDevice returns the device id of q (-1 if unknown).
func queueDevice(q *tsfw.Queue) int32 {
	n := Runtime.Node.Load()
	if n == nil {
		return -1
	}
	ts := q.Device()
	for i := range n.DeviceCount() {
		if d := n.Opened(i); d != nil && d.TS == ts {
			return int32(i)
		}
	}
	return -1
}

// faultSubmit is the tsfw submit hook: it replaces a task that a rule
// fires on with one that fails with the fault's code.
func faultSubmit(q *tsfw.Queue, t tsfw.Task) tsfw.Task {
	dev := queueDevice(q)
	class := t.Class()
	var name string
	if class == tsfw.ClassKernel {
		if l, ok := t.Kernel().(*Launch); ok && l.F != nil {
			name = l.F.Entry.Name
		}
	}
	Faults.Mu.Lock()
	defer Faults.Mu.Unlock()
	// Every rule counts the event; the first that fires on it wins.
	var fired *FaultRule
	for _, r := range Faults.Rules {
		if r.Dev >= 0 && r.Dev != dev {
			continue
		}
		switch r.Kind {
		case FaultOOM:
			continue
		case FaultAICore, FaultTimeout:
			if class != tsfw.ClassKernel || (r.Kernel != "" && r.Kernel != name) {
				continue
			}
		case FaultSDMA:
			if class != tsfw.ClassCopy {
				continue
			}
		}
		if r.Hit() && fired == nil {
			fired = r
		}
	}
	if fired == nil {
		return t
	}
	return injected(fired, dev, t, class, name)
}

// injected builds the failing task of rule r.
// Precondition: faults.mu held.
func injected(r *FaultRule, dev int32, t tsfw.Task, class tsfw.TaskClass, kernel string) tsfw.Task {
	idx := ruleIndex(r)
	what := fmt.Sprintf("injected by NPUEMU_FAULTS rule %d (%s, event %d)", idx, r.Kind, r.Count)
	if kernel != "" {
		what += ", kernel " + kernel
	}
	var code abi.Code
	var fire func()
	switch r.Kind {
	case FaultAICore:
		code = abi.ACL_ERROR_RT_AICORE_EXCEPTION
	case FaultSDMA:
		code = abi.ACL_ERROR_RT_SYS_DMA
	case FaultTimeout:
		code = abi.ACL_ERROR_RT_TASK_TIMEOUT
		if class == tsfw.ClassKernel {
			code = abi.ACL_ERROR_RT_AICORE_TIMEOUT
		}
	case FaultUCE, FaultECC:
		code = abi.ACL_ERROR_RT_DEVICE_MEM_ERROR
		if r.Kind == FaultECC {
			code = abi.ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR
		}
		info := MemUceInfo{Addr: r.Addr, Len: r.Length}
		what += fmt.Sprintf(", HBM address %#x (+%d bytes)", r.Addr, r.Length)
		fire = func() {
			Faults.Mu.Lock()
			Faults.UCERanges[dev] = append(Faults.UCERanges[dev], info)
			Faults.Mu.Unlock()
			emu.ReportHealth(emu.HealthEvent{Device: dev, Level: emu.HealthMajor, Code: int32(code), Reason: "injected " + r.Kind.String() + " error"})
		}
	case FaultLost, FaultHeartbeat:
		code = abi.ACL_ERROR_RT_DEVICE_TASK_ABORT
		reason := "device lost"
		if r.Kind == FaultHeartbeat {
			code, reason = abi.ACL_ERROR_RT_LOST_HEARTBEAT, "device heartbeat lost"
		}
		lostErr := abi.Errorf(code, "device %d: %s (%s); aclrtResetDevice recovers it", dev, reason, what)
		fire = func() {
			MarkDeviceLost(dev, lostErr) // device.go
			emu.ReportHealth(emu.HealthEvent{Device: dev, Level: emu.HealthCritical, Code: int32(code), Reason: "injected " + reason})
		}
	}
	return tsfw.Faulty(t, abi.Errorf(code, "%s", what), fire)
}

// InjectedUCE returns the UCE ranges injected on dev.
func InjectedUCE(dev int32) []MemUceInfo {
	Faults.Mu.Lock()
	defer Faults.Mu.Unlock()
	return append([]MemUceInfo(nil), Faults.UCERanges[dev]...)
}

// RepairUCE removes a reported range; it reports whether it was one.
func RepairUCE(dev int32, in MemUceInfo) bool {
	Faults.Mu.Lock()
	defer Faults.Mu.Unlock()
	l := Faults.UCERanges[dev]
	for i, x := range l {
		if x == in {
			Faults.UCERanges[dev] = append(l[:i], l[i+1:]...)
			return true
		}
	}
	return false
}
