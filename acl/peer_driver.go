package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
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
// answers is what the program gets. The aclrt* → rt* calls go through
// below() (peerCalls): in the split layout a hook on rtGetDevice,
// rtGetDevicePhyIdByIndex, rtDeviceCanAccessPeer, rtEnableP2P,
// rtDisableP2P or rtsGetP2PStatus sees them (and its code is the ACL
// call's result); in merged they bind inside. ACL's own argument checks
// come first and keep their ACL_ERROR_INVALID_PARAM; a driver error is
// converted to the rt code (abi.RTCodeOf). Physical ids equal logical ids,
// so rtGetDevicePhyIdByIndex is the identity. The switch is the node's:
// aclFinalize turns it off (hal.ResetP2P).

// DeviceCanAccessPeer implements aclrtDeviceCanAccessPeer: any two distinct
// devices of the node, except on 310B (no P2P); the driver answers.
func DeviceCanAccessPeer(t *core.Thread, can *int32, id, peer int32) error {
	const fn = "aclrtDeviceCanAccessPeer"
	if can == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: canAccessPeer must not be NULL", fn)
	}
	if err := core.CheckDeviceID(fn, id); err != nil {
		return err
	}
	if err := core.CheckDeviceID(fn, peer); err != nil {
		return err
	}
	if id == peer {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: deviceId and peerDeviceId are both %d", fn, id)
	}
	phy, err := below().phyID(fn, peer)
	if err != nil {
		return err
	}
	var v int32
	if err := below().canAccessPeer(fn, &v, uint32(id), phy); err != nil {
		return err
	}
	*can = v
	return nil
}

// DeviceEnablePeerAccess implements aclrtDeviceEnablePeerAccess (current
// device → peer, at most maxPeers peers): rtEnableP2P(current, peer, flags).
func DeviceEnablePeerAccess(t *core.Thread, peer int32, flags uint32) error {
	const fn = "aclrtDeviceEnablePeerAccess"
	if flags != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags must be 0, got %d", fn, flags)
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	if err := core.CheckDeviceID(fn, peer); err != nil {
		return err
	}
	dev, err := below().currentDevice(c)
	if err != nil {
		return err
	}
	if peer == dev {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: device %d cannot be its own peer", fn, peer)
	}
	if !hal.P2PEnabled(uint32(dev), uint32(peer)) {
		_, node, err := core.SoC(fn)
		if err != nil {
			return err
		}
		n := 0
		for p := range node.DeviceCount() {
			if hal.P2PEnabled(uint32(dev), uint32(p)) {
				n++
			}
		}
		if n >= core.MaxPeers {
			return abi.Errorf(abi.ACL_ERROR_RT_OVER_LIMIT, "%s: device %d already has %d peers enabled (the limit)", fn, dev, core.MaxPeers)
		}
	}
	phy, err := below().phyID(fn, peer)
	if err != nil {
		return err
	}
	return below().enableP2P(fn, uint32(dev), phy, flags)
}

// DeviceDisablePeerAccess implements aclrtDeviceDisablePeerAccess:
// rtDisableP2P(current, peer); a pair not enabled is the driver's
// DRV_ERROR_INVALID_VALUE, ACL_ERROR_RT_PARAM_INVALID.
func DeviceDisablePeerAccess(t *core.Thread, peer int32) error {
	const fn = "aclrtDeviceDisablePeerAccess"
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	if err := core.CheckDeviceID(fn, peer); err != nil {
		return err
	}
	dev, err := below().currentDevice(c)
	if err != nil {
		return err
	}
	phy, err := below().phyID(fn, peer)
	if err != nil {
		return err
	}
	return below().disableP2P(fn, uint32(dev), phy)
}

// DevicePeerAccessStatus implements aclrtDevicePeerAccessStatus: 1 while
// the driver's switch from id to peer is on.
func DevicePeerAccessStatus(t *core.Thread, id, peer int32, status *int32) error {
	const fn = "aclrtDevicePeerAccessStatus"
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: status must not be NULL", fn)
	}
	if err := core.CheckDeviceID(fn, id); err != nil {
		return err
	}
	if err := core.CheckDeviceID(fn, peer); err != nil {
		return err
	}
	if f := stack.RT.GetP2PStatus; f != nil {
		var st uint32
		if err := f(uint32(id), uint32(peer), &st); err != nil {
			return err
		}
		*status = int32(st)
		return nil
	}
	*status = 0
	if hal.P2PEnabled(uint32(id), uint32(peer)) {
		*status = 1
	}
	return nil
}

// The peer-access rt* calls of the ACL surface: the interposed definition
// (stack.RT, split layout) when there is one, whose code is returned as
// is; the runtime's own step otherwise.

// currentDevice is rtGetDevice: the device of c, the thread's current
// context.
func (runtimeCalls) currentDevice(c *core.Context) (int32, error) {
	if f := stack.RT.GetDevice; f != nil {
		var d int32
		err := f(&d)
		return d, err
	}
	return c.Dev.ID, nil
}

// phyID is rtGetDevicePhyIdByIndex of a logical device id.
func (runtimeCalls) phyID(fn string, id int32) (uint32, error) {
	var phy uint32
	if f := stack.RT.GetDevicePhyIDByIndex; f != nil {
		return phy, f(uint32(id), &phy)
	}
	return phy, core.DriverErr(fn, stack.DeviceGetPhyIDByIndex(uint32(id), &phy))
}

// canAccessPeer is rtDeviceCanAccessPeer.
func (runtimeCalls) canAccessPeer(fn string, can *int32, dev, phy uint32) error {
	if f := stack.RT.DeviceCanAccessPeer; f != nil {
		return f(can, dev, phy)
	}
	return core.DriverErr(fn, stack.DeviceCanAccessPeer(can, dev, phy))
}

// enableP2P is rtEnableP2P.
func (runtimeCalls) enableP2P(fn string, dev, phy, flags uint32) error {
	if f := stack.RT.EnableP2P; f != nil {
		return f(dev, phy, flags)
	}
	return core.DriverErr(fn, stack.DeviceEnableP2P(dev, phy, flags))
}

// disableP2P is rtDisableP2P.
func (runtimeCalls) disableP2P(fn string, dev, phy uint32) error {
	if f := stack.RT.DisableP2P; f != nil {
		return f(dev, phy)
	}
	return core.DriverErr(fn, stack.DeviceDisableP2P(dev, phy, 0))
}
