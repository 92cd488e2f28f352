package emu

import (
	"fmt"
	"syscall"

	"github.com/npuemu/npuemu/abi"
)

// Shared memory by name (halShmemCreateHandle / halShmemOpenHandle, and
// ACL's aclrtIpcMem* on top of them): a block of plain device memory is
// exported under a name, and opening the name maps the same memory at
// another address of the process.
//
// HBM blocks live in a private anonymous mapping, which cannot be aliased.
// Exporting therefore moves the exported pages onto a memory file: the
// file is filled with the block's current bytes and mapped over the block
// (MAP_SHARED | MAP_FIXED), and every open maps the same file elsewhere.
// When the exporter frees the block, HBM.Free puts private memory back over
// the range (unshareLocked), so the next allocation there is unaffected,
// while the importers keep the file's pages until they close.
//
// Only one process exists here: the whitelist is checked against the
// opening process's own pid, so a program must whitelist itself (or export
// without whitelist) to open its own export, as a second process would.

// sharedRange is an exported part of an HBM block.
type sharedRange struct {
	size uint64
	b    *backing
}

// shmem is one exported name.
type shmem struct {
	name    string
	dev     *Device
	addr    uintptr
	size    uint64 // bytes exported, page rounded
	b       *backing
	noWlist bool
	pids    map[int32]bool
	mapAttr uint64
	opens   int
}

// shmemImport is an opened name: its own reservation holding one mapping.
type shmemImport struct {
	s        *shmem
	dev      int
	nodeAddr uintptr // on a node directory: the exporter's address (s is nil)
}

// ShmemNameLen is the size of a name buffer: 64 characters and the NUL.
const ShmemNameLen = 65

// shareLocked moves [addr, addr+size) of h onto a memory file and returns
// it. Precondition: the range is page aligned and inside one block; v.mu
// held (lock order VMM.mu → HBM.mu).
func (h *HBM) shareLocked(v *VMM, addr uintptr, size uint64) (*backing, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.arena == nil {
		return nil, invalid("%s memory is already released", h.name)
	}
	if r, ok := h.shared[addr]; ok && r.size == size {
		return r.b, nil // exported before: the range is on its file already
	}
	for a, r := range h.shared {
		if a < addr+uintptr(size) && addr < a+uintptr(r.size) {
			return nil, invalid("%#x..%#x overlaps memory exported already (%#x..%#x)", addr, uint64(addr)+size, a, uint64(a)+r.size)
		}
	}
	fd, err := memfdCreate(fmt.Sprintf("npuemu-shmem-%d", v.nextID+1), size)
	if err != nil {
		return nil, abi.DevErrorf(abi.DevNoMemory, "cannot create the shared file of %d bytes: %v", size, err)
	}
	tmp, err := mmapAt(0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED, fd, 0)
	if err != nil {
		_ = syscall.Close(fd)
		return nil, abi.DevErrorf(abi.DevNoMemory, "cannot map the shared file: %v", err)
	}
	copyRaw(tmp, addr, size)
	munmapAt(tmp, size)
	if _, err := mmapAt(addr, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED|syscall.MAP_FIXED, fd, 0); err != nil {
		_ = syscall.Close(fd)
		return nil, abi.DevErrorf(abi.DevDriverInternal, "cannot put the shared file over %#x: %v", addr, err)
	}
	b := &backing{fd: fd, size: size}
	b.refs.Store(1) // the block's range; dropped by unshareLocked
	if h.shared == nil {
		h.shared = map[uintptr]sharedRange{}
	}
	h.shared[addr] = sharedRange{size: size, b: b}
	return b, nil
}

// unshareLocked puts private memory back over every exported range of the
// block [addr, addr+n) being freed. Precondition: h.mu held.
func (h *HBM) unshareLocked(addr uintptr, n uint64) {
	for a, r := range h.shared {
		if a >= addr && uint64(a-addr) < n {
			if _, err := mmapAt(a, r.size, syscall.PROT_READ|syscall.PROT_WRITE,
				syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE|syscall.MAP_FIXED, -1, 0); err != nil {
				// Out of mappings: the range stays on the file, which
				// only means a later block here shares pages with
				// importers of a freed export.
				continue
			}
			delete(h.shared, a)
			r.b.drop() // never charged: the HBM block carries the charge
		}
	}
}

