package rt

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Kernel launches by function handle and the per-thread task records of
// the rt* API: the calls aclrtLaunchKernelWithHostArgs, aclrtLaunchKernelV2,
// aclrtLaunchKernelWithArgsArray, aclrtRandomNumAsync,
// aclrtCacheLastTask*Info and aclrtGetThreadLastTaskId make, each doing
// what its ACL caller does (rtKernelLaunchCfg_t has aclrtLaunchKernelCfg's
// layout; libfake reads both the same way). The launches with an
// rtArgsEx_t are kernel_launch.go, the stub and tiling-key launches
// kernel_launch_stub.go, the AI CPU launches kernel_launch_aicpu.go.

// LaunchKernelWithHostArgs implements rtsLaunchKernelWithHostArgs: the host
// block is copied at the call; each placeholder's slot receives the
// address of its data in the copy.
func LaunchKernelWithHostArgs(t *core.Thread, fh core.Handle, blocks uint32, sh core.Handle, attrs []core.LaunchAttr, blob []byte, phs []core.PlaceHolder) error {
	return wrap("rtsLaunchKernelWithHostArgs", acl.LaunchKernelWithHostArgs(t, fh, blocks, sh, attrs, blob, phs))
}

// LaunchKernelWithDevArgs implements rtsLaunchKernelWithDevArgs as
// aclrtLaunchKernelV2 (its caller) behaves: args in device memory of the
// stream's device are read in place when the kernel runs; host memory is
// copied at the call (host returns its argsSize bytes).
func LaunchKernelWithDevArgs(t *core.Thread, fh core.Handle, blocks uint32, sh core.Handle, attrs []core.LaunchAttr, args uintptr, size uint32, host func() []byte) error {
	return wrap("rtsLaunchKernelWithDevArgs", acl.LaunchKernelV2(t, fh, blocks, args, uint64(size), attrs, sh, host))
}

// LaunchKernelWithArgsArray implements rtLaunchKernelWithArgsArray: fptr is
// a function handle or a kernel entry address; param(i, size) is the
// parameter args[i] points to. The kernel's table must declare its
// parameters (as for aclrtLaunchKernelWithArgsArray).
func LaunchKernelWithArgsArray(t *core.Thread, fptr uintptr, blocks uint32, sh core.Handle, attrs []core.LaunchAttr, param func(i, size int) []byte) error {
	return wrap("rtLaunchKernelWithArgsArray", acl.LaunchKernelWithArgsArray(t, fptr, blocks, sh, attrs, param))
}

// randomTypes maps rtRandomNumDataType to the aclDataType
// aclrtRandomNumAsync takes: the two enums number differently.
var randomTypes = map[int32]int32{
	abi.RT_RANDOM_NUM_DATATYPE_INT32:  abi.ACL_INT32,
	abi.RT_RANDOM_NUM_DATATYPE_INT64:  abi.ACL_INT64,
	abi.RT_RANDOM_NUM_DATATYPE_UINT32: abi.ACL_UINT32,
	abi.RT_RANDOM_NUM_DATATYPE_UINT64: abi.ACL_UINT64,
	abi.RT_RANDOM_NUM_DATATYPE_BF16:   abi.ACL_BF16,
	abi.RT_RANDOM_NUM_DATATYPE_FP16:   abi.ACL_FLOAT16,
	abi.RT_RANDOM_NUM_DATATYPE_FP32:   abi.ACL_FLOAT,
}

// LaunchRandomNumTask implements rtsLaunchRandomNumTask: info is the
// caller's rtRandomNumTaskInfo_t, copied (it has aclrtRandomNumTaskInfo's
// layout; rtRandomNumFuncType has aclrtRandomNumFuncType's values); its
// data type is converted and the task is aclrtRandomNumAsync's.
func LaunchRandomNumTask(t *core.Thread, info *acl.RandomNumTaskInfo, sh core.Handle, reserve uintptr) error {
	const fn = "rtsLaunchRandomNumTask"
	if info == nil {
		return invalid(fn, "taskInfo must not be NULL")
	}
	c := *info
	dt, ok := randomTypes[c.DataType]
	if !ok {
		return invalid(fn, "dataType %d: want RT_RANDOM_NUM_DATATYPE_INT32..FP32 (0..6)", c.DataType)
	}
	c.DataType = dt
	return wrap(fn, acl.RandomNumAsync(t, &c, sh, reserve))
}

// CacheLastTaskOpInfo implements rtCacheLastTaskOpInfo (1 B .. 64 KiB,
// kept per thread as aclrtCacheLastTaskOpInfo keeps it).
func CacheLastTaskOpInfo(t *core.Thread, info []byte, haveInfo bool) error {
	return wrap("rtCacheLastTaskOpInfo", acl.CacheLastTaskOpInfo(t, info, haveInfo))
}

// CacheLastTaskExtendInfo implements rtCacheLastTaskExtendInfo (non-empty,
// truncated to 4 KiB, kept per thread).
func CacheLastTaskExtendInfo(t *core.Thread, info []byte, haveInfo bool) error {
	return wrap("rtCacheLastTaskExtendInfo", acl.CacheLastTaskExtendInfo(t, info, haveInfo))
}

// GetThreadLastTaskID implements rtsGetThreadLastTaskId: the id of the
// last task the calling thread issued to an explicit stream.
func GetThreadLastTaskID(t *core.Thread, id *uint32) error {
	return wrap("rtsGetThreadLastTaskId", acl.GetThreadLastTaskID(t, id))
}

// fillFuncs are the kernel launch fill callbacks by symbol
// (rtRegKernelLaunchFillFunc). ACL registers one, for "g_opSystemRunCfg",
// when auto-UC memory is enabled; the runtime calls it at the launch of a
// kernel that reads that system configuration. No emulated kernel reads
// it (npuemu models no L2 cache offsets), so the callbacks are kept and
// never called.
var fillFuncs struct {
	mu sync.Mutex
	m  map[string]uintptr
}

// RegKernelLaunchFillFunc implements rtRegKernelLaunchFillFunc: the
// callback for symbol; a later registration replaces it.
func RegKernelLaunchFillFunc(symbol string, haveSymbol bool, callback uintptr) error {
	const fn = "rtRegKernelLaunchFillFunc"
	if !haveSymbol || symbol == "" {
		return invalid(fn, "symbol must not be NULL or empty")
	}
	if callback == 0 {
		return invalid(fn, "callback must not be NULL")
	}
	fillFuncs.mu.Lock()
	defer fillFuncs.mu.Unlock()
	if fillFuncs.m == nil {
		fillFuncs.m = map[string]uintptr{}
	}
	fillFuncs.m[symbol] = callback
	return nil
}

// UnRegKernelLaunchFillFunc implements rtUnRegKernelLaunchFillFunc; a
// symbol with no callback is ACL_ERROR_RT_PARAM_INVALID.
func UnRegKernelLaunchFillFunc(symbol string, haveSymbol bool) error {
	const fn = "rtUnRegKernelLaunchFillFunc"
	if !haveSymbol || symbol == "" {
		return invalid(fn, "symbol must not be NULL or empty")
	}
	fillFuncs.mu.Lock()
	defer fillFuncs.mu.Unlock()
	if _, ok := fillFuncs.m[symbol]; !ok {
		return invalid(fn, "no fill function is registered for symbol %q", symbol)
	}
	delete(fillFuncs.m, symbol)
	return nil
}
