package svm

import (
	"errors"
	"fmt"
	"math/bits"
	"os"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/npuemu/npuemu/abi"
)

// The ACL managed-memory window: aclrtMemAllocManaged pointers live in
// [ManagedBase, ManagedBase+ManagedSize) (semantics.md §12).
const (
	ManagedBase uintptr = 0x90000000000
	ManagedSize uint64  = 3 << 40
)

// HugePage is the default page size: the granularity of aclrtMemAllocManaged
// sizes and of aclrtMemManagedAdvise / PrefetchAsync ranges.
const HugePage = 2 << 20

// Config describes a Space. Zero fields take the defaults noted.
type Config struct {
	// Base and Size give the VA window. Base 0 lets the kernel choose
	// (tests); the runtime uses ManagedBase/ManagedSize. Size defaults to
	// 64 GiB.
	Base uintptr
	Size uint64
	// PageSize is the migration granule, a power of two no smaller than the
	// OS page. Default HugePage.
	PageSize uint64
	// Devices holds each device's capacity budget, indexed by device id.
	Devices []Device
	// Cost prices faults and migration. Default DefaultCost().
	Cost CostModel
	// ThrashWindow: a fault on a page the same device evicted fewer than
	// this many evictions ago counts as thrash. Default 64.
	ThrashWindow uint64
	// Protector arms host-side fault detection. Default Explicit.
	Protector Protector
}

// Space is one process's managed address space: the VA window, the
// allocations in it, their page tables and the per-location counters.
//
// Lock order: Space.mu, then whatever Device.Reserve/Release take. All page
// state, LRU lists and counters are guarded by mu.
type Space struct {
	base      uintptr
	size      uint64
	pageSize  uint64
	shift     uint
	cost      CostModel
	window    uint64
	prot      Protector
	trackProt bool

	mu      sync.Mutex
	closed  bool
	ranges  []*rng     // sorted by base
	devs    []devState // index = device id
	host    Stats
	tick    uint64     // logical time of the last access, for LRU
	protErr error      // first Protector failure inside the current operation
	pending []pendPage // pages whose protection may change, applied by finish
}

// rng is one allocation and its page table.
type rng struct {
	base  uintptr
	size  uint64
	pages []page
}

// page is the page-table entry of one page.
type page struct {
	loc        Location // holder of the authoritative copy
	dups       locSet   // read-only duplicates besides loc (read-mostly pages)
	dirty      bool     // loc is a device whose copy is newer than the host bytes
	readMostly bool
	pref       Location // preferred location, NoLocation when unset
	accessedBy locSet
	peers      locSet   // devices given a mapping by MapPeer (aclrtMemP2PMap)
	prot       int8     // host protection currently applied (PROT_* bits)
	tick       uint64   // last access, Space.tick
	evictDev   Location // last device that evicted the page
	evictSeq   uint64   // that device's eviction count at the time
	held       int32    // device operations in flight on the page (Hold): its host mapping stays read-write
	pend       bool     // listed in Space.pending (setProt)
	prefetched Location // destination of the last Prefetch, NoLocation before any
}

type devState struct {
	dev   Device
	stats Stats
	lru   lruList
}

// New reserves the window and returns an empty Space.
func New(cfg Config) (*Space, error) {
	osPage := uint64(os.Getpagesize())
	if cfg.PageSize == 0 {
		cfg.PageSize = HugePage
	}
	if cfg.PageSize < osPage || cfg.PageSize&(cfg.PageSize-1) != 0 {
		return nil, abi.DevErrorf(abi.DevBadArgument, "svm: page size %d is not a power of two ≥ %d", cfg.PageSize, osPage)
	}
	if cfg.Size == 0 {
		cfg.Size = 64 << 30
	}
	if cfg.Size%cfg.PageSize != 0 || uint64(cfg.Base)%cfg.PageSize != 0 {
		return nil, abi.DevErrorf(abi.DevBadArgument, "svm: window %#x+%#x is not aligned to the page size %#x", cfg.Base, cfg.Size, cfg.PageSize)
	}
	if len(cfg.Devices) > MaxDevices {
		return nil, abi.DevErrorf(abi.DevBadArgument, "svm: %d devices, at most %d", len(cfg.Devices), MaxDevices)
	}
	for i, d := range cfg.Devices {
		if d == nil {
			return nil, abi.DevErrorf(abi.DevBadArgument, "svm: device %d has no Device", i)
		}
	}
	if cfg.Cost == (CostModel{}) {
		cfg.Cost = DefaultCost()
	}
	if cfg.ThrashWindow == 0 {
		cfg.ThrashWindow = 64
	}
	if cfg.Protector == nil {
		cfg.Protector = Explicit{}
	}
	base, err := reserveWindow(cfg.Base, cfg.Size)
	if errors.Is(err, syscall.EEXIST) {
		// Something already lives in the documented window: in a c-shared
		// library the Go runtime randomises its heap arena hints over the
		// whole address space, so a 64 MiB arena can land there. Managed
		// memory then lives in a window the kernel chooses.
		base, err = reserveWindow(0, cfg.Size)
	}
	if err != nil {
		return nil, abi.DevErrorf(abi.DevNoMemory, "svm: cannot reserve the managed window %#x+%#x: %v%s", cfg.Base, cfg.Size, err, occupants(cfg.Base, cfg.Size))
	}
	s := &Space{
		base:      base,
		size:      cfg.Size,
		pageSize:  cfg.PageSize,
		shift:     uint(bits.TrailingZeros64(cfg.PageSize)),
		cost:      cfg.Cost,
		window:    cfg.ThrashWindow,
		prot:      cfg.Protector,
		trackProt: cfg.Protector.Mode() != ModeExplicit,
		devs:      make([]devState, len(cfg.Devices)),
	}
	for i, d := range cfg.Devices {
		s.devs[i].dev = d
		s.devs[i].lru.init()
	}
	return s, nil
}

