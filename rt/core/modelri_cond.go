package core

import (
	"github.com/npuemu/npuemu/abi"
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

// CondNode is one recorded IF / WHILE / SWITCH task.
type CondNode struct {
	Typ  int32
	Cond *CondHandle
	Subs []*ModelRI
}

// Run evaluates the node when the replay reaches it.
func (n *CondNode) Run() error {
	v := PeekU64(n.Cond.Addr)
	switch n.Typ {
	case abi.ACL_MODEL_RI_COND_TYPE_IF:
		if v != 0 {
			_, err := RunCondSubgraph(n.Subs[0])
			return err
		}
		if len(n.Subs) == 2 {
			_, err := RunCondSubgraph(n.Subs[1])
			return err
		}
	case abi.ACL_MODEL_RI_COND_TYPE_SWITCH:
		if v < uint64(len(n.Subs)) {
			_, err := RunCondSubgraph(n.Subs[v])
			return err
		}
	case abi.ACL_MODEL_RI_COND_TYPE_WHILE:
		body := n.Subs[0]
		for ; v != 0; v = PeekU64(n.Cond.Addr) {
			ran, err := RunCondSubgraph(body)
			if err != nil {
				return err
			}
			if !ran {
				return abi.Errorf(abi.ACL_ERROR_RT_MODEL_EXECUTE, "conditional WHILE task: the condition word is %d but the body (model run instance %d) is empty: it would never end", v, body.Id)
			}
		}
	}
	return nil
}

// RunCondSubgraph runs a sub-graph on its own streams and waits for it. It reports
// whether the sub-graph had tasks: one that was never captured, or that
// recorded nothing, is empty and runs nothing.
func RunCondSubgraph(sub *ModelRI) (bool, error) {
	const fn = "conditional task"
	sub.ExecMu.Lock()
	CapState.Mu.Lock()
	empty := sub.State.Load() != RiReady || len(sub.Steps) == 0
	CapState.Mu.Unlock()
	if empty {
		sub.ExecMu.Unlock()
		return false, nil
	}
	s := sub.Exec
	err := sub.SubmitPlan(fn, s)
	sub.ExecMu.Unlock()
	if err != nil {
		return true, err
	}
	if err := s.SQ.Synchronize(-1); err != nil {
		return true, abi.Wrapf(err, "%s: sub-graph %d", fn, sub.Id)
	}
	return true, nil
}
