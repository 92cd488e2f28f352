package emu

import (
	"os"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
)

// IPC notifies of a node directory (docs/node.md, "IPC"): once a notify is
// exported, its state is the entry's pending count, shared by every
// process: a record adds one and wakes the waiters (futex), a wait takes
// one, so one record releases exactly one wait in whichever process.

// NodeNotifyRef names a notify entry: index and generation.
type NodeNotifyRef struct {
	Index int
	Gen   uint64
}

// Code packs ref into the key of the notify.
func (r NodeNotifyRef) Code() uint64 { return uint64(r.Index)<<24 | r.Gen&0xffffff }

// NotifyRefOf unpacks Code.
func NotifyRefOf(code uint64) NodeNotifyRef {
	return NodeNotifyRef{Index: int(code >> 24), Gen: code & 0xffffff}
}

func (d *NodeDir) notifyAt(i int) *NodeNotify {
	return nodeNotifyAt(d.mem + uintptr(d.hdr.NotifiesOff) + uintptr(uint64(i)*sizeofNodeNotify))
}

// liveNotifyLocked returns the live entry of ref. Precondition: table
// lock held.
func (d *NodeDir) liveNotifyLocked(ref NodeNotifyRef) *NodeNotify {
	if ref.Index < 0 || ref.Index >= NodeMaxNotifies {
		return nil
	}
	n := d.notifyAt(ref.Index)
	if n.State != NodeEntryLive || n.Generation&0xffffff != ref.Gen {
		return nil
	}
	return n
}

// ExportNotify enters an IPC notify of physical device phys.
func (d *NodeDir) ExportNotify(phys int, pidCheck bool) (NodeNotifyRef, *NodeNotify, error) {
	if err := d.lock(); err != nil {
		return NodeNotifyRef{}, nil, err
	}
	defer d.unlock()
	for i := 0; i < NodeMaxNotifies; i++ {
		n := d.notifyAt(i)
		if n.State != NodeEntryFree {
			continue
		}
		d.made |= madeNotifies
		gen := n.Generation + 1
		*n = NodeNotify{OwnerSlot: uint32(d.slot), OwnerGen: d.gen, Generation: gen, OwnerPID: int32(os.Getpid()), Device: uint32(phys)}
		if !pidCheck {
			n.Flags = NodeIPCNoPidCheck
		}
		n.State = NodeEntryLive
		return NodeNotifyRef{i, gen & 0xffffff}, n, nil
	}
	return NodeNotifyRef{}, nil, abi.DevErrorf(abi.DevNoNotify, "the node's table of %d IPC notifies is full", NodeMaxNotifies)
}

// NotifySetPids adds pids to the whitelist of ref (16 at most here).
func (d *NodeDir) NotifySetPids(ref NodeNotifyRef, pids []int32) error {
	if err := d.lock(); err != nil {
		return err
	}
	defer d.unlock()
	n := d.liveNotifyLocked(ref)
	if n == nil {
		return abi.DevErrorf(abi.DevInvalidValue, "the exported notify no longer exists")
	}
	for _, p := range pids {
		dup := false
		for _, q := range n.PIDs[:n.PIDCount] {
			dup = dup || q == p
		}
		if dup {
			continue
		}
		if int(n.PIDCount) == len(n.PIDs) {
			return abi.DevErrorf(abi.DevBadArgument, "the emulated node keeps at most %d pids per exported notify", len(n.PIDs))
		}
		n.PIDs[n.PIDCount] = p
		n.PIDCount++
	}
	return nil
}

// OpenNotify checks pid against ref's whitelist and records the import.
func (d *NodeDir) OpenNotify(ref NodeNotifyRef, pid int32) (*NodeNotify, uint64, error) {
	if err := d.lock(); err != nil {
		return nil, 0, err
	}
	defer d.unlock()
	n := d.liveNotifyLocked(ref)
	if n == nil {
		return nil, 0, abi.DevErrorf(abi.DevInvalidValue, "no live notify was exported with this key (its exporter destroyed it or died)")
	}
	if n.Flags&NodeIPCNoPidCheck == 0 {
		ok := false
		for _, p := range n.PIDs[:n.PIDCount] {
			ok = ok || p == pid
		}
		if !ok {
			return nil, 0, abi.DevErrorf(abi.DevInvalidValue, "process %d is not on the notify's import list (aclrtNotifySetImportPid) and pid validation is enabled", pid)
		}
	}
	if err := d.addImportLocked(NodeImportNotify, ref.Index, n.Generation, 0); err != nil {
		return nil, 0, err
	}
	n.ImportCount++
	return n, n.Generation, nil
}

