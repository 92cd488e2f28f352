package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNpuemuBenchQuick builds npuemu_bench.c against the built library and
// runs it with tiny sizes: it must succeed and print every metric the
// harness expects with a positive value. Speed is not checked here.
func TestNpuemuBenchQuick(t *testing.T) {
	run, stdout := runQuick(t, (*harness).buildNpuemu)
	for _, row := range catalogue {
		if row.Program != "" {
			continue // TestReplayBenchQuick
		}
		s, ok := run[row.Metric]
		if row.Pending != "" {
			assert.False(t, ok, "%s is printed: clear its Pending note in the catalogue", row.Metric)
			continue
		}
		if assert.True(t, ok, "metric %s missing from:\n%s", row.Metric, stdout) {
			assert.Greater(t, s.Value, 0.0, "metric %s", row.Metric)
			assert.Equal(t, row.Unit, s.Unit, "unit of %s", row.Metric)
		}
	}
}

// TestReplayBenchQuick does the same for replay_bench.c and its rows.
func TestReplayBenchQuick(t *testing.T) {
	run, stdout := runQuick(t, (*harness).buildReplay)
	n := 0
	for _, row := range catalogue {
		if row.Program != replayBench {
			continue
		}
		n++
		s, ok := run[row.Metric]
		if assert.True(t, ok, "metric %s missing from:\n%s", row.Metric, stdout) {
			assert.Greater(t, s.Value, 0.0, "metric %s", row.Metric)
			assert.Equal(t, row.Unit, s.Unit, "unit of %s", row.Metric)
		}
	}
	assert.Equal(t, 3, n, "replay rows in the catalogue")
}

// runQuick builds one bench program with build and runs it with --quick
// through the real library (skipping when the library is not built), and
// returns the metrics it printed and its raw output.
func runQuick(t *testing.T, build func(*harness, context.Context, string) (*program, error)) (map[string]Sample, []byte) {
	t.Helper()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	if err := libraryBuilt(root); err != nil {
		t.Skip(err.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h := &harness{root: root, cc: compiler(), timeout: time.Minute, log: io.Discard}
	p, err := build(h, ctx, t.TempDir())
	require.NoError(t, err)
	p.args = []string{"--quick"}
	stdout, err := h.execute(ctx, p)
	require.NoError(t, err)
	run, err := ParseMetrics(bytes.NewReader(stdout))
	require.NoError(t, err, "output:\n%s", stdout)
	return run, stdout
}
