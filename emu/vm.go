package emu

import (
	"fmt"
	"syscall"
)

// The raw mmap/madvise/munmap calls below work on uintptr addresses, so no
// unsafe conversion is needed: the mapped memory is never a Go object.

const (
	pageSize     = 4 << 10
	hugePageSize = 2 << 20
)

// reserve maps size bytes of private anonymous memory that costs nothing
// until touched (MAP_NORESERVE) and asks for transparent huge pages. The
// returned address is aligned to a huge page; raw/rawLen describe the whole
// mapping for unmap.
func reserve(size uint64) (base, raw uintptr, rawLen uint64, err error) {
	rawLen = size + hugePageSize
	if rawLen < size {
		return 0, 0, 0, fmt.Errorf("reservation of %d bytes overflows", size)
	}
	fd := -1
	r, _, errno := syscall.Syscall6(syscall.SYS_MMAP, 0, uintptr(rawLen),
		syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE,
		uintptr(fd), 0)
	if errno != 0 {
		return 0, 0, 0, fmt.Errorf("mmap of %d bytes: %w", rawLen, errno)
	}
	base = alignUp(r, hugePageSize)
	// Transparent huge pages are a performance hint: a kernel without them
	// still gives a working reservation.
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, base, uintptr(size), syscall.MADV_HUGEPAGE)
	return base, r, rawLen, nil
}

// unreserve unmaps a mapping made by reserve.
func unreserve(raw uintptr, rawLen uint64) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_MUNMAP, raw, uintptr(rawLen), 0); errno != 0 {
		return fmt.Errorf("munmap: %w", errno)
	}
	return nil
}

// discard returns the pages of [addr, addr+n) to the OS; they read as zero
// when touched again. addr and n are page multiples.
func discard(addr uintptr, n uint64) {
	// MADV_DONTNEED on a private anonymous mapping we own cannot fail in a way
	// that matters: at worst the pages stay resident.
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, addr, uintptr(n), syscall.MADV_DONTNEED)
}

func alignUp[T uintptr | uint64](v, a T) T   { return (v + a - 1) &^ (a - 1) }
func alignDown[T uintptr | uint64](v, a T) T { return v &^ (a - 1) }
