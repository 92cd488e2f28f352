package emu

import (
	"fmt"
	"math/bits"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/npuemu/npuemu/abi"
)

// Virtual memory management (the driver's VMM: halMemAddressReserve,
// halMemCreate, halMemMap, ...; ACL's aclrtReserveMemAddress family sits on
// it). One model serves both surfaces, so a handle made through one is
// usable through the other.
//
//   - A reservation is a range of address space of its own: an anonymous
//     PROT_NONE mapping (MAP_NORESERVE), so touching an unmapped part faults
//     exactly as it would on the device.
//   - A physical allocation is a memory file (memfd) of its size; device
//     allocations charge their device's HBM capacity (HBM.Charge), host ones
//     the host's memory, with the same exact accounting as plain
//     allocations.
//   - Mapping puts the file over part of a reservation (mmap MAP_SHARED |
//     MAP_FIXED): two addresses mapping one allocation (two reservations, or
//     an imported shareable handle) really alias. Unmapping puts the
//     PROT_NONE placeholder back.
//   - Access flags become page protections: the union of the flags granted
//     to every location (host and devices share this process's page tables).
//
// The model's errors are abi.DevError of the kinds a driver meets (bad
// handle, not found, busy, ...); their codes are the driver's, converted
// like the real runtime does (the driver kinds of abi/deverr.go).
//
// Locking: VMM.mu guards everything below; it is taken before an HBM's
// mutex (sharing an HBM block), never after.

// Granularities of the VMM (hal-api.md §3.4).
const (
	VMMGranularity      = 2 << 20 // normal and huge pages
	VMMGiantGranularity = 1 << 30 // 1 GiB pages
	HostPageSize        = pageSize
)

// PhysProp describes a physical allocation (struct drv_mem_prop).
type PhysProp struct {
	Host     bool     // host memory (MEM_HOST_SIDE / MEM_HOST_NUMA_SIDE); else device memory
	NUMA     bool     // host NUMA side
	Dev      int      // device id (device side); 0 for host memory
	PageType PageKind // page size (emu/vmm_kinds.go)
	MemType  MemKind  // HBM, DDR, ... (emu/vmm_kinds.go)
	Module   uint32
}

// Granularity returns the allocation granularity of memory of p: minimum
// selects the MINIMUM option (host normal pages are then the host page).
func (p PhysProp) Granularity(minimum bool) uint64 {
	switch {
	case p.PageType == PageGiant:
		return VMMGiantGranularity
	case p.Host && p.PageType == PageNormal && minimum:
		return HostPageSize
	}
	return VMMGranularity
}

// Location is a place that accesses memory: the host or a device.
type Location struct {
	Host bool
	ID   int
}

func (l Location) String() string {
	if l.Host {
		return "host"
	}
	return fmt.Sprintf("device %d", l.ID)
}

// AccessDesc grants Flags to Loc.
type AccessDesc struct {
	Flags Access
	Loc   Location
}

// Handle tags: handles are opaque non-canonical 64-bit values, never
// addresses, so a pointer passed as a handle is refused.
const (
	physTag  = uint64(0x7D) << 56
	shareTag = uint64(0x5A) << 56
	tagMask  = uint64(0xFF) << 56
)

// backing is the memory behind physical allocations and shared blocks: a
// memory file. refs counts what keeps it alive (handles, mappings, shared
// names, imports); at 0 its file is closed and its capacity returned.
type backing struct {
	fd      int
	size    uint64
	host    bool
	dev     *Device // device memory: where it lives and is charged
	charged bool    // counts against dev's HBM or the host's memory
	// refs is atomic because HBM.Free drops the reference of an exported
	// block's range under the HBM lock alone (such backings are never
	// charged, so their release needs nothing VMM.mu guards).
	refs atomic.Int32
}

// phys is one handle to a physical allocation (created or imported).
type phys struct {
	id       uint64
	b        *backing
	prop     PhysProp
	refs     int // create/import + retains; the handle dies at 0
	share    *share
	imported bool
}

// share is a shareable handle exported from a phys.
type share struct {
	id    uint64
	ph    *phys
	noPid bool
	pids  map[int32]bool
	node  bool // entered in the node directory's table (vmm_node.go)
}

