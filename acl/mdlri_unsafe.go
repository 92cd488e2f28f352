package acl

import "unsafe"

// hostBytes views n bytes of application host memory at p (the host
// arguments of aclmdlRITaskSetParams); the caller copies them at once.
// Like peekU64, it reinterprets the address through memory: it is C
// memory, never Go memory.
func hostBytes(p uintptr, n uint64) []byte {
	if n == 0 {
		return nil
	}
	ptr := *(*unsafe.Pointer)(unsafe.Pointer(&p))
	return unsafe.Slice((*byte)(ptr), n)
}
