package hal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func TestPeerToPeer(t *testing.T) {
	useNode(t, "Ascend910B1", 2, 0)
	t.Cleanup(func() {
		p2p.mu.Lock()
		p2p.enabled, p2p.opened = nil, nil
		p2p.mu.Unlock()
	})
	var can int32
	require.NoError(t, DeviceCanAccessPeer(&can, 0, 1))
	assert.Equal(t, int32(1), can)
	assertDrv(t, DeviceCanAccessPeer(nil, 0, 1), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, DeviceCanAccessPeer(&can, 1, 1), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, DeviceCanAccessPeer(&can, 0, 2), abi.DRV_ERROR_INVALID_DEVICE)

	assert.False(t, P2PEnabled(0, 1))
	require.NoError(t, DeviceEnableP2P(0, 1, 0))
	require.NoError(t, DeviceEnableP2P(0, 1, 0), "enabling twice is not an error")
	assert.True(t, P2PEnabled(0, 1))
	assert.False(t, P2PEnabled(1, 0), "the switch is directed")
	require.NoError(t, DeviceDisableP2P(0, 1, 0))
	assertDrv(t, DeviceDisableP2P(0, 1, 0), abi.DRV_ERROR_INVALID_VALUE)
	assert.False(t, P2PEnabled(0, 1))

	require.NoError(t, DeviceEnableP2P(1, 0, 0))
	ResetP2P()
	assert.False(t, P2PEnabled(1, 0), "ResetP2P turns every pair off")

	assertDrv(t, MemDeviceClose(0), abi.DRV_ERROR_INVALID_VALUE)
	require.NoError(t, MemDeviceOpen(0, -1))
	require.NoError(t, MemDeviceClose(0))
	assertDrv(t, MemDeviceOpen(2, 0), abi.DRV_ERROR_INVALID_DEVICE)
}

func TestPeerToPeer310B(t *testing.T) {
	useNode(t, "Ascend310B1", 2, 0)
	var can int32 = 7
	require.NoError(t, DeviceCanAccessPeer(&can, 0, 1))
	assert.Zero(t, can, "310B has no P2P")
	assertDrv(t, DeviceEnableP2P(0, 1, 0), abi.DRV_ERROR_NOT_SUPPORT)
}
