package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/stack"
)

// interposeInfo sets the driver's information calls of rt/stack to the
// given definitions (as libfake does for an LD_PRELOADed driver hook) for
// the rest of the test.
func interposeInfo(t *testing.T, calls stack.HALCalls) {
	t.Helper()
	saved := stack.HAL
	stack.HAL.GetDevNum = calls.GetDevNum
	stack.HAL.DeviceGetPhyIDByIndex = calls.DeviceGetPhyIDByIndex
	stack.HAL.DeviceGetIndexByPhyID = calls.DeviceGetIndexByPhyID
	stack.HAL.GetPlatformInfo = calls.GetPlatformInfo
	stack.HAL.GetSocVersion = calls.GetSocVersion
	stack.HAL.ResourceInfoQuery = calls.ResourceInfoQuery
	stack.HAL.GetDeviceSplitMode = calls.GetDeviceSplitMode
	t.Cleanup(func() { stack.HAL = saved })
}

// A driver that hides devices decides the device count and every check
// that asks it; the checks that keep the learned count see it too.
func TestDriverDeviceCountDecides(t *testing.T) {
	th := setup(t, nil)
	asked := 0
	interposeInfo(t, stack.HALCalls{GetDevNum: func(n *uint32) error {
		asked++
		*n = 1
		return nil
	}})
	var c uint32
	require.NoError(t, GetDeviceCount(th, &c))
	assert.Equal(t, uint32(1), c)
	assert.Equal(t, 1, asked)
	requireCode(t, SetDevice(th, 1), abi.ACL_ERROR_RT_INVALID_DEVICEID)
	assert.Equal(t, 2, asked)
	require.NoError(t, SetDevice(th, 0))
	var logic int32
	requireCode(t, GetLogicDevIdByUserDevId(th, 1, &logic), abi.ACL_ERROR_RT_INVALID_DEVICEID)
	// The learned count (no ask): rtMemSetAccess's location check.
	before := asked
	_, err := driverLocation("aclrtMemSetAccess", MemLocation{Type: abi.ACL_MEM_LOCATION_TYPE_DEVICE, Id: 1})
	requireCode(t, err, abi.ACL_ERROR_RT_INVALID_DEVICEID)
	assert.Equal(t, before, asked)
	require.NoError(t, ResetDevice(th, 0))

	// A driver error is the runtime's code.
	interposeInfo(t, stack.HALCalls{GetDevNum: func(n *uint32) error {
		return abi.DrvErrorf(abi.DRV_ERROR_NO_DEVICE, "hook: no device")
	}})
	requireCode(t, GetDeviceCount(th, &c), abi.RTCodeOfDrv(abi.DRV_ERROR_NO_DEVICE))
}

// The id maps are the driver's answers renamed by the visible-device table.
func TestDriverIDMaps(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_DEVICES": "4", "ASCEND_RT_VISIBLE_DEVICES": "3,1"})
	var phy, user int32
	require.NoError(t, GetPhyDevIdByLogicDevId(th, 0, &phy))
	assert.Equal(t, int32(3), phy)
	require.NoError(t, GetLogicDevIdByPhyDevId(th, 1, &user))
	assert.Equal(t, int32(1), user)
	interposeInfo(t, stack.HALCalls{
		DeviceGetPhyIDByIndex: func(index uint32, p *uint32) error { *p = index + 1; return nil },
		DeviceGetIndexByPhyID: func(uint32, *uint32) error {
			return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "hook: refused")
		},
	})
	require.NoError(t, GetPhyDevIdByLogicDevId(th, 0, &phy))
	assert.Equal(t, int32(1), phy, "driver's physical id 1 is machine device 1")
	requireCode(t, GetLogicDevIdByPhyDevId(th, 1, &user), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	requireCode(t, GetLogicDevIdByPhyDevId(th, 2, &user), abi.ACL_ERROR_RT_INVALID_DEVICEID) // not visible: the table answers
}

// The run mode is the driver's platform.
func TestDriverPlatformIsRunMode(t *testing.T) {
	th := setup(t, nil)
	var m int32
	require.NoError(t, GetRunMode(th, &m))
	assert.Equal(t, int32(abi.ACL_HOST), m)
	platform := uint32(0)
	interposeInfo(t, stack.HALCalls{GetPlatformInfo: func(p *uint32) error { *p = platform; return nil }})
	require.NoError(t, GetRunMode(th, &m))
	assert.Equal(t, int32(abi.ACL_DEVICE), m)
	platform = 5
	requireCode(t, GetRunMode(th, &m), abi.ACL_ERROR_RT_INTERNAL_ERROR)
}

// The SoC name is asked once per node and kept.
func TestDriverSocNameAskedOnce(t *testing.T) {
	resetRuntime()
	asked := 0
	interposeInfo(t, stack.HALCalls{GetSocVersion: func(dev uint32, buf []byte) error {
		asked++
		copy(buf, "HookedSoC\x00")
		return nil
	}})
	th := setup(t, nil)
	for range 3 {
		name, err := SocName(th)
		require.NoError(t, err)
		assert.Equal(t, "HookedSoC", name)
	}
	assert.Equal(t, 1, asked)
	resetRuntime() // a new node asks again
	name, err := SocName(th)
	require.NoError(t, err)
	assert.Equal(t, "HookedSoC", name)
	assert.Equal(t, 2, asked)
}

// Free stream and event ids and the split mode come from the driver.
func TestDriverResourcesAndSplitMode(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	t.Cleanup(func() { _ = ResetDevice(th, 0) })
	interposeInfo(t, stack.HALCalls{
		ResourceInfoQuery: func(dev, ts uint32, typ int32, out *hal.ResourceInfo) error {
			*out = hal.ResourceInfo{Capacity: 10, UsedNum: 3}
			return nil
		},
		GetDeviceSplitMode: func(dev uint32, mode *uint32) error { *mode = abi.VMNG_VIRTUAL_SPLIT_MODE; return nil },
	})
	var n uint32
	require.NoError(t, GetEventAvailNum(th, &n))
	assert.Equal(t, uint32(7), n)
	require.NoError(t, GetStreamAvailableNum(th, &n))
	assert.Equal(t, uint32(7), n, "the driver's 3 used ids exceed the runtime's default stream")
	var v int64
	require.NoError(t, GetDeviceInfo(th, 0, abi.ACL_DEV_ATTR_IS_VIRTUAL, &v))
	assert.Equal(t, int64(1), v)
	// The runtime's own count stands in when the driver counts fewer.
	interposeInfo(t, stack.HALCalls{ResourceInfoQuery: func(dev, ts uint32, typ int32, out *hal.ResourceInfo) error {
		*out = hal.ResourceInfo{Capacity: 10}
		return nil
	}})
	require.NoError(t, GetStreamAvailableNum(th, &n))
	assert.Less(t, n, uint32(10))
}
