package emu

import (
	"fmt"
	"os"
	"syscall"

	"github.com/npuemu/npuemu/abi"
)

// Shareable handles of a node directory (docs/node.md, "IPC"): exporting a
// physical allocation enters it in the node's IPC table (kind SHAREABLE)
// with the path by which another process opens the allocation's memory
// file (/proc/<pid>/fd/<fd> of the exporter); the handle value names the
// entry (index and generation), so any process of the node can import it.
// The importer maps the exporter's very pages; its descriptor keeps them
// alive after the exporter frees or dies.

// nodeShareBit marks handle values that name a node entry.
const nodeShareBit = uint64(1) << 48

func nodeShareID(index int, gen uint64) uint64 {
	return shareTag | nodeShareBit | uint64(index)<<24 | gen&0xffffff
}

// exportNode enters s in the node's table and gives it the node-wide id.
// Precondition: v.mu held.
func (v *VMM) exportNode(s *share) error {
	dir := v.node.dir
	dev := -1
	if !s.ph.prop.Host {
		if d, err := v.node.Device(s.ph.prop.Dev); err == nil {
			dev = d.PhysID()
		}
	}
	path := fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), s.ph.b.fd)
	if err := dir.lock(); err != nil {
		return err
	}
	defer dir.unlock()
	for k := 0; k < NodeMaxIPC; k++ {
		i := (dir.ipcHint + k) % NodeMaxIPC
		e := dir.ipcAt(i)
		if e.State != NodeEntryFree {
			continue
		}
		dir.ipcHint = i + 1
		gen := e.Generation + 1
		*e = NodeIPC{Kind: NodeIPCShareable, OwnerSlot: uint32(dir.slot), OwnerPID: int32(os.Getpid()), OwnerGen: dir.gen,
			Generation: gen, Device: uint32(dev), Size: s.ph.b.size, Handle: nodeShareID(i, gen),
			Attr: uint64(s.ph.prop.PageType)<<32 | uint64(s.ph.prop.MemType)}
		if s.noPid {
			e.Flags = NodeIPCNoPidCheck
		}
		copy(e.Name[:NodeNameLen-1], path)
		e.State = NodeEntryLive
		s.id = e.Handle
		s.node = true
		return nil
	}
	return abi.DevErrorf(abi.DevNoMemory, "the node's table of %d exported keys and handles is full", NodeMaxIPC)
}

// shareEntryLocked returns the live node entry of handle id.
// Precondition: table lock held.
func (d *NodeDir) shareEntryLocked(id uint64) *NodeIPC {
	if id&nodeShareBit == 0 || id&^0xffffffffffffff != shareTag {
		return nil
	}
	i := int(id>>24) & 0xffffff
	if i >= NodeMaxIPC {
		return nil
	}
	e := d.ipcAt(i)
	if e.State != NodeEntryLive || e.Kind != NodeIPCShareable || e.Handle != id {
		return nil
	}
	return e
}

// setSharePidsNode adds pids to the node entry of an exported handle.
func (v *VMM) setSharePidsNode(id uint64, pids []int32) error {
	dir := v.node.dir
	if err := dir.lock(); err != nil {
		return err
	}
	defer dir.unlock()
	e := dir.shareEntryLocked(id)
	if e == nil {
		return invalid("%#x is not a live shareable handle", id)
	}
	return addNodePids(e, pids)
}

// unexportNode withdraws an exported handle (its allocation was freed).
func (v *VMM) unexportNode(id uint64) {
	dir := v.node.dir
	if dir.lock() != nil {
		return
	}
	defer dir.unlock()
	if e := dir.shareEntryLocked(id); e != nil {
		e.State = NodeEntryFree
		e.Generation++
	}
}

// importNode opens a handle exported by another process of the node.
// Precondition: v.mu held.
func (v *VMM) importNode(id uint64, dev int, pid int32) (uint64, error) {
	dir := v.node.dir
	if err := dir.lock(); err != nil {
		return 0, err
	}
	e := dir.shareEntryLocked(id)
	if e == nil {
		dir.unlock()
		return 0, invalid("%#x is not a live shareable handle", id)
	}
	if e.Flags&NodeIPCNoPidCheck == 0 && !containsPid(e, pid) {
		owner := e.OwnerPID
		dir.unlock()
		return 0, abi.DevErrorf(abi.DevNoPermission, "process %d is not in the whitelist of shareable handle %#x (exported by process %d)", pid, id, owner)
	}
	path, size, attr, owner := cString(e.Name[:]), e.Size, e.Attr, e.OwnerPID
	dir.unlock()
	fd, err := syscall.Open(path, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, abi.DevErrorf(abi.DevNoPermission, "cannot open the memory of shareable handle %#x of process %d (%s): %v", id, owner, path, err)
	}
	b := &backing{fd: fd, size: size}
	b.refs.Store(1)
	prop := PhysProp{Dev: dev, PageType: PageKind(attr >> 32), MemType: MemKind(uint32(attr))}
	ph := &phys{id: physTag | v.id(), b: b, prop: prop, refs: 1, imported: true}
	if d, err := v.node.Device(dev); err == nil {
		b.dev = d
	}
	v.handles[ph.id] = ph
	return ph.id, nil
}
