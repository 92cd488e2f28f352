package svm

import (
	"time"

	"github.com/npuemu/npuemu/abi"
)

// Device code is host code in npuemu: a kernel block, an SDMA memmove or a
// memset runs on a host thread and reaches managed bytes through the one
// host mapping. With the mprotect Protector a page resident on a device is
// inaccessible to the host, so device work would trap on its own data.
// Hold keeps the pages of a device operation read-write from the moment
// the operation is submitted until it has completed; host accesses in that
// window are not trapped (the real hardware would make them race with the
// device anyway). Trapped is the other half: it tells the Space about an
// access the signal handler has already let through.

// Hold adds (hold true) or removes one hold on every page of
// [addr, addr+n). A held page keeps a read-write host mapping whatever its
// residency; when the last hold goes, the protection its residency asks
// for is applied again. Holds nest. In explicit mode nothing is armed and
// Hold only counts.
func (s *Space) Hold(addr uintptr, n uint64, hold bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, first, end, err := s.span("svm.Hold", addr, n)
	if err != nil {
		return err
	}
	for i := first; i < end; i++ {
		p := &r.pages[i]
		switch {
		case hold:
			p.held++
		case p.held > 0:
			p.held--
		default:
			return s.finish(abi.DevErrorf(abi.DevInvalidValue, "svm.Hold: page %#x is not held", r.base+uintptr(i)<<s.shift))
		}
		s.setProt(r, i)
	}
	return s.finish(nil)
}

// Trapped serves an access that a fault handler has already resolved: the
// handler changed the host protection of the page holding addr to prot
// (PROT_READ, or PROT_READ|PROT_WRITE for a write) so that the faulting
// instruction could resume. The page's bookkeeping learns that protection,
// the access is served as coming from l (Host, or the device whose kernel
// touched the page), and the protection the new residency needs is applied
// again. It returns the modelled cost of the access.
func (s *Space) Trapped(l Location, addr uintptr, write bool, prot int) (time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkLoc("svm.Trapped", l); err != nil {
		return 0, err
	}
	r, i, _, err := s.span("svm.Trapped", addr, 1)
	if err != nil {
		return 0, err
	}
	r.pages[i].prot = int8(prot)
	c, err := s.touch(r, i, l, write, s.pageSize)
	s.setProt(r, i)
	return c, s.finish(err)
}
