package svm

import (
	"cmp"
	"slices"
	"syscall"
	"time"

	"github.com/npuemu/npuemu/abi"
)

// Host protections a page can carry (PROT_* values).
const (
	protNone int8 = syscall.PROT_NONE
	protRead int8 = syscall.PROT_READ
	protRW   int8 = syscall.PROT_READ | syscall.PROT_WRITE
)

// Access is the device-side fault path: device dev reads (or writes)
// [addr, addr+n), as a kernel, a copy engine or a memset does. Every page
// the device cannot use in place faults and migrates to it (read-mostly
// pages are duplicated instead for reads); pages the advice maps remotely
// are accessed over the bus. Making room evicts the device's least recently
// used pages. The returned cost is the modelled time of all of that, for the
// caller to add to the device's virtual clock.
//
// addr and n need no alignment; the range must lie in one allocation.
func (s *Space) Access(dev Location, addr uintptr, n uint64, write bool) (time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkDev("svm.Access", dev); err != nil {
		return 0, err
	}
	return s.access("svm.Access", dev, addr, n, write)
}

// HostAccess is the host-side fault path, called by the host fault handler
// (mprotect / userfaultfd modes) or at the explicit migration points (an
// aclrtMemcpy reading or writing the range): pages come back to the host.
func (s *Space) HostAccess(addr uintptr, n uint64, write bool) (time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.access("svm.HostAccess", Host, addr, n, write)
}

// HostAccessByDevice is HostAccess with the modelled cost split by the
// device that serves each page: the device that held it before the access
// (its engine writes the page back), else the first device holding a
// read-only copy of it (the copy it invalidates). A page no device held
// costs nothing here. The slice is indexed by device id; the caller charges
// each part on that device's clock (a synchronous aclrtMemcpy has no stream
// to carry the time).
func (s *Space) HostAccessByDevice(addr uintptr, n uint64, write bool) ([]time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	by := make([]time.Duration, len(s.devs))
	_, err := s.accessBy("svm.HostAccess", Host, addr, n, write, by)
	return by, err
}

// Prefetch moves [addr, addr+n) to dest ahead of use: no faults are counted,
// the bytes moved are (PrefetchedBytes). Read-mostly pages get a duplicate at
// dest instead of moving. addr and n must be multiples of the page size.
// It implements aclrtMemManagedPrefetchAsync, halMemManagedPrefetch and
// drvMemPrefetchToDevice; the caller charges the cost on the stream.
func (s *Space) Prefetch(addr uintptr, n uint64, dest Location) (time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkLoc("svm.Prefetch", dest); err != nil {
		return 0, err
	}
	r, first, end, err := s.spanAligned("svm.Prefetch", addr, n)
	if err != nil {
		return 0, err
	}
	return s.prefetch(r, first, end, dest)
}

// Precondition: s.mu held.
func (s *Space) prefetch(r *rng, first, end int, dest Location) (time.Duration, error) {
	var total time.Duration
	for i := first; i < end; i++ {
		p := &r.pages[i]
		s.tick++
		p.tick = s.tick
		p.prefetched = dest
		if p.dups.with(p.loc).has(dest) {
			s.warm(dest, r, i)
			continue
		}
		c, err := s.place(r, i, dest, p.readMostly, true)
		total += c
		if err != nil {
			return total, s.finish(err)
		}
	}
	return total, s.finish(nil)
}

// Writeback makes the host bytes of every page dirty on dev current again
// without moving the pages: the explicit-mode migration point of a device or
// stream synchronize, after which the host may read anything.
func (s *Space) Writeback(dev Location) (time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkDev("svm.Writeback", dev); err != nil {
		return 0, err
	}
	d := &s.devs[dev]
	var total time.Duration
	for n := d.lru.head.next; n != &d.lru.head; n = n.next {
		p := &n.r.pages[n.i]
		if p.loc == dev && p.dirty {
			p.dirty = false
			d.stats.BytesDtoH += s.pageSize
			total += transfer(s.pageSize, s.cost.DeviceToHost)
		}
	}
	return total, nil
}

