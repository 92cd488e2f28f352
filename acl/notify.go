package acl

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Notify is an ACL notify (aclrtNotify) over a tsfw notify of its
// context's device. A notify imported by key is a second handle on the
// same hardware notify; the hardware notify is released when every handle
// has been destroyed.
type Notify struct {
	h     core.Handle
	ctx   *core.Context
	hw    *notifyHW
	flags uint64
	dead  atomic.Bool
}

// notifyHW is the hardware notify shared by the exporter's handle and the
// handles imported from its key.
type notifyHW struct {
	nt *tsfw.Notify

	// Guarded by notifyMu.
	refs     int
	key      string      // export key, "" until exported
	pidCheck bool        // the importer's pid must be on pids
	pids     []int32     // aclrtNotifySetImportPid
	node     *nodeNotify // exported on a shared node, or imported from one (ipcnotify_node.go)
}

var (
	notifies = core.NewTable[Notify](core.KindNotify)
	// notifyMu guards the IPC fields of notifyHW, notifyKeys and the
	// per-context notify sets (ctxNotifies).
	notifyMu    sync.Mutex
	notifyKeys  = map[string]*Notify{} // export key → exporting handle
	ctxNotifies = core.ByContext[*Notify]{}
)

// checkNotifyRoom enforces the SoC's notify limit (semantics.md §6).
// Plain and counting notifies share the device's notify table.
func checkNotifyRoom(fn string, c *core.Context) error {
	soc := c.Dev.Emu.SoC
	if soc.MaxNotifies > 0 && c.Dev.Emu.TS.NotifiesInUse() >= soc.MaxNotifies {
		return abi.Errorf(abi.ACL_ERROR_RT_NO_NOTIFY_RESOURCE, "%s: device %d already has %d notifies (the %s's limit)", fn, c.Dev.ID, soc.MaxNotifies, soc.Name)
	}
	return nil
}

// CreateNotify implements aclrtCreateNotify.
func CreateNotify(t *core.Thread, out *core.Handle, flag uint64) error {
	const fn = "aclrtCreateNotify"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: notify must not be NULL", fn)
	}
	if flag != abi.ACL_NOTIFY_DEFAULT && flag != abi.ACL_NOTIFY_DEVICE_USE_ONLY {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %#x: want ACL_NOTIFY_DEFAULT (0) or ACL_NOTIFY_DEVICE_USE_ONLY (1)", fn, flag)
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	if c.Dead.Load() {
		return abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the current context was destroyed", fn)
	}
	if err := checkNotifyRoom(fn, c); err != nil {
		return err
	}
	nt, err := c.Dev.Emu.TS.NewNotify()
	if err != nil {
		return abi.Wrapf(err, "%s: device %d", fn, c.Dev.ID)
	}
	n := &Notify{ctx: c, hw: &notifyHW{nt: nt, refs: 1, pidCheck: true}, flags: flag}
	n.h = notifies.Add(n)
	core.RegisterHandle(core.TableNotifies, n.h, n.ctx, "notify")
	notifyMu.Lock()
	ctxNotifies.Add(n.ctx, n)
	notifyMu.Unlock()
	*out = n.h
	return nil
}

func resolveNotify(fn string, h core.Handle) (*Notify, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: notify must not be NULL", fn)
	}
	n, err := notifies.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	if n.ctx.Dead.Load() {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the context of notify %#x was destroyed", fn, uintptr(h))
	}
	return n, nil
}

// destroy releases n's handle and, with the last handle, the hardware
// notify. Precondition: notifyMu held.
func (n *Notify) destroyLocked() {
	if n.dead.Swap(true) {
		return
	}
	notifies.Remove(n.h)
	core.Unregister(core.TableNotifies, uint64(n.h))
	ctxNotifies.Remove(n.ctx, n)
	if notifyKeys[n.hw.key] == n {
		delete(notifyKeys, n.hw.key)
	}
	n.hw.refs--
	if n.hw.refs == 0 {
		n.hw.nt.Destroy()
		if l := n.hw.node; l != nil {
			l.dir.CloseNotify(l.ref, l.exporter)
		}
	}
}

