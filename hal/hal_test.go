package hal

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// useNode makes the process node a fresh one of the given shape (hbm 0 =
// the SoC's capacity) and closes it when the test ends.
func useNode(t *testing.T, soc string, devices int, hbm uint64) *emu.Node {
	t.Helper()
	emu.CloseCurrent()
	cfg := map[string]any{"soc": soc, "devices": devices}
	if hbm != 0 {
		cfg["hbm_bytes"] = hbm
	}
	data, err := json.Marshal(cfg)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "npuemu.json")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	t.Setenv(emu.EnvConfig, path)
	t.Setenv(emu.EnvDevices, "")
	t.Setenv(emu.EnvSoC, "")
	t.Cleanup(emu.CloseCurrent)
	n, err := emu.Current()
	require.NoError(t, err)
	return n
}

// assertDrv checks that err is a driver error with code and a message.
func assertDrv(t *testing.T, err error, code abi.DrvCode, msgAndArgs ...any) {
	t.Helper()
	require.Error(t, err, msgAndArgs...)
	assert.Equal(t, code, abi.DrvCodeOf(err), append([]any{"%v"}, err)...)
	var d *abi.DrvError
	if assert.True(t, errors.As(err, &d), "not a *abi.DrvError: %v", err) {
		assert.NotEmpty(t, d.Msg)
	}
}

func TestCurrentIsSharedAndRenewed(t *testing.T) {
	useNode(t, "Ascend910B3", 2, 0)
	emu.CloseCurrent()
	var wg sync.WaitGroup
	nodes := make([]*emu.Node, 8)
	for i := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := emu.Current()
			assert.NoError(t, err)
			nodes[i] = n
		}()
	}
	wg.Wait()
	for _, n := range nodes {
		assert.Same(t, nodes[0], n, "concurrent callers get one node")
	}
	assert.Same(t, nodes[0], emu.Loaded())
	emu.CloseCurrent()
	assert.Nil(t, emu.Loaded())
	n2, err := emu.Current()
	require.NoError(t, err)
	assert.NotSame(t, nodes[0], n2, "after CloseCurrent a fresh node")
}

func TestCurrentConfigErrorIsNotCached(t *testing.T) {
	useNode(t, "Ascend910B3", 2, 0)
	emu.CloseCurrent()
	t.Setenv(emu.EnvDevices, "0")
	for range 2 {
		_, err := emu.Current()
		require.Error(t, err)
		assert.Equal(t, abi.ACL_ERROR_INVALID_PARAM, abi.CodeOf(err))
	}
	var num uint32
	assertDrv(t, GetDevNum(&num), abi.DRV_ERROR_PARA_ERROR, "the HAL reports the configuration error")
	t.Setenv(emu.EnvDevices, "3")
	require.NoError(t, GetDevNum(&num))
	assert.Equal(t, uint32(3), num)
}
