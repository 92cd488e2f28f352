package core

import (
	"github.com/npuemu/npuemu/tsfw"
)

var CondHandles = NewTable[CondHandle](KindCondHandle)

// CondHandle is one condition word of an RI.
type CondHandle struct {
	H      Handle
	Ri     *ModelRI
	Addr   uintptr
	Def    uint32
	Assign bool
}

// CondState links RIs to their condition words and sub-graphs.
// Guarded by capState.mu.
var CondState struct {
	Handles  map[*ModelRI][]*CondHandle
	Children map[*ModelRI][]*ModelRI
	Parent   map[*ModelRI]*ModelRI
}

// CondTaskParams is aclmdlRICondTaskParams; Subs views modelRIArray
// (Size entries, nil for a NULL array).
type CondTaskParams struct {
	Handle Handle
	Type   int32
	Size   uint32
	Subs   []Handle
}

// condPrologueLocked adds, at the start of ri's plan, the value writes
// that assign the default values of its condition words.
// Precondition: capState.mu held.
func (ri *ModelRI) condPrologueLocked(add func(int, tsfw.Task)) {
	for _, ch := range CondState.Handles[ri] {
		if !ch.Assign {
			continue
		}
		if task, err := tsfw.ValueWriteTask(ch.Addr, uint64(ch.Def)); err == nil {
			add(0, task)
		}
	}
}

// condRelease frees ri's condition words and destroys its sub-graphs.
func condRelease(ri *ModelRI) {
	CapState.Mu.Lock()
	hs, subs := CondState.Handles[ri], CondState.Children[ri]
	delete(CondState.Handles, ri)
	delete(CondState.Children, ri)
	idle := make([]bool, len(subs))
	for i, sub := range subs {
		delete(CondState.Parent, sub)
		idle[i] = sub.State.Load() == RiCapturing && sub.Cap == nil
	}
	CapState.Mu.Unlock()
	for i, sub := range subs {
		if idle[i] {
			sub.Release() // never captured: nothing to wait for
			continue
		}
		_ = sub.Destroy("aclmdlRIDestroy") // a sub-graph still capturing stays with its capture
	}
	d := ri.Dev
	for _, ch := range hs {
		CondHandles.Remove(ch.H)
		// Only a word still registered as ours is freed: the application
		// may have freed it (aclrtFree) or reset the device, and the
		// address may belong to someone else by now (an aclrtMalloc
		// allocation is never 8 bytes long).
		d.AllocMu.Lock()
		a, ok := d.Allocs[ch.Addr]
		ours := ok && a.Size == 8 && a.Pages == PageSmall
		if ours {
			delete(d.Allocs, ch.Addr)
		}
		d.AllocMu.Unlock()
		if ours {
			_, _ = d.Emu.HBM.Free(ch.Addr)
		}
	}
}
