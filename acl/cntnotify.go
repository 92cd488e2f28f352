package acl

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// CntNotify is an ACL counting notify (aclrtCntNotify) over a tsfw
// counting notify; the documentation limits the family to the Ascend 950.
type CntNotify struct {
	h    core.Handle
	ctx  *core.Context
	cn   *tsfw.CntNotify
	dead atomic.Bool
}

var (
	cntNotifies = core.NewTable[CntNotify](core.KindCntNotify)
	// cntMu guards ctxCntNotifies.
	cntMu          sync.Mutex
	ctxCntNotifies = core.ByContext[*CntNotify]{}
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
	if c.Dead.Load() {
		return abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the current context was destroyed", fn)
	}
	if err := checkNotifyRoom(fn, c); err != nil {
		return err
	}
	cn, err := c.Dev.Emu.TS.NewCntNotify()
	if err != nil {
		return abi.Wrapf(err, "%s: device %d", fn, c.Dev.ID)
	}
	n := &CntNotify{ctx: c, cn: cn}
	n.h = cntNotifies.Add(n)
	core.RegisterHandle(core.TableCntNotifies, n.h, n.ctx, "counting notify")
	cntMu.Lock()
	ctxCntNotifies.Add(c, n)
	cntMu.Unlock()
	*out = n.h
	return nil
}

func resolveCntNotify(fn string, h core.Handle) (*CntNotify, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: cntNotify must not be NULL", fn)
	}
	n, err := cntNotifies.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	if n.ctx.Dead.Load() {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the context of counting notify %#x was destroyed", fn, uintptr(h))
	}
	return n, nil
}

// destroyLocked releases n. Precondition: cntMu held.
func (n *CntNotify) destroyLocked() {
	if n.dead.Swap(true) {
		return
	}
	cntNotifies.Remove(n.h)
	core.Unregister(core.TableCntNotifies, uint64(n.h))
	ctxCntNotifies.Remove(n.ctx, n)
	n.cn.Destroy()
}

// CntNotifyDestroy implements aclrtCntNotifyDestroy.
func CntNotifyDestroy(t *core.Thread, h core.Handle) error {
	n, err := resolveCntNotify("aclrtCntNotifyDestroy", h)
	if err != nil {
		return err
	}
	cntMu.Lock()
	defer cntMu.Unlock()
	n.destroyLocked()
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
	n, err := resolveCntNotify(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	return s.Queue(t, fn, tsfw.CntRecordTask(n.cn, mode, info.Value), core.Queued{Sync: n.cn})
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
	n, err := resolveCntNotify(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	return s.Queue(t, fn, tsfw.CntWaitTask(n.cn, mode, info.Value, info.IsClear == 1, time.Duration(info.Timeout)*time.Second), core.Queued{Sync: n.cn})
}

// CntNotifyReset implements aclrtCntNotifyReset: the stream sets the
// counter to 0.
func CntNotifyReset(t *core.Thread, h, sh core.Handle) error {
	const fn = "aclrtCntNotifyReset"
	n, err := resolveCntNotify(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	return s.Submit(t, fn, tsfw.CntResetTask(n.cn))
}

// CntNotifyGetID implements aclrtCntNotifyGetId.
func CntNotifyGetID(t *core.Thread, h core.Handle, id *uint32) error {
	const fn = "aclrtCntNotifyGetId"
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: notifyId must not be NULL", fn)
	}
	n, err := resolveCntNotify(fn, h)
	if err != nil {
		return err
	}
	*id = uint32(n.cn.ID())
	return nil
}
