package emu

import (
	"bytes"
	"fmt"
	"os"

	"github.com/npuemu/npuemu/abi"
)

// IPC tables of a node directory (docs/node.md, "IPC"): exported memory
// keys and shareable handles live in the node file, so another process
// finds, checks and imports them. Every change holds the table lock.

// ipcAt returns IPC entry i.
func (d *NodeDir) ipcAt(i int) *NodeIPC {
	return nodeIPCAt(d.mem + uintptr(d.hdr.IPCOff) + uintptr(uint64(i)*sizeofNodeIPC))
}

// importAt returns import entry i.
func (d *NodeDir) importAt(i int) *NodeImport {
	return nodeImportAt(d.mem + uintptr(d.hdr.ImportsOff) + uintptr(uint64(i)*sizeofNodeImport))
}

func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}

// mine reports whether entry e was created by this process.
func (d *NodeDir) mine(e *NodeIPC) bool {
	return e.OwnerSlot == uint32(d.slot) && e.OwnerGen == d.gen
}

// findKeyLocked returns the live memory key called name. Precondition:
// table lock held.
// A key's name ends in its entry index and generation, so finding it
// costs no scan.
func (d *NodeDir) findKeyLocked(name string) (int, *NodeIPC) {
	var pid, i int
	var gen uint64
	if _, err := fmt.Sscanf(name, "npuemu_shm_%d_%d_%d", &pid, &i, &gen); err != nil || i < 0 || i >= NodeMaxIPC {
		return -1, nil
	}
	e := d.ipcAt(i)
	if e.State == NodeEntryLive && e.Kind == NodeIPCMemKey && e.Generation == gen && cString(e.Name[:]) == name {
		return i, e
	}
	return -1, nil
}

// ExportKey enters a memory key for [addr, addr+size) of physical device
// phys and returns its name.
func (d *NodeDir) ExportKey(phys int, addr uintptr, size uint64) (string, error) {
	if err := d.lock(); err != nil {
		return "", err
	}
	defer d.unlock()
	for k := 0; k < NodeMaxIPC; k++ {
		i := (d.ipcHint + k) % NodeMaxIPC
		e := d.ipcAt(i)
		if e.State != NodeEntryFree {
			continue
		}
		d.ipcHint = i + 1
		d.made |= madeIPC
		gen := e.Generation + 1
		name := fmt.Sprintf("npuemu_shm_%d_%d_%d", os.Getpid(), i, gen)
		*e = NodeIPC{Kind: NodeIPCMemKey, OwnerSlot: uint32(d.slot), OwnerPID: int32(os.Getpid()), OwnerGen: d.gen,
			Generation: gen, Device: uint32(phys), Addr: uint64(addr), Size: size}
		copy(e.Name[:NodeNameLen-1], name)
		e.State = NodeEntryLive
		return name, nil
	}
	return "", abi.DevErrorf(abi.DevNoMemory, "the node's table of %d exported keys and handles is full", NodeMaxIPC)
}

// keyOp runs fn on the live key name under the table lock; owner requires
// the caller to be its creator ("only the creator sets pids or
// destroys").
func (d *NodeDir) keyOp(name string, owner bool, fn func(i int, e *NodeIPC) error) error {
	if err := d.lock(); err != nil {
		return err
	}
	defer d.unlock()
	i, e := d.findKeyLocked(name)
	if e == nil {
		return invalid("%q is not an exported shared memory name (destroyed already?)", name)
	}
	if owner && !d.mine(e) {
		return abi.DevErrorf(abi.DevNoPermission, "%q was exported by process %d: only its creator may change or destroy it", name, e.OwnerPID)
	}
	return fn(i, e)
}

// KeySetPids adds pids to key name's whitelist.
func (d *NodeDir) KeySetPids(name string, pids []int32) error {
	return d.keyOp(name, true, func(_ int, e *NodeIPC) error {
		if e.Flags&NodeIPCNoPidCheck != 0 {
			return invalid("%q has its whitelist disabled (no-whitelist attribute or export flag): pids cannot be set", name)
		}
		return addNodePids(e, pids)
	})
}