// mapping is a file mapped into a reservation.
type mapping struct {
	va     uintptr
	size   uint64
	ph     *phys // nil for a shmem import
	b      *backing
	access map[Location]Access
}

// reservation is a reserved address range.
type reservation struct {
	base    uintptr
	size    uint64
	raw     uintptr
	rawLen  uint64
	giant   bool
	maps    []*mapping // sorted by va
	import_ *shmemImport
}

// VMM is a node's virtual memory manager (see above).
type VMM struct {
	node *Node
	mu   sync.RWMutex
	nres atomic.Int32 // len(resv), read without the lock by Find's fast path

	resv     []*reservation    // guarded by mu; sorted by base
	handles  map[uint64]*phys  // guarded by mu
	shares   map[uint64]*share // guarded by mu
	shmems   map[string]*shmem // guarded by mu
	regs     []hostReg         // guarded by mu; sorted by base
	nextID   uint64            // guarded by mu
	hostUsed uint64            // guarded by mu
	closed   bool              // guarded by mu
}

func newVMM(n *Node) *VMM {
	return &VMM{node: n, handles: map[uint64]*phys{}, shares: map[uint64]*share{}, shmems: map[string]*shmem{}}
}

// VMM returns the node's virtual memory manager.
func (n *Node) VMM() *VMM { return n.vmm }

// invalid is the error of a value the driver model refuses.
func invalid(format string, args ...any) error {
	return abi.DevErrorf(abi.DevInvalidValue, format, args...)
}

// Raw memory-management calls on addresses this package owns.

func mmapAt(addr uintptr, n uint64, prot, flags, fd int, off uint64) (uintptr, error) {
	r, _, errno := syscall.Syscall6(syscall.SYS_MMAP, addr, uintptr(n), uintptr(prot), uintptr(flags), uintptr(fd), uintptr(off))
	if errno != 0 {
		return 0, fmt.Errorf("mmap of %d bytes: %w", n, errno)
	}
	return r, nil
}

func munmapAt(addr uintptr, n uint64) {
	// munmap of a range this package mapped cannot fail short of a bug.
	_, _, _ = syscall.Syscall(syscall.SYS_MUNMAP, addr, uintptr(n), 0)
}

func mprotectAt(addr uintptr, n uint64, prot int) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_MPROTECT, addr, uintptr(n), uintptr(prot)); errno != 0 {
		return fmt.Errorf("mprotect: %w", errno)
	}
	return nil
}

// placeholder puts an inaccessible anonymous mapping over [addr, addr+n).
func placeholder(addr uintptr, n uint64) error {
	_, err := mmapAt(addr, n, syscall.PROT_NONE,
		syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE|syscall.MAP_FIXED, -1, 0)
	return err
}

const mapFixedNoReplace = 0x100000 // MAP_FIXED_NOREPLACE (Linux ≥ 4.17)

// id returns a fresh id. Precondition: v.mu held.
func (v *VMM) id() uint64 {
	v.nextID++
	return v.nextID
}

func (v *VMM) checkOpen() error {
	if v.closed {
		return invalid("the node is closed")
	}
	return nil
}

// device returns device id of the node, opening it.
func (v *VMM) device(id int) (*Device, error) {
	if id < 0 || id >= v.node.DeviceCount() {
		return nil, abi.DevErrorf(abi.DevNoDevice, "device id %d out of range: the node has %d devices", id, v.node.DeviceCount())
	}
	d, err := v.node.Device(id)
	if err != nil {
		// A device that fails to open inside a driver call fails as the
		// driver reports it (abi.DevError.InDriver).
		return nil, abi.DevInDriverf(err, "device %d", id)
	}
	return d, nil
}

// newBacking creates the memory file of size bytes and charges it.
// Precondition: v.mu held.
func (v *VMM) newBacking(size uint64, host bool, d *Device) (*backing, error) {
	if host {
		if total := hostCapacity(); v.hostUsed+size > total {
			return nil, abi.DevErrorf(abi.DevNoMemory, "cannot allocate %d bytes of host memory: %d of %d bytes in use", size, v.hostUsed, total)
		}
	} else if err := d.HBM.Charge(size); err != nil {
		return nil, abi.DevErrorf(abi.DevNoMemory, "%s", errText(err))
	}
	fd, err := memfdCreate(fmt.Sprintf("npuemu-phys-%d", v.nextID+1), size)
	if err != nil {
		if !host {
			d.HBM.Uncharge(size)
		}
		return nil, abi.DevErrorf(abi.DevNoMemory, "cannot create the backing of %d bytes: %v", size, err)
	}
	if host {
		v.hostUsed += size
	}
	return &backing{fd: fd, size: size, host: host, dev: d, charged: true}, nil
}

