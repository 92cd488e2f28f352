package core

import "unsafe"

// peekU32 reads the native-endian uint32 at a device address (the index
// of aclrtSwitchLabelByIndex, an int32 operand of aclrtSwitchStream),
// reinterpreting it like peekU64.
func peekU32(addr uintptr) uint32 {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return *(*uint32)(p)
}
