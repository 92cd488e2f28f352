package core

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/tsfw"
)

var (
	Notifies = NewTable[Notify](KindNotify)
	// NotifyMu guards the IPC fields of notifyHW, notifyKeys and the
	// per-context notify sets (ctxNotifies).
	NotifyMu    sync.Mutex
	NotifyKeys  = map[string]*Notify{} // export key → exporting handle
	CtxNotifies = ByContext[*Notify]{}
)

var (
	CntNotifies = NewTable[CntNotify](KindCntNotify)
	// CntMu guards ctxCntNotifies.
	CntMu          sync.Mutex
	ctxCntNotifies = ByContext[*CntNotify]{}
)

// Notify is a runtime notify (aclrtNotify, rtNotify_t) over a tsfw notify of its
// context's device. A notify imported by key is a second handle on the
// same hardware notify; the hardware notify is released when every handle
// has been destroyed.
type Notify struct {
	H     Handle
	Ctx   *Context
	Hw    *NotifyHW
	Flags uint64
	Dead  atomic.Bool
}

// NotifyHW is the hardware notify shared by the exporter's handle and the
// handles imported from its key.
type NotifyHW struct {
	TSNotify *tsfw.Notify

	// Guarded by notifyMu.
	Refs     int
	Key      string      // export key, "" until exported
	PidCheck bool        // the importer's pid must be on pids
	Pids     []int32     // aclrtNotifySetImportPid
	Node     *NodeNotify // exported on a shared node, or imported from one (ipcnotify_node.go)
}

// CheckNotifyRoom enforces the SoC's notify limit (semantics.md §6).
// Plain and counting notifies share the device's notify table.
func CheckNotifyRoom(fn string, c *Context) error {
	soc := c.Dev.Emu.SoC
	if soc.MaxNotifies > 0 && c.Dev.Emu.TS.NotifiesInUse() >= soc.MaxNotifies {
		return abi.Errorf(abi.ACL_ERROR_RT_NO_NOTIFY_RESOURCE, "%s: device %d already has %d notifies (the %s's limit)", fn, c.Dev.ID, soc.MaxNotifies, soc.Name)
	}
	return nil
}

func ResolveNotify(fn string, h Handle) (*Notify, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: notify must not be NULL", fn)
	}
	n, err := Notifies.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	if n.Ctx.Dead.Load() {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the context of notify %#x was destroyed", fn, uintptr(h))
	}
	return n, nil
}

// destroy releases n's handle and, with the last handle, the hardware
// notify. Precondition: notifyMu held.
func (n *Notify) DestroyLocked() {
	if n.Dead.Swap(true) {
		return
	}
	Notifies.Remove(n.H)
	Unregister(TableNotifies, uint64(n.H))
	CtxNotifies.Remove(n.Ctx, n)
	if NotifyKeys[n.Hw.Key] == n {
		delete(NotifyKeys, n.Hw.Key)
	}
	n.Hw.Refs--
	if n.Hw.Refs == 0 {
		n.Hw.TSNotify.Destroy()
		if l := n.Hw.Node; l != nil {
			l.Dir.CloseNotify(l.Ref, l.Exporter)
		}
	}
}

// CntNotify is a runtime counting notify (aclrtCntNotify) over a tsfw
// counting notify; the documentation limits the family to the Ascend 950.
type CntNotify struct {
	H           Handle
	ctx         *Context
	TSCntNotify *tsfw.CntNotify
	dead        atomic.Bool
}

func ResolveCntNotify(fn string, h Handle) (*CntNotify, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: cntNotify must not be NULL", fn)
	}
	n, err := CntNotifies.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	if n.ctx.Dead.Load() {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the context of counting notify %#x was destroyed", fn, uintptr(h))
	}
	return n, nil
}

// DestroyLocked releases n. Precondition: cntMu held.
func (n *CntNotify) DestroyLocked() {
	if n.dead.Swap(true) {
		return
	}
	CntNotifies.Remove(n.H)
	Unregister(TableCntNotifies, uint64(n.H))
	ctxCntNotifies.Remove(n.ctx, n)
	n.TSCntNotify.Destroy()
}

// NodeNotify links a hardware notify to its node entry.
type NodeNotify struct {
	Dir      *emu.NodeDir
	Ref      emu.NodeNotifyRef
	Entry    *emu.NodeNotify
	Gen      uint64 // the entry's full generation
	Exporter bool
}

// NewNotifyLocked creates a notify of context c with flag (already
// checked). Precondition: Runtime.Mu held.
func NewNotifyLocked(fn string, c *Context, flag uint64) (*Notify, error) {
	if c.Dead.Load() {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the current context was destroyed", fn)
	}
	if err := CheckNotifyRoom(fn, c); err != nil {
		return nil, err
	}
	nt, err := c.Dev.Emu.TS.NewNotify()
	if err != nil {
		return nil, abi.Wrapf(err, "%s: device %d", fn, c.Dev.ID)
	}
	n := &Notify{Ctx: c, Hw: &NotifyHW{TSNotify: nt, Refs: 1, PidCheck: true}, Flags: flag}
	n.H = Notifies.Add(n)
	RegisterHandle(TableNotifies, n.H, n.Ctx, "notify")
	NotifyMu.Lock()
	CtxNotifies.Add(n.Ctx, n)
	NotifyMu.Unlock()
	return n, nil
}

