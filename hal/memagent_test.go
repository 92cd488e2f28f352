package hal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

func TestMemAgents(t *testing.T) {
	n := useNode(t, "Ascend910B3", 2, 64<<20)
	assert.Nil(t, n.Opened(1))
	assertDrv(t, MemAgentClose(1, abi.SVM_AGENT_DEVICE), abi.DRV_ERROR_INVALID_VALUE, "not open yet")
	require.NoError(t, MemAgentOpen(1, abi.SVM_AGENT_DEVICE))
	assert.NotNil(t, n.Opened(1), "the device agent opens the device's memory")
	require.NoError(t, MemAgentOpen(1, abi.SVM_AGENT_DEVICE), "a repeated open succeeds")
	assertDrv(t, MemAgentClose(1, abi.SVM_AGENT_HOST), abi.DRV_ERROR_INVALID_VALUE, "the host agent is another agent")
	require.NoError(t, MemAgentOpen(1, abi.SVM_AGENT_HOST))
	assert.Nil(t, n.Opened(0), "agents of device 1 leave device 0 alone")
	require.NoError(t, MemAgentClose(1, abi.SVM_AGENT_DEVICE))
	assertDrv(t, MemAgentClose(1, abi.SVM_AGENT_DEVICE), abi.DRV_ERROR_INVALID_VALUE, "closed once")
	require.NoError(t, MemAgentClose(1, abi.SVM_AGENT_HOST))
	assert.NotNil(t, n.Opened(1), "the device stays open after close")

	assertDrv(t, MemAgentOpen(2, abi.SVM_AGENT_DEVICE), abi.DRV_ERROR_INVALID_DEVICE)
	assertDrv(t, MemAgentClose(2, abi.SVM_AGENT_HOST), abi.DRV_ERROR_INVALID_DEVICE)
	assertDrv(t, MemAgentOpen(0, 2), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MemAgentClose(0, 7), abi.DRV_ERROR_INVALID_VALUE)

	// A new node closes every agent.
	require.NoError(t, MemAgentOpen(0, abi.SVM_AGENT_HOST))
	emu.CloseCurrent()
	assertDrv(t, MemAgentClose(0, abi.SVM_AGENT_HOST), abi.DRV_ERROR_INVALID_VALUE)
}

// TestGetMemUsageInfo reads the per-module records the HAL charges.
func TestGetMemUsageInfo(t *testing.T) {
	useNode(t, "Ascend910B3", 2, 256<<20)
	recs := make([]MemModuleUsage, 4)
	var got uint64 = 99
	require.NoError(t, GetMemUsageInfo(1, recs, &got))
	assert.Zero(t, got, "an unopened device has used nothing")

	var app, hccl uintptr
	require.NoError(t, MemAlloc(&app, 1000, abi.MEM_DEV|1|moduleApp))
	require.NoError(t, MemAlloc(&hccl, 3<<20, abi.MEM_DEV|abi.MEM_PAGE_HUGE|1|uint64(abi.HCCL_HAL_MODULE_ID)<<abi.MEM_MODULE_ID_BIT))
	require.NoError(t, MemFree(app))
	recs[1].Reserved[3] = 42
	require.NoError(t, GetMemUsageInfo(1, recs, &got))
	require.Equal(t, uint64(2), got)
	name := func(r MemModuleUsage) string {
		for i, c := range r.Name {
			if c == 0 {
				return string(r.Name[:i])
			}
		}
		return "unterminated"
	}
	assert.Equal(t, "HCCL_HAL", name(recs[0]), "largest current usage first")
	assert.Equal(t, uint64(4<<20), recs[0].Cur_mem_size)
	assert.Equal(t, uint64(4<<20), recs[0].Mem_peak_size)
	assert.Equal(t, "APP", name(recs[1]))
	assert.Zero(t, recs[1].Cur_mem_size)
	assert.Equal(t, uint64(4<<10), recs[1].Mem_peak_size)
	assert.Zero(t, recs[1].Reserved[3], "reserved is zeroed")

	require.NoError(t, GetMemUsageInfo(1, recs[:1], &got))
	assert.Equal(t, uint64(1), got, "at most in_num records")

	assertDrv(t, GetMemUsageInfo(1, nil, &got), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, GetMemUsageInfo(1, recs[:0], &got), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, GetMemUsageInfo(1, recs, nil), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, GetMemUsageInfo(2, recs, &got), abi.DRV_ERROR_INVALID_DEVICE)
	assert.Equal(t, "MODULE_200", ModuleName(200))
	require.NoError(t, MemFree(hccl))
}