// DestroyNotify implements aclrtDestroyNotify. Queued records and waits
// still act on the hardware notify; its id returns to the pool at once.
func DestroyNotify(t *core.Thread, h core.Handle) error {
	n, err := resolveNotify("aclrtDestroyNotify", h)
	if err != nil {
		return err
	}
	notifyMu.Lock()
	defer notifyMu.Unlock()
	n.destroyLocked()
	return nil
}

// destroyContextSignals releases the notifies, counting notifies and
// labels of a context that is being destroyed. Precondition: core.Runtime.Mu held.
func destroyContextSignals(c *core.Context) {
	notifyMu.Lock()
	for n := range ctxNotifies[c] {
		n.destroyLocked()
	}
	notifyMu.Unlock()
	cntMu.Lock()
	for n := range ctxCntNotifies[c] {
		n.destroyLocked()
	}
	cntMu.Unlock()
	destroyContextLabels(c)
}

// RecordNotify implements aclrtRecordNotify: the stream sets the notify.
// The notify may live on another device than the stream (a record writes
// the notify wherever it is).
func RecordNotify(t *core.Thread, h, sh core.Handle) error {
	const fn = "aclrtRecordNotify"
	n, err := resolveNotify(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if l := n.hw.node; l != nil {
		return s.Queue(t, fn, nodeNotifyRecordTask(l), core.Queued{Sync: l})
	}
	return s.Queue(t, fn, tsfw.NotifyRecordTask(n.hw.nt), core.Queued{Sync: n.hw.nt})
}

// WaitAndResetNotify implements aclrtWaitAndResetNotify: the stream blocks
// until the notify is set and then clears it, so one record releases one
// wait. timeout is in seconds, 0 = forever; an expired wait becomes the
// stream's asynchronous error (ACL_ERROR_RT_WAIT_TIMEOUT).
func WaitAndResetNotify(t *core.Thread, h, sh core.Handle, timeoutSec uint32) error {
	const fn = "aclrtWaitAndResetNotify"
	n, err := resolveNotify(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if l := n.hw.node; l != nil {
		return s.Queue(t, fn, nodeNotifyWaitTask(l, time.Duration(timeoutSec)*time.Second), core.Queued{Sync: l})
	}
	return s.Queue(t, fn, tsfw.NotifyWaitTask(n.hw.nt, time.Duration(timeoutSec)*time.Second), core.Queued{Sync: n.hw.nt})
}

// GetNotifyID implements aclrtGetNotifyId: the hardware id.
func GetNotifyID(t *core.Thread, h core.Handle, id *uint32) error {
	const fn = "aclrtGetNotifyId"
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: notifyId must not be NULL", fn)
	}
	n, err := resolveNotify(fn, h)
	if err != nil {
		return err
	}
	*id = uint32(n.hw.nt.ID())
	return nil
}

// NotifyBatchReset implements aclrtNotifyBatchReset: clears the notifies
// from the host at once (950/A3/A2 only per the documentation).
func NotifyBatchReset(t *core.Thread, hs []core.Handle) error {
	const fn = "aclrtNotifyBatchReset"
	if len(hs) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: notifies must not be NULL and num must be > 0", fn)
	}
	if _, err := core.Current(t, fn); err != nil {
		return err
	}
	ns := make([]*Notify, len(hs))
	for i, h := range hs {
		n, err := resolveNotify(fn, h)
		if err != nil {
			return abi.Wrapf(err, "%s: notifies[%d]", fn, i)
		}
		ns[i] = n
	}
	for _, n := range ns {
		if err := n.hw.nt.Reset(); err != nil {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %s", fn, messageOf(err))
		}
	}
	return nil
}

// IPC notifies (semantics.md §6) work between the threads of one process:
// the key names the exporting process and handle, and importing it in the
// same process yields a second handle on the same hardware notify. A key of
// another process is refused: npuemu has no cross-process device.

// notifyKeyLen is the documented minimum key buffer: 64 characters + NUL.
const notifyKeyLen = 65

func notifyKey(n *Notify) string {
	return fmt.Sprintf("npuemu-notify-%d-%x", os.Getpid(), uint64(n.h))
}

