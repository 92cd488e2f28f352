package core

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// ExceptionInfo is the content of an aclrtExceptionInfo. Args, ArgsLen
// and Func describe a failing kernel: they come from a task error that
// implements KernelFault.
type ExceptionInfo struct {
	TaskID, StreamID, ThreadID, DeviceID, ErrorCode uint32

	ArgsLen uint32
	Args    uintptr // device address of the kernel's argument block
	Func    uintptr // the kernel's aclrtFuncHandle
}

// ExceptionCallback receives one exception; info is valid during the call.
type ExceptionCallback func(info *ExceptionInfo)

// KernelFaultError is the task error of a kernel whose block faulted: the
// launch's identity, captured when the block fails because the launch
// object is recycled once the kernel is done.
type KernelFaultError struct {
	err     *abi.Error
	args    uintptr
	argsLen uint32
	fn      Handle
	Bin     Handle
}

// Error returns the message alone, like messageOf of an *abi.Error: every
// caller that reports a task error wraps it with its code (abi.CodeOf sees
// it through Unwrap), so the code is not repeated in the message.
func (k *KernelFaultError) Error() string { return k.err.Msg }

func (k *KernelFaultError) Unwrap() error { return k.err }

// KernelFault implements KernelFault.
func (k *KernelFaultError) KernelFault() (uintptr, uint32, uintptr) {
	return k.args, k.argsLen, uintptr(k.fn)
}

// fault builds the task error of block b of n failing with err.
func (l *Launch) fault(b, n uint32, err error) error {
	if df, ok := err.(*deviceFault); ok {
		err = df.err
		if Sanitizing {
			sanitizeKernelFault(l.F.Entry.Name, b, n, df.addr, err)
		}
	}
	return &KernelFaultError{
		err:     &abi.Error{Code: abi.CodeOf(err), Msg: fmt.Sprintf("kernel %s, block %d of %d: %s", l.F.Entry.Name, b, n, abi.MessageOf(err))},
		args:    l.Args,
		argsLen: uint32(min(l.Size, math.MaxUint32)),
		fn:      l.F.H,
		Bin:     l.F.Bin.H,
	}
}

// DeviceTaskAbortCallback is an aclrtDeviceTaskAbortCallback bound to its
// args.
type DeviceTaskAbortCallback func(dev int32, stage int32, timeout uint32) int32

// TaskInfo is what a thread attached to its last task.
type TaskInfo struct {
	OpInfo, Extend []byte
}

// TaskInfos holds the cached info per thread id. There is no reader in the
// ACL API (the real runtime hands it to its profiler and error reports), so
// it is kept for LastTaskInfo and overwritten by the next call.
var TaskInfos struct {
	Mu sync.Mutex
	M  map[uint64]TaskInfo
}

// LastTaskInfo returns what the thread cached with the two calls above.
func LastTaskInfo(t *Thread) (opInfo, extend []byte) {
	TaskInfos.Mu.Lock()
	defer TaskInfos.Mu.Unlock()
	ti := TaskInfos.M[t.ID]
	return ti.OpInfo, ti.Extend
}

// KernelFault is implemented by task errors of failing kernels, so that
// exception callbacks can report the kernel (aclrtGetArgsFromExceptionInfo,
// aclrtGetFuncHandleFromExceptionInfo).
type KernelFault interface {
	KernelFault() (args uintptr, argsLen uint32, fn uintptr)
}

type ExcEntry struct {
	Key uintptr // the C function pointer: identity for dedup and unregister
	Fn  ExceptionCallback
}

var ExcState struct {
	Mu   sync.Mutex
	Slot ExcEntry   // aclrtSetExceptionInfoCallback's single slot
	Reg  []ExcEntry // aclrtExceptionInfoCallbackRegister's set
	// Bin holds aclrtBinarySetExceptionCallback's callbacks by binary
	// handle; handles are never reused, so an entry of an unloaded binary
	// never fires for another one (stale entries are dropped at each set).
	Bin map[Handle]ExceptionCallback
}

// exceptionCallbacks returns the callbacks to call now: the slot's first,
// then the registered ones (a function in both is called twice).
func exceptionCallbacks() []ExceptionCallback {
	ExcState.Mu.Lock()
	defer ExcState.Mu.Unlock()
	out := make([]ExceptionCallback, 0, len(ExcState.Reg)+1)
	if ExcState.Slot.Key != 0 {
		out = append(out, ExcState.Slot.Fn)
	}
	for _, e := range ExcState.Reg {
		out = append(out, e.Fn)
	}
	return out
}