func addNodePids(e *NodeIPC, pids []int32) error {
	for _, p := range pids {
		if p <= 0 {
			return invalid("pid %d is not a process id", p)
		}
	}
	list := e.PIDs[:e.PIDCount]
	var add []int32
	for _, p := range pids {
		dup := false
		for _, q := range append(list, add...) {
			dup = dup || q == p
		}
		if !dup {
			add = append(add, p)
		}
	}
	if int(e.PIDCount)+len(add) > NodeMaxPids {
		return invalid("%d pids: the emulated node keeps at most %d pids per exported key", int(e.PIDCount)+len(add), NodeMaxPids)
	}
	for _, p := range add {
		e.PIDs[e.PIDCount] = p
		e.PIDCount++
	}
	return nil
}

// KeySetAttr / KeyGetAttr: the no-whitelist flag and the memory-map route.
func (d *NodeDir) KeySetAttr(name string, typ ShmemAttr, val uint64) error {
	return d.keyOp(name, true, func(_ int, e *NodeIPC) error {
		switch typ {
		case ShmemNoWhitelist:
			switch {
			case val != ShmemWhitelistOn && val != ShmemWhitelistOff:
				return invalid("no-whitelist value %d is neither SHMEM_WLIST_ENABLE nor SHMEM_NO_WLIST_ENABLE", val)
			case val == ShmemWhitelistOff && e.PIDCount > 0:
				return invalid("%q already has a pid whitelist: the no-whitelist attribute excludes it", name)
			}
			e.Flags &^= NodeIPCNoPidCheck
			if val == ShmemWhitelistOff {
				e.Flags |= NodeIPCNoPidCheck
			}
		case ShmemMapRoute:
			if val >= MapRoutes {
				return invalid("memory-map route %d out of range (0..%d)", val, MapRoutes-1)
			}
			e.Attr = val
		default:
			return invalid("attribute type %d out of range (0..%d)", typ, ShmemAttrs-1)
		}
		return nil
	})
}

func (d *NodeDir) KeyGetAttr(name string, typ ShmemAttr) (uint64, error) {
	var v uint64
	err := d.keyOp(name, false, func(_ int, e *NodeIPC) error {
		switch typ {
		case ShmemNoWhitelist:
			v = ShmemWhitelistOn
			if e.Flags&NodeIPCNoPidCheck != 0 {
				v = ShmemWhitelistOff
			}
		case ShmemMapRoute:
			v = e.Attr
		default:
			return invalid("attribute type %d out of range (0..%d)", typ, ShmemAttrs-1)
		}
		return nil
	})
	return v, err
}

// KeyOpen checks pid against key name's whitelist, records an import by
// this process and returns the exporter's device and address: the same
// bytes at the same address in every process of the node.
func (d *NodeDir) KeyOpen(name string, pid int32) (phys int, addr uintptr, size uint64, err error) {
	err = d.keyOp(name, false, func(i int, e *NodeIPC) error {
		if e.Flags&NodeIPCNoPidCheck == 0 && !containsPid(e, pid) {
			return abi.DevErrorf(abi.DevNoPermission, "process %d is not in the whitelist of %q (exported by process %d)", pid, name, e.OwnerPID)
		}
		if err := d.addImportLocked(NodeImportIPC, i, e.Generation, e.Addr); err != nil {
			return err
		}
		e.ImportCount++
		phys, addr, size = int(e.Device), uintptr(e.Addr), e.Size
		return nil
	})
	return
}

func containsPid(e *NodeIPC, pid int32) bool {
	for _, p := range e.PIDs[:e.PIDCount] {
		if p == pid {
			return true
		}
	}
	return false
}