// drop drops one reference to b and closes its file at the last; it
// reports whether that happened.
func (b *backing) drop() bool {
	if b.refs.Add(-1) > 0 {
		return false
	}
	_ = syscall.Close(b.fd)
	return true
}

// unref drops one reference to b, releasing it (and its capacity) at 0.
// Precondition: v.mu held.
func (v *VMM) unref(b *backing) {
	if !b.drop() || !b.charged {
		return
	}
	if b.host {
		v.hostUsed -= b.size
	} else {
		b.dev.HBM.Uncharge(b.size)
	}
}

// errText is an error's message without its code prefix.
func errText(err error) string {
	switch e := err.(type) {
	case *abi.DevError:
		if e.Msg != "" {
			return e.Msg
		}
	}
	return err.Error()
}

// Create makes a physical allocation of size bytes (halMemCreate) and
// returns its handle. size must be a multiple of the MINIMUM granularity.
func (v *VMM) Create(size uint64, p PhysProp) (uint64, error) {
	if size == 0 {
		return 0, invalid("size must not be 0")
	}
	if p.PageType >= PageKinds {
		return 0, invalid("page type %d out of range (0..%d)", p.PageType, PageKinds-1)
	}
	if p.MemType >= MemKinds {
		return 0, invalid("memory type %d out of range (0..%d)", p.MemType, MemKinds-1)
	}
	if g := p.Granularity(true); size%g != 0 {
		return 0, invalid("size %#x is not a multiple of the allocation granularity %#x", size, g)
	}
	var d *Device
	if !p.Host {
		var err error
		if d, err = v.device(p.Dev); err != nil {
			return 0, err
		}
		if p.PageType == PageGiant && d.SoC.Family != FamilyA2 && d.SoC.Family != FamilyA3 {
			return 0, abi.DevErrorf(abi.DevUnsupported, "1 GiB pages exist only on Atlas A2/A3, not on %s", d.SoC.Name)
		}
	} else {
		p.Dev = 0
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.checkOpen(); err != nil {
		return 0, err
	}
	b, err := v.newBacking(size, p.Host, d)
	if err != nil {
		return 0, err
	}
	b.refs.Store(1)
	ph := &phys{id: physTag | v.id(), b: b, prop: p, refs: 1}
	v.handles[ph.id] = ph
	return ph.id, nil
}

// handle resolves h. Precondition: v.mu held.
func (v *VMM) handle(h uint64) (*phys, error) {
	if ph, ok := v.handles[h]; ok {
		return ph, nil
	}
	if h == 0 {
		return nil, abi.DevErrorf(abi.DevBadHandle, "handle is NULL")
	}
	return nil, abi.DevErrorf(abi.DevBadHandle, "%#x is not a live physical memory handle (released already?)", h)
}

// Release drops one reference of handle h (halMemRelease). When the last
// goes, the memory is freed once no mapping uses it any more.
func (v *VMM) Release(h uint64) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	ph, err := v.handle(h)
	if err != nil {
		return err
	}
	ph.refs--
	if ph.refs > 0 {
		return nil
	}
	delete(v.handles, h)
	if ph.share != nil {
		delete(v.shares, ph.share.id)
		if ph.share.node {
			v.unexportNode(ph.share.id)
		}
		ph.share = nil
	}
	v.unref(ph.b)
	return nil
}

// Prop returns the properties and size of handle h.
func (v *VMM) Prop(h uint64) (PhysProp, uint64, error) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	ph, err := v.handle(h)
	if err != nil {
		return PhysProp{}, 0, err
	}
	return ph.prop, ph.b.size, nil
}

