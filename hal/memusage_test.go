package hal

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// TestNoteUsage checks what the HAL reports to the per-module accounting
// hook: device memory only, page-rounded, under the flag's or prop's
// module, released at free / last release.
func TestNoteUsage(t *testing.T) {
	var mu sync.Mutex
	got := map[uint16]int64{}
	var n *emu.Node
	old := emu.ProcessPlatform()
	// The accounting is the node's platform piece: given before the node
	// is created.
	emu.UsePlatform(emu.Platform{NoteUsage: func(d *emu.Device, module uint16, delta int64) {
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, n.Opened(1), d, "charged to the allocating device")
		got[module] += delta
	}})
	t.Cleanup(func() { emu.UsePlatform(old) })
	n = useNode(t, "Ascend910B3", 2, 256<<20)
	usage := func() map[uint16]int64 {
		mu.Lock()
		defer mu.Unlock()
		out := map[uint16]int64{}
		for m, v := range got {
			if v != 0 {
				out[m] = v
			}
		}
		return out
	}

	var dev, huge, host uintptr
	require.NoError(t, MemAlloc(&dev, 1000, abi.MEM_DEV|abi.MEM_TYPE_HBM|1|moduleApp))
	require.NoError(t, MemAlloc(&huge, 3<<20, abi.MEM_DEV|abi.MEM_PAGE_HUGE|1|uint64(abi.HCCL_HAL_MODULE_ID)<<abi.MEM_MODULE_ID_BIT))
	require.NoError(t, MemAlloc(&host, 4096, abi.MEM_HOST|moduleApp))
	var h uint64
	require.NoError(t, MemCreate(&h, 2<<20, &MemProp{Side: abi.MEM_DEV_SIDE, DevID: 1, PgType: abi.MEM_HUGE_PAGE_TYPE, ModuleID: abi.TDT_MODULE_ID}, 0))
	assert.Equal(t, map[uint16]int64{abi.APP_MODULE_ID: 4 << 10, abi.HCCL_HAL_MODULE_ID: 4 << 20, abi.TDT_MODULE_ID: 2 << 20}, usage())

	require.NoError(t, MemFree(dev))
	require.NoError(t, MemFree(huge))
	require.NoError(t, MemFree(host))
	require.NoError(t, MemRelease(h))
	assert.Empty(t, usage())
}
