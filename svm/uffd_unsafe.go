package svm

import (
	"runtime"
	"syscall"
	"unsafe"
)

// userfaultfd(2) numbers and the UFFDIO_API handshake (linux/userfaultfd.h).
const (
	uffdAPI            = 0xAA
	uffdioAPI          = 0xc018aa3f // _IOWR(0xAA, 0x3F, struct uffdio_api)
	uffdFeatureWP      = 1 << 0     // UFFD_FEATURE_PAGEFAULT_FLAG_WP
	uffdUserModeOnly   = 1          // UFFD_USER_MODE_ONLY (Linux ≥ 5.11)
	sysUserfaultfdAMD  = 323
	sysUserfaultfdARM  = 282
	sysUserfaultfdNone = -1
)

type uffdioAPIArg struct {
	api      uint64
	features uint64
	ioctls   uint64
}

func sysUserfaultfd() int {
	switch runtime.GOARCH {
	case "amd64":
		return sysUserfaultfdAMD
	case "arm64":
		return sysUserfaultfdARM
	}
	return sysUserfaultfdNone
}

// uffdWP reports whether this process may open a userfaultfd whose API
// handshake offers write-protect faults. Unprivileged processes usually need
// UFFD_USER_MODE_ONLY (faults from user space only, which is all we need).
func uffdWP() bool {
	nr := sysUserfaultfd()
	if nr < 0 {
		return false
	}
	for _, flags := range []uintptr{syscall.O_CLOEXEC | syscall.O_NONBLOCK | uffdUserModeOnly, syscall.O_CLOEXEC | syscall.O_NONBLOCK} {
		fd, _, errno := syscall.Syscall(uintptr(nr), flags, 0, 0)
		if errno != 0 {
			continue
		}
		arg := uffdioAPIArg{api: uffdAPI}
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, uffdioAPI, uintptr(unsafe.Pointer(&arg)))
		_ = syscall.Close(int(fd))
		return errno == 0 && arg.features&uffdFeatureWP != 0
	}
	return false
}