// Retain returns the handle of the allocation mapped at va (anywhere in the
// mapping) with one more reference (halMemRetainAllocationHandle).
func (v *VMM) Retain(va uintptr) (uint64, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	_, m := v.findLocked(va)
	if m == nil || m.ph == nil {
		return 0, invalid("%#x is not inside a mapped range", va)
	}
	ph := m.ph
	if ph.refs == 0 { // released while mapped: the handle comes back
		ph.b.refs.Add(1)
		v.handles[ph.id] = ph
	}
	ph.refs++
	return ph.id, nil
}

func nextPow2(v uint64) uint64 {
	if v <= 1 {
		return 1
	}
	return 1 << (64 - bits.LeadingZeros64(v-1))
}

// Reserve reserves size bytes of address space (halMemAddressReserve).
// size is rounded up to the granularity; alignment 0 means the driver's
// rule (the next power of two of the size, at most 1 GiB, at least the
// granularity); hint, when not 0, is the address wanted (granularity
// aligned; the call fails if it is taken).
func (v *VMM) Reserve(size, alignment uint64, hint uintptr, giant bool) (uintptr, error) {
	if size == 0 {
		return 0, invalid("size must not be 0")
	}
	if size > 1<<46 {
		return 0, abi.DevErrorf(abi.DevNoMemory, "size %#x is beyond any address space", size)
	}
	gran := uint64(VMMGranularity)
	if giant {
		gran = VMMGiantGranularity
	}
	if alignment != 0 && bits.OnesCount64(alignment) != 1 {
		return 0, invalid("alignment %#x is not a power of two", alignment)
	}
	size = alignUp(size, gran)
	align := max(alignment, gran)
	if alignment == 0 {
		align = max(gran, min(nextPow2(size), VMMGiantGranularity))
	}
	if hint != 0 && uint64(hint)%gran != 0 {
		return 0, invalid("requested address %#x is not aligned to %#x", hint, gran)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.checkOpen(); err != nil {
		return 0, err
	}
	var r *reservation
	const flags = syscall.MAP_PRIVATE | syscall.MAP_ANONYMOUS | syscall.MAP_NORESERVE
	if hint != 0 {
		got, err := mmapAt(hint, size, syscall.PROT_NONE, flags|mapFixedNoReplace, -1, 0)
		if err != nil || got != hint {
			if err == nil {
				munmapAt(got, size)
			}
			return 0, abi.DevErrorf(abi.DevNoMemory, "address range %#x..%#x is not free", hint, uint64(hint)+size)
		}
		r = &reservation{base: hint, size: size, raw: hint, rawLen: size}
	} else {
		rawLen := size + align
		raw, err := mmapAt(0, rawLen, syscall.PROT_NONE, flags, -1, 0)
		if err != nil {
			return 0, abi.DevErrorf(abi.DevNoMemory, "cannot reserve %#x bytes of address space: %v", size, err)
		}
		base := alignUp(raw, uintptr(align))
		r = &reservation{base: base, size: size, raw: raw, rawLen: rawLen}
	}
	r.giant = giant
	v.insertLocked(r)
	return r.base, nil
}

// insertLocked adds r to the sorted reservation list.
func (v *VMM) insertLocked(r *reservation) {
	i := sort.Search(len(v.resv), func(i int) bool { return v.resv[i].base > r.base })
	v.resv = append(v.resv, nil)
	copy(v.resv[i+1:], v.resv[i:])
	v.resv[i] = r
	v.nres.Store(int32(len(v.resv)))
}

func (v *VMM) removeLocked(r *reservation) {
	for i, x := range v.resv {
		if x == r {
			v.resv = append(v.resv[:i], v.resv[i+1:]...)
			break
		}
	}
	v.nres.Store(int32(len(v.resv)))
}

// findLocked returns the reservation and mapping holding addr (either may
// be nil). Precondition: v.mu held.
func (v *VMM) findLocked(addr uintptr) (*reservation, *mapping) {
	i := sort.Search(len(v.resv), func(i int) bool { return v.resv[i].base > addr }) - 1
	if i < 0 {
		return nil, nil
	}
	r := v.resv[i]
	if uint64(addr-r.base) >= r.size {
		return nil, nil
	}
	j := sort.Search(len(r.maps), func(j int) bool { return r.maps[j].va > addr }) - 1
	if j >= 0 && uint64(addr-r.maps[j].va) < r.maps[j].size {
		return r, r.maps[j]
	}
	return r, nil
}

// Free releases the reservation starting at va (halMemAddressFree); it must
// have no mapping left.
func (v *VMM) Free(va uintptr) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	r, _ := v.findLocked(va)
	if r == nil || r.import_ != nil {
		return invalid("%#x is not a reserved address range", va)
	}
	if r.base != va {
		return invalid("%#x is inside the reserved range at %#x, not its start", va, r.base)
	}
	if n := len(r.maps); n > 0 {
		return invalid("the reserved range at %#x still has %d mapping(s): unmap them first", va, n)
	}
	v.removeLocked(r)
	munmapAt(r.raw, r.rawLen)
	return nil
}