// Precondition: s.mu held.
func (s *Space) access(fn string, l Location, addr uintptr, n uint64, write bool) (time.Duration, error) {
	return s.accessBy(fn, l, addr, n, write, nil)
}

// accessBy is access; when by is not nil, each page's cost is also added
// to by[the device serving it] (HostAccessByDevice). Precondition: s.mu
// held.
func (s *Space) accessBy(fn string, l Location, addr uintptr, n uint64, write bool, by []time.Duration) (time.Duration, error) {
	r, first, end, err := s.span(fn, addr, n)
	if err != nil {
		return 0, err
	}
	var total time.Duration
	lo, hi := addr, addr+uintptr(n)
	for i := first; i < end; i++ {
		pb := r.base + uintptr(i)<<s.shift
		inPage := uint64(min(hi, pb+uintptr(s.pageSize)) - max(lo, pb))
		server := NoLocation
		if by != nil {
			server = servingDevice(&r.pages[i])
		}
		c, err := s.touch(r, i, l, write, inPage)
		total += c
		if server != NoLocation {
			by[server] += c
		}
		if err != nil {
			return total, s.finish(err)
		}
	}
	return total, s.finish(nil)
}

// servingDevice is the device a host access of p is charged to
// (HostAccessByDevice), NoLocation when no device holds it.
func servingDevice(p *page) Location {
	if p.loc != Host {
		return p.loc
	}
	server := NoLocation
	p.dups.each(func(l Location) {
		if l != Host && (server == NoLocation || l < server) {
			server = l
		}
	})
	return server
}

// finish applies the protection changes the operation left pending
// (flushProt) and returns err, or else the first protection failure of the
// operation. Every operation that may change a page's protection ends
// here, so no change outlives the operation's hold of s.mu.
// Precondition: s.mu held.
func (s *Space) finish(err error) error {
	s.flushProt()
	if err == nil {
		err = s.protErr
	}
	s.protErr = nil
	return err
}

// touch serves one access of n bytes by l to page i of r.
// Precondition: s.mu held.
func (s *Space) touch(r *rng, i int, l Location, w bool, n uint64) (time.Duration, error) {
	p := &r.pages[i]
	s.tick++
	p.tick = s.tick
	st := s.statsOf(l)
	if p.dups.with(p.loc).has(l) {
		if !w || (p.loc == l && p.dups == 0) {
			if w && l != Host {
				p.dirty = true
			}
			s.warm(l, r, i)
			return 0, nil
		}
		// A write to a read-only duplicate: every other copy goes.
		st.Faults++
		s.collapse(r, i, l)
		p.dirty = l != Host
		s.warm(l, r, i)
		s.setProt(r, i)
		return s.cost.FaultOverhead, nil
	}
	if s.remote(p, l, w) {
		st.RemoteAccesses++
		if w {
			p.dups.each(func(h Location) { s.invalidate(r, i, h) })
			p.dirty = p.loc != Host
			s.setProt(r, i)
		}
		s.warm(p.loc, r, i)
		return transfer(n, s.cost.Remote), nil
	}
	st.Faults++
	if p.evictDev == l && st.Evictions-p.evictSeq < s.window {
		st.Thrash++
		p.evictDev = NoLocation
	}
	c, err := s.place(r, i, l, p.readMostly && !w, false)
	if err != nil {
		return c, err
	}
	if w && l != Host {
		p.dirty = true
	}
	return c + s.cost.FaultOverhead, nil
}

// remote reports whether l accesses the page where it is instead of
// faulting it in: a preferred location elsewhere, an accessed-by mapping or
// a peer mapping (MapPeer).
// Read duplication takes precedence for reads of read-mostly pages.
func (s *Space) remote(p *page, l Location, w bool) bool {
	if p.readMostly && !w {
		return false
	}
	if p.pref != NoLocation && p.pref != l {
		return true
	}
	return p.accessedBy.has(l) || p.peers.has(l)
}

