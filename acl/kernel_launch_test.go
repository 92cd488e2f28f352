package acl

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// kernelMs launches fn with blocks blocks between two event records on the
// default stream and returns the elapsed virtual time in ms.
func kernelMs(t *testing.T, th *core.Thread, f core.Handle, blocks uint32) float32 {
	t.Helper()
	var a core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsFinalize(th, a))
	return defaultStreamElapsed(t, th, func() {
		require.NoError(t, core.LaunchKernelWithConfig(th, f, blocks, 0, nil, a))
	})
}

func waves(blocks, width int) int { return (blocks + width - 1) / width }

// A resource limit caps the blocks that run at once, which the virtual
// duration shows: each extra wave of the 1 ms kernel adds 1 ms.
func TestResourceLimitsCapLaunches(t *testing.T) {
	th, _, bin := kernelSetup(t)
	slow, mix := function(t, th, bin, "slow"), function(t, th, bin, "mixslow")
	soc := th.Ctx.Dev.Emu.SoC
	require.Positive(t, soc.VectorCores, "the default SoC has vector cores")
	blocks := uint32(soc.VectorCores + 1)
	free := kernelMs(t, th, slow, blocks)

	require.NoError(t, SetDeviceResLimit(th, 0, abi.ACL_RT_DEV_RES_VECTOR_CORE, 4))
	capped := kernelMs(t, th, slow, blocks)
	assert.InDelta(t, waves(int(blocks), 4)-waves(int(blocks), soc.VectorCores), capped-free, 0.01, "ms of extra waves under the device limit")

	// A stream limit counts only for threads that use the stream.
	var s core.Handle
	require.NoError(t, CreateStream(th, &s))
	require.NoError(t, SetStreamResLimit(th, s, abi.ACL_RT_DEV_RES_VECTOR_CORE, 2))
	assert.InDelta(t, capped, kernelMs(t, th, slow, blocks), 0.01, "not used yet: the device limit applies")
	var v uint32
	require.NoError(t, GetResInCurrentThread(th, abi.ACL_RT_DEV_RES_VECTOR_CORE, &v))
	assert.Equal(t, uint32(4), v)
	require.NoError(t, UseStreamResInCurrentThread(th, s))
	require.NoError(t, GetResInCurrentThread(th, abi.ACL_RT_DEV_RES_VECTOR_CORE, &v))
	assert.Equal(t, uint32(2), v)
	byStream := kernelMs(t, th, slow, blocks)
	assert.InDelta(t, waves(int(blocks), 2)-waves(int(blocks), 4), byStream-capped, 0.01, "the stream limit overrides the device's")

	// Mix blocks take one cube core and two vector cores: 2 vector cores
	// hold one block at a time.
	mixMs := kernelMs(t, th, mix, 3)
	require.NoError(t, UnuseStreamResInCurrentThread(th, s))
	requireCode(t, UnuseStreamResInCurrentThread(th, s), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, ResetDeviceResLimit(th, 0))
	assert.InDelta(t, 2, mixMs-kernelMs(t, th, mix, 3), 0.01, "3 waves capped, 1 free")
	assert.InDelta(t, free, kernelMs(t, th, slow, blocks), 0.01, "no limit left")

	require.NoError(t, GetStreamResLimit(th, s, abi.ACL_RT_DEV_RES_VECTOR_CORE, &v))
	assert.Equal(t, uint32(2), v)
	require.NoError(t, ResetStreamResLimit(th, s))
	require.NoError(t, GetStreamResLimit(th, s, abi.ACL_RT_DEV_RES_VECTOR_CORE, &v))
	assert.Equal(t, uint32(soc.VectorCores), v, "reset: the hardware count")
	requireCode(t, SetStreamResLimit(th, s, abi.ACL_RT_DEV_RES_VECTOR_CORE, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, SetStreamResLimit(th, s, abi.ACL_RT_DEV_RES_CUBE_CORE, uint32(soc.CubeCores+1)), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, SetStreamResLimit(th, s, 7, 1), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, GetStreamResLimit(th, s, 0, nil), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, core.DestroyStream(th, s, false))
	require.NoError(t, BinaryUnLoad(th, bin))
}

func TestUtilizationFollowsRunningBlocks(t *testing.T) {
	th, h, bin := kernelSetup(t)
	soc := th.Ctx.Dev.Emu.SoC
	f := function(t, th, bin, "echo")
	var a core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsFinalize(th, a))
	var u UtilizationInfo
	require.NoError(t, GetDeviceUtilizationRate(th, 0, &u))
	assert.Equal(t, int32(0), u.VectorUtilization)
	h.gate = make(chan struct{})
	blocks := soc.VectorCores / 2
	require.NoError(t, core.LaunchKernelWithConfig(th, f, uint32(blocks), 0, nil, a))
	// The cores are taken when the kernel is dispatched, inside the launch.
	require.NoError(t, GetDeviceUtilizationRate(th, 0, &u))
	assert.Equal(t, int32(blocks*100/soc.VectorCores), u.VectorUtilization)
	assert.Equal(t, int32(0), u.CubeUtilization)
	close(h.gate)
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	require.NoError(t, GetDeviceUtilizationRate(th, 0, &u))
	assert.Equal(t, int32(0), u.VectorUtilization)
	require.NoError(t, BinaryUnLoad(th, bin))
}

