package acl

import (
	"errors"
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Exception reporting (semantics.md §17), stream abort/stop and the effect
// of the stream failure mode (§4, §21.10).
//
// tsfw calls onTaskError (installed with tsfw.SetTaskErrorHook) for every
// task that fails asynchronously — a faulting copy, a kernel's AI Core
// exception, a built-in task — on a goroutine of its own, before the task
// is retired. So when aclrtSynchronizeStream returns the task's error, the
// exception callbacks have run and, in stop-on-failure mode, the
// context's streams are stopped. The callbacks get an ExceptionInfo that
// libfake lays out as aclrtExceptionInfo (five uint32: task id, stream id,
// thread id, device id, error code); its task id is the one
// aclrtGetThreadLastTaskId reports, its thread id the acl thread id of the
// last thread that issued a tracked task to the stream (0 if none).
//
// A kernel's failure carries the launch (kernelFault): its function
// handle, argument block and binary, so that the accessors can report the
// kernel and the binary's own callback (aclrtBinarySetExceptionCallback)
// fires after the process-wide ones.
//
// Lock order: excState.mu is a leaf; callbacks run with no
// lock held.

func init() { tsfw.SetTaskErrorHook(onTaskError) }

// KernelFault is implemented by task errors of failing kernels, so that
// exception callbacks can report the kernel (aclrtGetArgsFromExceptionInfo,
// aclrtGetFuncHandleFromExceptionInfo).
type KernelFault interface {
	KernelFault() (args uintptr, argsLen uint32, fn uintptr)
}

type excEntry struct {
	key uintptr // the C function pointer: identity for dedup and unregister
	fn  core.ExceptionCallback
}

var excState struct {
	mu   sync.Mutex
	slot excEntry   // aclrtSetExceptionInfoCallback's single slot
	reg  []excEntry // aclrtExceptionInfoCallbackRegister's set
	// bin holds aclrtBinarySetExceptionCallback's callbacks by binary
	// handle; handles are never reused, so an entry of an unloaded binary
	// never fires for another one (stale entries are dropped at each set).
	bin map[core.Handle]core.ExceptionCallback
}

// SetExceptionInfoCallback implements the deprecated
// aclrtSetExceptionInfoCallback: one slot, last call wins, key 0 (NULL)
// clears it.
func SetExceptionInfoCallback(t *core.Thread, key uintptr, fn core.ExceptionCallback) error {
	excState.mu.Lock()
	defer excState.mu.Unlock()
	if key == 0 {
		excState.slot = excEntry{}
		return nil
	}
	excState.slot = excEntry{key: key, fn: fn}
	return nil
}

// ExceptionInfoCallbackRegister implements
// aclrtExceptionInfoCallbackRegister: registering the same function twice
// keeps one registration.
func ExceptionInfoCallbackRegister(t *core.Thread, key uintptr, fn core.ExceptionCallback) error {
	if key == 0 || fn == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtExceptionInfoCallbackRegister: callback must not be NULL")
	}
	excState.mu.Lock()
	defer excState.mu.Unlock()
	for _, e := range excState.reg {
		if e.key == key {
			return nil
		}
	}
	excState.reg = append(excState.reg, excEntry{key: key, fn: fn})
	return nil
}

// ExceptionInfoCallbackUnregister implements
// aclrtExceptionInfoCallbackUnregister: an unknown callback is a success;
// a callback running now is not waited for.
func ExceptionInfoCallbackUnregister(t *core.Thread, key uintptr) error {
	if key == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtExceptionInfoCallbackUnregister: callback must not be NULL")
	}
	excState.mu.Lock()
	defer excState.mu.Unlock()
	for i, e := range excState.reg {
		if e.key == key {
			excState.reg = append(excState.reg[:i], excState.reg[i+1:]...)
			break
		}
	}
	return nil
}

// exceptionCallbacks returns the callbacks to call now: the slot's first,
// then the registered ones (a function in both is called twice).
func exceptionCallbacks() []core.ExceptionCallback {
	excState.mu.Lock()
	defer excState.mu.Unlock()
	out := make([]core.ExceptionCallback, 0, len(excState.reg)+1)
	if excState.slot.key != 0 {
		out = append(out, excState.slot.fn)
	}
	for _, e := range excState.reg {
		out = append(out, e.fn)
	}
	return out
}

