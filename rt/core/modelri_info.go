package core

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

const (
	kpCfg = 8
)

// addOp collects a re-issued task (op: a value write or wait, else nil).
func (u *TaskUpdate) addOp(s *Stream, fn string, task tsfw.Task, l *Launch, op *ValueOp) error {
	CapState.Mu.Lock()
	defer CapState.Mu.Unlock()
	if err := task.Validate(); err != nil {
		err = abi.Wrapf(err, "%s: stream %d", fn, s.ID)
		if u.Err == nil {
			u.Err = err
		}
		return err
	}
	if l != nil {
		task = persistentKernel(task, l)
		u.Launches = append(u.Launches, l)
	}
	u.Tasks = append(u.Tasks, task)
	u.Vops = append(u.Vops, op)
	return nil
}

var riTypeNames = map[int32]string{
	abi.ACL_MODEL_RI_TASK_DEFAULT:      "DEFAULT",
	abi.ACL_MODEL_RI_TASK_KERNEL:       "KERNEL",
	abi.ACL_MODEL_RI_TASK_EVENT_RECORD: "EVENT_RECORD",
	abi.ACL_MODEL_RI_TASK_EVENT_WAIT:   "EVENT_WAIT",
	abi.ACL_MODEL_RI_TASK_EVENT_RESET:  "EVENT_RESET",
	abi.ACL_MODEL_RI_TASK_VALUE_WRITE:  "VALUE_WRITE",
	abi.ACL_MODEL_RI_TASK_VALUE_WAIT:   "VALUE_WAIT",
}

type RiJSON struct {
	ID           uint32      `json:"id"`
	Name         string      `json:"name"`
	Source       string      `json:"source"`
	State        string      `json:"state"`
	Tasks        int         `json:"tasks"`
	Streams      []riStream  `json:"streams"`
	Dependencies []riDepJSON `json:"dependencies"`
	TaskGroups   []riGrpJSON `json:"task_groups,omitempty"`
}

type riStream struct {
	Index    int          `json:"index"`
	StreamID int32        `json:"stream_id"`
	Bind     string       `json:"bind,omitempty"`
	Tasks    []riTaskJSON `json:"tasks"`
}

type riTaskJSON struct {
	Seq      uint32         `json:"seq"`
	Type     string         `json:"type"`
	Disabled bool           `json:"disabled,omitempty"`
	External bool           `json:"external,omitempty"`
	Control  *riCtlJSON     `json:"control,omitempty"`
	Detail   *tsfw.TaskInfo `json:"detail,omitempty"`
}

// riCtlJSON describes a control step (mdlri_flow.go).
type riCtlJSON struct {
	Kind      string  `json:"kind"`                // label, switch_label, active_stream, switch_stream
	Activates *int    `json:"activates,omitempty"` // index of the stream activated
	Labels    []RiRef `json:"labels,omitempty"`    // switch_label: where the list's labels are set
}

var ctlNames = map[ctlKind]string{CtlLabel: "label", CtlSwitchLabel: "switch_label", CtlActive: "active_stream", CtlSwitchStream: "switch_stream"}

// describeCtl renders a control step. Precondition: capState.mu held.
func (ri *ModelRI) describeCtl(op *CtlOp) *riCtlJSON {
	c := &riCtlJSON{Kind: ctlNames[op.Kind]}
	if op.Target != nil {
		k := ri.StreamIndexLocked(op.Target)
		c.Activates = &k
	}
	for _, l := range op.List {
		if p, ok := ri.Labels[l]; ok {
			c.Labels = append(c.Labels, RiRef{p.K, uint32(p.Pos)})
		}
	}
	return c
}

type RiRef struct {
	Stream int    `json:"stream"`
	Seq    uint32 `json:"seq"`
}

type riDepJSON struct {
	From RiRef `json:"from"`
	To   RiRef `json:"to"`
}

type riGrpJSON struct {
	Stream int      `json:"stream"`
	Tasks  []uint32 `json:"tasks"`
}

