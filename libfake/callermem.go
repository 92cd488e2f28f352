package main

import (
	"unsafe"

	"github.com/npuemu/npuemu/abi"
)

// Sizes the caller describes its own memory with (a length, a count of
// elements) are checked before any slice over that memory is made: a
// count whose byte size exceeds any user address space (SIZE_MAX, a
// negative value passed as size_t, an overflowing product) is refused with
// ACL_ERROR_INVALID_PARAM (DRV_ERROR_INVALID_VALUE for a HAL symbol) and
// the call does nothing. A size that fits an address space but lies about
// the buffer is a wild pointer into the caller's own memory: it faults as
// it does with the real runtime (docs/hardening.md).

// maxCallerBytes is the largest host buffer a caller can describe: 2^48,
// the user address space of x86-64 and aarch64 with 4-level page tables.
const maxCallerBytes = 1 << 48

// rejection is the panic value of a boundary check that refuses the call;
// the export's guard (recover.go) returns its code and records its message
// prefixed with the symbol.
type rejection struct{ err error }

// refuse aborts the current export with ACL_ERROR_INVALID_PARAM and the
// formatted reason (through the guard).
func refuse(format string, args ...any) {
	panic(rejection{abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, format, args...)})
}

// callerLen returns n, a count of elem-byte elements of caller memory that
// what names, as an int, refusing the call when the buffer could not exist.
func callerLen(what string, n uint64, elem uintptr) int {
	if elem == 0 {
		elem = 1
	}
	if n > maxCallerBytes/uint64(elem) {
		refuse("%s %d (%#x) describes more memory than any host buffer can hold", what, n, n)
	}
	return int(n)
}

// callerSlice views n elements of caller memory at p (nil for NULL or 0),
// refusing a count no buffer can hold and one whose end wraps.
func callerSlice[T any](what string, p unsafe.Pointer, n uint64) []T {
	if p == nil || n == 0 {
		return nil
	}
	var z T
	l := callerLen(what, n, unsafe.Sizeof(z))
	if uint64(uintptr(p))+n*uint64(unsafe.Sizeof(z)) < uint64(uintptr(p)) {
		refuse("%s %d at %p wraps around the address space", what, n, p)
	}
	return unsafe.Slice((*T)(p), l)
}
