package acl

import "unsafe"

// pokeU64 writes the native-endian uint64 at a device address (the
// initial value of a condition word), reinterpreting it like peekU64.
func pokeU64(addr uintptr, v uint64) {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	*(*uint64)(p) = v
}
