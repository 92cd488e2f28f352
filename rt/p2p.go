package rt

import (
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// The runtime's peer-to-peer calls (rt-to-hal.tsv): each is one driver
// call, halDeviceEnableP2P / halDeviceDisableP2P / halDeviceCanAccessPeer,
// made through rt/stack (an interposed hal definition sees it), whose code
// is converted to the runtime's (rt-types.md §8.4). The switch they set is
// the driver's (hal/p2p.go), the one aclrtDeviceEnablePeerAccess sets
// (acl/peer_driver.go). rtsGetP2PStatus is drvGetP2PStatus underneath, not
// a routed boundary: it reads the switch directly.

// EnableP2P implements rtEnableP2P(devIdDes, phyIdSrc, flag).
func EnableP2P(t *core.Thread, dev, peerPhy, flag uint32) error {
	return wrap("rtEnableP2P", stack.DeviceEnableP2P(dev, peerPhy, flag))
}

// DisableP2P implements rtDisableP2P(devIdDes, phyIdSrc).
func DisableP2P(t *core.Thread, dev, peerPhy uint32) error {
	return wrap("rtDisableP2P", stack.DeviceDisableP2P(dev, peerPhy, 0))
}

// DeviceCanAccessPeer implements rtDeviceCanAccessPeer.
func DeviceCanAccessPeer(t *core.Thread, can *int32, dev, peer uint32) error {
	if can == nil {
		return invalid("rtDeviceCanAccessPeer", "canAccessPeer must not be NULL")
	}
	return wrap("rtDeviceCanAccessPeer", stack.DeviceCanAccessPeer(can, dev, peer))
}

// GetP2PStatus implements rtsGetP2PStatus: 1 while the driver's switch
// from dev to peerPhy is on, else 0.
func GetP2PStatus(t *core.Thread, dev, peerPhy uint32, status *uint32) error {
	const fn = "rtsGetP2PStatus"
	if status == nil {
		return invalid(fn, "status must not be NULL")
	}
	var can int32
	if err := hal.DeviceCanAccessPeer(&can, dev, peerPhy); err != nil {
		return wrap(fn, err)
	}
	*status = 0
	if hal.P2PEnabled(dev, peerPhy) {
		*status = 1
	}
	return nil
}

// PhyIDByIndex implements rtGetDevicePhyIdByIndex (the driver's
// drvDeviceGetPhyIdByIndex: physical ids equal logical ids here).
func PhyIDByIndex(t *core.Thread, index uint32, phy *uint32) error {
	if phy == nil {
		return invalid("rtGetDevicePhyIdByIndex", "phyId must not be NULL")
	}
	return wrap("rtGetDevicePhyIdByIndex", stack.DeviceGetPhyIDByIndex(index, phy))
}
