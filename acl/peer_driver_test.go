package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// Peer access is the driver's switch: what ACL enables the driver sees,
// and the other way round.
func TestPeerAccessIsTheDriverSwitch(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	require.NoError(t, DeviceEnablePeerAccess(th, 1, 0))
	assert.True(t, hal.P2PEnabled(0, 1))
	require.NoError(t, hal.DeviceDisableP2P(0, 1, 0))
	var status int32
	require.NoError(t, DevicePeerAccessStatus(th, 0, 1, &status))
	assert.Equal(t, int32(0), status)
	requireCode(t, DeviceDisablePeerAccess(th, 1), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, hal.DeviceEnableP2P(1, 0, 0))
	require.NoError(t, DevicePeerAccessStatus(th, 1, 0, &status))
	assert.Equal(t, int32(1), status)
	require.NoError(t, hal.DeviceDisableP2P(1, 0, 0))
	require.NoError(t, core.ResetDevice(th, 0))
}

// The driver calls go through rt/stack: an interposed definition sees
// them, and its answer is what the ACL caller gets.
func TestPeerAccessThroughStack(t *testing.T) {
	th := setup(t, nil)
	var enables, cans int
	stack.HAL.DeviceEnableP2P = func(dev, peer, flag uint32) error {
		enables++
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "refused by the test hook")
	}
	stack.HAL.DeviceCanAccessPeer = func(can *int32, dev, peer uint32) error {
		cans++
		*can = 0
		return nil
	}
	t.Cleanup(func() { stack.HAL.DeviceEnableP2P, stack.HAL.DeviceCanAccessPeer = nil, nil })

	can := int32(-1)
	require.NoError(t, DeviceCanAccessPeer(th, &can, 0, 1))
	assert.Equal(t, int32(0), can)
	assert.Equal(t, 1, cans)
	require.NoError(t, SetDevice(th, 0))
	requireCode(t, DeviceEnablePeerAccess(th, 1, 0), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	assert.Equal(t, 1, enables)
	assert.False(t, hal.P2PEnabled(0, 1))
	requireCode(t, DeviceEnablePeerAccess(th, 1, 3), abi.ACL_ERROR_INVALID_PARAM)
	assert.Equal(t, 1, enables, "ACL's argument check answers before the driver")
	require.NoError(t, core.ResetDevice(th, 0))
}