// sharedBy reports whether addr is still exported with backing b.
func (h *HBM) sharedBy(addr uintptr, b *backing) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	r, ok := h.shared[addr]
	return ok && r.b == b
}

// ShmemCreate exports size bytes of device memory at addr under a new name
// (halShmemCreateHandle). addr must be page aligned and inside a live block
// of plain device memory (not VMM memory); exact additionally requires it
// to be the block's start.
func (v *VMM) ShmemCreate(addr uintptr, size uint64, exact bool) (string, error) {
	if size == 0 {
		return "", invalid("byte count must not be 0")
	}
	d, ok := v.node.FindDevice(addr)
	if !ok {
		if v.Reserved(addr) {
			return "", invalid("%#x is virtual-memory-management memory; it is shared with shareable handles, not by name", addr)
		}
		return "", invalid("%#x is not device memory", addr)
	}
	base, req, ok := d.HBM.Find(addr)
	switch {
	case !ok:
		return "", invalid("%#x is in device %d's memory but not inside any allocation", addr, d.ID)
	case exact && base != addr:
		return "", invalid("%#x is inside the allocation at %#x, not its start", addr, base)
	case uint64(addr)%pageSize != 0:
		return "", invalid("%#x does not start on a page boundary (%d bytes)", addr, pageSize)
	}
	n := alignUp(size, pageSize)
	if end := uint64(base) + alignUp(req, pageSize); uint64(addr)+n > end || uint64(addr)+n < uint64(addr) {
		return "", invalid("%d bytes at %#x run past the end of the allocation at %#x (%d bytes)", size, addr, base, req)
	}
	if v.node.dir != nil {
		return v.shmemNodeCreate(d, addr, n)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.checkOpen(); err != nil {
		return "", err
	}
	b, err := d.HBM.shareLocked(v, addr, n)
	if err != nil {
		return "", err
	}
	b.dev = d
	b.refs.Add(1) // the name
	s := &shmem{name: fmt.Sprintf("npuemu_shm_%d_%d", pid, v.id()), dev: d, addr: addr, size: n, b: b, pids: map[int32]bool{}}
	v.shmems[s.name] = s
	return s.name, nil
}

func (v *VMM) shmemOf(name string) (*shmem, error) {
	s, ok := v.shmems[name]
	if !ok {
		return nil, invalid("%q is not an exported shared memory name (destroyed already?)", name)
	}
	return s, nil
}

// ShmemSetPids adds pids to the whitelist of name (halShmemSetPidHandle).
func (v *VMM) ShmemSetPids(name string, pids []int32) error {
	if len(pids) == 0 || len(pids) > maxPids {
		return invalid("%d pids: between 1 and %d", len(pids), maxPids)
	}
	if v.node.dir != nil {
		return v.node.dir.KeySetPids(name, pids)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	s, err := v.shmemOf(name)
	if err != nil {
		return err
	}
	if s.noWlist {
		return invalid("%q has its whitelist disabled (no-whitelist attribute or export flag): pids cannot be set", name)
	}
	return addPids(s.pids, pids)
}

// ShmemSetAttr sets attribute typ of name (halShmemSetAttribute): val is
// ShmemWhitelistOn/Off for ShmemNoWhitelist, a route below MapRoutes for
// ShmemMapRoute (emu/vmm_kinds.go).
func (v *VMM) ShmemSetAttr(name string, typ ShmemAttr, val uint64) error {
	if v.node.dir != nil {
		return v.node.dir.KeySetAttr(name, typ, val)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	s, err := v.shmemOf(name)
	if err != nil {
		return err
	}
	switch typ {
	case ShmemNoWhitelist:
		switch {
		case val != ShmemWhitelistOn && val != ShmemWhitelistOff:
			return invalid("no-whitelist value %d is neither SHMEM_WLIST_ENABLE nor SHMEM_NO_WLIST_ENABLE", val)
		case val == ShmemWhitelistOff && len(s.pids) > 0:
			return invalid("%q already has a pid whitelist: the no-whitelist attribute excludes it", name)
		}
		s.noWlist = val == ShmemWhitelistOff
	case ShmemMapRoute:
		if val >= MapRoutes {
			return invalid("memory-map route %d out of range (0..%d)", val, MapRoutes-1)
		}
		s.mapAttr = val
	default:
		return invalid("attribute type %d out of range (0..%d)", typ, ShmemAttrs-1)
	}
	return nil
}

// ShmemGetAttr returns attribute typ of name (halShmemGetAttribute).
func (v *VMM) ShmemGetAttr(name string, typ ShmemAttr) (uint64, error) {
	if v.node.dir != nil {
		return v.node.dir.KeyGetAttr(name, typ)
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	s, err := v.shmemOf(name)
	if err != nil {
		return 0, err
	}
	switch typ {
	case ShmemNoWhitelist:
		if s.noWlist {
			return ShmemWhitelistOff, nil
		}
		return ShmemWhitelistOn, nil
	case ShmemMapRoute:
		return s.mapAttr, nil
	}
	return 0, invalid("attribute type %d out of range (0..%d)", typ, ShmemAttrs-1)
}

// ShmemOpen maps the memory exported as name at a new address, as process
// pid on device dev (halShmemOpenHandle[ByDevId]; dev < 0 means the
// exporter's device). The exporter must not have freed it yet.
func (v *VMM) ShmemOpen(name string, dev int, pid int32) (uintptr, error) {
	if dev >= 0 {
		if _, err := v.device(dev); err != nil {
			return 0, err
		}
	}
	if v.node.dir != nil {
		return v.shmemNodeOpen(name, dev, pid)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	s, err := v.shmemOf(name)
	if err != nil {
		return 0, err
	}
	if !s.dev.HBM.sharedBy(s.addr, s.b) {
		return 0, invalid("the memory exported as %q was freed by its exporter", name)
	}
	if !s.noWlist && !s.pids[pid] {
		return 0, abi.DevErrorf(abi.DevNoPermission, "process %d is not in the whitelist of %q", pid, name)
	}
	va, err := mmapAt(0, s.size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED, s.b.fd, 0)
	if err != nil {
		return 0, abi.DevErrorf(abi.DevNoMemory, "cannot map %q: %v", name, err)
	}
	s.b.refs.Add(1)
	s.opens++
	r := &reservation{base: va, size: s.size, raw: va, rawLen: s.size, import_: &shmemImport{s: s, dev: dev}}
	r.maps = []*mapping{{va: va, size: s.size, b: s.b, access: map[Location]Access{{ID: s.dev.ID}: AccessReadWrite}}}
	v.insertLocked(r)
	return va, nil
}

// ShmemClose unmaps memory opened at va (halShmemCloseHandle).
func (v *VMM) ShmemClose(va uintptr) error {
	if v.node.dir != nil {
		return v.shmemNodeClose(va)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	r, _ := v.findLocked(va)
	if r == nil || r.import_ == nil {
		return invalid("%#x is not shared memory opened by name", va)
	}
	if r.base != va {
		return invalid("%#x is inside the opened shared memory at %#x, not its start", va, r.base)
	}
	v.removeLocked(r)
	munmapAt(r.raw, r.rawLen)
	r.import_.s.opens--
	v.unref(r.maps[0].b)
	return nil
}

// ShmemDestroy withdraws name (halShmemDestroyHandle). Memory opened
// already stays valid until closed; the exporter's block is unaffected.
func (v *VMM) ShmemDestroy(name string) error {
	if v.node.dir != nil {
		return v.node.dir.KeyDestroy(name)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	s, err := v.shmemOf(name)
	if err != nil {
		return err
	}
	delete(v.shmems, name)
	v.unref(s.b)
	return nil
}

// ShmemOpens returns how many opens of name are live.
func (v *VMM) ShmemOpens(name string) (int, error) {
	if v.node.dir != nil {
		return v.node.dir.KeyImports(name)
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	s, err := v.shmemOf(name)
	if err != nil {
		return 0, err
	}
	return s.opens, nil
}
