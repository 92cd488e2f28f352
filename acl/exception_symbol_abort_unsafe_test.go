package acl

import (
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

// collectExceptions registers a process-wide exception callback that
// stores what it gets.
func collectExceptions(t *testing.T) func() []core.ExceptionInfo {
	var mu sync.Mutex
	var got []core.ExceptionInfo
	require.NoError(t, ExceptionInfoCallbackRegister(nil, 0xE1, func(info *core.ExceptionInfo) {
		mu.Lock()
		got = append(got, *info)
		mu.Unlock()
	}))
	t.Cleanup(func() { _ = ExceptionInfoCallbackUnregister(nil, 0xE1) })
	return func() []core.ExceptionInfo {
		mu.Lock()
		defer mu.Unlock()
		return append([]core.ExceptionInfo(nil), got...)
	}
}

func TestExceptionInfoCarriesTheKernel(t *testing.T) {
	th, h, bin := kernelSetup(t)
	got := collectExceptions(t)
	f := function(t, th, bin, "echo")
	var a core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	var p core.Handle
	require.NoError(t, KernelArgsAppend(th, a, u64(0x1234), &p))
	require.NoError(t, KernelArgsFinalize(th, a))

	var binInfos []core.ExceptionInfo
	require.NoError(t, BinarySetExceptionCallback(th, bin, func(info *core.ExceptionInfo) { binInfos = append(binInfos, *info) }))

	h.fail[2] = true
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 4, 0, nil, a))
	requireCode(t, core.SynchronizeStream(th, 0, -1), abi.ACL_ERROR_RT_AICORE_EXCEPTION)

	infos := got()
	require.Len(t, infos, 1)
	info := infos[0]
	assert.Equal(t, uint32(abi.ACL_ERROR_RT_AICORE_EXCEPTION), info.ErrorCode)
	assert.Equal(t, uintptr(f), info.Func)
	assert.Equal(t, uint32(8), info.ArgsLen)
	h.mu.Lock()
	launched := h.addrs[len(h.addrs)-1]
	h.mu.Unlock()
	assert.Equal(t, launched, info.Args, "the blob address the kernel saw")

	var args uintptr
	var n uint32
	require.NoError(t, GetArgsFromExceptionInfo(th, &info, &args, &n))
	assert.Equal(t, launched, args)
	assert.Equal(t, uint32(8), n)
	var fh uintptr
	require.NoError(t, GetFuncHandleFromExceptionInfo(th, &info, &fh))
	assert.Equal(t, uintptr(f), fh)

	require.Len(t, binInfos, 1, "the binary's callback fires too")
	assert.Equal(t, info, binInfos[0])

	// The binary callback removed: only the process-wide one fires.
	require.NoError(t, BinarySetExceptionCallback(th, bin, nil))
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 4, 0, nil, a))
	requireCode(t, core.SynchronizeStream(th, 0, -1), abi.ACL_ERROR_RT_AICORE_EXCEPTION)
	assert.Len(t, got(), 2)
	assert.Len(t, binInfos, 1)

	require.NoError(t, BinaryUnLoad(th, bin))
	requireCode(t, BinarySetExceptionCallback(th, bin, func(*core.ExceptionInfo) {}), abi.ACL_ERROR_RT_INVALID_HANDLE)
}

func TestExceptionInfoAccessorErrors(t *testing.T) {
	var p uintptr
	var n uint32
	notKernel := &core.ExceptionInfo{TaskID: 3}
	for _, tc := range []struct {
		name string
		err  error
		code abi.Code
	}{
		{"args: NULL info", GetArgsFromExceptionInfo(nil, nil, &p, &n), abi.ACL_ERROR_INVALID_PARAM},
		{"args: NULL outputs", GetArgsFromExceptionInfo(nil, notKernel, nil, &n), abi.ACL_ERROR_INVALID_PARAM},
		{"args: not a kernel", GetArgsFromExceptionInfo(nil, notKernel, &p, &n), abi.ACL_ERROR_RT_PARAM_INVALID},
		{"func: NULL info", GetFuncHandleFromExceptionInfo(nil, nil, &p), abi.ACL_ERROR_INVALID_PARAM},
		{"func: NULL output", GetFuncHandleFromExceptionInfo(nil, notKernel, nil), abi.ACL_ERROR_INVALID_PARAM},
		{"func: not a kernel", GetFuncHandleFromExceptionInfo(nil, notKernel, &p), abi.ACL_ERROR_RT_PARAM_INVALID},
		{"binary: NULL", BinarySetExceptionCallback(nil, 0, nil), abi.ACL_ERROR_INVALID_PARAM},
	} {
		t.Run(tc.name, func(t *testing.T) { requireCode(t, tc.err, tc.code) })
	}
}

