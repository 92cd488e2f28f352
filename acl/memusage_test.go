package acl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func usageName(u MemUsageInfo) string { return strings.TrimRight(string(u.Name[:]), "\x00") }

func TestGetMemUsageInfo(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	out := make([]MemUsageInfo, 4)
	var n uint64
	requireCode(t, GetMemUsageInfo(th, 0, nil, &n), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, GetMemUsageInfo(th, 0, out, nil), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, GetMemUsageInfo(th, 7, out, &n), abi.ACL_ERROR_RT_INVALID_DEVICEID)
	require.NoError(t, GetMemUsageInfo(th, 0, out, &n))
	assert.Zero(t, n, "nothing used on a device not opened")

	require.NoError(t, SetDevice(th, 0))
	cfg := func(module uint64) MallocOpts {
		return MallocOpts{Fn: "aclrtMallocWithCfg", WithCfg: true, CfgAttrs: []MallocConfigAttr{{Attr: abi.ACL_RT_MEM_ATTR_MODULE_ID, Value: module}}}
	}
	var app, rtm1, rtm2, ge uintptr
	require.NoError(t, Malloc(th, &app, 4096, abi.ACL_MEM_MALLOC_NORMAL_ONLY, MallocOpts{}))
	require.NoError(t, Malloc(th, &rtm1, 3*4096, abi.ACL_MEM_MALLOC_NORMAL_ONLY, cfg(abi.RUNTIME_MODULE_ID)))
	require.NoError(t, Malloc(th, &rtm2, 3*4096, abi.ACL_MEM_MALLOC_NORMAL_ONLY, cfg(abi.RUNTIME_MODULE_ID)))
	require.NoError(t, Malloc(th, &ge, 8*4096, abi.ACL_MEM_MALLOC_NORMAL_ONLY, cfg(abi.GE_MODULE_ID)))
	require.NoError(t, Free(th, rtm2, false))

	require.NoError(t, GetMemUsageInfo(th, 0, out, &n))
	require.Equal(t, uint64(3), n)
	// Sizes are page-rounded after the +32 padding.
	assert.Equal(t, "GE", usageName(out[0]))
	assert.Equal(t, uint64(9*4096), out[0].Cur)
	assert.Equal(t, "RUNTIME", usageName(out[1]))
	assert.Equal(t, uint64(4*4096), out[1].Cur)
	assert.Equal(t, uint64(8*4096), out[1].Peak)
	assert.Equal(t, "APP", usageName(out[2]))
	assert.Equal(t, uint64(2*4096), out[2].Cur)

	// A short array gets the largest users.
	require.NoError(t, GetMemUsageInfo(th, 0, out[:1], &n))
	assert.Equal(t, uint64(1), n)
	assert.Equal(t, "GE", usageName(out[0]))

	for _, p := range []uintptr{app, rtm1, ge} {
		require.NoError(t, Free(th, p, false))
	}
	require.NoError(t, GetMemUsageInfo(th, 0, out, &n))
	require.Equal(t, uint64(3), n)
	assert.Equal(t, "GE", usageName(out[0]), "ties broken by peak")
	for _, u := range out[:n] {
		assert.Zero(t, u.Cur)
		assert.NotZero(t, u.Peak)
	}
}

func TestGetMemUsageInfo950(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend950PR_9599"})
	var n uint64
	requireCode(t, GetMemUsageInfo(th, 0, make([]MemUsageInfo, 1), &n), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
}
