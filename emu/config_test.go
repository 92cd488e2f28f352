package emu

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/npuemu/npuemu/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "npuemu.json")
	require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	return p
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestLoadConfigGood(t *testing.T) {
	full := writeConfig(t, `{"soc": "Ascend310P3", "devices": 2, "hbm_bytes": 1048576, "pacing": 0.5}`)
	partial := writeConfig(t, "{\n  \"devices\": 4\n}\n")
	tests := []struct {
		name string
		env  map[string]string
		want Config
	}{
		{"defaults", nil, Config{SoC: "Ascend910B3", Devices: 8, Source: "defaults"}},
		{"file", map[string]string{EnvConfig: full},
			Config{SoC: "Ascend310P3", Devices: 2, HBMBytes: 1 << 20, Pacing: 0.5, Source: "file " + full}},
		{"partial file keeps defaults", map[string]string{EnvConfig: partial},
			Config{SoC: "Ascend910B3", Devices: 4, Source: "file " + partial}},
		{"env overrides file", map[string]string{EnvConfig: full, EnvDevices: "16", EnvSoC: "Ascend910B1"},
			Config{SoC: "Ascend910B1", Devices: 16, HBMBytes: 1 << 20, Pacing: 0.5,
				Source: "file " + full + ", NPUEMU_DEVICES=16, NPUEMU_SOC=Ascend910B1"}},
		{"env only", map[string]string{EnvDevices: "1"},
			Config{SoC: "Ascend910B3", Devices: 1, Source: "NPUEMU_DEVICES=1"}},
		{"max devices", map[string]string{EnvDevices: "64", EnvSoC: "Ascend950PR_9599"},
			Config{SoC: "Ascend950PR_9599", Devices: 64, Source: "NPUEMU_DEVICES=64, NPUEMU_SOC=Ascend950PR_9599"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := loadConfig(env(tt.env))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestLoadConfigErrors(t *testing.T) {
	tests := []struct {
		name    string
		file    string // written to a temp file when non-empty
		env     map[string]string
		wantMsg []string // substrings of the message
	}{
		{name: "unknown key", file: `{"devices": 2, "hbm_size": 5}`, wantMsg: []string{`unknown key "hbm_size"`, "npuemu.json"}},
		{name: "malformed", file: "{\n  \"devices\": 2,\n  \"soc\" \"x\"\n}", wantMsg: []string{"malformed JSON", "line 3", "npuemu.json"}},
		{name: "truncated", file: `{"devices": 2`, wantMsg: []string{"malformed JSON", "npuemu.json"}},
		{name: "trailing data", file: `{"devices": 2} {}`, wantMsg: []string{"after the JSON object", "line 1, column 16"}},
		{name: "wrong type", file: `{"devices": "two"}`, wantMsg: []string{`"devices"`, "want an integer, got a JSON string"}},
		{name: "negative hbm", file: `{"hbm_bytes": -1}`, wantMsg: []string{`"hbm_bytes"`}},
		{name: "zero devices", file: `{"devices": 0}`, wantMsg: []string{`"devices"`, "1 to 64"}},
		{name: "too many devices", file: `{"devices": 65}`, wantMsg: []string{`"devices"`, "65"}},
		{name: "unknown soc in file", file: `{"soc": "Ascend999"}`, wantMsg: []string{`"soc"`, "Ascend999", "Ascend910B3"}},
		{name: "zero hbm", file: `{"hbm_bytes": 0}`, wantMsg: []string{`"hbm_bytes"`}},
		{name: "hbm beyond soc", file: `{"soc": "Ascend910B4", "hbm_bytes": 40000000000}`, wantMsg: []string{"hbm_bytes", "Ascend910B4"}},
		{name: "negative pacing", file: `{"pacing": -1}`, wantMsg: []string{`"pacing"`}},
		{name: "not an object", file: `[1, 2]`, wantMsg: []string{"npuemu.json", "one JSON object"}},
		{name: "missing file", env: map[string]string{EnvConfig: "/nonexistent/npuemu.json"}, wantMsg: []string{"/nonexistent/npuemu.json"}},
		{name: "devices not a number", env: map[string]string{EnvDevices: "eight"}, wantMsg: []string{"NPUEMU_DEVICES", "eight"}},
		{name: "devices zero", env: map[string]string{EnvDevices: "0"}, wantMsg: []string{"NPUEMU_DEVICES"}},
		{name: "devices 65", env: map[string]string{EnvDevices: "65"}, wantMsg: []string{"NPUEMU_DEVICES", "1 to 64"}},
		{name: "devices negative", env: map[string]string{EnvDevices: "-3"}, wantMsg: []string{"NPUEMU_DEVICES"}},
		{name: "unknown soc", env: map[string]string{EnvSoC: "ascend910b3"}, wantMsg: []string{"NPUEMU_SOC", "ascend910b3"}},
		{name: "threads zero", env: map[string]string{"NPUEMU_THREADS": "0"}, wantMsg: []string{"NPUEMU_THREADS", "1 to 1024"}},
		{name: "threads not a number", env: map[string]string{"NPUEMU_THREADS": "all"}, wantMsg: []string{"NPUEMU_THREADS", "all"}},
		{name: "env soc too small for file hbm", file: `{"hbm_bytes": 60000000000}`,
			env: map[string]string{EnvSoC: "Ascend910B4"}, wantMsg: []string{"hbm_bytes", "Ascend910B4", "NPUEMU_SOC=Ascend910B4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := map[string]string{}
			for k, v := range tt.env {
				e[k] = v
			}
			if tt.file != "" {
				e[EnvConfig] = writeConfig(t, tt.file)
			}
			_, err := loadConfig(env(e))
			require.Error(t, err)
			assert.True(t, errors.Is(err, abi.Err(abi.ACL_ERROR_INVALID_PARAM)), "%v", err)
			var ae *abi.DevError
			require.ErrorAs(t, err, &ae)
			for _, s := range tt.wantMsg {
				assert.Contains(t, ae.Msg, s)
			}
		})
	}
}

func TestLoadConfigReadsProcessEnv(t *testing.T) {
	t.Setenv(EnvConfig, "")
	t.Setenv(EnvDevices, "3")
	t.Setenv(EnvSoC, "Ascend310B1")
	got, err := LoadConfig()
	require.NoError(t, err)
	assert.Equal(t, 3, got.Devices)
	assert.Equal(t, "Ascend310B1", got.SoC)
}

func TestConfigValidate(t *testing.T) {
	assert.NoError(t, DefaultConfig().Validate())
	bad := []Config{
		{SoC: "nope", Devices: 1},
		{SoC: DefaultSoC, Devices: 0},
		{SoC: DefaultSoC, Devices: 1, Pacing: -0.1},
		{SoC: DefaultSoC, Devices: 1, HBMBytes: 1 << 40},
	}
	for _, c := range bad {
		err := c.Validate()
		assert.True(t, errors.Is(err, abi.Err(abi.ACL_ERROR_INVALID_PARAM)), "%+v: %v", c, err)
	}
}
