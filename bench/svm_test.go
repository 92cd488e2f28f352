package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/npuemu/npuemu/svm"
)

// svm_bench --quick runs through the real library and prints every svm row
// of the catalogue with its unit.
func TestSVMBenchQuick(t *testing.T) {
	run, stdout := runQuick(t, (*harness).buildSVM)
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
