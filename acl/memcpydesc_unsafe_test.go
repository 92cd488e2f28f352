package acl

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

func TestMemcpyDesc(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	require.NoError(t, SetDevice(th, 0))
	var size uint64
	requireCode(t, GetMemcpyDescSize(th, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, &size), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, GetMemcpyDescSize(th, abi.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, nil), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, GetMemcpyDescSize(th, abi.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &size))
	require.Equal(t, uint64(memcpyDescSize), size)

	var desc, src, dst, host uintptr
	require.NoError(t, Malloc(th, &desc, size, 0, core.MallocOpts{}))
	require.NoError(t, Malloc(th, &src, 256, 0, core.MallocOpts{}))
	require.NoError(t, Malloc(th, &dst, 256, 0, core.MallocOpts{}))
	require.NoError(t, core.MallocHost(th, &host, 256, ""))
	require.NoError(t, core.Memset(th, src, 256, 0x5A, 256))
	require.NoError(t, core.Memset(th, dst, 256, 0, 256))
	const inner = abi.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE

	requireCode(t, SetMemcpyDesc(th, desc, inner, src, dst, 64, true), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, SetMemcpyDesc(th, 0, inner, src, dst, 64, false), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, SetMemcpyDesc(th, desc, abi.ACL_MEMCPY_HOST_TO_DEVICE, src, dst, 64, false), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, SetMemcpyDesc(th, host, inner, src, dst, 64, false), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, SetMemcpyDesc(th, desc, inner, host, dst, 64, false), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, SetMemcpyDesc(th, desc, inner, src, dst, 4096, false), abi.ACL_ERROR_RT_PARAM_INVALID)
	// A descriptor never set fails the stream when the copy runs.
	require.NoError(t, core.Memset(th, desc, size, 0, size))
	require.NoError(t, MemcpyAsyncWithDesc(th, desc, inner, 0))
	requireCode(t, core.SynchronizeStream(th, 0, -1), abi.ACL_ERROR_RT_PARAM_INVALID)

	require.NoError(t, SetMemcpyDesc(th, desc, inner, src, dst, 100, false))
	requireCode(t, MemcpyAsyncWithDesc(th, desc, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemcpyAsyncWithDesc(th, host, inner, 0), abi.ACL_ERROR_RT_PARAM_INVALID)
	// The descriptor is read at execution: rewritten after queueing, the
	// new one is used.
	s := th.Ctx.DefStream
	gate := make(chan struct{})
	require.NoError(t, s.SQ.Submit(tsfw.HostTask(func() error { <-gate; return nil })))
	require.NoError(t, MemcpyAsyncWithDesc(th, desc, inner, 0))
	require.NoError(t, SetMemcpyDesc(th, desc, inner, src, dst, 200, false))
	close(gate)
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	out := make([]byte, 256)
	require.NoError(t, core.Memcpy(th, uintptr(unsafe.Pointer(&out[0])), 256, dst, 256, abi.ACL_MEMCPY_DEVICE_TO_HOST))
	assert.Equal(t, byte(0x5A), out[199])
	assert.Equal(t, byte(0), out[200])

	for _, p := range []uintptr{desc, src, dst} {
		require.NoError(t, Free(th, p, false))
	}
	require.NoError(t, core.FreeHost(th, host, false))
}

func TestMemcpyAsyncWithOffset(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	require.NoError(t, SetDevice(th, 0))
	var cells, src, dst, other uintptr
	require.NoError(t, Malloc(th, &cells, 16, 0, core.MallocOpts{}))
	require.NoError(t, Malloc(th, &src, 512, 0, core.MallocOpts{}))
	require.NoError(t, Malloc(th, &dst, 512, 0, core.MallocOpts{}))
	require.NoError(t, Malloc(th, &other, 512, 0, core.MallocOpts{}))
	for i := range uintptr(512) {
		pokeU64(src+i&^7, uint64(i&^7)) // word i/8 holds its own offset
	}
	require.NoError(t, core.Memset(th, dst, 512, 0xEE, 512))
	require.NoError(t, core.Memset(th, other, 512, 0xEE, 512))
	dstCell, srcCell := cells, cells+8
	pokeU64(dstCell, uint64(dst))
	pokeU64(srcCell, uint64(src))
	const inner = abi.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE
	var local [2]uint64

	require.NoError(t, MemcpyAsyncWithOffset(th, dstCell, 64, 0, srcCell, 0, 0, 99, 0), "count 0 succeeds first")
	requireCode(t, MemcpyAsyncWithOffset(th, 0, 64, 0, srcCell, 8, 0, inner, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemcpyAsyncWithOffset(th, dstCell, 64, 0, srcCell, 8, 0, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemcpyAsyncWithOffset(th, dstCell, 4, 0, srcCell, 8, 0, inner, 0), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, MemcpyAsyncWithOffset(th, uintptr(unsafe.Pointer(&local[0])), 64, 0, srcCell, 8, 0, inner, 0), abi.ACL_ERROR_RT_PARAM_INVALID)

	// The base addresses are read when the copy runs.
	s := th.Ctx.DefStream
	gate := make(chan struct{})
	require.NoError(t, s.SQ.Submit(tsfw.HostTask(func() error { <-gate; return nil })))
	require.NoError(t, MemcpyAsyncWithOffset(th, dstCell, 64, 16, srcCell, 32, 128, inner, 0))
	pokeU64(dstCell, uint64(other))
	close(gate)
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	assert.Equal(t, uint64(128), core.PeekU64(other+16))
	assert.Equal(t, uint64(152), core.PeekU64(other+40))
	assert.Equal(t, uint64(0xEEEEEEEEEEEEEEEE), core.PeekU64(other+48))
	assert.Equal(t, uint64(0xEEEEEEEEEEEEEEEE), core.PeekU64(dst+16), "the old base was not used")

	// A base that is not device memory fails the stream asynchronously.
	pokeU64(dstCell, uint64(uintptr(unsafe.Pointer(&local[0]))))
	require.NoError(t, MemcpyAsyncWithOffset(th, dstCell, 8, 0, srcCell, 8, 0, inner, 0))
	requireCode(t, core.SynchronizeStream(th, 0, -1), abi.ACL_ERROR_RT_PARAM_INVALID)

	for _, p := range []uintptr{cells, src, dst, other} {
		require.NoError(t, Free(th, p, false))
	}
}

func TestMemcpyDescSoC(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend310P3"})
	require.NoError(t, SetDevice(th, 0))
	requireCode(t, core.CheckSoC("aclrtGetMemcpyDescSize"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	requireCode(t, core.CheckSoC("aclrtMemcpyAsyncWithOffset"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
}
