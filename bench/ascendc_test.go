package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAscendcVaddBenchQuick builds the Ascend C vector add with the bisheng
// driver and runs it with tiny sizes: it must check its result and print
// its rows with positive values. Speed is not checked here.
func TestAscendcVaddBenchQuick(t *testing.T) {
	run, stdout := runQuick(t, (*harness).buildAscendcVadd)
	n := 0
	for _, row := range catalogue {
		if row.Program != ascendcVaddBench {
			continue
		}
		n++
		s, ok := run[row.Metric]
		if assert.True(t, ok, "metric %s missing from:\n%s", row.Metric, stdout) {
			assert.Greater(t, s.Value, 0.0, "metric %s", row.Metric)
			assert.Equal(t, row.Unit, s.Unit, "unit of %s", row.Metric)
		}
	}
	assert.Equal(t, 2, n, "ascendc vector-add rows in the catalogue")
}

// TestAscendcBuildProbe times one driver build of the sample kernel: the
// metric is there, in seconds, positive.
func TestAscendcBuildProbe(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	h := &harness{root: root}
	if _, err := h.ascendcDriver(); err != nil {
		t.Skip(err)
	}
	s := Series{}
	require.NoError(t, h.collectAscendcBuild(context.Background(), t.TempDir(), s))
	for _, m := range []string{"ascendc_build_kernel_s", "ascendc_build_kernel_cpu_s"} {
		v, unit, ok := s.Median(m)
		require.True(t, ok, m)
		assert.Equal(t, "s", unit, m)
		assert.Greater(t, v, 0.0, m)
	}
}
