package core

import (
	"fmt"
	"math"
	"sync"

	"github.com/npuemu/npuemu/abi"
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

// KernelFault is the task error of a kernel whose block faulted: the
// launch's identity, captured when the block fails because the launch
// object is recycled once the kernel is done.
type KernelFault struct {
	err     *abi.Error
	args    uintptr
	argsLen uint32
	fn      Handle
	Bin     Handle
}

// Error returns the message alone, like messageOf of an *abi.Error: every
// caller that reports a task error wraps it with its code (abi.CodeOf sees
// it through Unwrap), so the code is not repeated in the message.
func (k *KernelFault) Error() string { return k.err.Msg }

func (k *KernelFault) Unwrap() error { return k.err }

// KernelFault implements KernelFault.
func (k *KernelFault) KernelFault() (uintptr, uint32, uintptr) {
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
	return &KernelFault{
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