// Describe renders ri for debug output. Precondition: capState.mu held.
func (ri *ModelRI) Describe(verbose bool) RiJSON {
	out := RiJSON{ID: ri.Id, Name: ri.Name, Source: "build", State: "ready", Tasks: len(ri.Steps),
		Dependencies: []riDepJSON{}}
	if ri.Captured {
		out.Source = "capture"
	}
	switch ri.State.Load() {
	case RiCapturing:
		out.State = "capturing"
	case RiBuilding:
		out.State = "building"
	}
	for i, s := range ri.Streams {
		rs := riStream{Index: i, StreamID: s.ID, Tasks: []riTaskJSON{}}
		if !ri.Captured {
			rs.Bind = "default"
			if ri.BindFlag[s] == ModelStreamFlagHead {
				rs.Bind = "head"
			}
		}
		out.Streams = append(out.Streams, rs)
	}
	for _, st := range ri.Steps {
		if int(st.StreamIndex) >= len(out.Streams) {
			continue // capturing: streams not created yet
		}
		tj := riTaskJSON{Seq: st.Seq, Type: riTypeNames[st.TaskType], Disabled: st.Disabled, External: st.Ext != 0}
		if st.Ctl != nil {
			tj.Control = ri.describeCtl(st.Ctl)
		}
		if verbose {
			in := st.Task.Info()
			if op := st.ValueOp; op != nil { // the descriptor is a placeholder for waits
				in = tsfw.TaskInfo{Kind: "value_write", Dst: uint64(op.Addr), Bytes: 8}
				if op.Wait {
					in.Kind = "value_wait"
				}
			}
			tj.Detail = &in
		}
		out.Streams[st.StreamIndex].Tasks = append(out.Streams[st.StreamIndex].Tasks, tj)
		for _, d := range st.deps {
			from := ri.Steps[d]
			out.Dependencies = append(out.Dependencies, riDepJSON{
				From: RiRef{int(from.StreamIndex), from.Seq}, To: RiRef{int(st.StreamIndex), st.Seq}})
		}
	}
	for _, g := range ri.Groups {
		if len(g.Steps) == 0 {
			continue
		}
		gj := riGrpJSON{Stream: int(g.Steps[0].StreamIndex)}
		for _, st := range g.Steps {
			gj.Tasks = append(gj.Tasks, st.Seq)
		}
		out.TaskGroups = append(out.TaskGroups, gj)
	}
	return out
}

// ApplyUpdate is the update task: it reads the new function entry (a
// kernel of b) and numBlocks from device memory and installs them in
// st's kernel. An address of 0 keeps that part.
func (st *Step) ApplyUpdate(fn string, b *Binary, entryAt, blocksAt uintptr) error {
	var f *Function
	if entryAt != 0 {
		entry := uintptr(PeekU64(entryAt))
		for _, x := range b.Funcs {
			if x.Entry.Fn == entry {
				f = x
			}
		}
		if f == nil {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: function entry %#x read at %#x is not a kernel of binary %#x", fn, entry, entryAt, uintptr(b.H))
		}
	}
	var blocks uint32
	if blocksAt != 0 {
		blocks = peekU32(blocksAt)
		if err := CheckBlocks(fn, blocks); err != nil {
			return err
		}
	}
	CapState.Mu.Lock()
	defer CapState.Mu.Unlock()
	ri := st.Ri
	if ri.State.Load() != RiReady || st.Launch == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: model run instance %d was destroyed before the update ran", fn, ri.Id)
	}
	kern, spec := st.Task.KernelOf()
	k, ok := kern.(*RiKernel)
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the task is no longer a kernel of model run instance %d", fn, ri.Id)
	}
	if blocks == 0 {
		blocks = spec.Blocks
	}
	l := st.Launch
	if f != nil && f != l.F {
		if err := f.Bin.Acquire(fn); err != nil {
			return err
		}
		// The new launch sees the recorded arguments: a copied image
		// stays in the retired launch, which lives until the RI does.
		nl := GetLaunch(nil, f.Bin.Host, 0)
		nl.F, nl.Args, nl.Size, nl.Attr = f, l.Args, l.Size, l.Attr
		ri.Retired = append(ri.Retired, l)
		st.Launch, l = nl, nl
	}
	spec.Blocks = blocks
	k.Live.Store(&riLive{L: l, blocks: blocks})
	st.Task = tsfw.KernelTask(k, spec)
	return nil
}
