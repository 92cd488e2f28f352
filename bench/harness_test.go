package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func script(t *testing.T, body string) *program {
	t.Helper()
	path := filepath.Join(t.TempDir(), "prog.sh")
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755))
	return &program{path: path}
}

func TestHarnessCollect(t *testing.T) {
	var log bytes.Buffer
	h := &harness{timeout: 10 * time.Second, log: &log}
	ctx := context.Background()
	s := Series{}

	ok := script(t, "echo \"lat_us $1 us\"\necho progress >&2\n")
	for _, v := range []string{"5", "1", "3"} {
		ok.args = []string{v}
		require.NoError(t, h.collect(ctx, ok, s))
	}
	v, unit, found := s.Median("lat_us")
	require.True(t, found)
	assert.Equal(t, 3.0, v)
	assert.Equal(t, "us", unit)
	assert.Empty(t, log.String(), "raw output only with -v")

	failing := script(t, "echo 'lat_us 1 us'\necho 'x.c:10 aclrtMemcpy(...) = 107000 (bad size)' >&2\nexit 1\n")
	err := h.collect(ctx, failing, s)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "aclrtMemcpy(...) = 107000 (bad size)", "the program's diagnostics explain the failure")

	garbled := script(t, "echo 'hello world'\n")
	err = h.collect(ctx, garbled, s)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not \"metric value unit\"")

	slow := script(t, "exec sleep 5\n")
	h.timeout = 100 * time.Millisecond
	err = h.collect(ctx, slow, s)
	require.Error(t, err, "a hanging program is stopped")
}

func TestHarnessMissingPieces(t *testing.T) {
	root := t.TempDir()
	var log bytes.Buffer
	h := &harness{root: root, peerDir: filepath.Join(root, "no-such-dir"), cc: compiler(), timeout: 10 * time.Second, log: &log}
	rep := h.run(context.Background(), 1, false)
	require.Error(t, rep.NpuErr)
	assert.Contains(t, rep.NpuErr.Error(), "make lib")
	require.Error(t, rep.PeerErr)
	assert.Contains(t, rep.PeerErr.Error(), "bench/install-pocl.sh")
	assert.Contains(t, log.String(), "machine limits skipped")
	assert.Empty(t, rep.Npu.Names())

	rep = h.run(context.Background(), 1, true)
	require.Error(t, rep.PeerErr)
	assert.Contains(t, rep.PeerErr.Error(), "-quick")
}