// NotifyGetExportKey implements aclrtNotifyGetExportKey: writes the
// NUL-terminated key into key (len ≥ 65).
func NotifyGetExportKey(t *core.Thread, h core.Handle, key []byte, flags uint64) error {
	const fn = "aclrtNotifyGetExportKey"
	if key == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: key must not be NULL", fn)
	}
	if len(key) < notifyKeyLen {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: len %d: the key buffer needs at least %d bytes", fn, len(key), notifyKeyLen)
	}
	if flags != abi.ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT && flags != abi.ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %#x: want ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT or _DISABLE_PID_VALIDATION", fn, flags)
	}
	n, err := resolveNotify(fn, h)
	if err != nil {
		return err
	}
	notifyMu.Lock()
	defer notifyMu.Unlock()
	if n.hw.key == "" {
		n.hw.key = notifyKey(n)
		notifyKeys[n.hw.key] = n
	}
	n.hw.pidCheck = flags != abi.ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION
	if err := exportNodeNotify(n, n.hw.pidCheck); err != nil { // ipcnotify_node.go
		return abi.Wrapf(err, "%s", fn)
	}
	clear(key)
	copy(key, n.hw.key)
	return nil
}

// NotifySetImportPid implements aclrtNotifySetImportPid: the processes
// allowed to import the exported notify.
func NotifySetImportPid(t *core.Thread, h core.Handle, pids []int32) error {
	const fn = "aclrtNotifySetImportPid"
	if len(pids) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pid must not be NULL and num must be > 0", fn)
	}
	n, err := resolveNotify(fn, h)
	if err != nil {
		return err
	}
	notifyMu.Lock()
	defer notifyMu.Unlock()
	if n.hw.key == "" {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: notify %#x has not been exported (call aclrtNotifyGetExportKey first)", fn, uintptr(h))
	}
	for i, p := range pids {
		if p <= 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pid[%d] = %d is not a process id", fn, i, p)
		}
	}
	if l := n.hw.node; l != nil && l.exporter {
		if err := l.dir.NotifySetPids(l.ref, pids); err != nil {
			return abi.Wrapf(err, "%s", fn)
		}
	}
	n.hw.pids = append(n.hw.pids, pids...)
	return nil
}

// NotifyImportByKey implements aclrtNotifyImportByKey within one process.
func NotifyImportByKey(t *core.Thread, out *core.Handle, key string, flags uint64) error {
	const fn = "aclrtNotifyImportByKey"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: notify must not be NULL", fn)
	}
	if flags != abi.ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT && flags != abi.ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %#x: want ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT or _ENABLE_PEER_ACCESS", fn, flags)
	}
	pid, ok := keyPid(key, "npuemu-notify-")
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %q is not a notify export key", fn, key)
	}
	if pid != os.Getpid() {
		return importNodeNotify(t, fn, key, out) // ipcnotify_node.go
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	notifyMu.Lock()
	defer notifyMu.Unlock()
	src := notifyKeys[key]
	if src == nil || src.dead.Load() {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: no live notify was exported with key %q", fn, key)
	}
	if src.hw.pidCheck && !hasPid(src.hw.pids, int32(pid)) {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: process %d is not on the notify's import list (aclrtNotifySetImportPid) and pid validation is enabled", fn, pid)
	}
	n := &Notify{ctx: c, hw: src.hw, flags: src.flags}
	src.hw.refs++
	n.h = notifies.Add(n)
	core.RegisterHandle(core.TableNotifies, n.h, n.ctx, "notify")
	ctxNotifies.Add(n.ctx, n)
	*out = n.h
	return nil
}

func hasPid(pids []int32, p int32) bool {
	for _, x := range pids {
		if x == p {
			return true
		}
	}
	return false
}

// keyPid parses the process id of a key "<prefix><pid>-<hex>".
func keyPid(key, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(key, prefix)
	if !ok {
		return 0, false
	}
	p, h, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(p)
	if err != nil || pid <= 0 {
		return 0, false
	}
	if _, err := strconv.ParseUint(h, 16, 64); err != nil {
		return 0, false
	}
	return pid, true
}