func owner(b *backing) Location {
	if b.host {
		return Location{Host: true}
	}
	return Location{ID: b.dev.ID}
}

// Map maps handle h at va (halMemMap): va must lie in a reservation and be
// aligned to the allocation's granularity, size must be the allocation's
// size, offset 0, and the range must not overlap another mapping. A
// reservation holds memory of one place only (one device, or the host) and
// does not mix created and imported handles. noAccess maps without any
// access until SetAccess grants some (aclrtMemMapNoAccess).
func (v *VMM) Map(va uintptr, size, offset uint64, h uint64, noAccess bool) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	ph, err := v.handle(h)
	if err != nil {
		return err
	}
	r, m := v.findLocked(va)
	switch {
	case r == nil || r.import_ != nil:
		return invalid("%#x is not inside a reserved address range", va)
	case offset != 0:
		return invalid("offset %#x: only 0 is supported", offset)
	case size != ph.b.size:
		return invalid("size %#x is not the size of the physical allocation (%#x)", size, ph.b.size)
	case m != nil:
		return invalid("%#x is already mapped (mapping at %#x of %#x bytes)", va, m.va, m.size)
	}
	if g := ph.prop.Granularity(true); uint64(va)%g != 0 {
		return invalid("address %#x is not aligned to the granularity %#x", va, g)
	}
	if uint64(va-r.base)+size > r.size {
		return invalid("%#x bytes at %#x run past the end of the reserved range %#x..%#x", size, va, r.base, uint64(r.base)+r.size)
	}
	j := sort.Search(len(r.maps), func(j int) bool { return r.maps[j].va > va })
	if j < len(r.maps) && uint64(r.maps[j].va-va) < size {
		return invalid("%#x bytes at %#x overlap the mapping at %#x", size, va, r.maps[j].va)
	}
	if len(r.maps) > 0 {
		o := r.maps[0]
		if owner(o.b) != owner(ph.b) {
			return invalid("the reserved range at %#x already maps memory of %s; memory of %s cannot join it", r.base, owner(o.b), owner(ph.b))
		}
		if o.ph.imported != ph.imported {
			return invalid("the reserved range at %#x cannot mix local and imported handles", r.base)
		}
	}
	prot := syscall.PROT_READ | syscall.PROT_WRITE
	access := map[Location]Access{owner(ph.b): AccessReadWrite}
	if noAccess {
		prot, access = syscall.PROT_NONE, map[Location]Access{}
	}
	if _, err := mmapAt(va, size, prot, syscall.MAP_SHARED|syscall.MAP_FIXED, ph.b.fd, 0); err != nil {
		_ = placeholder(va, size)
		return abi.DevErrorf(abi.DevNoMemory, "cannot map %#x bytes at %#x: %v", size, va, err)
	}
	ph.b.refs.Add(1)
	nm := &mapping{va: va, size: size, ph: ph, b: ph.b, access: access}
	r.maps = append(r.maps, nil)
	copy(r.maps[j+1:], r.maps[j:])
	r.maps[j] = nm
	return nil
}

// Unmap removes the mapping that starts at va (halMemUnmap).
func (v *VMM) Unmap(va uintptr) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	r, m := v.findLocked(va)
	switch {
	case r == nil || r.import_ != nil:
		return invalid("%#x is not inside a reserved address range", va)
	case m == nil:
		return invalid("%#x is not mapped", va)
	case m.va != va:
		return invalid("%#x is inside the mapping at %#x, not its start", va, m.va)
	}
	if err := placeholder(m.va, m.size); err != nil {
		return abi.DevErrorf(abi.DevDriverInternal, "cannot unmap %#x: %v", va, err)
	}
	for i, x := range r.maps {
		if x == m {
			r.maps = append(r.maps[:i], r.maps[i+1:]...)
			break
		}
	}
	v.unref(m.b)
	return nil
}

