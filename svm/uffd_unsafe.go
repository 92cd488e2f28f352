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

// The rest of userfaultfd(2) that the write-protect Protector uses.
const (
	uffdioRegister      = 0xc020aa00 // _IOWR(0xAA, 0x00, struct uffdio_register)
	uffdioUnregister    = 0x8010aa01 // _IOR(0xAA, 0x01, struct uffdio_range)
	uffdioWake          = 0x8010aa02 // _IOR(0xAA, 0x02, struct uffdio_range)
	uffdioWriteprotect  = 0xc018aa06 // _IOWR(0xAA, 0x06, struct uffdio_writeprotect)
	uffdRegisterModeWP  = 1 << 1     // UFFDIO_REGISTER_MODE_WP
	uffdWPModeWP        = 1 << 0     // UFFDIO_WRITEPROTECT_MODE_WP
	uffdFeatureWPUnpop  = 1 << 13    // UFFD_FEATURE_WP_UNPOPULATED (Linux ≥ 6.4)
	uffdEventPagefault  = 0x12       // UFFD_EVENT_PAGEFAULT
	uffdPagefaultWrite  = 1 << 0     // UFFD_PAGEFAULT_FLAG_WRITE
	uffdPagefaultFlagWP = 1 << 1     // UFFD_PAGEFAULT_FLAG_WP
	uffdMsgSize         = 32         // sizeof(struct uffd_msg)
)

type uffdioRange struct{ start, len uint64 }

type uffdioRegisterArg struct {
	rng    uffdioRange
	mode   uint64
	ioctls uint64
}

type uffdioWriteprotectArg struct {
	rng  uffdioRange
	mode uint64
}

// uffdOpen opens a non-blocking userfaultfd and completes the API handshake
// with write-protect faults, plus write-protection of never-touched pages
// when the kernel has it (without it, protecting a page the host has not
// touched yet would not trap the first write). It prefers a descriptor
// that also sees faults taken inside system calls (read(2) into a page),
// which needs privilege; UFFD_USER_MODE_ONLY is the unprivileged fallback.
func uffdOpen() (int, error) {
	nr := sysUserfaultfd()
	if nr < 0 {
		return -1, syscall.ENOSYS
	}
	var last error = syscall.ENOSYS
	for _, flags := range []uintptr{syscall.O_CLOEXEC | syscall.O_NONBLOCK, syscall.O_CLOEXEC | syscall.O_NONBLOCK | uffdUserModeOnly} {
		for _, feat := range []uint64{uffdFeatureWP | uffdFeatureWPUnpop, uffdFeatureWP} {
			fd, _, errno := syscall.Syscall(uintptr(nr), flags, 0, 0)
			if errno != 0 {
				last = errno
				break
			}
			arg := uffdioAPIArg{api: uffdAPI, features: feat}
			_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, uffdioAPI, uintptr(unsafe.Pointer(&arg)))
			if errno == 0 && arg.features&uffdFeatureWP != 0 {
				return int(fd), nil
			}
			_ = syscall.Close(int(fd))
			last = errno
			if errno == 0 {
				last = syscall.EOPNOTSUPP
			}
		}
	}
	return -1, last
}

func uffdRegisterWP(fd int, addr uintptr, size uint64) error {
	arg := uffdioRegisterArg{rng: uffdioRange{uint64(addr), size}, mode: uffdRegisterModeWP}
	return uffdIoctl(fd, uffdioRegister, unsafe.Pointer(&arg))
}

func uffdUnregister(fd int, addr uintptr, size uint64) error {
	arg := uffdioRange{uint64(addr), size}
	return uffdIoctl(fd, uffdioUnregister, unsafe.Pointer(&arg))
}

// uffdWriteprotect sets (wp) or clears write protection of the range;
// clearing wakes the threads blocked on it.
func uffdWriteprotect(fd int, addr uintptr, size uint64, wp bool) error {
	arg := uffdioWriteprotectArg{rng: uffdioRange{uint64(addr), size}}
	if wp {
		arg.mode = uffdWPModeWP
	}
	return uffdIoctl(fd, uffdioWriteprotect, unsafe.Pointer(&arg))
}

func uffdWake(fd int, addr uintptr, size uint64) error {
	arg := uffdioRange{uint64(addr), size}
	return uffdIoctl(fd, uffdioWake, unsafe.Pointer(&arg))
}

func uffdIoctl(fd int, req uintptr, arg unsafe.Pointer) error {
	var errno syscall.Errno
	for range 1000 {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), req, uintptr(arg))
		if errno != syscall.EINTR && errno != syscall.EAGAIN {
			break // EAGAIN: the mapping was changing under the call
		}
	}
	if errno != 0 {
		return errno
	}
	return nil
}

type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

// uffdPoll blocks the calling thread until fd or stop is readable. It is a
// plain blocking system call rather than the runtime poller: the thread
// that waits is the thread that serves, which saves a goroutine wake-up
// per fault.
func uffdPoll(fd, stop int) error {
	const pollIn = 0x1
	fds := [2]pollFd{{fd: int32(fd), events: pollIn}, {fd: int32(stop), events: pollIn}}
	_, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), 2, 0, 0, 0, 0)
	if errno != 0 && errno != syscall.EINTR {
		return errno
	}
	return nil
}
