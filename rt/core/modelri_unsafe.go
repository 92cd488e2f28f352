package core

import (
	"unsafe"
)

// peekU32 reads the native-endian uint32 at a device address (the index
// of aclrtSwitchLabelByIndex, an int32 operand of aclrtSwitchStream),
// reinterpreting it like peekU64.
func peekU32(addr uintptr) uint32 {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return *(*uint32)(p)
}

// HostBytes views n bytes of application host memory at p (the host
// arguments of aclmdlRITaskSetParams); the caller copies them at once.
// Like peekU64, it reinterprets the address through memory: it is C
// memory, never Go memory.
func HostBytes(p uintptr, n uint64) []byte {
	if n == 0 {
		return nil
	}
	ptr := *(*unsafe.Pointer)(unsafe.Pointer(&p))
	return unsafe.Slice((*byte)(ptr), n)
}