// place gives l a copy of page i: a read-only duplicate (dup) or the only
// copy. l does not hold the page yet. Precondition: s.mu held.
func (s *Space) place(r *rng, i int, l Location, dup, prefetch bool) (time.Duration, error) {
	p := &r.pages[i]
	var cost time.Duration
	if l != Host {
		c, err := s.reserve(l)
		cost += c
		if err != nil {
			return cost, err
		}
	}
	if p.loc != Host && p.dirty {
		// The host bytes must be current before any other location takes
		// the page: migration goes through the host.
		s.devs[p.loc].stats.BytesDtoH += s.pageSize
		if prefetch && l == Host {
			s.host.PrefetchedBytes += s.pageSize
		}
		cost += transfer(s.pageSize, s.cost.DeviceToHost)
		p.dirty = false
	}
	if l != Host {
		d := &s.devs[l]
		d.stats.BytesHtoD += s.pageSize
		d.stats.ResidentBytes += s.pageSize
		if prefetch {
			d.stats.PrefetchedBytes += s.pageSize
		}
		cost += transfer(s.pageSize, s.cost.HostToDevice)
		d.lru.touch(s.key(r, i), r, i)
	}
	if dup {
		p.dups = p.dups.with(l)
	} else {
		p.dups.each(func(h Location) { s.invalidate(r, i, h) })
		if p.loc != Host {
			s.drop(p.loc, r, i)
		}
		p.loc = l
	}
	s.setProt(r, i)
	return cost, nil
}

// collapse makes l, which holds a read-only copy, the only holder.
// Precondition: s.mu held; the page is clean (it has duplicates).
func (s *Space) collapse(r *rng, i int, l Location) {
	p := &r.pages[i]
	p.dups.without(l).each(func(h Location) { s.invalidate(r, i, h) })
	if p.loc != l {
		old := p.loc
		if old != Host {
			s.drop(old, r, i)
		}
		s.statsOf(old).Invalidations++
	}
	p.loc, p.dups = l, 0
}

// invalidate removes h's read-only duplicate. Precondition: s.mu held.
func (s *Space) invalidate(r *rng, i int, h Location) {
	p := &r.pages[i]
	p.dups = p.dups.without(h)
	if h != Host {
		s.drop(h, r, i)
	}
	s.statsOf(h).Invalidations++
}

// drop releases device l's copy: capacity and LRU entry.
// Precondition: s.mu held.
func (s *Space) drop(l Location, r *rng, i int) {
	d := &s.devs[l]
	d.dev.Release(s.pageSize)
	d.stats.ResidentBytes -= s.pageSize
	d.lru.remove(s.key(r, i))
}

// reserve takes one page of l's capacity, evicting l's least recently used
// pages until the device grants it. Precondition: s.mu held.
func (s *Space) reserve(l Location) (time.Duration, error) {
	d := &s.devs[l]
	var cost time.Duration
	for !d.dev.Reserve(s.pageSize) {
		n := d.lru.oldest()
		if n == nil {
			return cost, abi.DevErrorf(abi.DevNoMemory,
				"svm: device %d has no capacity for a %d-byte managed page and no managed page to evict", l, s.pageSize)
		}
		cost += s.evict(l, n.r, n.i)
	}
	return cost, nil
}

// evict drops device l's copy of page i to make room, writing it back when
// dirty. Precondition: s.mu held.
func (s *Space) evict(l Location, r *rng, i int) time.Duration {
	p := &r.pages[i]
	st := &s.devs[l].stats
	var cost time.Duration
	if p.loc == l {
		if p.dirty {
			st.BytesDtoH += s.pageSize
			cost = transfer(s.pageSize, s.cost.DeviceToHost)
			p.dirty = false
		}
		p.loc = Host
		p.dups = p.dups.without(Host)
	} else {
		p.dups = p.dups.without(l)
	}
	s.drop(l, r, i)
	st.Evictions++
	p.evictDev, p.evictSeq = l, st.Evictions
	s.setProt(r, i)
	return cost
}

