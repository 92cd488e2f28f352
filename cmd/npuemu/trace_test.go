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
)

const sampleTrace = `{"tid":1,"sym":"aclInit","args":{"configPath":null},"ret":0,"ns":5000}
{"tid":1,"sym":"aclrtSetDevice","args":{"deviceId":7},"ret":107001,"ns":300}
{"tid":2,"sym":"aclrtSetDevice","args":{"deviceId":0},"ret":0,"ns":700}
{"tid":2,"sym":"aclrtGetSocName","args":{},"ret":"0x7f00","ns":100}
{"tid":2,"sym":"aclrtGetSocName","args":{},"ret":"0x0","ns":100}
{"tid":2,"sym":"drvGetDevNum","args":{"num_dev":"0x7ffc"},"ret":65534,"ns":40}
{"tid":3,"sym":"aclAppLog","args":{"msg":"x"},"ns":20}

`

func TestSummarize(t *testing.T) {
	rows, err := summarize(strings.NewReader(sampleTrace))
	require.NoError(t, err)
	assert.Equal(t, []symbolStats{
		{Sym: "aclInit", Calls: 1, Errors: 0, Total: 5000},
		{Sym: "aclrtSetDevice", Calls: 2, Errors: 1, Total: 1000},
		{Sym: "aclrtGetSocName", Calls: 2, Errors: 0, Total: 200},
		{Sym: "drvGetDevNum", Calls: 1, Errors: 1, Total: 40},
		{Sym: "aclAppLog", Calls: 1, Errors: 0, Total: 20},
	}, rows, "sorted by total time; only error-code results count as errors")
	assert.Equal(t, 500*time.Nanosecond, rows[1].mean())

	for _, bad := range []string{"not json\n", `{"sym":"aclInit"}` + "\n", `{"ns":1}` + "\n"} {
		_, err := summarize(strings.NewReader(bad))
		assert.ErrorContains(t, err, "1: ", bad)
	}
}

func TestTraceSummaryCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(sampleTrace), 0o644))
	var out bytes.Buffer
	require.Equal(t, 0, run([]string{"trace", "summary", path}, &out))
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	require.Len(t, lines, 7, out.String())
	assert.Equal(t, []string{"SYMBOL", "CALLS", "ERRORS", "TOTAL", "MEAN"}, strings.Fields(lines[0]))
	assert.Equal(t, []string{"aclInit", "1", "0", "5µs", "5µs"}, strings.Fields(lines[1]))
	assert.Equal(t, []string{"aclrtSetDevice", "2", "1", "1µs", "500ns"}, strings.Fields(lines[2]))
	assert.Equal(t, []string{"total", "7", "2", "6.26µs"}, strings.Fields(lines[6]))

	assert.Equal(t, 2, run([]string{"trace"}, &out))
	assert.Equal(t, 2, run([]string{"trace", "sumary", path}, &out))
	assert.Equal(t, 1, run([]string{"trace", "summary", path + ".missing"}, &out))
}