// CloseNotify ends this process's use of ref: the exporter's close
// destroys the entry, an importer's closes its import.
func (d *NodeDir) CloseNotify(ref NodeNotifyRef, exporter bool) {
	if d.lock() != nil {
		return
	}
	defer d.unlock()
	n := d.liveNotifyLocked(ref)
	if n == nil {
		return
	}
	if exporter {
		d.destroyNotifyLocked(ref.Index, n)
		return
	}
	for j := 0; j < NodeMaxImports; j++ {
		im := d.importAt(j)
		if im.State == NodeEntryLive && im.Kind == NodeImportNotify && im.Slot == uint32(d.slot) && int(im.Index) == ref.Index && im.EntryGen == n.Generation {
			im.State = NodeEntryFree
			if n.ImportCount > 0 {
				n.ImportCount--
			}
			return
		}
	}
}

// destroyNotifyLocked frees entry i and wakes its waiters. Precondition:
// table lock held.
func (d *NodeDir) destroyNotifyLocked(i int, n *NodeNotify) {
	for j := 0; j < NodeMaxImports; j++ {
		im := d.importAt(j)
		if im.State == NodeEntryLive && im.Kind == NodeImportNotify && int(im.Index) == i && im.EntryGen == n.Generation {
			im.State = NodeEntryFree
		}
	}
	n.State = NodeEntryFree
	n.Generation++
	n.ImportCount = 0
	futexWake(&n.Pending)
}

// reclaimNotifiesLocked destroys a dead slot's notifies and closes its
// imports. Precondition: table lock held.
func (d *NodeDir) reclaimNotifiesLocked(slot int, scan made) {
	for j := 0; scan&madeImportNotify != 0 && j < NodeMaxImports; j++ {
		im := d.importAt(j)
		if im.State == NodeEntryLive && im.Kind == NodeImportNotify && im.Slot == uint32(slot) {
			if n := d.notifyAt(int(im.Index)); n.State == NodeEntryLive && n.Generation == im.EntryGen && n.ImportCount > 0 {
				n.ImportCount--
			}
			im.State = NodeEntryFree
		}
	}
	for i := 0; scan&madeNotifies != 0 && i < NodeMaxNotifies; i++ {
		if n := d.notifyAt(i); n.State == NodeEntryLive && n.OwnerSlot == uint32(slot) {
			d.destroyNotifyLocked(i, n)
		}
	}
}

// NodeNotifyRecord sets the notify once: one more wait may pass.
func NodeNotifyRecord(n *NodeNotify) {
	atomic.AddUint64(&n.Pending, 1)
	futexWake(&n.Pending)
}

// NodeNotifyWait waits until the notify is set and consumes the set
// (timeout <= 0: forever). A destroyed entry ends the wait with an error;
// the waiter reclaims dead processes while it waits.
func (d *NodeDir) NodeNotifyWait(n *NodeNotify, gen uint64, timeout time.Duration) error {
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	for {
		if atomic.LoadUint32(&n.State) != NodeEntryLive || atomic.LoadUint64(&n.Generation) != gen {
			return abi.DevErrorf(abi.DevInvalidValue, "the IPC notify was destroyed by its exporter (or the exporter died) during the wait")
		}
		p := atomic.LoadUint64(&n.Pending)
		if p > 0 {
			if atomic.CompareAndSwapUint64(&n.Pending, p, p-1) {
				return nil
			}
			continue
		}
		step := 100 * time.Millisecond
		if timeout > 0 {
			left := time.Until(deadline)
			if left <= 0 {
				return abi.DevErrorf(abi.DevWaitTimeout, "IPC notify wait timed out after %v", timeout)
			}
			step = min(step, left)
		}
		futexWait(&n.Pending, uint32(p), step)
		d.Reclaim(false)
	}
}
