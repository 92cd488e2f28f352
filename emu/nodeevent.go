package emu

import (
	"os"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
)

// IPC events of a node directory (docs/node.md, "IPC"): the exporting
// process mirrors its event's records into an event entry (record_seq at
// submission, done_seq at completion, a futex word); a process that opened
// the handle waits until done_seq reaches the record_seq it saw when the
// wait was issued, or compares the two for a query.

// NodeEventRef names an event entry: its index and generation.
type NodeEventRef struct {
	Index int
	Gen   uint64
}

func (d *NodeDir) eventAt(i int) *NodeEvent {
	return nodeEventAt(d.mem + uintptr(d.hdr.EventsOff) + uintptr(uint64(i)*sizeofNodeEvent))
}

// ExportEvent enters an IPC event of physical device phys.
func (d *NodeDir) ExportEvent(phys int) (NodeEventRef, *NodeEvent, error) {
	if err := d.lock(); err != nil {
		return NodeEventRef{}, nil, err
	}
	defer d.unlock()
	for i := 0; i < NodeMaxEvents; i++ {
		e := d.eventAt(i)
		if e.State != NodeEntryFree {
			continue
		}
		d.made |= madeEvents
		gen := e.Generation + 1
		*e = NodeEvent{OwnerSlot: uint32(d.slot), OwnerGen: d.gen, Generation: gen, OwnerPID: int32(os.Getpid()), Device: uint32(phys)}
		e.State = NodeEntryLive
		return NodeEventRef{i, gen}, e, nil
	}
	return NodeEventRef{}, nil, abi.DevErrorf(abi.DevNoResource, "the node's table of %d IPC events is full", NodeMaxEvents)
}

// OpenEvent opens the event ref names and records the import.
func (d *NodeDir) OpenEvent(ref NodeEventRef) (*NodeEvent, error) {
	if ref.Index < 0 || ref.Index >= NodeMaxEvents {
		return nil, abi.DevErrorf(abi.DevBadArgument, "IPC event handle names entry %d of %d", ref.Index, NodeMaxEvents)
	}
	if err := d.lock(); err != nil {
		return nil, err
	}
	defer d.unlock()
	e := d.eventAt(ref.Index)
	if e.State != NodeEntryLive || e.Generation != ref.Gen {
		return nil, abi.DevErrorf(abi.DevInvalidValue, "the IPC event of the handle no longer exists (its exporter destroyed it or died)")
	}
	if err := d.addImportLocked(NodeImportEvent, ref.Index, ref.Gen, 0); err != nil {
		return nil, err
	}
	e.ImportCount++
	return e, nil
}

// CloseEvent ends this process's use of event ref: an import is closed;
// the exporter's close destroys the entry.
func (d *NodeDir) CloseEvent(ref NodeEventRef, exporter bool) {
	if d.lock() != nil {
		return
	}
	defer d.unlock()
	e := d.eventAt(ref.Index)
	if e.State != NodeEntryLive || e.Generation != ref.Gen {
		return
	}
	if exporter {
		d.destroyEventLocked(ref.Index, e)
		return
	}
	for j := 0; j < NodeMaxImports; j++ {
		im := d.importAt(j)
		if im.State == NodeEntryLive && im.Kind == NodeImportEvent && im.Slot == uint32(d.slot) && int(im.Index) == ref.Index && im.EntryGen == ref.Gen {
			im.State = NodeEntryFree
			if e.ImportCount > 0 {
				e.ImportCount--
			}
			return
		}
	}
}

// destroyEventLocked frees event entry i and wakes its waiters, who find
// the generation changed. Precondition: table lock held.
func (d *NodeDir) destroyEventLocked(i int, e *NodeEvent) {
	for j := 0; j < NodeMaxImports; j++ {
		im := d.importAt(j)
		if im.State == NodeEntryLive && im.Kind == NodeImportEvent && int(im.Index) == i && im.EntryGen == e.Generation {
			im.State = NodeEntryFree
		}
	}
	e.State = NodeEntryFree
	e.Generation++
	e.ImportCount = 0
	atomic.AddUint64(&e.DoneSeq, 1)
	futexWake(&e.DoneSeq)
}

// NodeEventRecorded raises the entry's record count to seq (exporter,
// after submitting record seq).
func NodeEventRecorded(e *NodeEvent, seq uint64) { atomicMaxU64(&e.RecordSeq, seq) }

// NodeEventCompleted raises the entry's completed count to seq and wakes
// the waiters of every process (exporter, when record seq completes).
func NodeEventCompleted(e *NodeEvent, seq uint64) {
	atomicMaxU64(&e.DoneSeq, seq)
	futexWake(&e.DoneSeq)
}

// NodeEventStatus returns the entry's record and completion counts, and
// false when the entry is gone.
func NodeEventStatus(e *NodeEvent, gen uint64) (rec, done uint64, ok bool) {
	rec, done = atomic.LoadUint64(&e.RecordSeq), atomic.LoadUint64(&e.DoneSeq)
	return rec, done, atomic.LoadUint32(&e.State) == NodeEntryLive && atomic.LoadUint64(&e.Generation) == gen
}

// NodeEventWait blocks until record target of the entry has completed
// (timeout < 0: forever). A destroyed entry (its exporter died) ends the
// wait with an error; the waiter reclaims dead processes while it waits,
// so an exporter killed meanwhile ends the wait within the reclaim period.
func (d *NodeDir) NodeEventWait(e *NodeEvent, gen, target uint64, timeout time.Duration) error {
	var deadline time.Time
	if timeout >= 0 {
		deadline = time.Now().Add(timeout)
	}
	for {
		done := atomic.LoadUint64(&e.DoneSeq)
		if atomic.LoadUint32(&e.State) != NodeEntryLive || atomic.LoadUint64(&e.Generation) != gen {
			return abi.DevErrorf(abi.DevInvalidValue, "the IPC event was destroyed by its exporter (or the exporter died) during the wait")
		}
		if done >= target {
			return nil
		}
		step := 100 * time.Millisecond // bounds a wake-up lost to a dying exporter
		if timeout >= 0 {
			left := time.Until(deadline)
			if left <= 0 {
				return abi.DevErrorf(abi.DevEventTimeout, "IPC event wait timed out after %v", timeout)
			}
			step = min(step, left)
		}
		futexWait(&e.DoneSeq, uint32(done), step)
		d.Reclaim(false)
	}
}

func atomicMaxU64(p *uint64, v uint64) {
	for {
		o := atomic.LoadUint64(p)
		if o >= v || atomic.CompareAndSwapUint64(p, o, v) {
			return
		}
	}
}

// reclaimEventsLocked destroys the dead slot's IPC events and closes its
// imports of others'. Precondition: table lock held.
func (d *NodeDir) reclaimEventsLocked(slot int, scan made) {
	for j := 0; scan&madeImportEvent != 0 && j < NodeMaxImports; j++ {
		im := d.importAt(j)
		if im.State == NodeEntryLive && im.Kind == NodeImportEvent && im.Slot == uint32(slot) {
			if e := d.eventAt(int(im.Index)); e.State == NodeEntryLive && e.Generation == im.EntryGen && e.ImportCount > 0 {
				e.ImportCount--
			}
			im.State = NodeEntryFree
		}
	}
	for i := 0; scan&madeEvents != 0 && i < NodeMaxEvents; i++ {
		if e := d.eventAt(i); e.State == NodeEntryLive && e.OwnerSlot == uint32(slot) {
			d.destroyEventLocked(i, e)
		}
	}
}
