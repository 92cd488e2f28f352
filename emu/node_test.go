package emu

import (
	"testing"

	"github.com/npuemu/npuemu/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newTestNode(t *testing.T, cfg Config) *Node {
	t.Helper()
	n, err := NewNode(cfg, Platform{})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	return n
}

func TestNodeLazyOpen(t *testing.T) {
	n := newTestNode(t, Config{SoC: "Ascend910B4", Devices: 4, HBMBytes: 1 << 20})
	assert.Equal(t, 4, n.DeviceCount())
	assert.Equal(t, "Ascend910B4", n.SoC().Name)
	for id := 0; id < 4; id++ {
		assert.Nil(t, n.Opened(id), "device %d opened before use", id)
	}

	d, err := n.Device(2)
	require.NoError(t, err)
	assert.Equal(t, 2, d.ID)
	assert.Equal(t, "Ascend910B4", d.SoC.Name)
	require.NotNil(t, d.HBM)
	require.NotNil(t, d.TS)
	assert.Equal(t, uint64(1<<20), d.HBM.Total())
	assert.Same(t, d, n.Opened(2))
	assert.Nil(t, n.Opened(1), "opening one device opens no other")
	again, err := n.Device(2)
	require.NoError(t, err)
	assert.Same(t, d, again)
	assert.Nil(t, n.Opened(-1))
	assert.Nil(t, n.Opened(4))
}

func TestNodeBadDeviceID(t *testing.T) {
	n := newTestNode(t, Config{SoC: DefaultSoC, Devices: 2})
	for _, id := range []int{-1, 2, 1 << 30} {
		_, err := n.Device(id)
		assert.True(t, isCode(err, abi.ACL_ERROR_RT_INVALID_DEVICEID), "id %d: %v", id, err)
		assert.Contains(t, err.Error(), "2 devices")
	}
}

func TestNodeDefaultHBMIsUsable(t *testing.T) {
	n := newTestNode(t, Config{SoC: "Ascend910B3", Devices: 8})
	assert.Equal(t, n.SoC().UsableHBMBytes, n.HBMTotal())
	d, err := n.Device(7)
	require.NoError(t, err)
	assert.Equal(t, uint64(61)<<30, d.HBM.Total(), "a 64 GiB device costs nothing until touched")
	p, err := d.HBM.Alloc(32<<30, 0)
	require.NoError(t, err)
	_, err = d.HBM.Alloc(30<<30, 0)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_MEMORY_ALLOCATION))
	_, err = d.HBM.Free(p)
	require.NoError(t, err)
}

func TestNodeFindDevice(t *testing.T) {
	n := newTestNode(t, Config{SoC: DefaultSoC, Devices: 3, HBMBytes: 1 << 20})
	d0, err := n.Device(0)
	require.NoError(t, err)
	d2, err := n.Device(2)
	require.NoError(t, err)
	p0, err := d0.HBM.Alloc(64, 0)
	require.NoError(t, err)
	p2, err := d2.HBM.Alloc(64, 0)
	require.NoError(t, err)
	h, err := n.Host().Alloc(64)
	require.NoError(t, err)

	tests := []struct {
		name string
		addr uintptr
		want *Device
	}{
		{"device 0 block", p0 + 10, d0},
		{"device 2 block", p2, d2},
		{"device 2 unallocated", p2 + 4096, d2},
		{"pinned host", h, nil},
		{"null", 0, nil},
		{"heap", uintptr(len(tests0)), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := n.FindDevice(tt.addr)
			assert.Equal(t, tt.want != nil, ok)
			assert.Same(t, tt.want, got)
		})
	}
}

var tests0 = make([]byte, 1)

func TestNodeClose(t *testing.T) {
	n, err := NewNode(Config{SoC: DefaultSoC, Devices: 2, HBMBytes: 1 << 20}, Platform{})
	require.NoError(t, err)
	d, err := n.Device(0)
	require.NoError(t, err)
	p, err := d.HBM.Alloc(64, 0)
	require.NoError(t, err)
	n.Close()
	n.Close()
	assert.Nil(t, n.Opened(0))
	_, ok := n.FindDevice(p)
	assert.False(t, ok)
	_, err = n.Device(1)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_INVALID_DEVICEID))
	_, err = n.Host().Alloc(1)
	assert.Error(t, err)
}

func TestNewNodeRejectsBadConfig(t *testing.T) {
	_, err := NewNode(Config{SoC: "nope", Devices: 1}, Platform{})
	assert.True(t, isCode(err, abi.ACL_ERROR_INVALID_PARAM))
	_, err = NewNode(Config{SoC: DefaultSoC, Devices: 65}, Platform{})
	assert.True(t, isCode(err, abi.ACL_ERROR_INVALID_PARAM))
}

func TestCostModelDefined(t *testing.T) {
	for _, s := range Catalogue() {
		c := CostModel(s.Family)
		for _, v := range []float64{c.H2DBytesPerSec, c.D2HBytesPerSec, c.D2DBytesPerSec, c.P2PBytesPerSec, c.MemsetBytesPerSec, c.H2HBytesPerSec} {
			assert.Positive(t, v, s.Name)
		}
		assert.Positive(t, c.TaskOverhead, s.Name)
	}
}

func TestNodeManyLargeDevicesDisjoint(t *testing.T) {
	n := newTestNode(t, Config{SoC: "Ascend950DT_9591", Devices: MaxDevices})
	type rng struct{ lo, hi uintptr }
	var rs []rng
	for id := 0; id < MaxDevices; id++ {
		d, err := n.Device(id)
		require.NoError(t, err, "device %d: reserving 144 GiB ranges must cost no memory", id)
		b, s := d.HBM.Range()
		rs = append(rs, rng{b, b + uintptr(s)})
	}
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			assert.True(t, rs[i].hi <= rs[j].lo || rs[j].hi <= rs[i].lo, "devices %d and %d overlap", i, j)
		}
		got, ok := n.FindDevice(rs[i].lo)
		require.True(t, ok)
		assert.Equal(t, i, got.ID)
	}
}
