package emu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/svm"
)

func TestHBMBytesFromEnvironment(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cfg, err := loadConfig(env(map[string]string{EnvHBM: "67108864"}))
	require.NoError(t, err)
	assert.Equal(t, uint64(64<<20), cfg.HBMBytes)
	assert.Contains(t, cfg.Source, EnvHBM)

	for _, bad := range []string{"0", "-5", "lots", "1e9"} {
		_, err := loadConfig(env(map[string]string{EnvHBM: bad}))
		assert.ErrorIs(t, err, abi.Err(abi.ACL_ERROR_INVALID_PARAM), bad)
	}
	_, err = loadConfig(env(map[string]string{EnvHBM: "0x7fffffffffffffff"}))
	assert.ErrorIs(t, err, abi.Err(abi.ACL_ERROR_INVALID_PARAM), "beyond the SoC's memory")
}

func TestSVMMode(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want string
		ok   bool
	}{{"", svm.ModeExplicit, true}, {"explicit", svm.ModeExplicit, true}, {"mprotect", svm.ModeMprotect, true},
		{"signals", "", false}} {
		t.Setenv(EnvSVMHostFaults, tc.env)
		got, err := SVMMode()
		if tc.ok {
			require.NoError(t, err, tc.env)
			assert.Equal(t, tc.want, got)
		} else {
			assert.Error(t, err, tc.env)
		}
	}
}

// Managed pages and device memory share one capacity: a device full of
// aclrtMalloc memory evicts managed pages, and managed pages resident on a
// device show in HBM.Used.
func TestSVMSharesHBM(t *testing.T) {
	const hbm = 8 * svm.HugePage
	n, err := NewNode(Config{SoC: DefaultSoC, Devices: 2, HBMBytes: hbm}, Platform{})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	g, err := n.SVM()
	require.NoError(t, err)
	assert.Equal(t, svm.ModeExplicit, g.Mode())
	same, err := n.SVM()
	require.NoError(t, err)
	assert.Same(t, g, same)

	p, err := g.Alloc(2*hbm, "test") // twice the device
	require.NoError(t, err)
	assert.True(t, g.Contains(p))
	_, err = g.Access(1, p, 2*hbm, true)
	require.NoError(t, err)
	d := n.Opened(1)
	require.NotNil(t, d, "the first resident page opens the device")
	assert.Equal(t, uint64(hbm), d.HBM.Used())
	st, err := g.Stats(1)
	require.NoError(t, err)
	assert.Equal(t, uint64(hbm), st.ResidentBytes)
	assert.Equal(t, uint64(8), st.Evictions)

	// aclrtMalloc of half the device evicts managed pages to make room
	// only when they are touched again: Alloc itself fails while managed
	// pages hold the capacity.
	_, err = d.HBM.Alloc(hbm/2, 0)
	assert.ErrorIs(t, err, abi.Err(abi.ACL_ERROR_RT_MEMORY_ALLOCATION))
	_, err = g.Prefetch(p, 2*hbm, svm.Host)
	require.NoError(t, err)
	assert.Zero(t, d.HBM.Used())
	a, err := d.HBM.Alloc(hbm/2, 0)
	require.NoError(t, err)
	_, err = g.Access(1, p, hbm, false)
	require.NoError(t, err)
	assert.Equal(t, uint64(hbm), d.HBM.Used(), "half malloc, half managed")
	_, err = d.HBM.Free(a)
	require.NoError(t, err)

	assert.Equal(t, "test", g.Owner(p))
	require.NoError(t, g.Free(p))
	assert.Zero(t, d.HBM.Used())
	assert.Empty(t, g.Owner(p))
	assert.Error(t, g.Free(p))
}

func TestSVMHoldAndRelease(t *testing.T) {
	n, err := NewNode(Config{SoC: DefaultSoC, Devices: 1, HBMBytes: 4 * svm.HugePage}, Platform{})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	g, err := n.SVM()
	require.NoError(t, err)
	p, err := g.Alloc(svm.HugePage, "test")
	require.NoError(t, err)
	c, err := g.AccessHold(0, p, 10, true, true)
	require.NoError(t, err)
	assert.Positive(t, c, "a fault costs virtual time")
	require.NoError(t, g.Release(p, 10))
	assert.Error(t, g.Release(p, 10), "nothing held")
}

func TestHBMReserveAfterClose(t *testing.T) {
	h, err := NewHBM("dev0", 4*svm.HugePage)
	require.NoError(t, err)
	require.True(t, h.Reserve(svm.HugePage))
	assert.False(t, h.Reserve(4*svm.HugePage))
	h.Release(svm.HugePage)
	assert.Zero(t, h.Used())
	require.NoError(t, h.Close())
	assert.False(t, h.Reserve(1))
	h.Release(1)
}

// Synchronized writes back in explicit mode only: the trapping modes
// account the host's access when it happens.
func TestSVMSynchronizedWritesBackInExplicitMode(t *testing.T) {
	for _, tc := range []struct {
		mode      string
		writeback bool
	}{{svm.ModeExplicit, true}, {svm.ModeUserfaultfdWP, false}} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Setenv(EnvSVMHostFaults, tc.mode)
			n, err := NewNode(Config{SoC: DefaultSoC, Devices: 2, HBMBytes: 4 * svm.HugePage}, Platform{})
			require.NoError(t, err)
			t.Cleanup(n.Close)
			g, err := n.SVM()
			require.NoError(t, err)
			if g.Mode() != tc.mode {
				t.Skipf("mode %s refused here; in use: %s", tc.mode, g.Mode())
			}
			p, err := g.Alloc(2*svm.HugePage, "test")
			require.NoError(t, err)
			_, err = g.Access(1, p, 2*svm.HugePage, true)
			require.NoError(t, err)
			c, err := g.Synchronized(0) // nothing dirty on device 0
			require.NoError(t, err)
			assert.Zero(t, c)
			c, err = g.Synchronized(1)
			require.NoError(t, err)
			st, err := g.Stats(1)
			require.NoError(t, err)
			pi, err := g.Page(p)
			require.NoError(t, err)
			assert.Equal(t, svm.Location(1), pi.Location, "nothing moves")
			if tc.writeback {
				assert.Positive(t, c)
				assert.Equal(t, uint64(2*svm.HugePage), st.BytesDtoH)
				assert.False(t, pi.Dirty)
			} else {
				assert.Zero(t, c)
				assert.Zero(t, st.BytesDtoH)
				assert.True(t, pi.Dirty)
			}
			require.NoError(t, g.Free(p))
		})
	}
}