// warm records an access by l in its LRU. Precondition: s.mu held.
func (s *Space) warm(l Location, r *rng, i int) {
	if l != Host {
		s.devs[l].lru.touch(s.key(r, i), r, i)
	}
}

func (s *Space) key(r *rng, i int) uintptr { return r.base>>s.shift + uintptr(i) }

// hostProt is the protection the host mapping of a page needs so that every
// host access that must change residency traps.
func hostProt(p *page) int8 {
	switch {
	case p.held > 0:
		// Device code runs on host threads: the bytes must stay reachable
		// while a device operation uses them.
		return protRW
	case p.loc == Host && p.dups == 0:
		return protRW
	case p.loc == Host || p.dups.has(Host):
		return protRead // reads are served in place, writes invalidate copies
	case p.dups != 0:
		return protNone
	case p.accessedBy.has(Host) || (p.pref != NoLocation && p.pref != Host):
		return protRW // the host maps the page remotely
	}
	return protNone
}

// setProt notes that page i's host protection may have to change: the
// change itself waits for the end of the operation (flushProt), so that an
// operation over many pages — a prefetch, a kernel's footprint, the end of
// its hold — changes each run of adjacent pages with one call instead of
// one per page. On this machine one mprotect of 64 adjacent 2 MiB pages
// cost ~130 µs against ~3.3 ms for 64 separate calls (docs/svm.md).
// Precondition: s.mu held.
func (s *Space) setProt(r *rng, i int) {
	if !s.trackProt {
		return
	}
	p := &r.pages[i]
	if p.pend || hostProt(p) == p.prot {
		return
	}
	p.pend = true
	s.pending = append(s.pending, pendPage{r, i})
}

// pendPage is a page whose protection may have to change (setProt).
type pendPage struct {
	r *rng
	i int
}

// flushProt applies the protection each pending page needs now, one
// Protector call per run of adjacent pages of one allocation that need the
// same protection. A page whose protection ends up unchanged costs nothing.
// Precondition: s.mu held.
func (s *Space) flushProt() {
	ps := s.pending
	if len(ps) == 0 {
		return
	}
	slices.SortFunc(ps, func(a, b pendPage) int {
		return cmp.Compare(a.r.base+uintptr(a.i)<<s.shift, b.r.base+uintptr(b.i)<<s.shift)
	})
	for k := 0; k < len(ps); {
		r, i := ps[k].r, ps[k].i
		p := &r.pages[i]
		p.pend = false
		want := hostProt(p)
		k++
		if want == p.prot {
			continue
		}
		n := 1
		for k < len(ps) && ps[k].r == r && ps[k].i == i+n {
			q := &r.pages[ps[k].i]
			if q.prot == want || hostProt(q) != want {
				break
			}
			q.pend = false
			n++
			k++
		}
		s.applyProt(r, i, n, want)
	}
	clear(ps)
	s.pending = ps[:0]
}

// applyProt gives pages [i, i+n) of r the host protection want.
// Precondition: s.mu held.
func (s *Space) applyProt(r *rng, i, n int, want int8) {
	addr, size := r.base+uintptr(i)<<s.shift, uint64(n)<<s.shift
	var err error
	if want == protRW {
		err = s.prot.Unprotect(addr, size)
	} else {
		err = s.prot.Protect(addr, size, want == protRead)
	}
	if err != nil {
		if s.protErr == nil {
			s.protErr = abi.DevErrorf(abi.DevInternal, "svm: %s protection of [%#x, +%#x) failed: %v", s.prot.Mode(), addr, size, err)
		}
		return
	}
	for j := i; j < i+n; j++ {
		r.pages[j].prot = want
	}
}
