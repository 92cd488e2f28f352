package acl

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

func TestDescribeDeviceAddr(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_PROTECT": "1"})
	require.NoError(t, SetDevice(th, 0))
	var a, b, f uintptr
	require.NoError(t, Malloc(th, &a, 4096, 0, core.MallocOpts{Align32: true}))
	require.NoError(t, Malloc(th, &b, 100, 0, core.MallocOpts{}))
	require.NoError(t, Malloc(th, &f, 8192, 0, core.MallocOpts{Align32: true}))
	require.NoError(t, Free(th, f, false))
	require.Greater(t, b, a)

	assert.Empty(t, core.DescribeDeviceAddr(0x1000), "host memory")
	assert.Contains(t, core.DescribeDeviceAddr(a+10), fmt.Sprintf("offset 10 of the 4096-byte allocation at %#x", a))
	assert.Contains(t, core.DescribeDeviceAddr(a+4100), fmt.Sprintf("offset 4100 of the 4096-byte allocation at %#x, 4 bytes past its end", a))
	assert.Contains(t, core.DescribeDeviceAddr(b-8), fmt.Sprintf("8 bytes before the 160-byte allocation at %#x", b), "aclrtMalloc's padded size")
	assert.Contains(t, core.DescribeDeviceAddr(f+16), fmt.Sprintf("offset 16 of the 8192-byte block at %#x, which was freed", f))
	assert.Contains(t, core.DescribeDeviceAddr(b+64<<20), "past its end")
	require.NoError(t, Free(th, a, false))
	require.NoError(t, Free(th, b, false))
}

func TestAsyncOutOfBoundsIsSDMAException(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_PROTECT": "1"})
	require.NoError(t, SetDevice(th, 0))
	var s core.Handle
	require.NoError(t, CreateStream(th, &s))
	var p uintptr
	require.NoError(t, Malloc(th, &p, 4096, 0, core.MallocOpts{Align32: true}))
	require.NoError(t, core.Memset(th, p, 4096, 7, 4096))

	// Queued: the call succeeds, the task fails at its turn.
	require.NoError(t, core.MemsetAsync(th, p+4000, 200, 0, 200, s))
	err := core.SynchronizeStream(th, s, -1)
	requireCode(t, err, abi.ACL_ERROR_RT_SYS_DMA)
	assert.Contains(t, err.Error(), "past its end")
	require.NoError(t, core.SynchronizeStream(th, s, -1), "reported once")

	// Nothing was written; a synchronous memset is refused by the call.
	out := make([]byte, 4096)
	require.NoError(t, core.Memcpy(th, bufAddr(out), 4096, p, 4096, abi.ACL_MEMCPY_DEVICE_TO_HOST))
	assert.Equal(t, byte(7), out[4000])
	requireCode(t, core.Memset(th, p+4000, 200, 0, 200), abi.ACL_ERROR_RT_PARAM_INVALID)

	// The stream goes on.
	require.NoError(t, core.MemsetAsync(th, p, 4096, 1, 4096, s))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	require.NoError(t, core.DestroyStream(th, s, false))
	require.NoError(t, Free(th, p, false))
}