// streamOfQueue finds the live stream that owns q; nil if none (a queue of
// another runtime user, e.g. a test).
func streamOfQueue(q *tsfw.Queue) *Stream {
	Streams.Mu.RLock()
	defer Streams.Mu.RUnlock()
	for _, sl := range Streams.Slots {
		if sl.Obj != nil && sl.Obj.SQ == q {
			return sl.Obj
		}
	}
	return nil
}

// contextStreams returns the live streams of c, default stream included.
// It reads the handle table, not c.streams, because it runs where core.Runtime.Mu
// must not be taken (a thread holding core.Runtime.Mu may be waiting for the task
// being reported).
func contextStreams(c *Context) []*Stream {
	Streams.Mu.RLock()
	defer Streams.Mu.RUnlock()
	var out []*Stream
	for _, sl := range Streams.Slots {
		if sl.Obj != nil && sl.Obj.Ctx == c {
			out = append(out, sl.Obj)
		}
	}
	return out
}

// OnTaskError is the tsfw task-error hook: exception callbacks, then the
// stop-on-failure effect.
func OnTaskError(te tsfw.TaskError) {
	s := streamOfQueue(te.Queue)
	if s == nil {
		return
	}
	info := ExceptionInfo{
		TaskID:    te.TaskID,
		StreamID:  uint32(s.ID),
		ThreadID:  uint32(s.Submitter.Load()),
		DeviceID:  uint32(s.Ctx.Dev.ID),
		ErrorCode: uint32(abi.CodeOf(te.Err)),
	}
	var kf KernelFault
	if errors.As(te.Err, &kf) {
		info.Args, info.ArgsLen, info.Func = kf.KernelFault()
	}
	for _, cb := range exceptionCallbacks() {
		cb(&info)
	}
	var fault *KernelFaultError
	if errors.As(te.Err, &fault) {
		if cb := binaryExceptionCallback(fault.Bin); cb != nil {
			cb(&info)
		}
	}
	all := contextStreams(s.Ctx)
	stop := false
	for _, x := range all {
		x.Mu.Lock()
		stop = stop || x.FailureMode == abi.ACL_STOP_ON_FAILURE
		x.Mu.Unlock()
	}
	if !stop {
		return
	}
	err := abi.Errorf(abi.ACL_ERROR_RT_STREAM_ABORT,
		"stream %d of device %d failed (task %d: %s) and its context is in ACL_STOP_ON_FAILURE mode: no new tasks are accepted",
		s.ID, s.Ctx.Dev.ID, te.TaskID, abi.MessageOf(te.Err))
	for _, x := range all {
		x.SQ.Stop(err)
	}
}

// binaryExceptionCallback returns the callback of binary bh, nil if none.
func binaryExceptionCallback(bh Handle) ExceptionCallback {
	ExcState.Mu.Lock()
	defer ExcState.Mu.Unlock()
	return ExcState.Bin[bh]
}

type AbortCb struct {
	Name string
	Fn   DeviceTaskAbortCallback
}

var AbortCbs struct {
	Mu   sync.Mutex
	List []AbortCb
}

// RunAbortCallbacks calls every callback for stage; the first non-zero
// result is an error.
func RunAbortCallbacks(op string, dev int32, stage int32, timeout uint32) error {
	AbortCbs.Mu.Lock()
	list := append([]AbortCb(nil), AbortCbs.List...)
	AbortCbs.Mu.Unlock()
	stageName := map[int32]string{abi.ACL_RT_DEVICE_TASK_ABORT_PRE: "PRE", abi.ACL_RT_DEVICE_TASK_ABORT_POST: "POST"}[stage]
	for _, c := range list {
		if r := c.Fn(dev, stage, timeout); r != 0 {
			return abi.Errorf(abi.ACL_ERROR_RT_DEVICE_TASK_ABORT, "%s: device %d: callback %q returned %d in stage ACL_RT_DEVICE_TASK_ABORT_%s", op, dev, c.Name, r, stageName)
		}
	}
	return nil
}

// DeviceStreams returns the live streams of every context of d.
func DeviceStreams(d *Device) []*Stream {
	Streams.Mu.RLock()
	defer Streams.Mu.RUnlock()
	var out []*Stream
	for _, sl := range Streams.Slots {
		if sl.Obj != nil && sl.Obj.Ctx.Dev == d {
			out = append(out, sl.Obj)
		}
	}
	return out
}