func TestReplayedKernelFaultCarriesTheKernel(t *testing.T) {
	h := &fakeHost{bufs: map[uintptr][]byte{}, fail: map[uint32]bool{1: true}, quiet: true}
	l := &core.Launch{LaunchMem: &core.LaunchMem{Host: h, Buf: make([]byte, core.LaunchHeader)},
		F: &core.Function{H: 0xF1, Bin: &core.Binary{H: 0xB1}, Entry: core.KernelEntry{Name: "k"}}, Args: 0x5000, Size: 24}
	k := &core.RiKernel{L: l}
	require.NoError(t, k.RunBlock(0, 2))
	err := k.RunBlock(1, 2)
	requireCode(t, err, abi.ACL_ERROR_RT_AICORE_EXCEPTION)
	assert.Contains(t, err.Error(), "kernel k, block 1 of 2: AI Core exception")
	var kf core.KernelFault
	require.ErrorAs(t, err, &kf)
	args, n, fn := kf.KernelFault()
	assert.Equal(t, []uint64{0x5000, 24, 0xF1}, []uint64{uint64(args), uint64(n), uint64(fn)})
	assert.ErrorIs(t, err, abi.Err(abi.ACL_ERROR_RT_AICORE_EXCEPTION))
}

// symHost is a fake host whose global "table" is real memory.
type symHost struct {
	*fakeHost
	mem []byte
}

func (h *symHost) Global(lib uintptr, name string) (uintptr, uint64, error) {
	if name == "table" {
		return uintptr(unsafe.Pointer(&h.mem[0])), uint64(len(h.mem)), nil
	}
	return h.fakeHost.Global(lib, name)
}

func symbolSetup(t *testing.T, env map[string]string) (*core.Thread, *symHost, uintptr) {
	h := &symHost{fakeHost: newFakeHost(t), mem: make([]byte, 16)}
	base := uintptr(unsafe.Pointer(&h.mem[0]))
	th := setupPlatform(t, env, emu.Platform{Kernels: h, Symbols: func(addr uintptr) (string, uintptr, bool) {
		if addr >= base && addr < base+16 {
			return "table", base, true
		}
		return "", 0, false
	}})
	require.NoError(t, SetDevice(th, 0))
	return th, h, base
}