// validLocation checks that l names the host (id 0) or a device of the node.
func (v *VMM) validLocation(l Location) error {
	if l.Host {
		if l.ID != 0 {
			return invalid("host location id %d: must be 0", l.ID)
		}
		return nil
	}
	if l.ID < 0 || l.ID >= v.node.DeviceCount() {
		return abi.DevErrorf(abi.DevNoDevice, "device id %d out of range: the node has %d devices", l.ID, v.node.DeviceCount())
	}
	return nil
}

// SetAccess grants access flags to locations over a whole mapping
// (halMemSetAccess): va and size must be exactly a mapping. The owner of
// the memory gets READWRITE automatically; giving a location a different
// access than it has is DRV_ERROR_BUSY.
func (v *VMM) SetAccess(va uintptr, size uint64, descs []AccessDesc) error {
	if len(descs) == 0 {
		return invalid("no access descriptor given")
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	_, m := v.findLocked(va)
	switch {
	case m == nil:
		return invalid("%#x is not mapped", va)
	case m.va != va || m.size != size:
		return invalid("%#x bytes at %#x is not a whole mapping (the mapping is %#x bytes at %#x)", size, va, m.size, m.va)
	}
	want := map[Location]Access{}
	for k, a := range m.access {
		want[k] = a
	}
	own := owner(m.b)
	if _, ok := want[own]; !ok {
		want[own] = AccessReadWrite
	}
	for i, d := range descs {
		if !d.Flags.valid() {
			return invalid("descriptor %d: access flags %d are not NONE, READ or READWRITE", i, d.Flags)
		}
		if err := v.validLocation(d.Loc); err != nil {
			return abi.DevWrapf(err, "descriptor %d", i)
		}
		if old, ok := want[d.Loc]; ok && old != d.Flags {
			return abi.DevErrorf(abi.DevBusy, "descriptor %d: %s already has access %d to %#x; it cannot be changed to %d", i, d.Loc, old, va, d.Flags)
		}
		want[d.Loc] = d.Flags
	}
	prot := syscall.PROT_NONE
	for _, a := range want {
		switch a {
		case AccessReadWrite:
			prot |= syscall.PROT_READ | syscall.PROT_WRITE
		case AccessRead:
			prot |= syscall.PROT_READ
		}
	}
	if err := mprotectAt(m.va, m.size, prot); err != nil {
		return abi.DevErrorf(abi.DevDriverInternal, "cannot set the protection of %#x: %v", va, err)
	}
	m.access = want
	return nil
}

// GetAccess returns the access of loc to the mapping holding va
// (halMemGetAccess); a location never given access reads AccessUnset.
func (v *VMM) GetAccess(va uintptr, loc Location) (Access, error) {
	if err := v.validLocation(loc); err != nil {
		return 0, err
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	_, m := v.findLocked(va)
	if m == nil || m.ph == nil {
		return 0, invalid("%#x is not mapped", va)
	}
	if a, ok := m.access[loc]; ok {
		return a, nil
	}
	return AccessUnset, nil
}

// Region is a mapped range as copies and address queries see it.
type Region struct {
	Base uintptr
	Size uint64
	Host bool    // host memory mapped into the range
	Dev  *Device // device whose memory it is (nil for host memory)
}

// Find returns the mapped range (VMM mapping or imported shared memory)
// holding addr. It is cheap when nothing is reserved.
func (v *VMM) Find(addr uintptr) (Region, bool) {
	if v == nil || v.nres.Load() == 0 {
		return Region{}, false
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	_, m := v.findLocked(addr)
	if m == nil {
		return Region{}, false
	}
	return Region{Base: m.va, Size: m.size, Host: m.b.host, Dev: m.b.dev}, true
}

// Reserved reports whether addr lies in a reserved range (mapped or not).
func (v *VMM) Reserved(addr uintptr) bool {
	if v == nil || v.nres.Load() == 0 {
		return false
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	r, _ := v.findLocked(addr)
	return r != nil
}

// Export makes the shareable handle of h (halMemExportToShareableHandle).
// One per allocation: exporting again fails. noPid disables the pid
// whitelist; otherwise only whitelisted pids may import.
func (v *VMM) Export(h uint64, noPid bool) (uint64, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	ph, err := v.handle(h)
	if err != nil {
		return 0, err
	}
	if ph.imported {
		return 0, invalid("handle %#x was imported; only the owner's handle can be exported", h)
	}
	if ph.share != nil {
		return 0, invalid("handle %#x is already exported as shareable handle %#x", h, ph.share.id)
	}
	s := &share{id: shareTag | v.id(), ph: ph, noPid: noPid, pids: map[int32]bool{}}
	if v.node.dir != nil {
		if err := v.exportNode(s); err != nil {
			return 0, err
		}
	}
	ph.share = s
	v.shares[s.id] = s
	return s.id, nil
}

// maxPids is the most pids a whitelist takes.
const maxPids = 65535

// addPids adds pids to a whitelist, all or none: every pid must be a
// process id.
func addPids(list map[int32]bool, pids []int32) error {
	for _, p := range pids {
		if p <= 0 {
			return invalid("pid %d is not a process id", p)
		}
	}
	for _, p := range pids {
		list[p] = true
	}
	return nil
}

func (v *VMM) shareOf(id uint64) (*share, error) {
	s, ok := v.shares[id]
	if !ok {
		return nil, invalid("%#x is not a live shareable handle", id)
	}
	return s, nil
}

// SetSharePids adds pids to the whitelist of shareable handle id.
func (v *VMM) SetSharePids(id uint64, pids []int32) error {
	if len(pids) == 0 || len(pids) > maxPids {
		return invalid("%d pids: between 1 and %d", len(pids), maxPids)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	s, err := v.shareOf(id)
	if err != nil {
		return err
	}
	if s.noPid {
		return invalid("shareable handle %#x was exported with pid validation disabled: it has no whitelist", id)
	}
	if s.node {
		if err := v.setSharePidsNode(id, pids); err != nil {
			return err
		}
	}
	return addPids(s.pids, pids)
}

// Import opens shareable handle id as process pid on device dev and
// returns a new handle to the same memory (halMemImportFromShareableHandle).
func (v *VMM) Import(id uint64, dev int, pid int32) (uint64, error) {
	if _, err := v.device(dev); err != nil {
		return 0, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	s, err := v.shareOf(id)
	if err != nil && v.node.dir != nil && id&nodeShareBit != 0 {
		return v.importNode(id, dev, pid) // another process's handle (vmm_node.go)
	}
	if err != nil {
		return 0, err
	}
	if !s.noPid && !s.pids[pid] {
		return 0, abi.DevErrorf(abi.DevNoPermission, "process %d is not in the whitelist of shareable handle %#x (set it with the SetPid call, or export with pid validation disabled)", pid, id)
	}
	s.ph.b.refs.Add(1)
	ph := &phys{id: physTag | v.id(), b: s.ph.b, prop: s.ph.prop, refs: 1, imported: true}
	v.handles[ph.id] = ph
	return ph.id, nil
}

// Counts reports live handles, reservations and shared names (leak checks).
func (v *VMM) Counts() (handles, reservations, shmems int) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return len(v.handles), len(v.resv), len(v.shmems)
}

// close unmaps every reservation and closes every file (Node.Close).
func (v *VMM) close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return
	}
	v.closed = true
	files := map[*backing]bool{}
	for _, r := range v.resv {
		for _, m := range r.maps {
			files[m.b] = true
		}
		munmapAt(r.raw, r.rawLen)
	}
	for _, ph := range v.handles {
		files[ph.b] = true
	}
	for _, s := range v.shmems {
		files[s.b] = true
	}
	for b := range files {
		_ = syscall.Close(b.fd)
	}
	v.resv, v.handles, v.shares, v.shmems, v.regs = nil, map[uint64]*phys{}, map[uint64]*share{}, map[string]*shmem{}, nil
	v.nres.Store(0)
}

var pid = int32(os.Getpid())
