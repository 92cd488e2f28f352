package svm

import "syscall"

// The managed window is one anonymous private mapping reserved PROT_NONE
// and MAP_NORESERVE, so 3 TB of address space costs nothing until pages are
// touched. An allocation makes its part read-write; freeing discards the
// pages and makes it inaccessible again, so a stale pointer faults instead of
// reading the next allocation's data.

const (
	mapFixedNoreplace = 0x100000 // MAP_FIXED_NOREPLACE (Linux ≥ 4.17)
	madvHugepage      = 14       // MADV_HUGEPAGE
)

func reserveWindow(base uintptr, size uint64) (uintptr, error) {
	if base != 0 && takeAdopted(base, size) {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, base, uintptr(size), madvHugepage)
		return base, nil
	}
	flags := uintptr(syscall.MAP_PRIVATE | syscall.MAP_ANONYMOUS | syscall.MAP_NORESERVE)
	if base != 0 {
		flags |= mapFixedNoreplace
	}
	r, _, errno := syscall.Syscall6(syscall.SYS_MMAP, base, uintptr(size), syscall.PROT_NONE, flags, ^uintptr(0), 0)
	if errno != 0 {
		return 0, errno
	}
	if base != 0 && r != base {
		// A kernel without MAP_FIXED_NOREPLACE treats the address as a hint.
		_ = unmap(r, size)
		return 0, syscall.EEXIST
	}
	// Transparent huge pages where the kernel leaves them to madvise: a
	// 2 MiB managed page is then one PMD, so changing its protection
	// (mprotect mode) is one entry instead of 512. Best effort.
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, r, uintptr(size), madvHugepage)
	return r, nil
}

func unmap(addr uintptr, size uint64) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_MUNMAP, addr, uintptr(size), 0); errno != 0 {
		return errno
	}
	return nil
}

func mprotect(addr uintptr, size uint64, prot int) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_MPROTECT, addr, uintptr(size), uintptr(prot)); errno != 0 {
		return errno
	}
	return nil
}

func discard(addr uintptr, size uint64) {
	// Best effort: the range becomes PROT_NONE anyway; DONTNEED only gives
	// the memory back early.
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, addr, uintptr(size), syscall.MADV_DONTNEED)
}
