package hal

import (
	"sync"

	"github.com/npuemu/npuemu/emu"
)

// noteUsage tells the per-module accounting of node n's platform
// (emu.Platform.NoteUsage) of a change of device memory made through the
// HAL: delta bytes (negative: freed) charged to module on device d — for
// halMemAlloc the module id of bits 56–63 of the flag word (page-rounded
// size, until halMemFree), for halMemCreate the moduleId of its prop
// (until the handle's last halMemRelease). The counters of
// aclrtGetMemUsageInfo live in package acl, which hal does not import.
func noteUsage(n *emu.Node, d *emu.Device, module uint16, delta int64) {
	if f := n.Platform().NoteUsage; f != nil && d != nil {
		f(d, module, delta)
	}
}

// vmmCharge is what a halMemCreate handle charged.
type vmmCharge struct {
	n      *emu.Node
	d      *emu.Device
	module uint16
	size   uint64
}

// created maps the live halMemCreate handles of device memory to their
// charge (handles of a closed node are dropped at the next create).
var created struct {
	mu   sync.Mutex
	node *emu.Node
	m    map[uint64]vmmCharge
}

// chargeCreated charges halMemCreate handle h of size bytes to the module
// of its prop; host memory is not device memory.
func chargeCreated(n *emu.Node, h, size uint64, p emu.PhysProp) {
	if p.Host {
		return
	}
	d := n.Opened(p.Dev)
	if d == nil {
		return
	}
	c := vmmCharge{n: n, d: d, module: uint16(p.Module), size: size}
	created.mu.Lock()
	if created.node != n {
		created.node, created.m = n, map[uint64]vmmCharge{}
	}
	created.m[h] = c
	created.mu.Unlock()
	noteUsage(c.n, c.d, c.module, int64(c.size))
}

// dischargeCreated releases h's charge once its last reference is gone.
func dischargeCreated(h uint64) {
	created.mu.Lock()
	c, ok := created.m[h]
	delete(created.m, h)
	created.mu.Unlock()
	if ok {
		noteUsage(c.n, c.d, c.module, -int64(c.size))
	}
}