func TestSymbols(t *testing.T) {
	th, h, sym := symbolSetup(t, nil)
	var bin core.Handle
	requireCode(t, GetSymbolAddress(th, sym, new(uintptr)), abi.ACL_ERROR_RT_SYMBOL_NOT_FOUND) // no binary loaded yet
	require.NoError(t, BinaryLoadFromFile(th, kernelFile(t, "KERNELS"), nil, &bin))

	var dev uintptr
	require.NoError(t, GetSymbolAddress(th, sym, &dev))
	assert.Equal(t, sym, dev, "used in place")
	var size uint64
	require.NoError(t, GetSymbolSize(th, sym, &size))
	assert.Equal(t, uint64(16), size)

	src := []byte{1, 2, 3, 4}
	require.NoError(t, MemcpyToSymbol(th, sym, uintptr(unsafe.Pointer(&src[0])), 4, 8, abi.ACL_MEMCPY_HOST_TO_DEVICE))
	assert.Equal(t, []byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0}, h.mem)

	// Device memory round trip through the stream.
	var d uintptr
	require.NoError(t, Malloc(th, &d, 64, 0, core.MallocOpts{}))
	require.NoError(t, MemcpyFromSymbolAsync(th, d, 64, sym, 8, 6, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, 0))
	require.NoError(t, MemcpyToSymbolAsync(th, sym, d, 8, 0, abi.ACL_MEMCPY_DEFAULT, 0))
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	assert.Equal(t, []byte{0, 0, 1, 2, 3, 4, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0}, h.mem)
	out := make([]byte, 4)
	require.NoError(t, MemcpyFromSymbol(th, uintptr(unsafe.Pointer(&out[0])), 4, sym, 4, 2, abi.ACL_MEMCPY_DEVICE_TO_HOST))
	assert.Equal(t, []byte{1, 2, 3, 4}, out)

	hp := uintptr(unsafe.Pointer(&out[0]))
	for _, tc := range []struct {
		name string
		err  error
		code abi.Code
	}{
		{"address NULL symbol", GetSymbolAddress(th, 0, &dev), abi.ACL_ERROR_INVALID_PARAM},
		{"address NULL out", GetSymbolAddress(th, sym, nil), abi.ACL_ERROR_INVALID_PARAM},
		{"size NULL out", GetSymbolSize(th, sym, nil), abi.ACL_ERROR_INVALID_PARAM},
		{"inside the variable", GetSymbolSize(th, sym+4, &size), abi.ACL_ERROR_RT_INVALID_SYMBOL},
		{"not a symbol", GetSymbolSize(th, hp, &size), abi.ACL_ERROR_RT_SYMBOL_NOT_FOUND},
		{"overrun", MemcpyToSymbol(th, sym, hp, 4, 13, abi.ACL_MEMCPY_HOST_TO_DEVICE), abi.ACL_ERROR_RT_PARAM_INVALID},
		{"offset past the end", MemcpyToSymbol(th, sym, hp, 1, 17, abi.ACL_MEMCPY_HOST_TO_DEVICE), abi.ACL_ERROR_RT_PARAM_INVALID},
		{"wrong kind", MemcpyToSymbol(th, sym, hp, 4, 0, abi.ACL_MEMCPY_DEVICE_TO_HOST), abi.ACL_ERROR_INVALID_PARAM},
		{"kind does not match", MemcpyToSymbol(th, sym, hp, 4, 0, abi.ACL_MEMCPY_DEVICE_TO_DEVICE), abi.ACL_ERROR_RT_PARAM_INVALID},
		{"NULL src", MemcpyToSymbol(th, sym, 0, 4, 0, abi.ACL_MEMCPY_HOST_TO_DEVICE), abi.ACL_ERROR_INVALID_PARAM},
		{"count over dstMax", MemcpyFromSymbol(th, hp, 2, sym, 4, 0, abi.ACL_MEMCPY_DEVICE_TO_HOST), abi.ACL_ERROR_RT_PARAM_INVALID},
	} {
		t.Run(tc.name, func(t *testing.T) { requireCode(t, tc.err, tc.code) })
	}
	require.NoError(t, MemcpyToSymbol(th, 0, 0, 0, 99, 77), "a zero-length copy succeeds before any check")
	assert.Equal(t, []byte{0, 0, 1, 2, 3, 4, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0}, h.mem, "nothing written by the failures")

	require.NoError(t, BinaryUnLoad(th, bin))
	requireCode(t, GetSymbolSize(th, sym, &size), abi.ACL_ERROR_RT_SYMBOL_NOT_FOUND)
	require.NoError(t, Free(th, d, false))
}

