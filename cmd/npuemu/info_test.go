package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/tsfw"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tableRows returns the device rows of printInfo's table as column → cell.
func tableRows(t *testing.T, out string) []map[string]string {
	t.Helper()
	var head []string
	var rows []map[string]string
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if head == nil {
			head = cells
			require.Equal(t, infoColumns, head)
			continue
		}
		require.Len(t, cells, len(head), "row %q", l)
		r := map[string]string{}
		for i, c := range cells {
			r[head[i]] = c
		}
		rows = append(rows, r)
	}
	return rows
}

func TestInfoCommand(t *testing.T) {
	tests := []struct {
		soc     string
		devices int
	}{
		{"Ascend310P3", 3},
		{"Ascend910B1", 1},
		{"Ascend950DT_9591", 2},
	}
	for _, tt := range tests {
		t.Run(tt.soc, func(t *testing.T) {
			t.Setenv(emu.EnvConfig, "")
			t.Setenv(emu.EnvSoC, tt.soc)
			t.Setenv(emu.EnvDevices, fmt.Sprint(tt.devices))
			var out bytes.Buffer
			require.Equal(t, 0, run([]string{"info"}, &out))
			text := out.String()
			soc, ok := emu.LookupSoC(tt.soc)
			require.True(t, ok)
			assert.Contains(t, text, "Configuration: NPUEMU_DEVICES=")
			assert.Contains(t, text, "Protection:    device memory guard pages on")
			assert.Regexp(t, `(?m)^Device pages:  (programs' default node /dev/shm/npuemu-node: )?(huge pages where|4 KiB: tmpfs|the file system's own)`, text)
			assert.Contains(t, text, fmt.Sprintf("Host threads:  %d run kernel blocks and split copies (", tsfw.HostThreads()))
			assert.Contains(t, text, "dereferencing a device pointer does not fault")
			assert.Contains(t, text, fmt.Sprintf("%d x %s", tt.devices, tt.soc))
			assert.Contains(t, text, fmt.Sprintf("%d MiB usable", soc.UsableHBMBytes>>20))
			assert.Contains(t, text, fmt.Sprintf("%d streams, %d events, %d notifies", soc.MaxStreams, soc.MaxEvents, soc.MaxNotifies))
			rows := tableRows(t, text)
			require.Len(t, rows, tt.devices)
			for id, r := range rows {
				assert.Equal(t, fmt.Sprint(id), r["NPU"])
				assert.Equal(t, tt.soc, r["Name"])
				assert.Equal(t, "idle", r["State"])
				assert.Equal(t, fmt.Sprintf("0 / %d", soc.UsableHBMBytes>>20), r["HBM-Usage(MiB)"])
				assert.Equal(t, fmt.Sprintf("%d / %d", soc.CubeCores, soc.VectorCores), r["AICore(cube/vector)"])
				assert.Equal(t, fmt.Sprint(soc.AICPUs), r["AICPU"])
				assert.Equal(t, fmt.Sprint(soc.MaxStreams), r["Streams"])
			}
		})
	}
}

func TestInfoShowsOpenedDeviceUsage(t *testing.T) {
	n, err := emu.NewNode(emu.Config{SoC: "Ascend910B4", Devices: 2, HBMBytes: 64 << 20}, emu.Platform{})
	require.NoError(t, err)
	defer n.Close()
	d, err := n.Device(1)
	require.NoError(t, err)
	_, err = d.HBM.Alloc(5<<20, 0)
	require.NoError(t, err)
	var out bytes.Buffer
	printInfo(&out, n)
	rows := tableRows(t, out.String())
	require.Len(t, rows, 2)
	assert.Equal(t, "idle", rows[0]["State"])
	assert.Equal(t, "0 / 64", rows[0]["HBM-Usage(MiB)"])
	assert.Equal(t, "open", rows[1]["State"])
	assert.Equal(t, "5 / 64", rows[1]["HBM-Usage(MiB)"])
	assert.Contains(t, out.String(), "Configuration: code")
}

func TestInfoBadConfiguration(t *testing.T) {
	t.Setenv(emu.EnvConfig, "")
	t.Setenv(emu.EnvSoC, "")
	t.Setenv(emu.EnvDevices, "100")
	var out bytes.Buffer
	assert.Equal(t, 1, run([]string{"info"}, &out))
	assert.Empty(t, out.String())
	assert.Equal(t, 2, run([]string{"info", "extra"}, &out))
}

func TestInfoVisibleDevices(t *testing.T) {
	t.Setenv(emu.EnvConfig, "")
	t.Setenv(emu.EnvSoC, "Ascend910B3")
	t.Setenv(emu.EnvDevices, "8")
	t.Setenv(emu.EnvVisible, "6,2")
	var out bytes.Buffer
	require.Equal(t, 0, run([]string{"info"}, &out))
	text := out.String()
	assert.Contains(t, text, "2 x Ascend910B3")
	assert.Contains(t, text, "ASCEND_RT_VISIBLE_DEVICES keeps 2 of 8 devices: physical 6 2 are NPU 0..1")
	rows := tableRows(t, text)
	require.Len(t, rows, 2)
	assert.Equal(t, "0", rows[0]["NPU"])
	assert.Equal(t, "6", rows[0]["Phy-ID"])
	assert.Equal(t, "1", rows[1]["NPU"])
	assert.Equal(t, "2", rows[1]["Phy-ID"])
}

func TestInfoVisibleDevicesNoneVisible(t *testing.T) {
	t.Setenv(emu.EnvConfig, "")
	t.Setenv(emu.EnvDevices, "2")
	t.Setenv(emu.EnvVisible, "5")
	var out bytes.Buffer
	assert.Equal(t, 1, run([]string{"info"}, &out))
}
