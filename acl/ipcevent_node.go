package acl

import (
	"encoding/binary"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

// IPC events across processes (docs/node.md, "IPC"): when the node is a
// shared node directory, aclrtIpcGetEventHandle enters the event in the
// node's event table and mirrors its records there; the handle carries
// the entry (index, generation). aclrtIpcOpenEventHandle in another
// process opens the entry: a wait on the opened event is a host task that
// waits until the exporter's records seen at wait issue have completed;
// aclrtQueryEventStatus and aclrtSynchronizeEvent compare and wait the
// same way. Only the exporting process records.

// Handle layout beyond the magic (8 bytes) and pid (4 at 8): the acl
// handle at 16 (same-process opens), then the node entry index at 24 and
// its generation at 32.
const (
	ipcHandleIndex = 24
	ipcHandleGen   = 32
	ipcHandleNode  = 40 // 1: the entry fields are valid
)

// exportNodeEvent enters e in the node's event table (once) and writes
// the entry into b. No-op on a private node.
func exportNodeEvent(e *core.Event, b *IpcEventHandle) error {
	dir := e.Ctx.Dev.Emu.HBM.NodeDir()
	if dir == nil {
		return nil
	}
	core.Runtime.Mu.Lock()
	ne := e.Node
	core.Runtime.Mu.Unlock()
	if ne == nil {
		ref, entry, err := dir.ExportEvent(e.Ctx.Dev.Emu.PhysID())
		if err != nil {
			return err
		}
		ne = &core.NodeEvent{Dir: dir, Ref: ref, Entry: entry, Exporter: true}
		core.Runtime.Mu.Lock()
		if e.Node == nil {
			e.Node = ne
			e.TSEvent.SetOnComplete(func(seq uint64) { emu.NodeEventCompleted(entry, seq) })
			emu.NodeEventRecorded(entry, e.TSEvent.LastRecord())
			emu.NodeEventCompleted(entry, e.TSEvent.LastRecord()-boolU64(!e.TSEvent.Complete()))
		} else {
			dir.CloseEvent(ref, true)
			ne = e.Node
		}
		core.Runtime.Mu.Unlock()
	}
	binary.LittleEndian.PutUint64(b.Reserved[ipcHandleIndex:], uint64(ne.Ref.Index))
	binary.LittleEndian.PutUint64(b.Reserved[ipcHandleGen:], ne.Ref.Gen)
	b.Reserved[ipcHandleNode] = 1
	return nil
}

func boolU64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// openNodeEvent opens the event of another process's handle.
func openNodeEvent(t *core.Thread, fn string, in IpcEventHandle, out *core.Handle) error {
	if in.Reserved[ipcHandleNode] != 1 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the handle names no event of the node", fn)
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	dir := c.Dev.Emu.HBM.NodeDir()
	if dir == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: the handle comes from process %d, and this process runs a private node", fn, binary.LittleEndian.Uint32(in.Reserved[8:]))
	}
	ref := emu.NodeEventRef{Index: int(binary.LittleEndian.Uint64(in.Reserved[ipcHandleIndex:])), Gen: binary.LittleEndian.Uint64(in.Reserved[ipcHandleGen:])}
	entry, err := dir.OpenEvent(ref)
	if err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	e := &core.Event{Ctx: c, TSEvent: c.Dev.Emu.TS.NewEventUnpooled(abi.ACL_EVENT_IPC), Flags: abi.ACL_EVENT_IPC, Kind: core.EventEx,
		Node: &core.NodeEvent{Dir: dir, Ref: ref, Entry: entry}}
	e.H = core.Events.Add(e)
	core.CtxEvents.Add(c, e)
	c.Dev.NEvents++
	*out = e.H
	return nil
}
