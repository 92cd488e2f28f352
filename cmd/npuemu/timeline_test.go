package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/timeline"
)

// TestTimelineSummaryCommand writes a timeline of two kernels and a copy
// on one stream and checks the command's tables and its usage errors.
func TestTimelineSummaryCommand(t *testing.T) {
	r := timeline.NewRecorder()
	us := time.Microsecond
	r.AddTask(&timeline.Task{Dev: 0, Stream: 1, Seq: 1, Kind: "copy", Start: 0, End: 2 * us, Engine: 0, Bytes: 64})
	r.AddTask(&timeline.Task{Dev: 0, Stream: 1, Seq: 2, Kind: "kernel", Name: "mm", Start: 2 * us, End: 5 * us, Engine: -1,
		Blocks: 2, Core: "cube", Width: 2, CubePer: 1, BlockCost: 2 * us})
	r.AddTask(&timeline.Task{Dev: 0, Stream: 1, Seq: 3, Kind: "kernel", Name: "mm", Start: 5 * us, End: 10 * us, Engine: -1,
		Blocks: 2, Core: "cube", Width: 2, CubePer: 1, BlockCost: 4 * us})
	path := filepath.Join(t.TempDir(), "tl.json")
	require.NoError(t, r.WriteFile(path, false))

	var out bytes.Buffer
	require.Equal(t, 0, runTimeline([]string{"summary", path}, &out))
	lines := strings.Split(out.String(), "\n")
	require.Greater(t, len(lines), 6, out.String())
	assert.Regexp(t, `^\s*mm\s+2\s+8\.000\s+4\.000\s+80\.00\s*$`, lines[1], "kernels first, by total time")
	assert.Regexp(t, `^\s*copy\s+1\s+2\.000\s+2\.000\s+20\.00\s*$`, lines[2])
	assert.Contains(t, out.String(), "Stream 1")
	assert.Regexp(t, `NPU 0\s+Stream 1\s+3\s+10\.000\s+10\.000\s+100\.00`, out.String())
	assert.Regexp(t, `AI Cores \(cube, 2 used\)\s+4\s+12\.000\s+10\.000\s+60\.00`, out.String())

	assert.Equal(t, 2, runTimeline(nil, &out))
	assert.Equal(t, 2, runTimeline([]string{"dump", path}, &out))
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte("not json"), 0o644))
	assert.Equal(t, 1, runTimeline([]string{"summary", bad}, &out))
	assert.Equal(t, 1, runTimeline([]string{"summary", filepath.Join(t.TempDir(), "missing.json")}, &out))
}
