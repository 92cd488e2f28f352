package acl

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

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
	n, err := core.NewNotifyLocked(fn, c, flag)
	if err != nil {
		return err
	}
	*out = n.H
	return nil
}

// DestroyNotify implements aclrtDestroyNotify. Queued records and waits
// still act on the hardware notify; its id returns to the pool at once.
func DestroyNotify(t *core.Thread, h core.Handle) error {
	n, err := core.ResolveNotify("aclrtDestroyNotify", h)
	if err != nil {
		return err
	}
	core.NotifyMu.Lock()
	defer core.NotifyMu.Unlock()
	n.DestroyLocked()
	return nil
}

// RecordNotify implements aclrtRecordNotify: the stream sets the notify.
// The notify may live on another device than the stream (a record writes
// the notify wherever it is).
func RecordNotify(t *core.Thread, h, sh core.Handle) error {
	const fn = "aclrtRecordNotify"
	n, err := core.ResolveNotify(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if l := n.Hw.Node; l != nil {
		return s.Queue(t, fn, core.NodeNotifyRecordTask(l), core.Queued{Sync: l})
	}
	return s.Queue(t, fn, tsfw.NotifyRecordTask(n.Hw.TSNotify), core.Queued{Sync: n.Hw.TSNotify})
}

// WaitAndResetNotify implements aclrtWaitAndResetNotify: the stream blocks
// until the notify is set and then clears it, so one record releases one
// wait. timeout is in seconds, 0 = forever; an expired wait becomes the
// stream's asynchronous error (ACL_ERROR_RT_WAIT_TIMEOUT).
func WaitAndResetNotify(t *core.Thread, h, sh core.Handle, timeoutSec uint32) error {
	const fn = "aclrtWaitAndResetNotify"
	n, err := core.ResolveNotify(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if l := n.Hw.Node; l != nil {
		return s.Queue(t, fn, core.NodeNotifyWaitTask(l, time.Duration(timeoutSec)*time.Second), core.Queued{Sync: l})
	}
	return s.Queue(t, fn, tsfw.NotifyWaitTask(n.Hw.TSNotify, time.Duration(timeoutSec)*time.Second), core.Queued{Sync: n.Hw.TSNotify})
}

// GetNotifyID implements aclrtGetNotifyId: the hardware id.
func GetNotifyID(t *core.Thread, h core.Handle, id *uint32) error {
	const fn = "aclrtGetNotifyId"
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: notifyId must not be NULL", fn)
	}
	n, err := core.ResolveNotify(fn, h)
	if err != nil {
		return err
	}
	*id = uint32(n.Hw.TSNotify.ID())
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
	ns := make([]*core.Notify, len(hs))
	for i, h := range hs {
		n, err := core.ResolveNotify(fn, h)
		if err != nil {
			return abi.Wrapf(err, "%s: notifies[%d]", fn, i)
		}
		ns[i] = n
	}
	for _, n := range ns {
		if err := n.Hw.TSNotify.Reset(); err != nil {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %s", fn, abi.MessageOf(err))
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

func notifyKey(n *core.Notify) string {
	return fmt.Sprintf("npuemu-notify-%d-%x", os.Getpid(), uint64(n.H))
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
	n, err := core.ResolveNotify(fn, h)
	if err != nil {
		return err
	}
	core.NotifyMu.Lock()
	defer core.NotifyMu.Unlock()
	if n.Hw.Key == "" {
		n.Hw.Key = notifyKey(n)
		core.NotifyKeys[n.Hw.Key] = n
	}
	n.Hw.PidCheck = flags != abi.ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION
	if err := core.ExportNodeNotify(n, n.Hw.PidCheck); err != nil { // ipcnotify_node.go
		return abi.Wrapf(err, "%s", fn)
	}
	clear(key)
	copy(key, n.Hw.Key)
	return nil
}

// NotifySetImportPid implements aclrtNotifySetImportPid: the processes
// allowed to import the exported notify.
func NotifySetImportPid(t *core.Thread, h core.Handle, pids []int32) error {
	const fn = "aclrtNotifySetImportPid"
	if len(pids) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pid must not be NULL and num must be > 0", fn)
	}
	n, err := core.ResolveNotify(fn, h)
	if err != nil {
		return err
	}
	core.NotifyMu.Lock()
	defer core.NotifyMu.Unlock()
	if n.Hw.Key == "" {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: notify %#x has not been exported (call aclrtNotifyGetExportKey first)", fn, uintptr(h))
	}
	for i, p := range pids {
		if p <= 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pid[%d] = %d is not a process id", fn, i, p)
		}
	}
	if l := n.Hw.Node; l != nil && l.Exporter {
		if err := l.Dir.NotifySetPids(l.Ref, pids); err != nil {
			return abi.Wrapf(err, "%s", fn)
		}
	}
	n.Hw.Pids = append(n.Hw.Pids, pids...)
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
		return core.ImportNodeNotify(t, fn, key, out) // ipcnotify_node.go
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	core.NotifyMu.Lock()
	defer core.NotifyMu.Unlock()
	src := core.NotifyKeys[key]
	if src == nil || src.Dead.Load() {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: no live notify was exported with key %q", fn, key)
	}
	if src.Hw.PidCheck && !hasPid(src.Hw.Pids, int32(pid)) {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: process %d is not on the notify's import list (aclrtNotifySetImportPid) and pid validation is enabled", fn, pid)
	}
	n := &core.Notify{Ctx: c, Hw: src.Hw, Flags: src.Flags}
	src.Hw.Refs++
	n.H = core.Notifies.Add(n)
	core.RegisterHandle(core.TableNotifies, n.H, n.Ctx, "notify")
	core.CtxNotifies.Add(n.Ctx, n)
	*out = n.H
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
