package emu

import (
	"syscall"

	"github.com/npuemu/npuemu/abi"
)

// Shared memory by name on a node directory (docs/node.md, "IPC"): the
// memory already lives in the device's shared file, so exporting enters a
// key in the node's table, and opening it checks the whitelist, records
// the import and maps the exporter's very pages (the file range) at a new
// address of the importing process. Nothing is copied.

// shmemNodeCreate exports [addr, addr+n) of device d (validated by
// ShmemCreate).
func (v *VMM) shmemNodeCreate(d *Device, addr uintptr, n uint64) (string, error) {
	dir, nd := v.node.dir, d.HBM.nd
	name, err := dir.ExportKey(nd.phys, addr, n)
	if err != nil {
		return "", err
	}
	d.HBM.mu.Lock()
	nd.exports[addr]++
	d.HBM.mu.Unlock()
	return name, nil
}

// shmemNodeOpen opens key name as process pid (device dev, or the
// exporter's when dev < 0).
func (v *VMM) shmemNodeOpen(name string, dev int, pid int32) (uintptr, error) {
	dir := v.node.dir
	phys, addr, size, err := dir.KeyOpen(name, pid)
	if err != nil {
		return 0, err
	}
	fail := func(err error) (uintptr, error) {
		_, _ = dir.KeyClose(addr)
		return 0, err
	}
	id, ok := v.node.cfg.NodeID(phys)
	if !ok {
		return fail(invalid("%q is memory of physical device %d, which this process does not see (ASCEND_RT_VISIBLE_DEVICES)", name, phys))
	}
	d, err := v.node.Device(id)
	if err != nil {
		return fail(err)
	}
	h := d.HBM
	va, err := mmapAt(0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED, h.nd.fd, uint64(addr-h.base))
	if err != nil {
		return fail(abi.DevErrorf(abi.DevNoMemory, "cannot map %q: %v", name, err))
	}
	b := &backing{fd: -1, size: size, dev: d}
	b.refs.Store(1)
	r := &reservation{base: va, size: size, raw: va, rawLen: size, import_: &shmemImport{dev: dev, nodeAddr: addr}}
	r.maps = []*mapping{{va: va, size: size, b: b, access: map[Location]Access{{ID: d.ID}: AccessReadWrite}}}
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.checkOpen(); err != nil {
		munmapAt(va, size)
		return fail(err)
	}
	v.insertLocked(r)
	return va, nil
}

// shmemNodeClose closes the open at va.
func (v *VMM) shmemNodeClose(va uintptr) error {
	v.mu.Lock()
	r, _ := v.findLocked(va)
	if r == nil || r.import_ == nil || r.import_.s != nil {
		v.mu.Unlock()
		return invalid("%#x is not shared memory opened by name", va)
	}
	if r.base != va {
		v.mu.Unlock()
		return invalid("%#x is inside the opened shared memory at %#x, not its start", va, r.base)
	}
	v.removeLocked(r)
	v.mu.Unlock()
	munmapAt(r.raw, r.rawLen)
	_, err := v.node.dir.KeyClose(r.import_.nodeAddr)
	return err
}

// takeExportsLocked reports whether this process exported memory inside
// the block [addr, addr+n) being freed, and forgets those exports.
// Precondition: HBM.mu held.
func (nd *nodeHBM) takeExportsLocked(addr uintptr, n uint64) bool {
	if len(nd.exports) == 0 {
		return false
	}
	found := false
	for a := range nd.exports {
		if a >= addr && uint64(a-addr) < n {
			delete(nd.exports, a)
			found = true
		}
	}
	return found
}
