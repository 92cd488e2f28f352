package acl

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
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

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

type faultKind uint8

const (
	faultOOM faultKind = iota
	faultAICore
	faultSDMA
	faultUCE
	faultECC
	faultTimeout
	faultLost
	faultHeartbeat
)

var faultNames = map[string]faultKind{
	"oom": faultOOM, "aicore": faultAICore, "sdma": faultSDMA, "uce": faultUCE, "ecc": faultECC,
	"timeout": faultTimeout, "lost": faultLost, "heartbeat": faultHeartbeat,
}

func (k faultKind) String() string {
	for n, v := range faultNames {
		if v == k {
			return n
		}
	}
	return "fault"
}

// faultRule is one parsed rule and its count. Guarded by faults.mu.
type faultRule struct {
	kind   faultKind
	dev    int32 // -1: any device
	nth    uint64
	every  uint64
	p      float64 // percent
	kernel string
	addr   uintptr
	length uint64
	rng    *rand.Rand
	count  uint64
}

var faults struct {
	active atomic.Bool // a plan with rules is loaded: the hooks do work
	mu     sync.Mutex
	rules  []*faultRule
	uce    map[int32][]MemUceInfo // injected UCE/ECC ranges per device
}

// parseFaults parses an NPUEMU_FAULTS value.
func parseFaults(spec string) ([]*faultRule, error) {
	var rules []*faultRule
	for _, part := range strings.Split(spec, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		head, opts, _ := strings.Cut(part, ":")
		name, dev, hasDev := strings.Cut(head, "@")
		k, ok := faultNames[strings.TrimSpace(name)]
		if !ok {
			return nil, fmt.Errorf("rule %q: unknown fault %q (oom, aicore, sdma, uce, ecc, timeout, lost, heartbeat)", part, name)
		}
		r := &faultRule{kind: k, dev: -1}
		if hasDev {
			n, err := strconv.ParseInt(strings.TrimSpace(dev), 10, 32)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("rule %q: device %q is not a device id", part, dev)
			}
			r.dev = int32(n)
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
				r.nth, err = strconv.ParseUint(val, 0, 64)
			case "every":
				r.every, err = strconv.ParseUint(val, 0, 64)
			case "p":
				r.p, err = strconv.ParseFloat(val, 64)
				if err == nil && (r.p < 0 || r.p > 100) {
					err = fmt.Errorf("out of 0..100")
				}
			case "seed":
				seed, err = strconv.ParseUint(val, 0, 64)
			case "kernel":
				r.kernel = val
			case "addr":
				var a uint64
				a, err = strconv.ParseUint(val, 0, 64)
				r.addr = uintptr(a)
			case "len":
				r.length, err = strconv.ParseUint(val, 0, 64)
			default:
				err = fmt.Errorf("unknown option")
			}
			if err != nil {
				return nil, fmt.Errorf("rule %q: option %q: %v", part, o, err)
			}
		}
		if r.nth == 0 && r.every == 0 && r.p == 0 {
			r.nth = 1
		}
		if r.kernel != "" && k != faultAICore && k != faultTimeout {
			return nil, fmt.Errorf("rule %q: kernel= applies to aicore and timeout only", part)
		}
		if (k == faultUCE || k == faultECC) && r.length == 0 {
			r.length = 64
		}
		r.rng = rand.New(rand.NewPCG(seed, uint64(len(rules))))
		rules = append(rules, r)
	}
	return rules, nil
}

// loadFaultPlan reads NPUEMU_FAULTS (aclInit): counts start again, and
// the injected device state (lost devices, UCE lists) is cleared.
func loadFaultPlan() error {
	rules, err := parseFaults(os.Getenv("NPUEMU_FAULTS"))
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclInit: NPUEMU_FAULTS: %v (docs/faults.md)", err)
	}
	faults.mu.Lock()
	faults.rules = rules
	faults.uce = map[int32][]MemUceInfo{}
	faults.mu.Unlock()
	core.ForgetLostDevices() // device.go
	faults.active.Store(len(rules) > 0)
	if len(rules) > 0 {
		tsfw.SetSubmitHook(faultSubmit)
	} else {
		tsfw.SetSubmitHook(nil)
	}
	return nil
}

// hit counts one event and reports whether the rule fires on it.
// Precondition: faults.mu held.
func (r *faultRule) hit() bool {
	r.count++
	switch {
	case r.nth > 0:
		return r.count == r.nth
	case r.every > 0:
		return r.count%r.every == 0
	default:
		return r.rng.Float64()*100 < r.p
	}
}

