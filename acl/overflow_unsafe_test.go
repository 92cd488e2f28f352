package acl

import (
	"encoding/binary"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// The status block is the context's word followed by zeros; the word is
// whatever was last stored in it, and Reset clears it in stream order.
func TestOverflowStatusWord(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	var s core.Handle
	require.NoError(t, CreateStream(th, &s))

	var word, word2 uintptr
	require.NoError(t, CtxGetFloatOverflowAddr(th, &word))
	require.NoError(t, CtxGetFloatOverflowAddr(th, &word2))
	assert.Equal(t, word, word2, "one word per context")

	var out uintptr
	require.NoError(t, Malloc(th, &out, ovfStatusSize, 0, core.MallocOpts{}))
	host := make([]byte, ovfStatusSize)
	read := func() []byte {
		require.NoError(t, core.Memset(th, out, ovfStatusSize, 0xff, ovfStatusSize))
		require.NoError(t, GetOverflowStatus(th, out, ovfStatusSize, s))
		require.NoError(t, core.SynchronizeStream(th, s, -1))
		require.NoError(t, core.Memcpy(th, bufAddr(host), ovfStatusSize, out, ovfStatusSize, abi.ACL_MEMCPY_DEVICE_TO_HOST))
		runtime.KeepAlive(host)
		return host
	}
	b := read()
	assert.Zero(t, binary.LittleEndian.Uint64(b), "no overflow reported")
	assert.Equal(t, make([]byte, ovfStatusSize-core.OvfWordSize), b[core.OvfWordSize:])

	// Something (here the test) raises the flag: the status reports it.
	require.NoError(t, core.Memset(th, word, core.OvfWordSize, 1, 1))
	assert.Equal(t, uint64(1), binary.LittleEndian.Uint64(read()))

	require.NoError(t, ResetOverflowStatus(th, s))
	assert.Zero(t, binary.LittleEndian.Uint64(read()))

	tests := []struct {
		name string
		err  error
		code abi.Code
	}{
		{"NULL output", GetOverflowStatus(th, 0, ovfStatusSize, s), abi.ACL_ERROR_INVALID_PARAM},
		{"short output", GetOverflowStatus(th, out, 4, s), abi.ACL_ERROR_INVALID_PARAM},
		{"host output", GetOverflowStatus(th, bufAddr(host), ovfStatusSize, s), abi.ACL_ERROR_INVALID_PARAM},
		{"NULL addr", CtxGetFloatOverflowAddr(th, nil), abi.ACL_ERROR_INVALID_PARAM},
		{"switch 2", SetStreamOverflowSwitch(th, s, 2), abi.ACL_ERROR_INVALID_PARAM},
		{"NULL flag", GetStreamOverflowSwitch(th, s, nil), abi.ACL_ERROR_INVALID_PARAM},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { requireCode(t, tc.err, tc.code) })
	}
	runtime.KeepAlive(host)

	var flag uint32
	require.NoError(t, SetStreamOverflowSwitch(th, s, 1))
	require.NoError(t, GetStreamOverflowSwitch(th, s, &flag))
	assert.Equal(t, uint32(1), flag)
	var v StreamAttrValue
	require.NoError(t, GetStreamAttribute(th, s, abi.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v))
	assert.Equal(t, uint32(1), v.u32())

	require.NoError(t, Free(th, out, true))
	require.NoError(t, core.DestroyStream(th, s, false))
	require.NoError(t, core.ResetDevice(th, 0))
}
