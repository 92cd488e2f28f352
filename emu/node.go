package emu

import (
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// Node is the emulated machine: DeviceCount devices of one SoC and the host's
// pinned memory. Devices cost nothing until Device opens them.
type Node struct {
	cfg  Config
	soc  SoC
	plat Platform // given at creation (platform.go)
	host HostMem
	vmm  *VMM // reservations, physical handles, shared and registered memory (vmm.go)

	devs []atomic.Pointer[Device] // set once by open; read lock-free
	dir  *NodeDir                 // the shared node directory; nil: private to this process
	svm  svmState                 // managed memory, created on first use (svm.go)

	mu     sync.Mutex // serialises opening and Close
	closed bool       // guarded by mu
}

// Device is one opened NPU: its SoC, its memory and its task scheduler.
type Device struct {
	ID  int
	SoC SoC
	HBM *HBM
	TS  *tsfw.Device

	usage moduleUsage // per-module device memory (memusage.go)
}

// NewNode validates cfg and returns a node with no device opened, which
// uses the host platform pieces of plat (platform.go).
func NewNode(cfg Config, plat Platform) (*Node, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Source == "" {
		cfg.Source = "code"
	}
	soc, _ := LookupSoC(cfg.SoC)
	n := &Node{cfg: cfg, soc: soc, plat: plat, devs: make([]atomic.Pointer[Device], cfg.Devices)}
	if cfg.NodeDir != "" {
		dir, err := OpenNodeDir(cfg.NodeDir, cfg, soc, n.HBMTotal())
		if err != nil {
			return nil, err
		}
		n.dir = dir
	}
	n.vmm = newVMM(n)
	return n, nil
}

// Config returns the configuration the node was built from.
func (n *Node) Config() Config { return n.cfg }

// SoC returns the SoC of every device of the node.
func (n *Node) SoC() SoC { return n.soc }

// DeviceCount returns the number of devices, opened or not.
func (n *Node) DeviceCount() int { return len(n.devs) }

// HBMTotal returns the usable device memory of each device: the configured
// hbm_bytes, else the SoC's UsableHBMBytes.
func (n *Node) HBMTotal() uint64 {
	if n.cfg.HBMBytes != 0 {
		return n.cfg.HBMBytes
	}
	return n.soc.UsableHBMBytes
}

// Device returns device id, opening it on first use: its HBM range is
// reserved and its task scheduler started. A bad id →
// ACL_ERROR_RT_INVALID_DEVICEID.
func (n *Node) Device(id int) (*Device, error) {
	if id < 0 || id >= len(n.devs) {
		return nil, abi.DevErrorf(abi.DevNoDevice,
			"emu: device id %d out of range: the node has %d devices (0..%d)", id, len(n.devs), len(n.devs)-1)
	}
	if d := n.devs[id].Load(); d != nil {
		return d, nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil, abi.DevErrorf(abi.DevNoDevice, "emu: device %d: the node is closed", id)
	}
	if d := n.devs[id].Load(); d != nil {
		return d, nil
	}
	name := "dev" + strconv.Itoa(id) // (not fmt: its printer pool would be a fresh page to touch at every start)
	var hbm *HBM
	var err error
	soc := n.soc
	if n.dir != nil {
		phys := n.cfg.PhysicalID(id)
		var v *NodeVNPU
		if v, err = n.dir.vnpuOf(phys); err != nil {
			return nil, err
		}
		if v != nil {
			soc = vnpuSoC(soc, v)
		}
		hbm, err = newNodeHBM(name, n.dir, phys, v)
	} else {
		hbm, err = NewHBM(name, n.HBMTotal())
	}
	if err != nil {
		return nil, err
	}
	if n.plat.PKey != nil {
		hbm.useKey(n.plat.PKey())
	}
	var ts *tsfw.Device
	if n.dir != nil {
		phys := n.cfg.PhysicalID(id)
		cores, err := n.dir.joinCores(phys, soc.CubeCores, soc.VectorCores)
		if err != nil {
			_ = hbm.Close()
			return nil, err
		}
		ts = newSchedulerNode(name, soc, n.cfg.Pacing, n.dir.busyCounter(phys), cores)
	} else {
		ts = newScheduler(name, soc, n.cfg.Pacing)
	}
	d := &Device{ID: id, SoC: soc, HBM: hbm, TS: ts}
	n.devs[id].Store(d)
	return d, nil
}

// Opened returns device id if it has been opened, else nil.
func (n *Node) Opened(id int) *Device {
	if id < 0 || id >= len(n.devs) {
		return nil
	}
	return n.devs[id].Load()
}

// FindDevice returns the opened device whose HBM range holds addr.
func (n *Node) FindDevice(addr uintptr) (*Device, bool) {
	for i := range n.devs {
		if d := n.devs[i].Load(); d != nil && d.HBM.Contains(addr) {
			return d, true
		}
	}
	return nil, false
}

// Dir returns the node directory this node shares with other processes,
// nil when the node is private to this process.
func (n *Node) Dir() *NodeDir { return n.dir }

// Host returns the node's pinned host memory.
func (n *Node) Host() *HostMem { return &n.host }

// Close stops every opened device's scheduler and unmaps all device and
// pinned host memory. Pointers into them become invalid.
func (n *Node) Close() {
	n.closeSVM()
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return
	}
	n.closed = true
	n.mu.Unlock()
	// Outside n.mu: VMM.Export holds VMM.mu and may open a device (n.mu),
	// so n.mu is never held while VMM.mu is taken (docs/internals.md,
	// "Lock order"). Device opens already see closed.
	n.vmm.close()
	n.mu.Lock()
	defer n.mu.Unlock()
	// munmap of a range this package mapped cannot fail short of a bug, and
	// a teardown has no caller to report to: the errors are dropped.
	for i := range n.devs {
		d := n.devs[i].Swap(nil)
		if d == nil {
			continue
		}
		d.TS.Close()
		_ = d.HBM.Close()
	}
	_ = n.host.Close()
	if n.dir != nil {
		n.dir.Close()
	}
}