// faultMalloc fails an aclrtMalloc when an oom rule fires.
func faultMalloc(fn string, dev int32, size uint64) error {
	if !faults.active.Load() {
		return nil
	}
	faults.mu.Lock()
	defer faults.mu.Unlock()
	var err error
	for _, r := range faults.rules {
		if r.kind == faultOOM && (r.dev < 0 || r.dev == dev) && r.hit() && err == nil {
			err = abi.Errorf(abi.ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: %d bytes on device %d: injected out-of-memory (NPUEMU_FAULTS rule %d, allocation %d)", fn, size, dev, ruleIndex(r), r.count)
		}
	}
	return err
}

// Precondition: faults.mu held.
func ruleIndex(r *faultRule) int {
	for i, x := range faults.rules {
		if x == r {
			return i + 1
		}
	}
	return 0
}

// queueDevice returns the device id of q (-1 if unknown).
func queueDevice(q *tsfw.Queue) int32 {
	n := core.Runtime.Node.Load()
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
		if l, ok := t.Kernel().(*launch); ok && l.f != nil {
			name = l.f.Entry.Name
		}
	}
	faults.mu.Lock()
	defer faults.mu.Unlock()
	// Every rule counts the event; the first that fires on it wins.
	var fired *faultRule
	for _, r := range faults.rules {
		if r.dev >= 0 && r.dev != dev {
			continue
		}
		switch r.kind {
		case faultOOM:
			continue
		case faultAICore, faultTimeout:
			if class != tsfw.ClassKernel || (r.kernel != "" && r.kernel != name) {
				continue
			}
		case faultSDMA:
			if class != tsfw.ClassCopy {
				continue
			}
		}
		if r.hit() && fired == nil {
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
func injected(r *faultRule, dev int32, t tsfw.Task, class tsfw.TaskClass, kernel string) tsfw.Task {
	idx := ruleIndex(r)
	what := fmt.Sprintf("injected by NPUEMU_FAULTS rule %d (%s, event %d)", idx, r.kind, r.count)
	if kernel != "" {
		what += ", kernel " + kernel
	}
	var code abi.Code
	var fire func()
	switch r.kind {
	case faultAICore:
		code = abi.ACL_ERROR_RT_AICORE_EXCEPTION
	case faultSDMA:
		code = abi.ACL_ERROR_RT_SYS_DMA
	case faultTimeout:
		code = abi.ACL_ERROR_RT_TASK_TIMEOUT
		if class == tsfw.ClassKernel {
			code = abi.ACL_ERROR_RT_AICORE_TIMEOUT
		}
	case faultUCE, faultECC:
		code = abi.ACL_ERROR_RT_DEVICE_MEM_ERROR
		if r.kind == faultECC {
			code = abi.ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR
		}
		info := MemUceInfo{Addr: r.addr, Len: r.length}
		what += fmt.Sprintf(", HBM address %#x (+%d bytes)", r.addr, r.length)
		fire = func() {
			faults.mu.Lock()
			faults.uce[dev] = append(faults.uce[dev], info)
			faults.mu.Unlock()
			emu.ReportHealth(emu.HealthEvent{Device: dev, Level: emu.HealthMajor, Code: int32(code), Reason: "injected " + r.kind.String() + " error"})
		}
	case faultLost, faultHeartbeat:
		code = abi.ACL_ERROR_RT_DEVICE_TASK_ABORT
		reason := "device lost"
		if r.kind == faultHeartbeat {
			code, reason = abi.ACL_ERROR_RT_LOST_HEARTBEAT, "device heartbeat lost"
		}
		lostErr := abi.Errorf(code, "device %d: %s (%s); aclrtResetDevice recovers it", dev, reason, what)
		fire = func() {
			core.MarkDeviceLost(dev, lostErr) // device.go
			emu.ReportHealth(emu.HealthEvent{Device: dev, Level: emu.HealthCritical, Code: int32(code), Reason: "injected " + reason})
		}
	}
	return tsfw.Faulty(t, abi.Errorf(code, "%s", what), fire)
}

// clearInjectedFaults forgets a device's injected memory errors
// (aclrtResetDevice, aclFinalize): the reset recovers the device (its loss
// is forgotten by the runtime core, rt/core/device.go).
func clearInjectedFaults(dev int32) {
	if !faults.active.Load() {
		return
	}
	faults.mu.Lock()
	delete(faults.uce, dev)
	faults.mu.Unlock()
	emu.ReportHealth(emu.HealthEvent{Device: dev, Level: emu.HealthOK, Reason: "device reset"})
}

// injectedUCE returns the UCE ranges injected on dev.
func injectedUCE(dev int32) []MemUceInfo {
	faults.mu.Lock()
	defer faults.mu.Unlock()
	return append([]MemUceInfo(nil), faults.uce[dev]...)
}

// repairUCE removes a reported range; it reports whether it was one.
func repairUCE(dev int32, in MemUceInfo) bool {
	faults.mu.Lock()
	defer faults.mu.Unlock()
	l := faults.uce[dev]
	for i, x := range l {
		if x == in {
			faults.uce[dev] = append(l[:i], l[i+1:]...)
			return true
		}
	}
	return false
}
