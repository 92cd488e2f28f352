package acl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
)

func usageName(u core.MemUsageInfo) string { return strings.TrimRight(string(u.Name[:]), "\x00") }

func TestGetMemUsageInfo(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	out := make([]core.MemUsageInfo, 4)
	var n uint64
	requireCode(t, GetMemUsageInfo(th, 0, nil, &n), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, GetMemUsageInfo(th, 0, out, nil), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, GetMemUsageInfo(th, 7, out, &n), abi.ACL_ERROR_RT_INVALID_DEVICEID)
	require.NoError(t, GetMemUsageInfo(th, 0, out, &n))
	assert.Zero(t, n, "nothing used on a device not opened")

	require.NoError(t, SetDevice(th, 0))
	cfg := func(module uint64) core.MallocOpts {
		return core.MallocOpts{Fn: "aclrtMallocWithCfg", WithCfg: true, CfgAttrs: []core.MallocConfigAttr{{Attr: abi.ACL_RT_MEM_ATTR_MODULE_ID, Value: module}}}
	}
	var app, rtm1, rtm2, ge uintptr
	require.NoError(t, Malloc(th, &app, 4096, abi.ACL_MEM_MALLOC_NORMAL_ONLY, core.MallocOpts{}))
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
	setup(t, map[string]string{"NPUEMU_SOC": "Ascend950PR_9599"})
	requireCode(t, core.CheckSoC("aclrtGetMemUsageInfo"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
}

// usageOf returns the current and peak usage of module name on device 0.
func usageOf(t *testing.T, th *core.Thread, name string) (cur, peak uint64) {
	t.Helper()
	out := make([]core.MemUsageInfo, 64)
	var n uint64
	require.NoError(t, GetMemUsageInfo(th, 0, out, &n))
	for _, u := range out[:n] {
		if usageName(u) == name {
			return u.Cur, u.Peak
		}
	}
	return 0, 0
}

func TestGetMemUsageInfoHALAndVMM(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	require.NoError(t, SetDevice(th, 0))

	// halMemAlloc: the module id comes from bits 56–63 of the flag word,
	// the size is page-rounded; host memory is not device memory.
	flag := func(module uint64) uint64 {
		return abi.MEM_DEV | abi.MEM_TYPE_HBM | module<<abi.MEM_MODULE_ID_BIT
	}
	var hccl, dvpp, host uintptr
	require.NoError(t, hal.MemAlloc(&hccl, 5000, flag(abi.HCCL_HAL_MODULE_ID)))
	require.NoError(t, hal.MemAlloc(&dvpp, 100, flag(abi.DVPP_MODULE_ID)))
	require.NoError(t, hal.MemAlloc(&host, 4096, abi.MEM_HOST|uint64(abi.HCCL_HAL_MODULE_ID)<<abi.MEM_MODULE_ID_BIT))
	cur, _ := usageOf(t, th, "HCCL_HAL")
	assert.Equal(t, uint64(8192), cur)
	cur, _ = usageOf(t, th, "DVPP")
	assert.Equal(t, uint64(4096), cur)

	// aclrtMallocPhysical device memory counts under APP until its handle
	// is released; host memory does not count.
	appBefore, _ := usageOf(t, th, "APP")
	var h, hh uint64
	prop := PhysicalMemProp{MemAttr: abi.ACL_HBM_MEM_HUGE, Location: MemLocation{Id: 0, Type: abi.ACL_MEM_LOCATION_TYPE_DEVICE}}
	require.NoError(t, MallocPhysical(th, &h, 4<<20, &prop, 0))
	hostProp := PhysicalMemProp{MemAttr: abi.ACL_HBM_MEM_HUGE, Location: MemLocation{Type: abi.ACL_MEM_LOCATION_TYPE_HOST}}
	require.NoError(t, MallocPhysical(th, &hh, 2<<20, &hostProp, 0))
	cur, _ = usageOf(t, th, "APP")
	assert.Equal(t, appBefore+4<<20, cur)
	require.NoError(t, FreePhysical(th, h))
	require.NoError(t, FreePhysical(th, hh))
	cur, peak := usageOf(t, th, "APP")
	assert.Equal(t, appBefore, cur)
	assert.Equal(t, appBefore+4<<20, peak)

	// halMemCreate: the module of its prop, until halMemRelease.
	var hc uint64
	require.NoError(t, hal.MemCreate(&hc, 2<<20, &hal.MemProp{Side: abi.MEM_DEV_SIDE, Pg_type: abi.MEM_HUGE_PAGE_TYPE, Module_id: abi.TDT_MODULE_ID}, 0))
	cur, _ = usageOf(t, th, "TDT")
	assert.Equal(t, uint64(2<<20), cur)
	require.NoError(t, hal.MemRelease(hc))
	cur, peak = usageOf(t, th, "TDT")
	assert.Zero(t, cur)
	assert.Equal(t, uint64(2<<20), peak)

	// halMemFree gives it back; the peak stays.
	require.NoError(t, hal.MemFree(hccl))
	require.NoError(t, hal.MemFree(dvpp))
	require.NoError(t, hal.MemFree(host))
	cur, peak = usageOf(t, th, "HCCL_HAL")
	assert.Zero(t, cur)
	assert.Equal(t, uint64(8192), peak)
}
