package conformance

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// dcmiRequired are the DCMI functions issue #12 names (the device plugin's
// and the exporter's set).
var dcmiRequired = []string{
	"dcmi_init", "dcmi_get_dcmi_version", "dcmi_get_card_list", "dcmi_get_card_num_list",
	"dcmi_get_device_num_in_card", "dcmi_get_device_logic_id", "dcmi_get_card_id_device_id_from_logicid",
	"dcmi_get_device_phyid_from_logicid", "dcmi_get_device_logicid_from_phyid", "dcmi_get_device_chip_info",
	"dcmi_get_device_chip_info_v2", "dcmi_get_device_board_info", "dcmi_get_device_type", "dcmi_get_device_health",
	"dcmi_get_device_errorcode_v2", "dcmi_get_device_hbm_info", "dcmi_get_device_utilization_rate",
	"dcmi_get_device_resource_info", "dcmi_get_device_temperature", "dcmi_get_device_power_info",
	"dcmi_get_device_voltage", "dcmi_get_device_frequency", "dcmi_get_device_network_health",
	"dcmi_get_device_ecc_info", "dcmi_get_device_die_v2", "dcmi_get_device_pcie_info_v2", "dcmi_get_device_ip",
	"dcmi_get_device_info", "dcmi_get_mainboard_id", "dcmi_get_product_type", "dcmi_get_device_memory_info_v3",
	"dcmi_create_vdevice", "dcmi_set_destroy_vdevice", "dcmi_subscribe_fault_event", "dcmi_set_device_reset",
}

// elfExports returns the defined default-visibility functions of a shared
// library and the libraries it needs.
func elfExports(t *testing.T, path string) (map[string]bool, []string) {
	f, err := elf.Open(path)
	require.NoError(t, err, "run `make dcmi` first")
	defer f.Close()
	syms, err := f.DynamicSymbols()
	require.NoError(t, err)
	out := map[string]bool{}
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF && elf.ST_TYPE(s.Info) == elf.STT_FUNC && elf.ST_VISIBILITY(s.Other) == elf.STV_DEFAULT {
			out[s.Name] = true
		}
	}
	needed, err := f.ImportedLibraries()
	require.NoError(t, err)
	return out, needed
}

// TestDCMIExports: libdcmi.so exports every function of its header (and the
// issue's list), libdrvdsmi_host.so every DSMI function of the spec; both
// are plain C: regular files that need only libc, with no Go runtime and
// nothing but their API exported.
func TestDCMIExports(t *testing.T) {
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	lib := filepath.Join(repo, "emu", "lib")
	hdr, err := os.ReadFile(filepath.Join(repo, "emu", "include", "dcmi_interface_api.h"))
	require.NoError(t, err)
	declared := regexp.MustCompile(`DCMIDLLEXPORT int (dcmi_\w+)\(`).FindAllStringSubmatch(string(hdr), -1)
	require.NotEmpty(t, declared)

	want := map[string][]string{"libdcmi.so": dcmiRequired}
	for _, m := range declared {
		want["libdcmi.so"] = append(want["libdcmi.so"], m[1])
	}
	for _, s := range abi.Symbols() {
		if s.Lib == "dsmi" {
			want["libdrvdsmi_host.so"] = append(want["libdrvdsmi_host.so"], s.Name)
		}
	}
	prefix := map[string]string{"libdcmi.so": "dcmi_", "libdrvdsmi_host.so": "dsmi_"}
	for file, names := range want {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join(lib, file)
			fi, err := os.Lstat(path)
			require.NoError(t, err, "run `make dcmi` first")
			assert.True(t, fi.Mode().IsRegular(), "%s must be a real file, not a link to the Go library", file)
			got, needed := elfExports(t, path)
			for _, n := range names {
				assert.True(t, got[n], "%s does not export %s", file, n)
			}
			for n := range got {
				assert.True(t, strings.HasPrefix(n, prefix[file]), "%s exports %s beyond its API", file, n)
			}
			for _, n := range needed {
				assert.NotContains(t, n, "npuemu", "%s must not load the Go library", file)
				assert.Regexp(t, `^(libc|libpthread|libdl|ld-linux)`, n, "%s needs %s", file, n)
			}
		})
	}
}

// TestInstallDriver: make install-driver writes real files (no symlinks)
// with no group/other write bit, as the real DCMI clients demand.
func TestInstallDriver(t *testing.T) {
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	prefix := filepath.Join(t.TempDir(), "driver")
	out, err := exec.Command("make", "-s", "-C", repo, "install-driver", "PREFIX="+prefix).CombinedOutput()
	require.NoError(t, err, string(out))
	for _, f := range []string{"lib64/driver/libdcmi.so", "lib64/driver/libdrvdsmi_host.so", "include/dcmi_interface_api.h", "bin/npu-smi"} {
		fi, err := os.Lstat(filepath.Join(prefix, f))
		if !assert.NoError(t, err, f) {
			continue
		}
		assert.True(t, fi.Mode().IsRegular(), "%s is not a regular file", f)
		assert.Zero(t, fi.Mode().Perm()&0o022, "%s is group/other writable", f)
	}
	for _, d := range []string{"lib64/driver", "lib64", "include", "bin", "."} {
		fi, err := os.Lstat(filepath.Join(prefix, d))
		require.NoError(t, err)
		assert.True(t, fi.IsDir(), d)
		assert.Zero(t, fi.Mode().Perm()&0o022, "%s is group/other writable", d)
	}
}
