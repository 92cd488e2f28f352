package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/stack"
)

// Peer access rests on the driver's peer-to-peer switch (hal/p2p.go), as
// on the real stack (acl-to-rt.tsv, rt-to-hal.tsv):
//
//	aclrtDeviceCanAccessPeer     → rtDeviceCanAccessPeer → halDeviceCanAccessPeer
//	aclrtDeviceEnablePeerAccess  → rtEnableP2P           → halDeviceEnableP2P
//	aclrtDeviceDisablePeerAccess → rtDisableP2P          → halDeviceDisableP2P
//	aclrtDevicePeerAccessStatus  → rtsGetP2PStatus       → drvGetP2PStatus
//
// The rt* → hal* calls go through rt/stack, so a hook on the hal symbols
// sees an ACL program's peer traffic in both layouts, and what the hook
// answers is what the program gets. The aclrt* → rt* step binds inside
// npuemu in both layouts (it is not among the routed calls yet). ACL's own
// argument checks come first and keep their ACL_ERROR_INVALID_PARAM; a
// driver error is converted to the rt code (abi.RTCodeOf). Physical ids
// equal logical ids, so rtGetDevicePhyIdByIndex is the identity. The
// switch is the node's: aclFinalize turns it off (hal.ResetP2P).

// driverPeer reports whether the driver's switch connects devices a and b
// in either direction: copies and aclrtMemP2PMap accept it as peer access.
func driverPeer(a, b int32) bool {
	if a < 0 || b < 0 {
		return false
	}
	return hal.P2PEnabled(uint32(a), uint32(b)) || hal.P2PEnabled(uint32(b), uint32(a))
}

// driverErr is the rt error of fn for a driver call's error.
func driverErr(fn string, err error) error {
	if err == nil {
		return nil
	}
	return abi.Errorf(abi.RTCodeOf(err), "%s: %s", fn, messageOf(err))
}

// DeviceCanAccessPeer implements aclrtDeviceCanAccessPeer: any two distinct
// devices of the node, except on 310B (no P2P); the driver answers.
func DeviceCanAccessPeer(t *Thread, can *int32, id, peer int32) error {
	const fn = "aclrtDeviceCanAccessPeer"
	if can == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: canAccessPeer must not be NULL", fn)
	}
	if err := checkDeviceID(fn, id); err != nil {
		return err
	}
	if err := checkDeviceID(fn, peer); err != nil {
		return err
	}
	if id == peer {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: deviceId and peerDeviceId are both %d", fn, id)
	}
	var v int32
	if err := stack.DeviceCanAccessPeer(&v, uint32(id), uint32(peer)); err != nil {
		return driverErr(fn, err)
	}
	*can = v
	return nil
}

// DeviceEnablePeerAccess implements aclrtDeviceEnablePeerAccess (current
// device → peer, at most maxPeers peers): rtEnableP2P(current, peer, flags).
func DeviceEnablePeerAccess(t *Thread, peer int32, flags uint32) error {
	const fn = "aclrtDeviceEnablePeerAccess"
	if flags != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags must be 0, got %d", fn, flags)
	}
	c, err := current(t, fn)
	if err != nil {
		return err
	}
	if err := checkDeviceID(fn, peer); err != nil {
		return err
	}
	dev := c.dev.id
	if peer == dev {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: device %d cannot be its own peer", fn, peer)
	}
	if !hal.P2PEnabled(uint32(dev), uint32(peer)) {
		_, node, err := soc(fn)
		if err != nil {
			return err
		}
		n := 0
		for p := range node.DeviceCount() {
			if hal.P2PEnabled(uint32(dev), uint32(p)) {
				n++
			}
		}
		if n >= maxPeers {
			return abi.Errorf(abi.ACL_ERROR_RT_OVER_LIMIT, "%s: device %d already has %d peers enabled (the limit)", fn, dev, maxPeers)
		}
	}
	return driverErr(fn, stack.DeviceEnableP2P(uint32(dev), uint32(peer), flags))
}

// DeviceDisablePeerAccess implements aclrtDeviceDisablePeerAccess:
// rtDisableP2P(current, peer); a pair not enabled is the driver's
// DRV_ERROR_INVALID_VALUE, ACL_ERROR_RT_PARAM_INVALID.
func DeviceDisablePeerAccess(t *Thread, peer int32) error {
	const fn = "aclrtDeviceDisablePeerAccess"
	c, err := current(t, fn)
	if err != nil {
		return err
	}
	if err := checkDeviceID(fn, peer); err != nil {
		return err
	}
	return driverErr(fn, stack.DeviceDisableP2P(uint32(c.dev.id), uint32(peer), 0))
}

// DevicePeerAccessStatus implements aclrtDevicePeerAccessStatus: 1 while
// the driver's switch from id to peer is on.
func DevicePeerAccessStatus(t *Thread, id, peer int32, status *int32) error {
	const fn = "aclrtDevicePeerAccessStatus"
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: status must not be NULL", fn)
	}
	if err := checkDeviceID(fn, id); err != nil {
		return err
	}
	if err := checkDeviceID(fn, peer); err != nil {
		return err
	}
	*status = 0
	if hal.P2PEnabled(uint32(id), uint32(peer)) {
		*status = 1
	}
	return nil
}