func TestSymbolsFollowTheSoCSupportList(t *testing.T) {
	symbolSetup(t, map[string]string{"NPUEMU_SOC": "Ascend310B1"})
	requireCode(t, core.CheckSoC("aclrtGetSymbolAddress"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	requireCode(t, core.CheckSoC("aclrtDeviceTaskAbort"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	requireCode(t, core.CheckSoC("aclrtSetDeviceTaskAbortCallback"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	requireCode(t, core.CheckSoC("aclrtRepairError"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	requireCode(t, core.CheckSoC("aclrtGetMemUceInfo"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
}

// startHost reports when a block starts running.
type startHost struct {
	*fakeHost
	started chan struct{}
}

func (h *startHost) Run(fn, args uintptr, size uint64, block, blocks uint32, state []byte) error {
	select {
	case h.started <- struct{}{}:
	default:
	}
	return h.fakeHost.Run(fn, args, size, block, blocks, state)
}

func TestDeviceTaskAbort(t *testing.T) {
	h := &startHost{fakeHost: newFakeHost(t), started: make(chan struct{}, 1)}
	th := setupPlatform(t, nil, emu.Platform{Kernels: h})
	require.NoError(t, SetDevice(th, 0))
	var bin core.Handle
	require.NoError(t, BinaryLoadFromFile(th, kernelFile(t, "KERNELS"), nil, &bin))
	f := function(t, th, bin, "echo")
	var a core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsFinalize(th, a))
	var s core.Handle
	require.NoError(t, CreateStream(th, &s))

	var mu sync.Mutex
	var stages []int32
	record := func(ret int32) core.DeviceTaskAbortCallback {
		return func(dev, stage int32, timeout uint32) int32 {
			mu.Lock()
			defer mu.Unlock()
			assert.Equal(t, int32(0), dev)
			assert.Equal(t, uint32(500), timeout)
			stages = append(stages, stage)
			return ret
		}
	}
	t.Cleanup(func() {
		_ = SetDeviceTaskAbortCallback(nil, "kx", nil)
		_ = SetDeviceTaskAbortCallback(nil, "kx2", nil)
	})
	requireCode(t, SetDeviceTaskAbortCallback(th, "", record(0)), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, SetDeviceTaskAbortCallback(th, "kx", record(1)))
	require.NoError(t, SetDeviceTaskAbortCallback(th, "kx", record(0)), "same name replaces")
	require.NoError(t, SetDeviceTaskAbortCallback(th, "kx2", record(0)))

	h.gate = make(chan struct{})
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 1, s, nil, a)) // runs, held at the gate
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 1, s, nil, a)) // queued behind it
	<-h.started
	require.NoError(t, DeviceTaskAbort(th, 0, 500))
	close(h.gate)
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	assert.Len(t, h.seen(), 1, "the queued launch was discarded")
	assert.Equal(t, []int32{abi.ACL_RT_DEVICE_TASK_ABORT_PRE, abi.ACL_RT_DEVICE_TASK_ABORT_PRE,
		abi.ACL_RT_DEVICE_TASK_ABORT_POST, abi.ACL_RT_DEVICE_TASK_ABORT_POST}, stages)

	// The stream stays usable.
	h.gate = nil
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 1, s, nil, a))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	assert.Len(t, h.seen(), 2)

	// A PRE callback that fails stops the abort before anything happens.
	stages = nil
	require.NoError(t, SetDeviceTaskAbortCallback(th, "kx", record(7)))
	requireCode(t, DeviceTaskAbort(th, 0, 500), abi.ACL_ERROR_RT_DEVICE_TASK_ABORT)
	assert.Equal(t, []int32{abi.ACL_RT_DEVICE_TASK_ABORT_PRE}, stages)
	require.NoError(t, SetDeviceTaskAbortCallback(th, "kx", nil))
	require.NoError(t, SetDeviceTaskAbortCallback(th, "kx2", nil))
	require.NoError(t, SetDeviceTaskAbortCallback(th, "never", nil), "removing an unknown name is a success")
	requireCode(t, DeviceTaskAbort(th, 9, 0), abi.ACL_ERROR_RT_INVALID_DEVICEID)

	require.NoError(t, core.DestroyStream(th, s, false))
	require.NoError(t, BinaryUnLoad(th, bin))
}

func TestMemoryErrorRepair(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	n := uint64(99)
	require.NoError(t, GetMemUceInfo(th, 0, make([]core.MemUceInfo, 4), true, &n))
	assert.Zero(t, n, "the emulated HBM reports no uncorrectable error")
	for _, tc := range []struct {
		name string
		err  error
		code abi.Code
	}{
		{"info: NULL retSize", GetMemUceInfo(th, 0, make([]core.MemUceInfo, 1), true, nil), abi.ACL_ERROR_INVALID_PARAM},
		{"info: NULL array", GetMemUceInfo(th, 0, nil, false, &n), abi.ACL_ERROR_INVALID_PARAM},
		{"info: bad device", GetMemUceInfo(th, 7, make([]core.MemUceInfo, 1), true, &n), abi.ACL_ERROR_RT_INVALID_DEVICEID},
		{"repair: empty", MemUceRepair(th, 0, nil, true), abi.ACL_ERROR_INVALID_PARAM},
		{"repair: never reported", MemUceRepair(th, 0, []core.MemUceInfo{{Addr: 0x1000, Len: 64}}, true), abi.ACL_ERROR_RT_PARAM_INVALID},
		{"repair error: NULL", RepairError(th, 0, nil), abi.ACL_ERROR_INVALID_PARAM},
		{"repair error: never raised", RepairError(th, 0, &ErrorInfo{ErrorType: abi.ACL_RT_ERROR_MEMORY}), abi.ACL_ERROR_RT_PARAM_INVALID},
		{"repair error: unknown type", RepairError(th, 0, &ErrorInfo{ErrorType: 77}), abi.ACL_ERROR_INVALID_PARAM},
	} {
		t.Run(tc.name, func(t *testing.T) { requireCode(t, tc.err, tc.code) })
	}
	var info ErrorInfo
	require.NoError(t, GetErrorVerbose(th, 0, &info))
	require.NoError(t, RepairError(th, 0, &info), "ACL_RT_NO_ERROR needs no repair")
}
