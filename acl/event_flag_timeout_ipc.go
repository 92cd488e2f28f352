package acl

import (
	"encoding/binary"
	"math"
	"os"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// The extended event APIs (flagged record/wait, IPC event handles) and the
// process-wide wait and execution timeouts; docs/events.md.

// RecordEventWithFlag implements aclrtRecordEventWithFlag (950/A3/A2 per
// the documentation): ACL_EVENT_RECORD_DEFAULT is aclrtRecordEvent;
// ACL_EVENT_RECORD_EXTERNAL belongs to a capturing stream.
func RecordEventWithFlag(t *core.Thread, h, sh core.Handle, flag uint32) error {
	const fn = "aclrtRecordEventWithFlag"
	if _, err := core.ResolveStream(t, fn, sh); err != nil {
		return err
	}
	return core.RecordEvent(t, h, sh, flag)
}

// StreamWaitEventWithFlag implements aclrtStreamWaitEventWithFlag (950/A3/A2
// per the documentation): ACL_EVENT_WAIT_DEFAULT waits with a timeout in
// seconds (0 = never); ACL_EVENT_WAIT_EXTERNAL belongs to a capturing
// stream and needs timeout 0.
func StreamWaitEventWithFlag(t *core.Thread, sh, h core.Handle, timeoutSec, flag uint32) error {
	const fn = "aclrtStreamWaitEventWithFlag"
	switch flag {
	case abi.ACL_EVENT_WAIT_DEFAULT:
	case abi.ACL_EVENT_WAIT_EXTERNAL:
		if timeoutSec != 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ACL_EVENT_WAIT_EXTERNAL requires timeout 0, got %d", fn, timeoutSec)
		}
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown flag %d (want ACL_EVENT_WAIT_DEFAULT or ACL_EVENT_WAIT_EXTERNAL)", fn, flag)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if flag == abi.ACL_EVENT_WAIT_EXTERNAL {
		e, err := core.ResolveEvent(fn, h)
		if err != nil {
			return err
		}
		return core.CaptureExternal(s, fn, e, tsfw.WaitTask(e.TSEvent))
	}
	return core.WaitEventOnStream(t, fn, sh, h, time.Duration(timeoutSec)*time.Second)
}

// SetOpWaitTimeout implements aclrtSetOpWaitTimeout: seconds, 0 = no
// timeout; the last call wins and applies to event waits issued later with
// aclrtStreamWaitEvent. An expired wait is the stream's asynchronous error
// (ACL_ERROR_RT_WAIT_TIMEOUT), returned by the next synchronisation.
func SetOpWaitTimeout(t *core.Thread, sec uint32) error {
	const fn = "aclrtSetOpWaitTimeout"
	if c := t.Ctx; c != nil && !c.Dead.Load() && c.Dev.Emu.SoC.Family == emu.Family310P {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not supported on %s (310P family) per the documentation", fn, c.Dev.Emu.SoC.Name)
	}
	core.OpWaitTimeout.Store(sec)
	return nil
}

// currentSoC returns the current context's SoC, or the default SoC (an
// Atlas A2) when the thread has none.
func currentSoC(t *core.Thread) emu.SoC {
	if c := t.Ctx; c != nil && !c.Dead.Load() {
		return c.Dev.Emu.SoC
	}
	s, _ := emu.LookupSoC(emu.DefaultSoC)
	return s
}

// SetOpExecuteTimeOut implements aclrtSetOpExecuteTimeOut: seconds, 0 =
// the maximum; values above the maximum are capped. Kernels launched
// without their own timeout attribute are held to it (OpExecuteTimeout).
func SetOpExecuteTimeOut(t *core.Thread, sec uint32) error {
	maxSec := currentSoC(t).OpExecTimeoutMaxSec
	if sec == 0 || sec > maxSec {
		sec = maxSec
	}
	core.OpExecTimeout.Store(sec)
	return nil
}

// GetOpExecuteTimeout implements aclrtGetOpExecuteTimeout: the configured
// value, or the SoC default, in milliseconds.
func GetOpExecuteTimeout(t *core.Thread, ms *uint32) error {
	if ms == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetOpExecuteTimeout: timeoutMs must not be NULL")
	}
	sec := core.OpExecTimeout.Load()
	if sec == 0 {
		sec = currentSoC(t).OpExecTimeoutDefaultSec
	}
	*ms = uint32(min(uint64(sec)*1000, math.MaxUint32))
	return nil
}

var ipcEventMagic = [8]byte{'n', 'p', 'u', 'e', 'm', 'u', 'E', 'V'}

// IpcGetEventHandle implements aclrtIpcGetEventHandle for events created
// with aclrtCreateEventExWithFlag(ACL_EVENT_IPC).
func IpcGetEventHandle(t *core.Thread, h core.Handle, out *IpcEventHandle) error {
	const fn = "aclrtIpcGetEventHandle"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handle must not be NULL", fn)
	}
	e, err := core.ResolveEvent(fn, h)
	if err != nil {
		return err
	}
	if e.Kind != core.EventEx || e.Flags != abi.ACL_EVENT_IPC {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: event %#x was not created with aclrtCreateEventExWithFlag(ACL_EVENT_IPC)", fn, uintptr(h))
	}
	var b IpcEventHandle
	copy(b.Reserved[:8], ipcEventMagic[:])
	binary.LittleEndian.PutUint32(b.Reserved[8:], uint32(os.Getpid()))
	binary.LittleEndian.PutUint64(b.Reserved[16:], uint64(h))
	if err := exportNodeEvent(e, &b); err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	*out = b
	return nil
}

// IpcOpenEventHandle implements aclrtIpcOpenEventHandle within one
// process: the new handle names the same hardware event, for waits;
// destroying either handle leaves the other usable.
func IpcOpenEventHandle(t *core.Thread, in IpcEventHandle, out *core.Handle) error {
	const fn = "aclrtIpcOpenEventHandle"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: event must not be NULL", fn)
	}
	if [8]byte(in.Reserved[:8]) != ipcEventMagic {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the handle was not produced by aclrtIpcGetEventHandle", fn)
	}
	if pid := binary.LittleEndian.Uint32(in.Reserved[8:]); int(pid) != os.Getpid() {
		return openNodeEvent(t, fn, in, out) // acl/ipcevent_node.go
	}
	if _, err := core.Current(t, fn); err != nil {
		return err
	}
	src, err := core.ResolveEvent(fn, core.Handle(binary.LittleEndian.Uint64(in.Reserved[16:])))
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the exported event no longer exists: %s", fn, abi.MessageOf(err))
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	if src.Dead.Load() || src.Ctx.Dead.Load() {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the exported event was destroyed", fn)
	}
	if src.Share == nil {
		src.Share = &core.EventShare{Refs: 1}
	}
	src.Share.Refs++
	e := &core.Event{Ctx: src.Ctx, TSEvent: src.TSEvent, Flags: src.Flags, Kind: src.Kind, Share: src.Share}
	e.H = core.Events.Add(e)
	core.CtxEvents.Add(src.Ctx, e)
	src.Ctx.Dev.NEvents++
	*out = e.H
	return nil
}
