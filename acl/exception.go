package acl

import (
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

func init() { tsfw.SetTaskErrorHook(core.OnTaskError) }

// SetExceptionInfoCallback implements the deprecated
// aclrtSetExceptionInfoCallback: one slot, last call wins, key 0 (NULL)
// clears it.
func SetExceptionInfoCallback(t *core.Thread, key uintptr, fn core.ExceptionCallback) error {
	core.ExcState.Mu.Lock()
	defer core.ExcState.Mu.Unlock()
	if key == 0 {
		core.ExcState.Slot = core.ExcEntry{}
		return nil
	}
	core.ExcState.Slot = core.ExcEntry{Key: key, Fn: fn}
	return nil
}

// ExceptionInfoCallbackRegister implements
// aclrtExceptionInfoCallbackRegister: registering the same function twice
// keeps one registration.
func ExceptionInfoCallbackRegister(t *core.Thread, key uintptr, fn core.ExceptionCallback) error {
	if key == 0 || fn == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtExceptionInfoCallbackRegister: callback must not be NULL")
	}
	core.ExcState.Mu.Lock()
	defer core.ExcState.Mu.Unlock()
	for _, e := range core.ExcState.Reg {
		if e.Key == key {
			return nil
		}
	}
	core.ExcState.Reg = append(core.ExcState.Reg, core.ExcEntry{Key: key, Fn: fn})
	return nil
}

// ExceptionInfoCallbackUnregister implements
// aclrtExceptionInfoCallbackUnregister: an unknown callback is a success;
// a callback running now is not waited for.
func ExceptionInfoCallbackUnregister(t *core.Thread, key uintptr) error {
	if key == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtExceptionInfoCallbackUnregister: callback must not be NULL")
	}
	core.ExcState.Mu.Lock()
	defer core.ExcState.Mu.Unlock()
	for i, e := range core.ExcState.Reg {
		if e.Key == key {
			core.ExcState.Reg = append(core.ExcState.Reg[:i], core.ExcState.Reg[i+1:]...)
			break
		}
	}
	return nil
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
	core.ExcState.Mu.Lock()
	defer core.ExcState.Mu.Unlock()
	for h := range core.ExcState.Bin {
		if _, err := core.Binaries.Get(h); err != nil {
			delete(core.ExcState.Bin, h)
		}
	}
	if fn == nil {
		delete(core.ExcState.Bin, bh)
		return nil
	}
	if core.ExcState.Bin == nil {
		core.ExcState.Bin = map[core.Handle]core.ExceptionCallback{}
	}
	core.ExcState.Bin[bh] = fn
	return nil
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
