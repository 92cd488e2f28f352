package hal

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

func TestEnumeration(t *testing.T) {
	useNode(t, "Ascend910B1", 3, 0)
	var num uint32
	require.NoError(t, GetDevNum(&num))
	assert.Equal(t, uint32(3), num)
	assertDrv(t, GetDevNum(nil), abi.DRV_ERROR_INVALID_VALUE)

	for _, fn := range []string{"drvGetDevIDs", "drvGetDeviceLocalIDs"} {
		ids := []uint32{9, 9, 9, 9}
		require.NoError(t, GetDevIDs(fn, ids))
		assert.Equal(t, []uint32{0, 1, 2, 9}, ids, fn)
		assertDrv(t, GetDevIDs(fn, nil), abi.DRV_ERROR_INVALID_VALUE, fn)
		assertDrv(t, GetDevIDs(fn, make([]uint32, 2)), abi.DRV_ERROR_INVALID_VALUE, "%s: too short", fn)
	}

	var ex uint32
	require.NoError(t, DevNumEx(hwDavinci, &ex))
	assert.Equal(t, num, ex, "halGetDevNumEx(0) agrees with drvGetDevNum")
	require.NoError(t, DevNumEx(hwKunpeng, &ex))
	assert.Zero(t, ex)
	assertDrv(t, DevNumEx(2, &ex), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, DevNumEx(0, nil), abi.DRV_ERROR_INVALID_VALUE)

	for i := range num {
		var phy, idx uint32
		require.NoError(t, PhyIDByIndex(i, &phy))
		require.NoError(t, IndexByPhyID(phy, &idx))
		assert.Equal(t, i, idx, "round trip of device %d", i)
	}
	var x uint32
	assertDrv(t, PhyIDByIndex(3, &x), abi.DRV_ERROR_INVALID_DEVICE)
	assertDrv(t, IndexByPhyID(3, &x), abi.DRV_ERROR_INVALID_DEVICE)
	assertDrv(t, PhyIDByIndex(0, nil), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, IndexByPhyID(0, nil), abi.DRV_ERROR_INVALID_VALUE)

	var plat uint32
	require.NoError(t, PlatformInfo(&plat))
	assert.Equal(t, uint32(PlatformHost), plat)
	assertDrv(t, PlatformInfo(nil), abi.DRV_ERROR_INVALID_VALUE)

	var v int32
	require.NoError(t, APIVersion(&v))
	assert.Equal(t, int32(7<<16|36<<8|24), v, "0x072418 per hal-api.md §1")
	assertDrv(t, APIVersion(nil), abi.DRV_ERROR_INVALID_VALUE)

	var vdev, mode uint32 = 7, 7
	require.NoError(t, VdevNum(&vdev))
	assert.Zero(t, vdev)
	require.NoError(t, DeviceSplitMode(2, &mode))
	assert.Equal(t, uint32(abi.VMNG_NORMAL_NONE_SPLIT_MODE), mode)
	assertDrv(t, DeviceSplitMode(3, &mode), abi.DRV_ERROR_INVALID_DEVICE)
	assertDrv(t, VdevNum(nil), abi.DRV_ERROR_INVALID_VALUE)
}

func TestDeviceInfo(t *testing.T) {
	for _, name := range []string{"Ascend910B3", "Ascend310P3", "Ascend910A"} {
		t.Run(name, func(t *testing.T) {
			useNode(t, name, 2, 0)
			s, ok := emu.LookupSoC(name)
			require.True(t, ok)
			cases := []struct {
				module, info int32
				want         int64
			}{
				{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_CORE_NUM, 1},
				{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_PHY_CHIP_ID, 1},
				{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_RUN_MACH, abi.RUN_MACHINE_PHYCICAL},
				{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_ADDR_MODE, abi.ADDR_MODE_INDEPENDENT},
				{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_HD_CONNECT_TYPE, abi.HOST_DEVICE_CONNECT_TYPE_PCIE},
				{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_ENV, 3},
				{abi.MODULE_TYPE_AICORE, abi.INFO_TYPE_CORE_NUM, int64(s.AICores)},
				{abi.MODULE_TYPE_AICORE, abi.INFO_TYPE_FREQUE, int64(s.CubeMHz)},
				{abi.MODULE_TYPE_VECTOR_CORE, abi.INFO_TYPE_CORE_NUM, int64(s.VectorCores)},
				{abi.MODULE_TYPE_AICPU, abi.INFO_TYPE_CORE_NUM, int64(s.AICPUs)},
				{abi.MODULE_TYPE_AICPU, abi.INFO_TYPE_OCCUPY, 1<<s.AICPUs - 1},
				{abi.MODULE_TYPE_TSCPU, abi.INFO_TYPE_CORE_NUM, 1},
			}
			for _, c := range cases {
				var v int64 = -99
				require.NoError(t, DeviceInfo(1, c.module, c.info, &v), "module %d info %d", c.module, c.info)
				assert.Equal(t, c.want, v, "module %d info %d", c.module, c.info)
			}

			// VERSION: the runtime reads the chip id from bits 8-15.
			var ver int64
			require.NoError(t, DeviceInfo(0, abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_VERSION, &ver))
			assert.Equal(t, int64(s.ChipType), (ver>>8)&0xFF)

			var pt int64
			require.NoError(t, DeviceInfo(0, abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_PRODUCT_TYPE, &pt))
			assert.Less(t, pt, int64(abi.HAL_PRODUCT_TYPE_MAX))
			if s.Family == emu.Family310P {
				assert.Equal(t, int64(abi.HAL_PRODUCT_TYPE_PCIE_CARD), pt)
			} else if runtime.GOARCH == "amd64" {
				assert.Equal(t, int64(abi.HAL_PRODUCT_TYPE_A_X), pt)
			}

			var v int64
			assertDrv(t, DeviceInfo(2, abi.MODULE_TYPE_AICORE, abi.INFO_TYPE_CORE_NUM, &v), abi.DRV_ERROR_INVALID_DEVICE)
			assertDrv(t, DeviceInfo(0, abi.MODULE_TYPE_AICORE, abi.INFO_TYPE_CORE_NUM, nil), abi.DRV_ERROR_INVALID_VALUE)
			assertDrv(t, DeviceInfo(0, abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_MASTERID, &v), abi.DRV_ERROR_NOT_SUPPORT, "documented, not modelled")
			assertDrv(t, DeviceInfo(0, abi.MODULE_TYPE_AICORE, abi.INFO_TYPE_IP, &v), abi.DRV_ERROR_INVALID_VALUE, "undocumented pair")
			assertDrv(t, DeviceInfo(0, 99, abi.INFO_TYPE_CORE_NUM, &v), abi.DRV_ERROR_INVALID_VALUE, "unknown module")
		})
	}
}

