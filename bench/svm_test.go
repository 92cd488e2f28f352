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

	"github.com/npuemu/npuemu/svm"
)

// svm_bench --quick runs through the real library and prints every svm row
// of the catalogue with its unit.
func TestSVMBenchQuick(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	if err := libraryBuilt(root); err != nil {
		t.Skip(err.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h := &harness{root: root, cc: compiler(), timeout: time.Minute, log: io.Discard}
	p, err := h.buildSVM(ctx, t.TempDir())
	require.NoError(t, err)
	p.args = []string{"--quick"}
	stdout, err := h.execute(ctx, p)
	require.NoError(t, err)
	run, err := ParseMetrics(bytes.NewReader(stdout))
	require.NoError(t, err, "output:\n%s", stdout)
	n := 0
	for _, row := range catalogue {
		if row.Program != svmBench || row.Metric == svmUffdRate && svm.DetectMode() != svm.ModeUserfaultfdWP {
			continue
		}
		n++
		s, ok := run[row.Metric]
		if assert.True(t, ok, "metric %s missing from:\n%s", row.Metric, stdout) {
			assert.Greater(t, s.Value, 0.0, "metric %s", row.Metric)
			assert.Equal(t, row.Unit, s.Unit, "unit of %s", row.Metric)
		}
	}
	assert.Equal(t, len(run), n, "svm_bench prints exactly the svm rows")
}