// Close frees every allocation (returning device capacity) and the window.
func (s *Space) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	for len(s.ranges) > 0 {
		s.freeLocked(s.ranges[0])
	}
	s.closed = true
	return releaseWindow(s.base, s.size)
}

// Window returns the VA window of the Space.
func (s *Space) Window() (base uintptr, size uint64) { return s.base, s.size }

// PageSize returns the migration granule.
func (s *Space) PageSize() uint64 { return s.pageSize }

// Devices returns the number of devices the Space models.
func (s *Space) Devices() int { return len(s.devs) }

// Alloc maps size bytes (rounded up to the page size) of managed memory,
// resident on the host and not initialised beyond what mmap gives.
// It implements the address part of aclrtMemAllocManaged and
// halMemAlloc(MEM_UVM).
func (s *Space) Alloc(size uint64) (uintptr, error) {
	if size == 0 {
		return 0, abi.DevErrorf(abi.DevBadArgument, "svm.Alloc: size is 0")
	}
	if size > s.size {
		return 0, abi.DevErrorf(abi.DevNoMemory, "svm.Alloc: %d bytes exceed the managed window (%d bytes)", size, s.size)
	}
	size = (size + s.pageSize - 1) &^ (s.pageSize - 1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, abi.DevErrorf(abi.DevNoMemory, "svm.Alloc: the space is closed")
	}
	// First fit, lowest address: allocations are rare next to accesses.
	at, pos := s.base, 0
	for pos < len(s.ranges) && uint64(s.ranges[pos].base-at) < size {
		at = s.ranges[pos].base + uintptr(s.ranges[pos].size)
		pos++
	}
	if uint64(s.base+uintptr(s.size)-at) < size {
		return 0, abi.DevErrorf(abi.DevNoMemory, "svm.Alloc: no free %d-byte range left in the managed window", size)
	}
	if err := mprotect(at, size, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
		return 0, abi.DevErrorf(abi.DevNoMemory, "svm.Alloc: mprotect: %v", err)
	}
	r := &rng{base: at, size: size, pages: make([]page, size>>s.shift)}
	for i := range r.pages {
		r.pages[i] = page{loc: Host, pref: NoLocation, evictDev: NoLocation, prot: protRW, prefetched: NoLocation}
	}
	s.ranges = append(s.ranges, nil)
	copy(s.ranges[pos+1:], s.ranges[pos:])
	s.ranges[pos] = r
	return at, nil
}

// Free releases the allocation that starts at addr: device copies are
// dropped (their capacity released) and the pages discarded.
func (s *Space) Free(addr uintptr) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.rangeAt(addr)
	if r == nil || r.base != addr {
		return abi.DevErrorf(abi.DevInvalidValue, "svm.Free: %#x is not the start of a managed allocation", addr)
	}
	s.freeLocked(r)
	return nil
}

// Precondition: s.mu held.
func (s *Space) freeLocked(r *rng) {
	for i := range r.pages {
		p := &r.pages[i]
		p.dups.with(p.loc).each(func(l Location) {
			if l != Host {
				s.drop(l, r, i)
			}
		})
	}
	discard(r.base, r.size)
	// Back to PROT_NONE: a use after free faults rather than reading the
	// next allocation's bytes. Failure leaves the range accessible, which
	// is harmless.
	_ = mprotect(r.base, r.size, syscall.PROT_NONE)
	i := sort.Search(len(s.ranges), func(i int) bool { return s.ranges[i].base >= r.base })
	s.ranges = append(s.ranges[:i], s.ranges[i+1:]...)
}

// Lookup returns the allocation holding addr. Callers (memcpy, kernel
// argument scans, aclrtPointerGetAttributes) use it to recognise managed
// pointers.
func (s *Space) Lookup(addr uintptr) (base uintptr, size uint64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.rangeAt(addr); r != nil {
		return r.base, r.size, true
	}
	return 0, 0, false
}