// NewCntNotifyLocked creates a counting notify of context c.
// Precondition: Runtime.Mu held.
func NewCntNotifyLocked(fn string, c *Context) (*CntNotify, error) {
	if c.Dead.Load() {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the current context was destroyed", fn)
	}
	if err := CheckNotifyRoom(fn, c); err != nil {
		return nil, err
	}
	cn, err := c.Dev.Emu.TS.NewCntNotify()
	if err != nil {
		return nil, abi.Wrapf(err, "%s: device %d", fn, c.Dev.ID)
	}
	n := &CntNotify{ctx: c, TSCntNotify: cn}
	n.H = CntNotifies.Add(n)
	RegisterHandle(TableCntNotifies, n.H, n.ctx, "counting notify")
	CntMu.Lock()
	ctxCntNotifies.Add(c, n)
	CntMu.Unlock()
	return n, nil
}

// DestroyContextNotifies releases the notifies and counting notifies of a
// context that is being destroyed. Precondition: Runtime.Mu held.
func DestroyContextNotifies(c *Context) {
	NotifyMu.Lock()
	for n := range CtxNotifies[c] {
		n.DestroyLocked()
	}
	NotifyMu.Unlock()
	CntMu.Lock()
	for n := range ctxCntNotifies[c] {
		n.DestroyLocked()
	}
	CntMu.Unlock()
}

// IPC notifies across processes (docs/node.md, "IPC"): on a shared node,
// exporting a notify enters it in the node's notify table and the key
// names the entry; from then on every record and wait of that notify, in
// any process, goes through the entry's pending count (a host task on the
// stream), so one record releases exactly one wait wherever it is.

const notifyKeyPrefix = "npuemu-notify-"

// ExportNodeNotify enters n in the node's table (once) and names the key
// after the entry. No-op on a private node. Precondition: notifyMu held.
func ExportNodeNotify(n *Notify, pidCheck bool) error {
	dir := n.Ctx.Dev.Emu.HBM.NodeDir()
	if dir == nil || n.Hw.Node != nil {
		return nil
	}
	ref, entry, err := dir.ExportNotify(n.Ctx.Dev.Emu.PhysID(), pidCheck)
	if err != nil {
		return err
	}
	n.Hw.Node = &NodeNotify{Dir: dir, Ref: ref, Entry: entry, Gen: entry.Generation, Exporter: true}
	if n.Hw.Key != "" {
		delete(NotifyKeys, n.Hw.Key)
	}
	n.Hw.Key = fmt.Sprintf("%s%d-%x", notifyKeyPrefix, os.Getpid(), ref.Code())
	NotifyKeys[n.Hw.Key] = n
	return nil
}

// ImportNodeNotify opens a notify another process exported.
func ImportNodeNotify(t *Thread, fn, key string, out *Handle) error {
	c, err := Current(t, fn)
	if err != nil {
		return err
	}
	dir := c.Dev.Emu.HBM.NodeDir()
	if dir == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: the key comes from another process, and this process runs a private node", fn)
	}
	_, hex, _ := strings.Cut(strings.TrimPrefix(key, notifyKeyPrefix), "-")
	code, err := strconv.ParseUint(hex, 16, 64)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %q is not a notify export key", fn, key)
	}
	ref := emu.NotifyRefOf(code)
	entry, gen, err := dir.OpenNotify(ref, SelfPID())
	if err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	if err := CheckNotifyRoom(fn, c); err != nil {
		dir.CloseNotify(ref, false)
		return err
	}
	nt, err := c.Dev.Emu.TS.NewNotify()
	if err != nil {
		dir.CloseNotify(ref, false)
		return abi.Wrapf(err, "%s", fn)
	}
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	NotifyMu.Lock()
	defer NotifyMu.Unlock()
	n := &Notify{Ctx: c, Hw: &NotifyHW{TSNotify: nt, Refs: 1, Key: key, Node: &NodeNotify{Dir: dir, Ref: ref, Entry: entry, Gen: gen}}}
	n.H = Notifies.Add(n)
	RegisterHandle(TableNotifies, n.H, n.Ctx, "notify")
	CtxNotifies.Add(n.Ctx, n)
	*out = n.H
	return nil
}

// nodeRecordTask / nodeWaitTask are the record and wait of an exported or
// imported notify.
func NodeNotifyRecordTask(l *NodeNotify) tsfw.Task {
	return tsfw.HostTask(func() error { emu.NodeNotifyRecord(l.Entry); return nil })
}

func NodeNotifyWaitTask(l *NodeNotify, timeout time.Duration) tsfw.Task {
	return tsfw.HostTask(func() error { return l.Dir.NodeNotifyWait(l.Entry, l.Gen, timeout) })
}
