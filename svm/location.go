package svm

import (
	"fmt"
	"math/bits"
)

// Location is where a page (or a copy of it) lives: the host or device N
// (N ≥ 0). The API layers decode their location structs into it (acl:
// aclrtMemManagedLocation, hal: drv_uvm_location). The two negative values
// were chosen equal to the HAL's range-attribute ids (MEM_RANGE_CPU_DEVICE_ID
// −1, MEM_RANGE_INVALID_DEVICE_ID −2), so the layers above pass a Location
// through unchanged to aclrtMemManagedGetAttr and
// halMemManagedRangeGetAttributes; hal's tests hold the two equal.
type Location int32

const (
	// Host is the CPU side (every host NUMA node is one location here).
	Host Location = -1
	// NoLocation means "not set" or, in range queries, "not the same for
	// every page".
	NoLocation Location = -2
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