// Bytes returns the host view of [addr, addr+n) inside one allocation. It is
// not an access: callers report accesses through Access / HostAccess.
// The slice is valid until the allocation is freed.
func (s *Space) Bytes(addr uintptr, n uint64) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, _, _, err := s.span("svm.Bytes", addr, n); err != nil {
		return nil, err
	}
	return bytesAt(addr, n), nil
}

// Stats returns a snapshot of the counters of l (Host or a device).
func (s *Space) Stats(l Location) (Stats, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkLoc("svm.Stats", l); err != nil {
		return Stats{}, err
	}
	return *s.statsOf(l), nil
}

// PageInfo describes one page for tests, npuemu info and
// aclrtPointerGetAttributes.
type PageInfo struct {
	Location   Location   // authoritative copy
	Copies     []Location // read-only duplicates besides Location
	Dirty      bool
	ReadMostly bool
	Preferred  Location
	AccessedBy []Location
	Peers      []Location // devices mapped by MapPeer
}

// Page returns the page-table entry of the page holding addr.
func (s *Space) Page(addr uintptr) (PageInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, i, _, err := s.span("svm.Page", addr, 1)
	if err != nil {
		return PageInfo{}, err
	}
	p := &r.pages[i]
	return PageInfo{
		Location: p.loc, Copies: p.dups.list(), Dirty: p.dirty, ReadMostly: p.readMostly,
		Preferred: p.pref, AccessedBy: p.accessedBy.list(), Peers: p.peers.list(),
	}, nil
}

// Precondition: s.mu held.
func (s *Space) rangeAt(addr uintptr) *rng {
	i := sort.Search(len(s.ranges), func(i int) bool { return s.ranges[i].base > addr }) - 1
	if i < 0 {
		return nil
	}
	r := s.ranges[i]
	if addr-r.base >= uintptr(r.size) {
		return nil
	}
	return r
}

// span validates [addr, addr+n) and returns its allocation and page indices
// [first, end). Precondition: s.mu held.
func (s *Space) span(fn string, addr uintptr, n uint64) (r *rng, first, end int, err error) {
	if addr == 0 {
		return nil, 0, 0, abi.DevErrorf(abi.DevBadArgument, "%s: address is NULL", fn)
	}
	if n == 0 {
		return nil, 0, 0, abi.DevErrorf(abi.DevBadArgument, "%s: size is 0", fn)
	}
	if r = s.rangeAt(addr); r == nil {
		return nil, 0, 0, abi.DevErrorf(abi.DevInvalidValue, "%s: %#x is not managed memory", fn, addr)
	}
	off := uint64(addr - r.base)
	if n > r.size-off {
		return nil, 0, 0, abi.DevErrorf(abi.DevInvalidValue,
			"%s: [%#x, +%#x) runs past the end of the managed allocation [%#x, +%#x)", fn, addr, n, r.base, r.size)
	}
	return r, int(off >> s.shift), int((off + n + s.pageSize - 1) >> s.shift), nil
}

// spanAligned is span plus the page-alignment rule of the advise and
// prefetch APIs. Precondition: s.mu held.
func (s *Space) spanAligned(fn string, addr uintptr, n uint64) (*rng, int, int, error) {
	if addr != 0 && (uint64(addr)|n)&(s.pageSize-1) != 0 {
		return nil, 0, 0, abi.DevErrorf(abi.DevInvalidValue,
			"%s: address %#x and size %#x must be multiples of the managed page size %#x", fn, addr, n, s.pageSize)
	}
	return s.span(fn, addr, n)
}

// Precondition: s.mu held.
func (s *Space) checkLoc(fn string, l Location) error {
	if l == Host || (l >= 0 && int(l) < len(s.devs)) {
		return nil
	}
	return abi.DevErrorf(abi.DevNoDevice, "%s: %v is not the host or one of the %d devices", fn, l, len(s.devs))
}

// Precondition: s.mu held.
func (s *Space) checkDev(fn string, l Location) error {
	if l >= 0 && int(l) < len(s.devs) {
		return nil
	}
	return abi.DevErrorf(abi.DevNoDevice, "%s: %v is not one of the %d devices", fn, l, len(s.devs))
}

// Precondition: s.mu held.
func (s *Space) statsOf(l Location) *Stats {
	if l == Host {
		return &s.host
	}
	return &s.devs[l].stats
}

// occupants describes the mappings of /proc/self/maps that overlap
// [base, base+size), for the message of a failed window reservation.
func occupants(base uintptr, size uint64) string {
	data, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return ""
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		var lo, hi uint64
		if _, err := fmt.Sscanf(l, "%x-%x", &lo, &hi); err != nil {
			continue
		}
		if lo < uint64(base)+size && hi > uint64(base) {
			out = append(out, strings.TrimSpace(l))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (occupied by: " + strings.Join(out, "; ") + ")"
}
