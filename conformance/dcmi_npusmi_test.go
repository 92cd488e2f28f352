package conformance

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// npuSMI runs emu/bin/npu-smi on a node nobody has created.
func npuSMI(t *testing.T, args ...string) (string, error) {
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	bin := filepath.Join(repo, "emu", "bin", "npu-smi")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("run `make dcmi` first")
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "NPUEMU_NODE="+filepath.Join(t.TempDir(), "node"), "NPUEMU_DEVICES=", "NPUEMU_SOC=", "NPUEMU_CONFIG=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestNpuSmiSummaryLayout: `npu-smi info` keeps the vendor's columns
// (docs/dcmi.md), which scripts cut at fixed offsets.
func TestNpuSmiSummaryLayout(t *testing.T) {
	out, err := npuSMI(t, "info")
	require.NoError(t, err, out)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i, l := range lines {
		require.Len(t, l, 98, "line %d: %q", i, l)
		assert.Contains(t, "+|", l[:1], "line %d", i)
		assert.Contains(t, "+|", l[97:], "line %d", i)
	}
	col := func(l string, c int, want string) {
		t.Helper()
		assert.Equal(t, want, l[c:c+len(want)], "%q at column %d", want, c)
	}
	col(lines[1], 2, "npu-smi ")
	col(lines[1], 35, "Version: ")
	col(lines[3], 2, "NPU")
	col(lines[3], 8, "Name")
	col(lines[3], 28, "| Health")
	col(lines[3], 44, "| Power(W)")
	col(lines[3], 58, "Temp(C)")
	col(lines[3], 76, "Hugepages-Usage(page)")
	col(lines[4], 2, "Chip")
	col(lines[4], 30, "Bus-Id")
	col(lines[4], 46, "AICore(%)")
	col(lines[4], 76, "HBM-Usage(MB)")
	assert.True(t, strings.HasPrefix(lines[5], "+====="))
	// first NPU block: card 0, 910B3, OK, bus C1, idle HBM 3072 / 65536
	col(lines[6], 2, "0     910B3")
	col(lines[6], 30, "OK")
	col(lines[7], 30, "0000:C1:00.0")
	col(lines[7], 76, "3072 / 65536")
	procHeader := -1
	for i, l := range lines {
		if strings.Contains(l, "Process id") {
			procHeader = i
		}
	}
	require.Positive(t, procHeader)
	col(lines[procHeader], 10, "Chip")
	col(lines[procHeader], 30, "Process id")
	col(lines[procHeader], 46, "Process name")
	col(lines[procHeader], 71, "| Process memory(MB)")
	for n := 0; n < 8; n++ {
		assert.Contains(t, out, fmt.Sprintf("| No running processes found in NPU %d ", n))
	}
}

// TestNpuSmiKeyValues: the -t views print TAB, the key padded to 30, " : ",
// the value, in the vendor's field order.
func TestNpuSmiKeyValues(t *testing.T) {
	for _, c := range []struct {
		typ  string
		keys []string
	}{
		{"board", []string{"NPU ID", "Product Name", "Model", "Manufacturer", "Serial Number", "Software Version",
			"Firmware Version", "Compatibility", "Board ID", "PCB ID", "BOM ID", "PCIe Bus Info", "Slot ID", "Class ID",
			"PCI Vendor ID", "PCI Device ID", "Subsystem Vendor ID", "Subsystem Device ID", "Chip Count"}},
		{"memory", []string{"NPU ID", "DDR Capacity(MB)", "DDR Clock Speed(MHz)", "HBM Capacity(MB)",
			"HBM Clock Speed(MHz)", "HBM Temperature(C)", "HBM Manufacturer ID", "Chip ID"}},
		{"usages", []string{"NPU ID", "Chip Count", "DDR Capacity(MB)", "DDR Usage Rate(%)", "DDR Hugepages Total(page)",
			"DDR Hugepages Usage Rate(%)", "HBM Capacity(MB)", "HBM Usage Rate(%)", "Aicore Usage Rate(%)",
			"Aivector Usage Rate(%)", "Aicpu Usage Rate(%)", "Ctrlcpu Usage Rate(%)", "DDR Bandwidth Usage Rate(%)",
			"HBM Bandwidth Usage Rate(%)", "Chip ID"}},
	} {
		t.Run(c.typ, func(t *testing.T) {
			out, err := npuSMI(t, "info", "-t", c.typ, "-i", "5")
			require.NoError(t, err, out)
			var keys []string
			values := map[string]string{}
			for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
				if l == "" {
					continue
				}
				require.True(t, strings.HasPrefix(l, "\t") && len(l) > 34 && l[31:34] == " : ", "%q", l)
				k := strings.TrimRight(l[1:31], " ")
				keys = append(keys, k)
				values[k] = l[34:]
			}
			assert.Equal(t, c.keys, keys)
			assert.Equal(t, "5", values["NPU ID"])
			if c.typ == "memory" {
				assert.Equal(t, "65536", values["HBM Capacity(MB)"])
			}
			if c.typ == "board" {
				assert.Equal(t, "0x19E5", values["PCI Vendor ID"])
				assert.Equal(t, "0000:02:00.0", values["PCIe Bus Info"])
			}
		})
	}
	out, err := npuSMI(t, "info", "-t", "board", "-i", "8")
	assert.Error(t, err)
	assert.Contains(t, out, "card id 8 is invalid")
}
