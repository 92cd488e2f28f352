package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/svm"
)

func TestInfoManagedMemory(t *testing.T) {
	t.Setenv(emu.EnvSVMHostFaults, "")
	n, err := emu.NewNode(emu.Config{SoC: emu.DefaultSoC, Devices: 2, HBMBytes: 4 * svm.HugePage}, emu.Platform{})
	require.NoError(t, err)
	defer n.Close()
	var b bytes.Buffer
	printInfo(&b, n)
	assert.Contains(t, b.String(), "host faults explicit")
	assert.Contains(t, b.String(), "no managed memory allocated")

	g, err := n.SVM()
	require.NoError(t, err)
	p, err := g.Alloc(6*svm.HugePage, "test")
	require.NoError(t, err)
	_, err = g.Access(1, p, 6*svm.HugePage, true)
	require.NoError(t, err)
	b.Reset()
	printInfo(&b, n)
	// NPU 1: 6 faults, 2 evictions, 12 MiB in, 4 MiB written back, 8 MiB resident.
	assert.Regexp(t, `\| NPU 1 +\| 6 +\| 0 +\| 2 +\| 12 +\| 4 +\| 0 +\| 8 +\|`, b.String())
	assert.Regexp(t, `\| NPU 0 +\| 0 +\|`, b.String())
}
