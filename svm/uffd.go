package svm

import (
	"encoding/binary"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/npuemu/npuemu/abi"
)

// UffdWP is the Protector of ModeUserfaultfdWP. The managed window is
// registered with a userfaultfd in write-protect mode; Protect
// write-protects a page (UFFDIO_WRITEPROTECT), Unprotect lifts it and wakes
// the threads blocked on it. A host write to a protected page blocks the
// writing thread in the kernel and queues an event on the descriptor; a
// goroutine reads the events, serves each as a host write through
// Space.Trapped (the page migrates back to the host, whose bookkeeping then
// asks for read-write, which lifts the protection and wakes the writer).
// No signal is involved, so no C handler either.
//
// Only writes trap: a host read of a device-resident page goes through
// unseen (both protections, read-only and none, are the same
// write-protection here). The read sees correct bytes anyway, there being
// one backing store; only its migration is not accounted until an explicit
// migration point.
//
// A writer blocked on a protected page must not be a goroutine of this
// process while the garbage collector stops the world: the event loop needs
// a P to run. The runtime's writers are C threads of the application, which
// the collector does not stop.
type UffdWP struct {
	fd   int
	stop [2]int // a pipe: Close writes to stop[1] to end the event loop

	mu    sync.Mutex
	space *Space // set by Start
	base  uintptr
	size  uint64

	faults atomic.Uint64
	done   chan struct{}
}

// NewUffdWP opens the userfaultfd of the write-protect mode. It fails with
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT, naming the reason, when the kernel or
// the sandbox refuses one (Linux < 5.7, vm.unprivileged_userfaultfd, a
// seccomp filter); callers then fall back to mprotect or explicit.
func NewUffdWP() (*UffdWP, error) {
	fd, err := uffdOpen()
	if err != nil {
		return nil, abi.DevErrorf(abi.DevUnsupported, "svm: userfaultfd with write-protect faults is not available: %v", err)
	}
	u := &UffdWP{fd: fd, done: make(chan struct{})}
	if err := syscall.Pipe2(u.stop[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
		_ = syscall.Close(fd)
		return nil, abi.DevErrorf(abi.DevInternal, "svm: userfaultfd: pipe: %v", err)
	}
	return u, nil
}

// Mode implements Protector.
func (*UffdWP) Mode() string { return ModeUserfaultfdWP }

// Protect implements Protector: write-protects the range (reads stay
// allowed whatever readOnly says).
func (u *UffdWP) Protect(addr uintptr, size uint64, _ bool) error {
	return uffdWriteprotect(u.fd, addr, size, true)
}

// Unprotect implements Protector: lifts write protection and wakes any
// writer waiting on the range.
func (u *UffdWP) Unprotect(addr uintptr, size uint64) error {
	return uffdWriteprotect(u.fd, addr, size, false)
}

// Start registers the window of s, which must have been created with u as
// its Protector, and starts the event loop. Call it once, before the first
// Alloc of s.
func (u *UffdWP) Start(s *Space) error {
	if s == nil || s.prot != Protector(u) {
		return abi.DevErrorf(abi.DevBadArgument, "svm: UffdWP.Start: the space does not use this protector")
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.space != nil {
		return abi.DevErrorf(abi.DevInvalidValue, "svm: UffdWP.Start: already started")
	}
	base, size := s.Window()
	if err := uffdRegisterWP(u.fd, base, size); err != nil {
		return abi.DevErrorf(abi.DevUnsupported, "svm: userfaultfd: registering the managed window %#x+%#x for write-protect faults: %v", base, size, err)
	}
	u.space, u.base, u.size = s, base, size
	go u.loop(s)
	return nil
}

// Faults returns the number of write faults the event loop has served.
func (u *UffdWP) Faults() uint64 { return u.faults.Load() }

// Disarm lifts the protection of [addr, addr+size) (freed memory: a
// protection left on discarded pages would trap the next allocation's
// first write for nothing).
func (u *UffdWP) Disarm(addr uintptr, size uint64) { _ = u.Unprotect(addr, size) }

// Close stops the event loop and closes the descriptor; the kernel wakes
// any thread still blocked on the window. Close the Space after (or
// before) it: a fault on a closed Space is woken without accounting.
func (u *UffdWP) Close() error {
	u.mu.Lock()
	started := u.space != nil
	if started {
		_ = uffdUnregister(u.fd, u.base, u.size)
	}
	u.mu.Unlock()
	if started {
		_, _ = syscall.Write(u.stop[1], []byte{0})
		<-u.done
	}
	_ = syscall.Close(u.stop[0])
	_ = syscall.Close(u.stop[1])
	return syscall.Close(u.fd)
}

// loop reads fault events until Close. It keeps an OS thread of its own,
// blocked in poll between faults: a fault then costs one thread wake-up,
// not a trip through the runtime's network poller and scheduler.
func (u *UffdWP) loop(s *Space) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer close(u.done)
	buf := make([]byte, 64*uffdMsgSize)
	for {
		n, err := syscall.Read(u.fd, buf)
		if err == syscall.EAGAIN || err == syscall.EINTR {
			if perr := uffdPoll(u.fd, u.stop[0]); perr != nil {
				return
			}
			var b [1]byte
			if k, _ := syscall.Read(u.stop[0], b[:]); k > 0 {
				return // Close
			}
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		for m := buf[:n-n%uffdMsgSize]; len(m) >= uffdMsgSize; m = m[uffdMsgSize:] {
			if m[0] != uffdEventPagefault {
				continue
			}
			flags := binary.NativeEndian.Uint64(m[8:])
			addr := uintptr(binary.NativeEndian.Uint64(m[16:]))
			u.serve(s, addr, flags&uffdPagefaultFlagWP != 0)
		}
	}
}

// serve accounts one write fault and lets the writer go on.
func (u *UffdWP) serve(s *Space, addr uintptr, wp bool) {
	page := addr &^ uintptr(s.PageSize()-1)
	if wp {
		u.faults.Add(1) // before the writer can go on
		// The page is write-protected, which to the Space is read-only:
		// Trapped then sees the read-write the host write needs as a
		// change and lifts the protection (waking the writer).
		if _, err := s.Trapped(Host, addr, true, syscall.PROT_READ); err != nil {
			// Not managed any more (freed meanwhile): let the access
			// through; a PROT_NONE page then faults for real.
			_ = u.Unprotect(page, s.PageSize())
		}
	}
	// Whatever the model decided, never leave the writer blocked: a page
	// still protected makes it fault again, which comes back here.
	_ = uffdWake(u.fd, page, s.PageSize())
}
