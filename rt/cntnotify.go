package rt

import (
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The counting notifies: a 32-bit counter streams update (set, add, or,
// and) and wait on (less, equal, bigger, bigger-or-equal, equal under a
// bitmask). rtCntNotify_t is aclrtCntNotify, and rtCntNotifyRecordInfo_t /
// rtCntNotifyWaitInfo_t have the layout and mode values of their ACL
// counterparts (rt.h; acl-to-rt.tsv casts them), so acl/cntnotify.go
// does the work on the same values.

// CntNotifyCreateServer implements rtCntNotifyCreateServer (flags 0).
func CntNotifyCreateServer(t *core.Thread, out *core.Handle, flags uint64) error {
	const fn = "rtCntNotifyCreateServer"
	if out == nil {
		return invalid(fn, "cntNotify must not be NULL")
	}
	return wrap(fn, acl.CntNotifyCreate(t, out, flags))
}

// CntNotifyDestroy implements rtCntNotifyDestroy.
func CntNotifyDestroy(t *core.Thread, n core.Handle) error {
	const fn = "rtCntNotifyDestroy"
	if n == 0 {
		return invalid(fn, "cntNotify must not be NULL")
	}
	return wrap(fn, acl.CntNotifyDestroy(t, n))
}

// CntNotifyRecord implements rtsCntNotifyRecord: the stream applies
// info's mode with its value to the counter.
func CntNotifyRecord(t *core.Thread, n, s core.Handle, info *CntNotifyRecordInfo) error {
	const fn = "rtsCntNotifyRecord"
	if n == 0 || info == nil {
		return invalid(fn, "cntNotify and info must not be NULL")
	}
	return wrap(fn, acl.CntNotifyRecord(t, n, s, (*acl.CntNotifyRecordInfo)(info)))
}

// CntNotifyWaitWithTimeout implements rtsCntNotifyWaitWithTimeout: the
// stream waits until the counter meets info's condition (timeout in
// info, as aclrtCntNotifyWaitWithTimeout), clearing it after when
// isClear is set.
func CntNotifyWaitWithTimeout(t *core.Thread, n, s core.Handle, info *CntNotifyWaitInfo) error {
	const fn = "rtsCntNotifyWaitWithTimeout"
	if n == 0 || info == nil {
		return invalid(fn, "cntNotify and info must not be NULL")
	}
	var isClear byte
	if info.IsClear {
		isClear = 1
	}
	return wrap(fn, acl.CntNotifyWaitWithTimeout(t, n, s, &acl.CntNotifyWaitInfo{Mode: info.Mode, Value: info.Value, Timeout: info.Timeout, IsClear: isClear}))
}

// CntNotifyReset implements rtsCntNotifyReset: the stream zeroes the
// counter.
func CntNotifyReset(t *core.Thread, n, s core.Handle) error {
	const fn = "rtsCntNotifyReset"
	if n == 0 {
		return invalid(fn, "cntNotify must not be NULL")
	}
	return wrap(fn, acl.CntNotifyReset(t, n, s))
}

// CntNotifyGetID implements rtsCntNotifyGetId: the counter's hardware id.
func CntNotifyGetID(t *core.Thread, n core.Handle, id *uint32) error {
	const fn = "rtsCntNotifyGetId"
	if n == 0 || id == nil {
		return invalid(fn, "cntNotify and notifyId must not be NULL")
	}
	return wrap(fn, acl.CntNotifyGetID(t, n, id))
}
