package svm

import (
	"strconv"
	"time"

	"github.com/npuemu/npuemu/abi"
)

// Advice is one managed-memory hint. aclrtMemManagedAdviseType and the HAL's
// uvmMemAdviseType name the same six operations; acl and hal decode their
// enum into this one set, so the package knows neither.
type Advice int32

// The advice kinds.
const (
	// AdviseSetReadMostly: reads duplicate the page read-only at the
	// reader; a write invalidates every other copy.
	AdviseSetReadMostly Advice = iota
	// AdviseUnsetReadMostly: duplicates are dropped, the authoritative copy
	// stays.
	AdviseUnsetReadMostly
	// AdviseSetPreferredLocation: pages that reach the location stay there;
	// other locations access them remotely instead of migrating them.
	AdviseSetPreferredLocation
	AdviseUnsetPreferredLocation
	// AdviseSetAccessedBy: the location keeps a mapping of the pages and
	// accesses them remotely wherever they are, without faulting.
	AdviseSetAccessedBy
	AdviseUnsetAccessedBy
)

var adviceNames = [...]string{"SET_READ_MOSTLY", "UNSET_READ_MOSTLY", "SET_PREFERRED_LOCATION",
	"UNSET_PREFERRED_LOCATION", "SET_ACCESSED_BY", "UNSET_ACCESSED_BY"}

func (a Advice) String() string {
	if a >= 0 && int(a) < len(adviceNames) {
		return adviceNames[a]
	}
	return "advice(" + strconv.Itoa(int(a)) + ")"
}

// Advise applies a to the pages of [addr, addr+n); both must be multiples of
// the page size. loc is the location argument of the preferred-location and
// accessed-by kinds and is ignored by the read-mostly kinds (as in CUDA and
// CANN). Advice changes future behaviour; it migrates nothing by itself.
func (s *Space) Advise(addr uintptr, n uint64, a Advice, loc Location) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, first, end, err := s.spanAligned("svm.Advise", addr, n)
	if err != nil {
		return err
	}
	switch a {
	case AdviseSetReadMostly, AdviseUnsetReadMostly, AdviseUnsetPreferredLocation:
	case AdviseSetPreferredLocation, AdviseSetAccessedBy, AdviseUnsetAccessedBy:
		if err := s.checkLoc("svm.Advise "+a.String(), loc); err != nil {
			return err
		}
	default:
		return abi.DevErrorf(abi.DevInvalidValue, "svm.Advise: %v is not a managed-memory advice", a)
	}
	for i := first; i < end; i++ {
		p := &r.pages[i]
		switch a {
		case AdviseSetReadMostly:
			p.readMostly = true
		case AdviseUnsetReadMostly:
			p.readMostly = false
			p.dups.each(func(h Location) { s.invalidate(r, i, h) })
		case AdviseSetPreferredLocation:
			p.pref = loc
		case AdviseUnsetPreferredLocation:
			p.pref = NoLocation
		case AdviseSetAccessedBy:
			p.accessedBy = p.accessedBy.with(loc)
		case AdviseUnsetAccessedBy:
			p.accessedBy = p.accessedBy.without(loc)
		}
		s.setProt(r, i)
	}
	return s.finish(nil)
}

// Residency is the residency part of one halMemAdvise call, decoded by the
// HAL from its ADVISE_* bits: PreferDevice (ADVISE_TYPE, HBM) makes the
// device the preferred location, PinHost (ADVISE_PIN, pin in DDR) makes the
// host the preferred location, Unpin (ADVISE_UNPIN) clears a host
// preference, Prefetch (ADVISE_PLE) moves the pages to the device now. The
// bits about executability and page size change no residency and have no
// field. PinHost excludes PreferDevice and Unpin (the HAL refuses the
// combination).
type Residency struct {
	PreferDevice, PinHost, Unpin, Prefetch bool
}

// AdviseResidency applies r to the pages holding [addr, addr+count) and
// returns the cost of its prefetch (zero without one). addr must be page
// aligned; count is rounded up to whole pages.
func (s *Space) AdviseResidency(addr uintptr, count uint64, r Residency, dev Location) (time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.PinHost && (r.Unpin || r.PreferDevice) {
		return 0, abi.DevErrorf(abi.DevInvalidValue, "svm.AdviseResidency: pinning to the host excludes unpinning and preferring the device")
	}
	if err := s.checkDev("halMemAdvise", dev); err != nil {
		return 0, err
	}
	if uint64(addr)&(s.pageSize-1) != 0 {
		return 0, abi.DevErrorf(abi.DevInvalidValue, "halMemAdvise: address %#x is not aligned to the page size %#x", addr, s.pageSize)
	}
	rg, first, end, err := s.span("halMemAdvise", addr, count)
	if err != nil {
		return 0, err
	}
	for i := first; i < end; i++ {
		p := &rg.pages[i]
		switch {
		case r.PreferDevice:
			p.pref = dev
		case r.PinHost:
			p.pref = Host
		case r.Unpin && p.pref == Host:
			p.pref = NoLocation
		}
		s.setProt(rg, i)
	}
	if r.Prefetch {
		return s.prefetch(rg, first, end, dev)
	}
	return 0, s.finish(nil)
}

// Attrs are the range attributes of aclrtMemManagedGetAttr /
// halMemManagedRangeGetAttributes.
type Attrs struct {
	// ReadMostly: every page of the range is read-mostly.
	ReadMostly bool
	// Preferred: the preferred location shared by every page, NoLocation
	// when unset or not the same everywhere.
	Preferred Location
	// AccessedBy: the locations set on every page, ascending (host first).
	AccessedBy []Location
	// LastPrefetch: the destination of the last Prefetch shared by every
	// page, NoLocation when never prefetched or not the same everywhere.
	LastPrefetch Location
}

// RangeAttrs returns the attributes of [addr, addr+n); both must be
// multiples of the page size.
func (s *Space) RangeAttrs(addr uintptr, n uint64) (Attrs, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, first, end, err := s.spanAligned("svm.RangeAttrs", addr, n)
	if err != nil {
		return Attrs{}, err
	}
	a := Attrs{ReadMostly: true, Preferred: r.pages[first].pref, LastPrefetch: r.pages[first].prefetched}
	by := ^locSet(0)
	for i := first; i < end; i++ {
		p := &r.pages[i]
		a.ReadMostly = a.ReadMostly && p.readMostly
		if p.pref != a.Preferred {
			a.Preferred = NoLocation
		}
		if p.prefetched != a.LastPrefetch {
			a.LastPrefetch = NoLocation
		}
		by &= p.accessedBy
	}
	a.AccessedBy = by.list()
	return a, nil
}

// MapPeer gives device dev a mapping of every page holding [addr, addr+n)
// (widened to whole pages) — the model of aclrtMemP2PMap: from then on dev
// reaches those pages where they are, as a remote access over the peer
// link, instead of faulting them in; nothing migrates now or later because
// of dev's accesses. It differs from the accessed-by advice only in being
// invisible to RangeAttrs (it is a mapping, not advice) and permanent: it
// lasts until the allocation is freed. A read of a read-mostly page still
// duplicates it (rule order of docs/svm.md), and a page dev itself holds
// is simply a hit.
func (s *Space) MapPeer(addr uintptr, n uint64, dev Location) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkDev("svm.MapPeer", dev); err != nil {
		return err
	}
	r, first, end, err := s.span("svm.MapPeer", addr, n)
	if err != nil {
		return err
	}
	for i := first; i < end; i++ {
		r.pages[i].peers = r.pages[i].peers.with(dev)
	}
	return nil
}