// addImportLocked records an import of this process. Precondition: table
// lock held.
func (d *NodeDir) addImportLocked(kind uint32, index int, gen uint64, addr uint64) error {
	for k := 0; k < NodeMaxImports; k++ {
		j := (d.importHint + k) % NodeMaxImports
		im := d.importAt(j)
		if im.State == NodeEntryFree {
			d.importHint = j + 1
			d.made |= importMade(kind)
			*im = NodeImport{Kind: kind, Slot: uint32(d.slot), Index: uint32(index), SlotGen: d.gen, EntryGen: gen, Addr: addr}
			im.State = NodeEntryLive
			return nil
		}
	}
	return abi.DevErrorf(abi.DevNoMemory, "the node's table of %d imports is full", NodeMaxImports)
}

// KeyClose closes one import of this process at addr; false when there is
// none.
func (d *NodeDir) KeyClose(addr uintptr) (bool, error) {
	if err := d.lock(); err != nil {
		return false, err
	}
	defer d.unlock()
	for j := 0; j < NodeMaxImports; j++ {
		im := d.importAt(j)
		if im.State == NodeEntryLive && im.Kind == NodeImportIPC && im.Slot == uint32(d.slot) && im.SlotGen == d.gen && im.Addr == uint64(addr) {
			d.dropImportLocked(im)
			return true, nil
		}
	}
	return false, nil
}

// dropImportLocked frees an import and uncounts it from its entry.
func (d *NodeDir) dropImportLocked(im *NodeImport) {
	if im.Kind == NodeImportIPC {
		if e := d.ipcAt(int(im.Index)); e.State == NodeEntryLive && e.Generation == im.EntryGen && e.ImportCount > 0 {
			e.ImportCount--
		}
	}
	im.State = NodeEntryFree
}

// KeyDestroy withdraws key name (creator only). Imports of it are closed.
func (d *NodeDir) KeyDestroy(name string) error {
	return d.keyOp(name, true, func(i int, e *NodeIPC) error {
		d.destroyEntryLocked(i, e)
		return nil
	})
}

// destroyEntryLocked frees IPC entry i and every import of it.
func (d *NodeDir) destroyEntryLocked(i int, e *NodeIPC) {
	for j := 0; j < NodeMaxImports; j++ {
		im := d.importAt(j)
		if im.State == NodeEntryLive && im.Kind == NodeImportIPC && int(im.Index) == i && im.EntryGen == e.Generation {
			im.State = NodeEntryFree
		}
	}
	e.State = NodeEntryFree
	e.Generation++
	e.ImportCount = 0
}

// KeyDestroyRange withdraws this process's keys inside [addr, addr+n) of
// device phys (the exporter freed the block).
func (d *NodeDir) KeyDestroyRange(phys int, addr uintptr, n uint64) {
	if d.lock() != nil {
		return
	}
	defer d.unlock()
	for i := 0; i < NodeMaxIPC; i++ {
		e := d.ipcAt(i)
		if e.State == NodeEntryLive && e.Kind == NodeIPCMemKey && d.mine(e) && int(e.Device) == phys &&
			e.Addr >= uint64(addr) && e.Addr < uint64(addr)+n {
			d.destroyEntryLocked(i, e)
		}
	}
}

// KeyImports returns the live imports of key name.
func (d *NodeDir) KeyImports(name string) (int, error) {
	var n int
	err := d.keyOp(name, false, func(_ int, e *NodeIPC) error {
		n = int(e.ImportCount)
		return nil
	})
	return n, err
}

// reclaimIPCLocked applies the driver's rules to dead slot i of
// generation gen: its keys and handles are destroyed, its imports closed.
// It scans the tables of scan only (made).
// Precondition: table lock held.
func (d *NodeDir) reclaimIPCLocked(slot int, scan made) {
	for j := 0; scan&madeImportIPC != 0 && j < NodeMaxImports; j++ {
		im := d.importAt(j)
		if im.State == NodeEntryLive && im.Kind == NodeImportIPC && im.Slot == uint32(slot) {
			d.dropImportLocked(im)
		}
	}
	for i := 0; scan&madeIPC != 0 && i < NodeMaxIPC; i++ {
		e := d.ipcAt(i)
		if e.State == NodeEntryLive && e.OwnerSlot == uint32(slot) {
			d.destroyEntryLocked(i, e)
		}
	}
}
