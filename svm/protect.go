package svm

import (
	"syscall"

	"github.com/npuemu/npuemu/abi"
)

// Host-side fault detection modes, from most to least precise.
const (
	// ModeUserfaultfdWP: userfaultfd write-protect (Linux ≥ 5.7). Host
	// writes are reported to a handler thread without signals; reads are
	// not, so reads still rely on the explicit migration points.
	ModeUserfaultfdWP = "userfaultfd-wp"
	// ModeMprotect: pages the host may not use in place are mprotect'ed;
	// the SIGSEGV handler (in libfake, the only C) reports the access
	// through Space.HostAccess and retries.
	ModeMprotect = "mprotect"
	// ModeExplicit: nothing traps; host access is accounted at migration
	// points only: synchronize (Writeback), prefetch to the host, and
	// aclrtMemcpy / memset touching the range (HostAccess). Data is always
	// correct because there is one backing store; only counters and
	// virtual time are coarser.
	ModeExplicit = "explicit"
)

// Protector arms and disarms host-side fault detection for page ranges. The
// Space calls it, with its lock held, whenever the protection a page needs
// changes (see hostProt): Protect(readOnly=true) lets host reads through and
// traps writes, Protect(readOnly=false) traps every access, Unprotect
// restores read-write.
type Protector interface {
	Mode() string
	Protect(addr uintptr, size uint64, readOnly bool) error
	Unprotect(addr uintptr, size uint64) error
}

// Explicit is the Protector of ModeExplicit. There is nothing to arm: a Space
// using it skips protection bookkeeping altogether.
type Explicit struct{}

// Mode implements Protector.
func (Explicit) Mode() string { return ModeExplicit }

// Protect implements Protector; explicit mode has no trap to arm.
func (Explicit) Protect(uintptr, uint64, bool) error { return nil }

// Unprotect implements Protector; explicit mode has no trap to disarm.
func (Explicit) Unprotect(uintptr, uint64) error { return nil }

// Mprotect is the Protector of ModeMprotect: it changes the host mapping's
// protection with mprotect(2). Without the SIGSEGV handler a trapped access
// kills the process (or panics in Go with debug.SetPanicOnFault), so only
// install it together with the handler.
type Mprotect struct{}

// Mode implements Protector.
func (Mprotect) Mode() string { return ModeMprotect }

// Protect implements Protector.
func (Mprotect) Protect(addr uintptr, size uint64, readOnly bool) error {
	prot := syscall.PROT_NONE
	if readOnly {
		prot = syscall.PROT_READ
	}
	return mprotect(addr, size, prot)
}

// Unprotect implements Protector.
func (Mprotect) Unprotect(addr uintptr, size uint64) error {
	return mprotect(addr, size, syscall.PROT_READ|syscall.PROT_WRITE)
}

// DetectMode returns the most precise host fault detection the platform
// offers: userfaultfd-wp when the kernel grants this process a userfaultfd
// with the write-protect feature, else mprotect (always present on Linux).
// It does not say a mode is wired: NewProtector does.
func DetectMode() string {
	if uffdWP() {
		return ModeUserfaultfdWP
	}
	return ModeMprotect
}

// NewProtector returns the Protector of mode. userfaultfd-wp is not a plain
// Protector: it needs its event loop bound to a Space (NewUffdWP, then
// Start), so asking for it here is an error.
func NewProtector(mode string) (Protector, error) {
	switch mode {
	case ModeExplicit:
		return Explicit{}, nil
	case ModeMprotect:
		return Mprotect{}, nil
	case ModeUserfaultfdWP:
		return nil, abi.DevErrorf(abi.DevUnsupported, "svm: host fault detection %q is built with NewUffdWP and Start(space), not NewProtector", mode)
	}
	return nil, abi.DevErrorf(abi.DevBadArgument, "svm: unknown host fault detection mode %q", mode)
}
