package acl

import "github.com/npuemu/npuemu/hal"

// driverPeer reports whether the driver's peer-to-peer switch
// (halDeviceEnableP2P, or rtEnableP2P above it) connects devices a and b
// in either direction. Copies and aclrtMemP2PMap accept it as peer access,
// as they accept aclrtDeviceEnablePeerAccess: on the real stack that call
// is rtEnableP2P → halDeviceEnableP2P, one switch.
func driverPeer(a, b int32) bool {
	if a < 0 || b < 0 {
		return false
	}
	return hal.P2PEnabled(uint32(a), uint32(b)) || hal.P2PEnabled(uint32(b), uint32(a))
}
