package rt

import (
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The rts* notify family: hardware notifies a stream records and another
// stream waits for (and resets), their ids and their IPC export/import by
// key. The objects are the ACL ones (rtNotify_t == aclrtNotify) and flags
// and timeouts reach the runtime unchanged from ACL (acl-to-rt.tsv), so
// RT_NOTIFY_FLAG_DOWNLOAD_TO_DEV has ACL_NOTIFY_DEVICE_USE_ONLY's value
// and RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION /
// RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS the ACL_RT_NOTIFY_* ones. The
// work is acl's (acl/notify.go); these check the arguments the runtime
// checks and answer with the runtime's codes.

// NotifyCreate implements rtsNotifyCreate: flag RT_NOTIFY_FLAG_DEFAULT or
// RT_NOTIFY_FLAG_DOWNLOAD_TO_DEV.
func NotifyCreate(t *core.Thread, out *core.Handle, flag uint64) error {
	const fn = "rtsNotifyCreate"
	if out == nil {
		return invalid(fn, "notify must not be NULL")
	}
	return wrap(fn, acl.CreateNotify(t, out, flag))
}

// NotifyDestroy implements rtsNotifyDestroy.
func NotifyDestroy(t *core.Thread, n core.Handle) error {
	const fn = "rtsNotifyDestroy"
	if n == 0 {
		return invalid(fn, "notify must not be NULL")
	}
	return wrap(fn, acl.DestroyNotify(t, n))
}

// NotifyRecord implements rtsNotifyRecord: the stream sets the notify.
func NotifyRecord(t *core.Thread, n, s core.Handle) error {
	const fn = "rtsNotifyRecord"
	if n == 0 {
		return invalid(fn, "notify must not be NULL")
	}
	return wrap(fn, acl.RecordNotify(t, n, s))
}

// NotifyWaitAndReset implements rtsNotifyWaitAndReset: the stream waits
// until the notify is set, then resets it; timeout in seconds, 0 =
// forever; an expired wait is the stream's asynchronous error.
func NotifyWaitAndReset(t *core.Thread, n, s core.Handle, timeoutSec uint32) error {
	const fn = "rtsNotifyWaitAndReset"
	if n == 0 {
		return invalid(fn, "notify must not be NULL")
	}
	return wrap(fn, acl.WaitAndResetNotify(t, n, s, timeoutSec))
}

// NotifyGetID implements rtsNotifyGetId: the notify's hardware id.
func NotifyGetID(t *core.Thread, n core.Handle, id *uint32) error {
	const fn = "rtsNotifyGetId"
	if n == 0 || id == nil {
		return invalid(fn, "notify and notifyId must not be NULL")
	}
	return wrap(fn, acl.GetNotifyID(t, n, id))
}

// NotifyBatchReset implements rtsNotifyBatchReset: resets the notifies at
// once, from the host. ns is the caller's array (nil for NULL).
func NotifyBatchReset(t *core.Thread, ns []core.Handle) error {
	const fn = "rtsNotifyBatchReset"
	if len(ns) == 0 {
		return invalid(fn, "notifies must not be NULL and num must be > 0")
	}
	return wrap(fn, acl.NotifyBatchReset(t, ns))
}

// NotifyGetExportKey implements rtsNotifyGetExportKey: writes the notify's
// NUL-terminated IPC key into key (the caller's buffer, nil for NULL).
func NotifyGetExportKey(t *core.Thread, n core.Handle, key []byte, flag uint64) error {
	const fn = "rtsNotifyGetExportKey"
	if n == 0 || key == nil {
		return invalid(fn, "notify and key must not be NULL")
	}
	return wrap(fn, acl.NotifyGetExportKey(t, n, key, flag))
}

// NotifyImportByKey implements rtsNotifyImportByKey: a handle on the
// notify exported under key, in this process or another one on the node.
func NotifyImportByKey(t *core.Thread, out *core.Handle, key string, flag uint64) error {
	const fn = "rtsNotifyImportByKey"
	if out == nil {
		return invalid(fn, "notify must not be NULL")
	}
	return wrap(fn, acl.NotifyImportByKey(t, out, key, flag))
}

// NotifySetImportPid implements rtsNotifySetImportPid: the processes
// allowed to import the notify's key.
func NotifySetImportPid(t *core.Thread, n core.Handle, pids []int32) error {
	const fn = "rtsNotifySetImportPid"
	if n == 0 || len(pids) == 0 {
		return invalid(fn, "notify and pid must not be NULL and num must be > 0")
	}
	return wrap(fn, acl.NotifySetImportPid(t, n, pids))
}
