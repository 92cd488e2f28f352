package emu

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func TestVisibleDevices(t *testing.T) {
	tests := []struct {
		name    string
		devices string // NPUEMU_DEVICES
		visible string
		want    []int  // nil: every device, identity
		note    string // substring of Source
	}{
		{name: "unset", devices: "4", visible: "", want: nil},
		{name: "subset renumbered", devices: "8", visible: "1,2", want: []int{1, 2}},
		{name: "list order kept", devices: "8", visible: "5,0,3", want: []int{5, 0, 3}},
		{name: "spaces", devices: "4", visible: " 3 , 1 ", want: []int{3, 1}},
		{name: "out of range truncates", devices: "8", visible: "0,1,9,2", want: []int{0, 1}, note: `entry 2 "9" out of range`},
		{name: "repeat truncates", devices: "8", visible: "4,4,5", want: []int{4}, note: `"4" repeated`},
		{name: "garbage truncates", devices: "8", visible: "2,x,3", want: []int{2}, note: `"x" not a device id`},
		{name: "empty entry truncates", devices: "8", visible: "2,,3", want: []int{2}, note: `entry 1 "" not a device id`},
		{name: "signed entry truncates", devices: "8", visible: "2,+3", want: []int{2}, note: "not a device id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := loadConfig(env(map[string]string{EnvDevices: tt.devices, EnvVisible: tt.visible}))
			require.NoError(t, err)
			assert.Equal(t, tt.want, cfg.Visible)
			if tt.want == nil {
				assert.Equal(t, cfg.Devices, cfg.PhysicalCount())
				assert.Equal(t, 2, cfg.PhysicalID(2))
				return
			}
			assert.Equal(t, len(tt.want), cfg.Devices)
			assert.Equal(t, cfg.Physical, cfg.PhysicalCount())
			assert.Contains(t, cfg.Source, EnvVisible+"="+tt.visible)
			if tt.note != "" {
				assert.Contains(t, cfg.Source, tt.note)
			}
			for user, phys := range tt.want {
				assert.Equal(t, phys, cfg.PhysicalID(user))
				u, ok := cfg.NodeID(phys)
				assert.True(t, ok)
				assert.Equal(t, user, u)
			}
			n, err := NewNode(cfg, Platform{})
			require.NoError(t, err)
			defer n.Close()
			assert.Equal(t, len(tt.want), n.DeviceCount())
		})
	}
}

func TestVisibleDevicesNoneVisible(t *testing.T) {
	for _, v := range []string{"8", "x,1", "-1", ",0", "99,0"} {
		t.Run(v, func(t *testing.T) {
			_, err := loadConfig(env(map[string]string{EnvDevices: "8", EnvVisible: v}))
			require.Error(t, err)
			assert.True(t, errors.Is(err, abi.Err(abi.ACL_ERROR_RT_INVALID_DEVICEID)), "%v", err)
			assert.Contains(t, err.Error(), EnvVisible)
			assert.Contains(t, err.Error(), "no device is visible")
		})
	}
}

func TestVisibleNodeIDHidden(t *testing.T) {
	cfg, err := loadConfig(env(map[string]string{EnvDevices: "4", EnvVisible: "3,1"}))
	require.NoError(t, err)
	for _, phys := range []int{0, 2, 4, -1} {
		_, ok := cfg.NodeID(phys)
		assert.False(t, ok, "physical %d", phys)
	}
}

func TestConfigValidateVisible(t *testing.T) {
	bad := []Config{
		{SoC: DefaultSoC, Devices: 2, Physical: 4, Visible: []int{1}},
		{SoC: DefaultSoC, Devices: 2, Physical: 4, Visible: []int{1, 1}},
		{SoC: DefaultSoC, Devices: 2, Physical: 4, Visible: []int{1, 4}},
		{SoC: DefaultSoC, Devices: 2, Physical: 1, Visible: []int{0, 1}},
	}
	for _, c := range bad {
		assert.Error(t, c.Validate(), "%+v", c)
	}
	ok := Config{SoC: DefaultSoC, Devices: 2, Physical: 4, Visible: []int{3, 0}}
	assert.NoError(t, ok.Validate())
}