func TestLaunchVariants(t *testing.T) {
	th, h, bin := kernelSetup(t)
	f := function(t, th, bin, "echo")

	// WithHostArgs: the blob is copied and each placeholder slot receives
	// the address of its data in the copy.
	blob := make([]byte, 32)
	binary.LittleEndian.PutUint64(blob[0:], 77)
	copy(blob[16:], "data")
	require.NoError(t, LaunchKernelWithHostArgs(th, f, 1, 0, nil, blob, []core.PlaceHolder{{AddrOffset: 8, DataOffset: 16}}))
	blob[0] = 1 // after the call: not seen
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	seen := h.seen()
	require.Len(t, seen, 1)
	assert.Equal(t, uint64(77), binary.LittleEndian.Uint64(seen[0]))
	h.mu.Lock()
	base := h.addrs[0]
	h.mu.Unlock()
	assert.Equal(t, uint64(base)+16, binary.LittleEndian.Uint64(seen[0][8:]))
	assert.Equal(t, "data", string(seen[0][16:20]))
	requireCode(t, LaunchKernelWithHostArgs(th, f, 1, 0, nil, blob, []core.PlaceHolder{{AddrOffset: 28, DataOffset: 0}}), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, LaunchKernelWithHostArgs(th, f, 1, 0, nil, nil, nil), abi.ACL_ERROR_INVALID_PARAM)

	// V2: host memory is copied; device memory is read in place.
	host := u64(5)
	require.NoError(t, LaunchKernelV2(th, f, 1, 0x1000, 8, nil, 0, func() []byte { return host }))
	var dev uintptr
	require.NoError(t, Malloc(th, &dev, 64, 0, core.MallocOpts{Fn: "aclrtMalloc"}))
	require.NoError(t, LaunchKernelV2(th, f, 1, dev, 16, nil, 0, func() []byte { t.Error("device arguments read as host memory"); return nil }))
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	seen = h.seen()
	require.Len(t, seen, 3)
	assert.Equal(t, host, seen[1])
	assert.Nil(t, seen[2], "read in place, not copied")
	h.mu.Lock()
	assert.Equal(t, dev, h.addrs[2])
	h.mu.Unlock()
	requireCode(t, LaunchKernelV2(th, f, 1, 0, 8, nil, 0, nil), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, Free(th, dev, false))

	// WithArgsArray packs the declared parameters as Append would.
	typed := function(t, th, bin, "typed")
	vals := [][]byte{u32(0xA1A2A3A4), u64(0x0102030405060708), {0xEE, 0xFF}}
	require.NoError(t, LaunchKernelWithArgsArray(th, uintptr(typed), 1, 0, nil, func(i, size int) []byte {
		require.Equal(t, len(vals[i]), size)
		return vals[i]
	}))
	var aic, aiv uintptr
	require.NoError(t, GetFunctionAddr(th, typed, &aic, &aiv))
	require.NoError(t, LaunchKernelWithArgsArray(th, aic, 1, 0, nil, func(i, size int) []byte { return vals[i] }), "by entry address")
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	seen = h.seen()
	require.Len(t, seen, 5)
	want := append(append(append(u32(0xA1A2A3A4), 0, 0, 0, 0), u64(0x0102030405060708)...), 0xEE, 0xFF)
	assert.Equal(t, want, seen[3])
	assert.Equal(t, want, seen[4])
	requireCode(t, LaunchKernelWithArgsArray(th, uintptr(typed), 1, 0, nil, func(i, size int) []byte { return nil }), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, LaunchKernelWithArgsArray(th, uintptr(f), 1, 0, nil, func(i, size int) []byte { return nil }), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	requireCode(t, LaunchKernelWithArgsArray(th, 0x4242, 1, 0, nil, nil), abi.ACL_ERROR_RT_INVALID_HANDLE)
	require.NoError(t, BinaryUnLoad(th, bin))
}

func TestKernelQueries(t *testing.T) {
	th, _, bin := kernelSetup(t)
	typed, echo := function(t, th, bin, "typed"), function(t, th, bin, "echo")

	var n, off, size uint64
	require.NoError(t, FunctionGetParamCount(th, uintptr(typed), &n))
	assert.Equal(t, uint64(3), n)
	for i, want := range [][2]uint64{{0, 4}, {8, 8}, {16, 2}} {
		require.NoError(t, FunctionGetParamInfo(th, uintptr(typed), uint64(i), &off, &size))
		assert.Equal(t, want, [2]uint64{off, size}, "parameter %d", i)
	}
	requireCode(t, FunctionGetParamInfo(th, uintptr(typed), 3, &off, &size), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, FunctionGetParamCount(th, uintptr(echo), &n), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	requireCode(t, FunctionGetParamCount(th, 0, &n), abi.ACL_ERROR_INVALID_PARAM)

	var aic, aiv uint64
	require.NoError(t, GetFunctionSize(th, typed, &aic, &aiv))
	assert.Equal(t, [2]uint64{64, 0}, [2]uint64{aic, aiv})

	var got core.Handle
	require.NoError(t, GetFuncBySymbol(th, 5, &got))
	assert.Equal(t, typed, got)
	requireCode(t, GetFuncBySymbol(th, 99, &got), abi.ACL_ERROR_RT_KERNEL_LOOKUP)

	require.NoError(t, FunctionGetAvailDynUbufPerBlock(th, uintptr(echo), 0, &size))
	assert.Zero(t, size)

	b, err := core.Binaries.Get(bin)
	require.NoError(t, err)
	var addr uintptr
	require.NoError(t, BinaryGetGlobal(th, bin, "counter", &addr, &size))
	assert.Equal(t, [2]uint64{uint64(b.Lib) + 0x100, 4}, [2]uint64{uint64(addr), size})
	require.NoError(t, BinaryGetGlobal(th, bin, "counter", nil, &size), "either output may be NULL")
	requireCode(t, BinaryGetGlobal(th, bin, "counter", nil, nil), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, BinaryGetGlobal(th, bin, "nope", &addr, nil), abi.ACL_ERROR_RT_KERNEL_LOOKUP)

	requireCode(t, RegisterCpuFunc(th, bin, "f", "k", &got), abi.ACL_ERROR_RT_PARAM_INVALID)

	// aclrtCreateBinary + aclrtBinaryLoad load the same bytes as FromData.
	raw, err := CreateBinary(th, []byte("KERNELS"))
	require.NoError(t, err)
	var bin2 core.Handle
	require.NoError(t, BinaryLoad(th, raw, &bin2))
	require.NoError(t, DestroyBinary(th, raw))
	requireCode(t, DestroyBinary(th, raw), abi.ACL_ERROR_RT_INVALID_HANDLE)
	requireCode(t, BinaryLoad(th, raw, &bin2), abi.ACL_ERROR_RT_INVALID_HANDLE)
	_, err = CreateBinary(th, nil)
	requireCode(t, err, abi.ACL_ERROR_INVALID_PARAM)
	bad, err := CreateBinary(th, []byte("junk"))
	require.NoError(t, err)
	requireCode(t, BinaryLoad(th, bad, &got), abi.ACL_ERROR_INVALID_FILE)
	require.NoError(t, DestroyBinary(th, bad))
	assert.Zero(t, core.LiveRawBinaries())

	// The same entry in two loads: the latest live one answers.
	require.NoError(t, GetFuncBySymbol(th, 5, &got))
	assert.Equal(t, function(t, th, bin2, "typed"), got)
	require.NoError(t, BinaryUnLoad(th, bin2))
	require.NoError(t, GetFuncBySymbol(th, 5, &got))
	assert.Equal(t, typed, got)
	require.NoError(t, BinaryUnLoad(th, bin))
	requireCode(t, GetFuncBySymbol(th, 5, &got), abi.ACL_ERROR_RT_KERNEL_LOOKUP)
}

// TestLaunchKernelWithConfigN: n launches made at once take the virtual
// time of the same n launches made one by one; bad handles fail them all
// with the error one launch gets.
func TestLaunchKernelWithConfigN(t *testing.T) {
	th, _, bin := kernelSetup(t)
	slow := function(t, th, bin, "slow")
	var a core.Handle
	require.NoError(t, KernelArgsInit(th, slow, &a))
	require.NoError(t, KernelArgsFinalize(th, a))
	elapsed := func(launch func()) float32 { return defaultStreamElapsed(t, th, launch) }
	var s core.Handle
	require.NoError(t, CreateStream(th, &s))
	oneByOne := elapsed(func() {
		for range 3 {
			require.NoError(t, core.LaunchKernelWithConfig(th, slow, 1, 0, nil, a))
		}
	})
	atOnce := elapsed(func() { require.NoError(t, core.LaunchKernelWithConfigN(th, slow, 1, 0, a, 3)) })
	assert.Greater(t, oneByOne, float32(2.9), "three 1 ms kernels")
	assert.InDelta(t, oneByOne, atOnce, 0.001)

	one := core.LaunchKernelWithConfig(th, slow, 1, s, nil, a+1)
	require.Error(t, one)
	requireCode(t, core.LaunchKernelWithConfigN(th, slow, 1, s, a+1, 4), abi.CodeOf(one))
	var p core.Handle
	var b core.Handle
	require.NoError(t, KernelArgsInit(th, slow, &b))
	require.NoError(t, KernelArgsAppend(th, b, []byte{1, 2, 3, 4}, &p))
	err := core.LaunchKernelWithConfigN(th, slow, 1, s, b, 2)
	requireCode(t, err, abi.ACL_ERROR_RT_PARAM_INVALID)
	assert.Contains(t, err.Error(), "not finalized")
	require.NoError(t, core.LaunchKernelWithConfigN(th, slow, 1, s, a, 0))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	require.NoError(t, core.DestroyStream(th, s, false))
	require.NoError(t, BinaryUnLoad(th, bin))
}

// defaultStreamElapsed returns the device time launch's tasks take on the
// default stream, between two events recorded around them.
func defaultStreamElapsed(t *testing.T, th *core.Thread, launch func()) float32 {
	t.Helper()
	var e0, e1 core.Handle
	require.NoError(t, core.CreateEvent(th, &e0))
	require.NoError(t, core.CreateEvent(th, &e1))
	require.NoError(t, core.RecordEvent(th, e0, 0, 0))
	launch()
	require.NoError(t, core.RecordEvent(th, e1, 0, 0))
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	var ms float32
	require.NoError(t, core.EventElapsedTime(th, &ms, e0, e1))
	require.NoError(t, core.DestroyEvent(th, e0))
	require.NoError(t, core.DestroyEvent(th, e1))
	return ms
}
