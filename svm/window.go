package svm

import (
	"sync"
	"syscall"
)

// The documented managed window must be free when the first managed
// allocation is made, but in a c-shared library the Go runtime randomises
// its heap arena hints over the whole address space and a 64 MiB arena can
// land inside [ManagedBase, +ManagedSize). So the library reserves the
// window in a C constructor that runs before the Go runtime starts, and
// hands it over with AdoptWindow; reserveWindow then takes that reservation
// instead of mapping a new one, and releaseWindow keeps it reserved for the
// next Space of the process.
var adopted struct {
	mu    sync.Mutex // guards the fields below
	base  uintptr
	size  uint64
	inUse bool
}

// AdoptWindow records a PROT_NONE reservation of [base, base+size) made
// before the Go runtime started; base 0 records nothing.
func AdoptWindow(base uintptr, size uint64) {
	adopted.mu.Lock()
	defer adopted.mu.Unlock()
	adopted.base, adopted.size = base, size
}

// takeAdopted reports whether [base, base+size) is the adopted reservation
// and, if it is free, marks it in use.
func takeAdopted(base uintptr, size uint64) bool {
	adopted.mu.Lock()
	defer adopted.mu.Unlock()
	if adopted.base == 0 || adopted.base != base || adopted.size != size || adopted.inUse {
		return false
	}
	adopted.inUse = true
	return true
}

// releaseWindow gives a Space's window back: the adopted reservation is
// reset to fresh PROT_NONE pages and kept; any other window is unmapped.
func releaseWindow(base uintptr, size uint64) error {
	adopted.mu.Lock()
	defer adopted.mu.Unlock()
	if adopted.inUse && base == adopted.base && size == adopted.size {
		flags := uintptr(syscall.MAP_PRIVATE | syscall.MAP_ANONYMOUS | syscall.MAP_NORESERVE | syscall.MAP_FIXED)
		if _, _, errno := syscall.Syscall6(syscall.SYS_MMAP, base, uintptr(size), syscall.PROT_NONE, flags, ^uintptr(0), 0); errno != 0 {
			return errno
		}
		adopted.inUse = false
		return nil
	}
	return unmap(base, size)
}
