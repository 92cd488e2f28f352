package acl

import (
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// CntNotifyCreate implements aclrtCntNotifyCreate (flag must be 0).
func CntNotifyCreate(t *core.Thread, out *core.Handle, flag uint64) error {
	const fn = "aclrtCntNotifyCreate"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: cntNotify must not be NULL", fn)
	}
	if flag != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %#x: must be 0", fn, flag)
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	n, err := core.NewCntNotifyLocked(fn, c)
	if err != nil {
		return err
	}
	*out = n.H
	return nil
}

// CntNotifyDestroy implements aclrtCntNotifyDestroy.
func CntNotifyDestroy(t *core.Thread, h core.Handle) error {
	n, err := core.ResolveCntNotify("aclrtCntNotifyDestroy", h)
	if err != nil {
		return err
	}
	core.CntMu.Lock()
	defer core.CntMu.Unlock()
	n.DestroyLocked()
	return nil
}

// cntRecordModes decodes aclrtCntNotifyRecordMode into the model's modes.
var cntRecordModes = map[uint32]tsfw.CntRecordMode{
	abi.ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE: tsfw.CntSet,
	abi.ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE:       tsfw.CntAdd,
	abi.ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE:    tsfw.CntOr,
	abi.ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE:   tsfw.CntAnd,
}

// cntWaitModes decodes aclrtCntNotifyWaitMode into the model's conditions.
var cntWaitModes = map[uint32]tsfw.CntWaitMode{
	abi.ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE:               tsfw.CntLess,
	abi.ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE:              tsfw.CntEqual,
	abi.ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE:             tsfw.CntBigger,
	abi.ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE:    tsfw.CntBiggerEqual,
	abi.ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE: tsfw.CntEqualBitmask,
}

// CntNotifyRecord implements aclrtCntNotifyRecord: the stream applies the
// record mode (set, add, or, and) with the value to the counter.
func CntNotifyRecord(t *core.Thread, h, sh core.Handle, info *CntNotifyRecordInfo) error {
	const fn = "aclrtCntNotifyRecord"
	if info == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: info must not be NULL", fn)
	}
	mode, ok := cntRecordModes[info.Mode]
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: mode %d is not an aclrtCntNotifyRecordMode (0, 1, 2 or 4)", fn, info.Mode)
	}
	n, err := core.ResolveCntNotify(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	return s.Queue(t, fn, tsfw.CntRecordTask(n.TSCntNotify, mode, info.Value), core.Queued{Sync: n.TSCntNotify})
}

// CntNotifyWaitWithTimeout implements aclrtCntNotifyWaitWithTimeout: the
// stream blocks until the counter satisfies the wait mode against the
// value (count < value, ==, >, >=, (count & value) == value); isClear
// resets the counter when the wait is released; timeout in seconds, 0 =
// forever.
func CntNotifyWaitWithTimeout(t *core.Thread, h, sh core.Handle, info *CntNotifyWaitInfo) error {
	const fn = "aclrtCntNotifyWaitWithTimeout"
	if info == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: info must not be NULL", fn)
	}
	mode, ok := cntWaitModes[info.Mode]
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: mode %d is not an aclrtCntNotifyWaitMode (0..4)", fn, info.Mode)
	}
	if info.IsClear > 1 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: isClear %d: want 0 or 1", fn, info.IsClear)
	}
	n, err := core.ResolveCntNotify(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	return s.Queue(t, fn, tsfw.CntWaitTask(n.TSCntNotify, mode, info.Value, info.IsClear == 1, time.Duration(info.Timeout)*time.Second), core.Queued{Sync: n.TSCntNotify})
}

// CntNotifyReset implements aclrtCntNotifyReset: the stream sets the
// counter to 0.
func CntNotifyReset(t *core.Thread, h, sh core.Handle) error {
	const fn = "aclrtCntNotifyReset"
	n, err := core.ResolveCntNotify(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	return s.Submit(t, fn, tsfw.CntResetTask(n.TSCntNotify))
}

// CntNotifyGetID implements aclrtCntNotifyGetId.
func CntNotifyGetID(t *core.Thread, h core.Handle, id *uint32) error {
	const fn = "aclrtCntNotifyGetId"
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: notifyId must not be NULL", fn)
	}
	n, err := core.ResolveCntNotify(fn, h)
	if err != nil {
		return err
	}
	*id = uint32(n.TSCntNotify.ID())
	return nil
}
