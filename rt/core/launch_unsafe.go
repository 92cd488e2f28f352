package core

import "unsafe"

// PeekU64 reads the native-endian uint64 at a device address. Device
// memory is host memory of the HBM mapping, outside the Go heap, so the
// address is reinterpreted through memory rather than converted from a
// uintptr expression. Precondition: the 8 bytes lie in a live allocation.
func PeekU64(addr uintptr) uint64 {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return *(*uint64)(p)
}