func TestSocAndChip(t *testing.T) {
	useNode(t, "Ascend310P3", 1, 0)
	buf := make([]byte, 128)
	require.NoError(t, SocVersion(0, buf))
	assert.Equal(t, "Ascend310P3", string(buf[:strings.IndexByte(string(buf), 0)]))
	assertDrv(t, SocVersion(0, make([]byte, len("Ascend310P3"))), abi.DRV_ERROR_INVALID_VALUE, "no room for the NUL")
	require.NoError(t, SocVersion(0, make([]byte, len("Ascend310P3")+1)))
	assertDrv(t, SocVersion(0, nil), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, SocVersion(1, buf), abi.DRV_ERROR_INVALID_DEVICE)

	var ci ChipInfo
	require.NoError(t, GetChipInfo(0, &ci))
	cstr := func(b []byte) string { return string(b[:strings.IndexByte(string(b), 0)]) }
	assert.Equal(t, "Ascend", cstr(ci.Type[:]))
	assert.Equal(t, "310P3", cstr(ci.Name[:]))
	assert.NotEmpty(t, cstr(ci.Version[:]))
	assertDrv(t, GetChipInfo(0, nil), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, GetChipInfo(5, &ci), abi.DRV_ERROR_INVALID_DEVICE)
}

func TestSupportFeatureAndResources(t *testing.T) {
	n := useNode(t, "Ascend910B3", 2, 0)
	for f := int32(0); f < abi.FEATURE_MAX; f++ {
		ok, err := SupportFeature(0, f)
		require.NoError(t, err)
		assert.Equal(t, features[f], ok, "feature %d", f)
	}
	ok, err := SupportFeature(0, abi.FEATURE_MAX)
	assert.False(t, ok)
	assertDrv(t, err, abi.DRV_ERROR_INVALID_VALUE)
	ok, err = SupportFeature(2, 0)
	assert.False(t, ok)
	assertDrv(t, err, abi.DRV_ERROR_INVALID_DEVICE)

	s := n.SoC()
	for _, c := range []struct {
		typ  int32
		want int
	}{{abi.DRV_RESOURCE_STREAM_ID, s.MaxStreams}, {abi.DRV_RESOURCE_EVENT_ID, s.MaxEvents}, {abi.DRV_RESOURCE_NOTIFY_ID, s.MaxNotifies}} {
		var r ResourceInfo
		require.NoError(t, ResourceInfoQuery(1, 0, c.typ, &r))
		assert.Equal(t, uint32(c.want), r.Capacity, "type %d", c.typ)
	}
	// Events in use are the scheduler's.
	d, err := n.Device(1)
	require.NoError(t, err)
	ev, err := d.TS.NewEvent(0)
	require.NoError(t, err)
	var r ResourceInfo
	require.NoError(t, ResourceInfoQuery(1, 0, abi.DRV_RESOURCE_EVENT_ID, &r))
	assert.Equal(t, uint32(1), r.UsedNum)
	_ = ev

	assertDrv(t, ResourceInfoQuery(1, 1, abi.DRV_RESOURCE_STREAM_ID, &r), abi.DRV_ERROR_INVALID_VALUE, "tsId")
	assertDrv(t, ResourceInfoQuery(2, 0, abi.DRV_RESOURCE_STREAM_ID, &r), abi.DRV_ERROR_INVALID_DEVICE)
	assertDrv(t, ResourceInfoQuery(1, 0, abi.DRV_RESOURCE_MODEL_ID, &r), abi.DRV_ERROR_NOT_SUPPORT)
	assertDrv(t, ResourceInfoQuery(1, 0, abi.DRV_RESOURCE_INVALID_ID, &r), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, ResourceInfoQuery(1, 0, abi.DRV_RESOURCE_STREAM_ID, nil), abi.DRV_ERROR_INVALID_VALUE)
}
