package hal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/svm"
)

const hugePg = svm.HugePage

func hbmFree(t *testing.T, dev uint32) uint64 {
	t.Helper()
	var info MemPhyInfo
	require.NoError(t, MemGetInfo("halMemGetInfo", dev, abi.MEM_INFO_TYPE_HBM_SIZE, &info))
	return info.Free
}

// A program that uses halMemAlloc(MEM_UVM / MEM_SVM), drvMemPrefetchToDevice,
// halMemAdvise and halMemGetInfo sees residency in the free memory.
func TestUVMAccounting(t *testing.T) {
	const hbm = 8 * hugePg
	n := useNode(t, "Ascend910B3", 2, hbm)
	var p, q uintptr
	require.NoError(t, MemAlloc(&p, 3*hugePg, abi.MEM_UVM|abi.MEM_PAGE_HUGE|1))
	require.NoError(t, MemAlloc(&q, 100, abi.MEM_SVM)) // flag 0: MEM_SVM on device 0
	assert.Equal(t, uint64(hbm), hbmFree(t, 1), "managed memory starts on the host")

	require.NoError(t, PrefetchToDevice(p+10, 2*hugePg, 1)) // widened to 3 pages
	assert.Equal(t, uint64(hbm-3*hugePg), hbmFree(t, 1))
	g := n.LoadedSVM()
	require.NotNil(t, g)
	st, err := g.Stats(1)
	require.NoError(t, err)
	assert.Equal(t, uint64(3*hugePg), st.PrefetchedBytes)

	// ADVISE_PIN makes the host the preferred location; ADVISE_PLE
	// prefetches to the device named.
	require.NoError(t, MemAdvise(q, 100, abi.ADVISE_PLE, 1))
	assert.Equal(t, uint64(hbm-4*hugePg), hbmFree(t, 1))
	require.NoError(t, MemAdvise(q, hugePg, abi.ADVISE_PIN, 0))
	pi, err := g.Page(q)
	require.NoError(t, err)
	assert.Equal(t, svm.Host, pi.Preferred)

	// halMemManagedPrefetch back to the host frees the device.
	require.NoError(t, ManagedPrefetch(p, 3*hugePg, UVMLocation{abi.DRV_UVM_LOCATION_TYPE_HOST, 0}, 0))
	assert.Equal(t, uint64(hbm-hugePg), hbmFree(t, 1))
	require.NoError(t, ManagedAdvise(p, hugePg, abi.PREFER_LOCATION, UVMLocation{abi.DRV_UVM_LOCATION_TYPE_DEVICE, 0}))
	pi, err = g.Page(p)
	require.NoError(t, err)
	assert.Equal(t, svm.Location(0), pi.Preferred)

	var a DVAttribute
	require.NoError(t, MemGetAttribute(p, &a))
	assert.Equal(t, uint32(abi.DV_MEM_UVM), a.MemType)
	require.NoError(t, MemGetAttribute(q, &a))
	assert.Equal(t, uint32(abi.DV_MEM_SVM), a.MemType)
	assert.Equal(t, uint32(1), a.DevId, "q's page is on device 1")
	var base uintptr
	var size uint64
	require.NoError(t, AddressRange(p+5, &base, &size))
	assert.Equal(t, p, base)
	assert.Equal(t, uint64(3*hugePg), size)

	require.NoError(t, MemFree(q))
	assert.Equal(t, uint64(hbm), hbmFree(t, 1))
	require.NoError(t, MemFree(p))
	assertDrv(t, MemFree(p), abi.DRV_ERROR_INVALID_VALUE)
}

func TestUVMErrors(t *testing.T) {
	useNode(t, "Ascend910B3", 2, 8*hugePg)
	var p, dev uintptr
	require.NoError(t, MemAlloc(&p, hugePg, abi.MEM_UVM))
	t.Cleanup(func() { _ = MemFree(p) })
	require.NoError(t, MemAlloc(&dev, 4096, abi.MEM_DEV))
	t.Cleanup(func() { _ = MemFree(dev) })
	host := UVMLocation{abi.DRV_UVM_LOCATION_TYPE_HOST, 0}
	cases := []struct {
		name string
		err  error
		code abi.DrvCode
	}{
		{"giant managed pages", MemAlloc(&dev, 4096, abi.MEM_UVM|abi.MEM_PAGE_GIANT), abi.DRV_ERROR_NOT_SUPPORT},
		{"managed on device 5", MemAlloc(&dev, 4096, abi.MEM_UVM|5), abi.DRV_ERROR_INVALID_DEVICE},
		{"managed readonly", MemAlloc(&dev, 4096, abi.MEM_UVM|abi.MEM_READONLY), abi.DRV_ERROR_NOT_SUPPORT},
		{"advise device memory", MemAdvise(dev, 4096, abi.ADVISE_TYPE, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"advise NULL", MemAdvise(0, 4096, abi.ADVISE_TYPE, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"advise unknown bits", MemAdvise(p, hugePg, 0x40, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"advise PIN|UNPIN", MemAdvise(p, hugePg, abi.ADVISE_PIN|abi.ADVISE_UNPIN, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"advise misaligned", MemAdvise(p+4096, 4096, abi.ADVISE_TYPE, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"advise bad device", MemAdvise(p, hugePg, abi.ADVISE_TYPE, 9), abi.DRV_ERROR_INVALID_DEVICE},
		{"prefetch device memory", PrefetchToDevice(dev, 4096, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"prefetch past the end", PrefetchToDevice(p, 2*hugePg, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"prefetch len 0", PrefetchToDevice(p, 0, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"prefetch bad device", PrefetchToDevice(p, 1, 2), abi.DRV_ERROR_INVALID_DEVICE},
		{"managed advise bad kind", ManagedAdvise(p, hugePg, 9, host), abi.DRV_ERROR_INVALID_VALUE},
		{"managed advise bad location", ManagedAdvise(p, hugePg, abi.PREFER_LOCATION, UVMLocation{7, 0}), abi.DRV_ERROR_INVALID_VALUE},
		{"managed advise device 3", ManagedAdvise(p, hugePg, abi.PREFER_LOCATION, UVMLocation{abi.DRV_UVM_LOCATION_TYPE_DEVICE, 3}), abi.DRV_ERROR_INVALID_DEVICE},
		{"managed prefetch flags", ManagedPrefetch(p, hugePg, host, 1), abi.DRV_ERROR_INVALID_VALUE},
		{"managed prefetch misaligned", ManagedPrefetch(p, 4096, host, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"batch idx not from 0", ManagedPrefetchBatch([]uintptr{p}, []uint64{hugePg}, []UVMLocation{host}, []uint64{1}, 0, ""), abi.DRV_ERROR_INVALID_VALUE},
		{"batch more locations than items", ManagedPrefetchBatch([]uintptr{p}, []uint64{hugePg}, []UVMLocation{host, host}, []uint64{0, 1}, 0, ""), abi.DRV_ERROR_INVALID_VALUE},
		{"batch item not managed", ManagedPrefetchBatch([]uintptr{p, dev}, []uint64{hugePg, 4096}, []UVMLocation{host}, []uint64{0}, 0, ""), abi.DRV_ERROR_INVALID_VALUE},
		{"free inside", MemFree(p + 4096), abi.DRV_ERROR_INVALID_VALUE},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assertDrv(t, c.err, c.code) })
	}
}
