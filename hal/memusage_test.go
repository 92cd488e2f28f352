package hal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// TestNoteUsage checks what the HAL charges to the device's per-module
// counters: device memory only, page-rounded, under the flag's or prop's
// module, released at free / last release.
func TestNoteUsage(t *testing.T) {
	n := useNode(t, "Ascend910B3", 2, 256<<20)
	usage := func() map[uint16]int64 {
		out := map[uint16]int64{}
		for _, u := range n.Opened(1).MemUsage() {
			if u.Cur != 0 {
				out[u.Module] = int64(u.Cur)
			}
		}
		assert.Empty(t, n.Opened(0).MemUsage(), "charged to the allocating device only")
		return out
	}

	var dev, huge, host uintptr
	require.NoError(t, MemAlloc(&dev, 1000, abi.MEM_DEV|abi.MEM_TYPE_HBM|1|moduleApp))
	require.NoError(t, MemAlloc(&huge, 3<<20, abi.MEM_DEV|abi.MEM_PAGE_HUGE|1|uint64(abi.HCCL_HAL_MODULE_ID)<<abi.MEM_MODULE_ID_BIT))
	require.NoError(t, MemAlloc(&host, 4096, abi.MEM_HOST|moduleApp))
	var h uint64
	require.NoError(t, MemCreate(&h, 2<<20, &MemProp{Side: abi.MEM_DEV_SIDE, Devid: 1, Pg_type: abi.MEM_HUGE_PAGE_TYPE, Module_id: abi.TDT_MODULE_ID}, 0))
	assert.Equal(t, map[uint16]int64{abi.APP_MODULE_ID: 4 << 10, abi.HCCL_HAL_MODULE_ID: 4 << 20, abi.TDT_MODULE_ID: 2 << 20}, usage())

	require.NoError(t, MemFree(dev))
	require.NoError(t, MemFree(huge))
	require.NoError(t, MemFree(host))
	require.NoError(t, MemRelease(h))
	assert.Empty(t, usage())
}
