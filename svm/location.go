package svm

import (
	"fmt"
	"math/bits"

	"github.com/npuemu/npuemu/abi"
)

// Location is where a page (or a copy of it) lives: the host or device N.
// The numbering follows the HAL range attributes (MEM_RANGE_CPU_DEVICE_ID −1
// for the CPU, MEM_RANGE_INVALID_DEVICE_ID −2 for "none / mixed"), so values
// pass straight through aclrtMemManagedGetAttr.
type Location int32

const (
	// Host is the CPU side (every host NUMA node is one location here).
	Host Location = abi.MEM_RANGE_CPU_DEVICE_ID
	// NoLocation means "not set" or, in range queries, "not the same for
	// every page".
	NoLocation Location = abi.MEM_RANGE_INVALID_DEVICE_ID
)

// MaxDevices is the number of devices one Space can model: locations are
// kept in one 64-bit set, bit 0 the host, bit d+1 device d.
const MaxDevices = 63

func (l Location) String() string {
	switch {
	case l == Host:
		return "host"
	case l == NoLocation:
		return "none"
	case l >= 0:
		return fmt.Sprintf("device %d", int32(l))
	}
	return fmt.Sprintf("location(%d)", int32(l))
}

// LocationFromACL converts an aclrtMemManagedLocation {type, id}. The host
// NUMA kinds name the host: npuemu models one host memory node.
func LocationFromACL(typ, id int32) (Location, error) {
	switch typ {
	case abi.ACL_MEM_LOCATIONTYPE_DEVICE:
		if id < 0 || id >= MaxDevices {
			return NoLocation, abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "managed location: device id %d is invalid", id)
		}
		return Location(id), nil
	case abi.ACL_MEM_LOCATIONTYPE_HOST, abi.ACL_MEM_LOCATIONTYPE_HOST_NUMA, abi.ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT:
		return Host, nil
	}
	return NoLocation, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "managed location: type %d is not a valid aclrtMemManagedLocationType", typ)
}

// LocationFromHAL converts a struct drv_uvm_location {type, id}.
func LocationFromHAL(typ, id uint32) (Location, error) {
	switch typ {
	case abi.DRV_UVM_LOCATION_TYPE_DEVICE:
		if id >= MaxDevices {
			return NoLocation, abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "drv_uvm_location: device id %d is invalid", id)
		}
		return Location(id), nil
	case abi.DRV_UVM_LOCATION_TYPE_HOST, abi.DRV_UVM_LOCATION_TYPE_HOST_NUMA:
		return Host, nil
	}
	return NoLocation, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "drv_uvm_location: type %d is not a valid drv_uvm_location_type", typ)
}

// locSet is a set of locations: bit 0 the host, bit d+1 device d.
type locSet uint64

func bit(l Location) locSet                { return 1 << uint(l+1) }
func (s locSet) has(l Location) bool       { return s&bit(l) != 0 }
func (s locSet) with(l Location) locSet    { return s | bit(l) }
func (s locSet) without(l Location) locSet { return s &^ bit(l) }

// each calls fn for every location in s, host first.
func (s locSet) each(fn func(Location)) {
	for s != 0 {
		i := bits.TrailingZeros64(uint64(s))
		s &^= 1 << uint(i)
		fn(Location(i - 1))
	}
}

// list returns the members of s in ascending order.
func (s locSet) list() []Location {
	out := make([]Location, 0, bits.OnesCount64(uint64(s)))
	s.each(func(l Location) { out = append(out, l) })
	return out
}