// streamOfQueue finds the live stream that owns q; nil if none (a queue of
// another runtime user, e.g. a test).
func streamOfQueue(q *tsfw.Queue) *core.Stream {
	core.Streams.Mu.RLock()
	defer core.Streams.Mu.RUnlock()
	for _, sl := range core.Streams.Slots {
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
func contextStreams(c *core.Context) []*core.Stream {
	core.Streams.Mu.RLock()
	defer core.Streams.Mu.RUnlock()
	var out []*core.Stream
	for _, sl := range core.Streams.Slots {
		if sl.Obj != nil && sl.Obj.Ctx == c {
			out = append(out, sl.Obj)
		}
	}
	return out
}

// onTaskError is the tsfw task-error hook: exception callbacks, then the
// stop-on-failure effect.
func onTaskError(te tsfw.TaskError) {
	s := streamOfQueue(te.Queue)
	if s == nil {
		return
	}
	info := core.ExceptionInfo{
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
	var fault *core.KernelFault
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

// GetThreadLastTaskID implements aclrtGetThreadLastTaskId: the id of the
// last task the thread issued to an explicit stream: an async copy, memset
// or 2-D copy, a kernel launch, a host function, a callback or a built-in
// task (event and notify tasks are not counted).
func GetThreadLastTaskID(t *core.Thread, id *uint32) error {
	const fn = "aclrtGetThreadLastTaskId"
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: taskId must not be NULL", fn)
	}
	if !t.HasLastTask {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the calling thread has issued no task to an explicit stream", fn)
	}
	*id = t.LastTask
	return nil
}

// StreamAbort implements aclrtStreamAbort: queued tasks are discarded, a
// running wait is cancelled, and threads blocked synchronising the stream
// get ACL_ERROR_RT_STREAM_ABORT. The stream stays usable.
func StreamAbort(t *core.Thread, sh core.Handle) error {
	const fn = "aclrtStreamAbort"
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	s.SQ.Abort(abi.Errorf(abi.ACL_ERROR_RT_STREAM_ABORT, "stream %d was aborted by aclrtStreamAbort", s.ID))
	return nil
}

// StreamStop implements aclrtStreamStop: the stream's queued tasks are
// discarded and it accepts no more tasks (ACL_ERROR_RT_STREAM_ABORT) until
// destroyed.
func StreamStop(t *core.Thread, sh core.Handle) error {
	const fn = "aclrtStreamStop"
	if sh == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL (the default stream cannot be stopped)", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	s.SQ.Stop(abi.Errorf(abi.ACL_ERROR_RT_STREAM_ABORT, "stream %d was stopped by aclrtStreamStop", s.ID))
	return nil
}

// BinarySetExceptionCallback implements aclrtBinarySetExceptionCallback:
// fn is called for the exceptions of the binary's kernels, after the
// process-wide callbacks; the last call wins and a NULL callback (nil fn)
// removes it.
func BinarySetExceptionCallback(t *core.Thread, bh core.Handle, fn core.ExceptionCallback) error {
	const name = "aclrtBinarySetExceptionCallback"
	if _, err := core.ResolveBinary(name, bh); err != nil {
		return err
	}
	excState.mu.Lock()
	defer excState.mu.Unlock()
	for h := range excState.bin {
		if _, err := core.Binaries.Get(h); err != nil {
			delete(excState.bin, h)
		}
	}
	if fn == nil {
		delete(excState.bin, bh)
		return nil
	}
	if excState.bin == nil {
		excState.bin = map[core.Handle]core.ExceptionCallback{}
	}
	excState.bin[bh] = fn
	return nil
}

// binaryExceptionCallback returns the callback of binary bh, nil if none.
func binaryExceptionCallback(bh core.Handle) core.ExceptionCallback {
	excState.mu.Lock()
	defer excState.mu.Unlock()
	return excState.bin[bh]
}

// GetArgsFromExceptionInfo implements aclrtGetArgsFromExceptionInfo: the
// argument block of the failing kernel, as the kernel saw it. An
// exception that is not a kernel's has none (ACL_ERROR_RT_PARAM_INVALID).
func GetArgsFromExceptionInfo(t *core.Thread, info *core.ExceptionInfo, args *uintptr, n *uint32) error {
	const fn = "aclrtGetArgsFromExceptionInfo"
	if info == nil || args == nil || n == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: info, devArgsPtr and devArgsLen must not be NULL", fn)
	}
	if info.Func == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the exception of task %d is not a kernel's: it has no arguments", fn, info.TaskID)
	}
	*args, *n = info.Args, info.ArgsLen
	return nil
}

// GetFuncHandleFromExceptionInfo implements
// aclrtGetFuncHandleFromExceptionInfo: the function handle the failing
// kernel was launched with (it dies with its binary).
func GetFuncHandleFromExceptionInfo(t *core.Thread, info *core.ExceptionInfo, out *uintptr) error {
	const fn = "aclrtGetFuncHandleFromExceptionInfo"
	if info == nil || out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: info and func must not be NULL", fn)
	}
	if info.Func == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the exception of task %d is not a kernel's: it has no function", fn, info.TaskID)
	}
	*out = info.Func
	return nil
}
