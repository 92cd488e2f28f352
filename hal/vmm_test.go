package hal

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func TestVMMArgumentErrors(t *testing.T) {
	useNode(t, "Ascend910B3", 2, 64<<20)
	dev := &MemProp{Side: abi.MEM_DEV_SIDE, Pg_type: abi.MEM_HUGE_PAGE_TYPE}
	var h uint64
	var p uintptr
	var g uint64
	for _, c := range []struct {
		name string
		err  error
		code abi.DrvCode
	}{
		{"reserve NULL", AddressReserve(nil, 2<<20, 0, 0, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"reserve flag", AddressReserve(&p, 2<<20, 0, 0, 1<<20), abi.DRV_ERROR_INVALID_VALUE},
		{"reserve unaligned hint", AddressReserve(&p, 2<<20, 0, 4096, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"create NULL prop", MemCreate(&h, 2<<20, nil, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"create side", MemCreate(&h, 2<<20, &MemProp{Side: abi.MEM_MAX_SIDE}, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"create flag", MemCreate(&h, 2<<20, dev, 1), abi.DRV_ERROR_INVALID_VALUE},
		{"create size", MemCreate(&h, 1<<20, dev, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"create device", MemCreate(&h, 2<<20, &MemProp{Side: abi.MEM_DEV_SIDE, Devid: 5}, 0), abi.DRV_ERROR_INVALID_DEVICE},
		{"create beyond capacity", MemCreate(&h, 128<<20, dev, 0), abi.DRV_ERROR_OUT_OF_MEMORY},
		{"release garbage", MemRelease(0x1234), abi.DRV_ERROR_INVALID_HANDLE},
		{"map NULL", MemMap(0, 2<<20, 0, 1, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"unmap unreserved", MemUnmap(0x1000), abi.DRV_ERROR_INVALID_VALUE},
		{"granularity option", AllocationGranularity(dev, abi.MEM_ALLOC_GRANULARITY_INVALID, &g), abi.DRV_ERROR_INVALID_VALUE},
		{"export fabric", ExportToShareableHandle(1, abi.MEM_HANDLE_TYPE_FABRIC, 0, new(uint64)), abi.DRV_ERROR_NOT_SUPPORT},
		{"set access none", SetAccess(0x1000, 2<<20, nil), abi.DRV_ERROR_INVALID_VALUE},
		{"shmem name buffer", func() error { _, err := ShmemCreateHandle(0x1000, 4096, 64); return err }(), abi.DRV_ERROR_INVALID_VALUE},
		{"register read-only", HostRegister(0x10000, 4096, abi.MEM_REGISTER_READ_ONLY, 0, &p), abi.DRV_ERROR_NOT_SUPPORT},
		{"register svm map", HostRegister(0x10000, 4096, abi.HOST_SVM_MAP_DEV, 0, &p), abi.DRV_ERROR_NOT_SUPPORT},
		{"capabilities type", HostRegisterCapabilities(0, abi.DRV_ACC_MODULE_TYPE_MAX, new(uint32)), abi.DRV_ERROR_INVALID_VALUE},
	} {
		t.Run(c.name, func(t *testing.T) { assertDrv(t, c.err, c.code) })
	}
}

func TestVMMRoundTripThroughHAL(t *testing.T) {
	n := useNode(t, "Ascend910B3", 1, 64<<20)
	prop := &MemProp{Side: abi.MEM_DEV_SIDE, Pg_type: abi.MEM_NORMAL_PAGE_TYPE, Mem_type: abi.MEM_P2P_HBM_TYPE, Module_id: 3}
	var g uint64
	require.NoError(t, AllocationGranularity(prop, abi.MEM_ALLOC_GRANULARITY_MINIMUM, &g))
	assert.Equal(t, uint64(2<<20), g)
	var h, s, imp uint64
	require.NoError(t, MemCreate(&h, 4<<20, prop, 0))
	var back MemProp
	require.NoError(t, AllocationPropertiesFromHandle(&back, h))
	assert.Equal(t, *prop, back)
	var va uintptr
	require.NoError(t, AddressReserve(&va, 4<<20, 0, 0, 0))
	require.NoError(t, MemMap(va, 4<<20, 0, h, 0))
	var base uintptr
	var size uint64
	require.NoError(t, AddressRange(va+100, &base, &size))
	assert.Equal(t, va, base)
	assert.Equal(t, uint64(4<<20), size)
	d, err := n.Device(0)
	require.NoError(t, err)
	assert.Equal(t, uint64(4<<20), d.HBM.Used())

	var sh MemShareHandle
	require.NoError(t, ExportToShareableHandleV2(h, abi.MEM_HANDLE_TYPE_NONE, 0, &sh))
	require.NoError(t, SetPidToShareableHandle(binary.LittleEndian.Uint64(sh.Share_info[:8]), []int32{int32(os.Getpid())}))
	require.NoError(t, ImportFromShareableHandleV2(abi.MEM_HANDLE_TYPE_NONE, &sh, 0, &imp))
	assert.NotEqual(t, h, imp)
	assertDrv(t, ExportToShareableHandle(h, abi.MEM_HANDLE_TYPE_NONE, 0, &s), abi.DRV_ERROR_INVALID_VALUE)
	require.NoError(t, MemRelease(imp))
	require.NoError(t, MemUnmap(va))
	require.NoError(t, MemRelease(h))
	require.NoError(t, AddressFree(va))
	assert.Equal(t, uint64(0), d.HBM.Used())
}
