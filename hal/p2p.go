package hal

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// The driver's peer-to-peer switch (halDeviceCanAccessPeer,
// halDeviceEnableP2P, halDeviceDisableP2P) and the memory module's
// per-device open (drvMemDeviceOpen, drvMemDeviceClose). The prototypes
// are not in hal-api.md; cmd/specgen/hal_public.go records where they come
// from. Decisions (docs/hal.md, "Peer-to-peer and device open"):
//   - which pairs can reach each other is the ACL answer
//     (aclrtDeviceCanAccessPeer): any two distinct devices of the node,
//     none on 310B, which has no P2P;
//   - physical ids equal logical ids in npuemu, so peer_dev (a physical id
//     in the driver's parameter names) is checked as a device id;
//   - the switch is a per-process record of directed pairs (dev → peer);
//     enabling twice is not an error, disabling a pair that is not
//     enabled is DRV_ERROR_INVALID_VALUE; flag is reserved and not
//     checked, as no public document gives it values.

// p2p is the driver's record of enabled pairs.
var p2p struct {
	mu      sync.Mutex          // leaf
	enabled map[[2]uint32]bool  // guarded by mu: dev → peer
	opened  map[uint32]struct{} // guarded by mu: devices drvMemDeviceOpen opened
}

// peerPair validates a (dev, peer) pair of function fn and returns the
// node's SoC.
func peerPair(fn string, dev, peer uint32) (emu.SoC, error) {
	n, err := nodeDevice(fn, dev)
	if err != nil {
		return emu.SoC{}, err
	}
	if err := checkDevice(fn, n, peer); err != nil {
		return emu.SoC{}, err
	}
	if dev == peer {
		return emu.SoC{}, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: dev and peer_dev are both %d: a device is not its own peer", fn, dev)
	}
	return n.SoC(), nil
}

// DeviceCanAccessPeer implements halDeviceCanAccessPeer: 1 when dev can
// reach peer's memory directly.
func DeviceCanAccessPeer(can *int32, dev, peer uint32) error {
	const fn = "halDeviceCanAccessPeer"
	if can == nil {
		return nullArg(fn, "canAccessPeer")
	}
	s, err := peerPair(fn, dev, peer)
	if err != nil {
		return err
	}
	*can = 1
	if s.Family == emu.Family310B {
		*can = 0
	}
	return nil
}

// DeviceEnableP2P implements halDeviceEnableP2P: dev may reach peer's
// memory from now on.
func DeviceEnableP2P(dev, peer, flag uint32) error {
	const fn = "halDeviceEnableP2P"
	s, err := peerPair(fn, dev, peer)
	if err != nil {
		return err
	}
	if s.Family == emu.Family310B {
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: %s has no peer-to-peer access", fn, s.Name)
	}
	p2p.mu.Lock()
	defer p2p.mu.Unlock()
	if p2p.enabled == nil {
		p2p.enabled = map[[2]uint32]bool{}
	}
	p2p.enabled[[2]uint32{dev, peer}] = true
	return nil
}

// DeviceDisableP2P implements halDeviceDisableP2P.
func DeviceDisableP2P(dev, peer, flag uint32) error {
	const fn = "halDeviceDisableP2P"
	if _, err := peerPair(fn, dev, peer); err != nil {
		return err
	}
	p2p.mu.Lock()
	defer p2p.mu.Unlock()
	if !p2p.enabled[[2]uint32{dev, peer}] {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: P2P from device %d to %d is not enabled", fn, dev, peer)
	}
	delete(p2p.enabled, [2]uint32{dev, peer})
	return nil
}

// P2PEnabled reports whether halDeviceEnableP2P(dev, peer) is in force.
func P2PEnabled(dev, peer uint32) bool {
	p2p.mu.Lock()
	defer p2p.mu.Unlock()
	return p2p.enabled[[2]uint32{dev, peer}]
}

// ResetP2P turns every pair of the switch off: the emulated node closed
// (aclFinalize), and the switch is that node's.
func ResetP2P() {
	p2p.mu.Lock()
	defer p2p.mu.Unlock()
	p2p.enabled = nil
}

// MemDeviceOpen implements drvMemDeviceOpen: the memory module of device
// devid is opened for this process (its memory range, as the first
// halMemAlloc would). devfd is the descriptor of the device file on
// hardware; npuemu has none, so it is not checked. Opening an open device
// again succeeds, as the driver treats a repeated open as already done.
func MemDeviceOpen(devid uint32, devfd int32) error {
	const fn = "drvMemDeviceOpen"
	n, err := node(fn)
	if err != nil {
		return err
	}
	if _, err := openDevice(fn, n, devid); err != nil {
		return err
	}
	p2p.mu.Lock()
	defer p2p.mu.Unlock()
	if p2p.opened == nil {
		p2p.opened = map[uint32]struct{}{}
	}
	p2p.opened[devid] = struct{}{}
	return nil
}

// MemDeviceClose implements drvMemDeviceClose: the pairing call of
// drvMemDeviceOpen. The device itself stays open (its memory belongs to
// the process until aclFinalize / process exit, as ACL allocations may
// share it); a device that drvMemDeviceOpen did not open is
// DRV_ERROR_INVALID_VALUE.
func MemDeviceClose(devid uint32) error {
	const fn = "drvMemDeviceClose"
	if _, err := nodeDevice(fn, devid); err != nil {
		return err
	}
	p2p.mu.Lock()
	defer p2p.mu.Unlock()
	if _, ok := p2p.opened[devid]; !ok {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: device %d was not opened with drvMemDeviceOpen", fn, devid)
	}
	delete(p2p.opened, devid)
	return nil
}
