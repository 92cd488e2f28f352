package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func TestCompatDocsUpToDate(t *testing.T) {
	doc, err := os.ReadFile("../../docs/compat.md")
	require.NoError(t, err, "run %s", refreshDoc)
	assert.True(t, string(doc) == string(compatMarkdown(supportEntries())), "docs/compat.md is stale: run %s", refreshDoc)

	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err, "run %s", refreshReadme)
	block, ok := readmeBlock(readme)
	require.True(t, ok, "README.md has no %s ... %s block: run %s", readmeBegin, readmeEnd, refreshReadme)
	assert.True(t, string(block) == string(compatSummary(supportEntries())), "the README compatibility block is stale: run %s", refreshReadme)
}

func TestCompatText(t *testing.T) {
	var out bytes.Buffer
	require.Equal(t, 0, run([]string{"compat"}, &out))
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	entries := supportEntries()
	require.Len(t, lines, len(entries)+1, "a header line and one line per symbol")
	assert.Equal(t, []string{"SYMBOL", "LIB", "AREA", "STATUS", "CODE", "NOTE"}, strings.Fields(lines[0]))
	for i, e := range entries {
		f := strings.Fields(lines[i+1])
		require.GreaterOrEqual(t, len(f), 5, lines[i+1])
		assert.Equal(t, []string{e.Symbol, e.Lib, e.Area, e.Status.String()}, f[:4])
		if e.Status == abi.Unsupported {
			assert.Contains(t, lines[i+1], codeText(e))
			assert.NotEqual(t, "-", f[4])
		}
		assert.True(t, strings.HasSuffix(lines[i+1], e.Note), lines[i+1])
	}
}

func TestCompatLibFilter(t *testing.T) {
	for _, lib := range []string{"acl", "hal"} {
		t.Run(lib, func(t *testing.T) {
			var out bytes.Buffer
			require.Equal(t, 0, run([]string{"compat", "-lib", lib}, &out))
			n := 0
			for _, e := range supportEntries() {
				if e.Lib == lib {
					n++
				}
			}
			assert.Equal(t, n+1, strings.Count(out.String(), "\n"))
		})
	}
	assert.Equal(t, 2, run([]string{"compat", "-lib", "cuda"}, &bytes.Buffer{}))
	assert.Equal(t, 2, run([]string{"compat", "-markdown", "-summary"}, &bytes.Buffer{}))
	assert.Equal(t, 2, run([]string{"compat", "-bogus"}, &bytes.Buffer{}))
}

func TestCompatSummaryCounts(t *testing.T) {
	entries := []abi.Entry{
		{Symbol: "a1", Lib: "acl", Area: "init", Status: abi.Supported, Note: "n"},
		{Symbol: "a2", Lib: "acl", Area: "init", Status: abi.Unsupported, Note: "n", Code: 200001},
		{Symbol: "a3", Lib: "acl", Area: "event", Status: abi.Partial, Note: "n"},
		{Symbol: "h1", Lib: "hal", Area: "memory", Status: abi.Unsupported, Note: "n", Code: 65534},
	}
	s := string(compatSummary(entries))
	assert.Contains(t, s, "| init | 1 | 0 | 1 |\n")
	assert.Contains(t, s, "| event | 0 | 1 | 0 |\n")
	assert.Contains(t, s, "| **all acl** | **1** | **1** | **1** |\n")
	assert.Contains(t, s, "| memory | 0 | 0 | 1 |\n")
	assert.Contains(t, s, "| **all hal** | **0** | **0** | **1** |\n")
	assert.Less(t, strings.Index(s, "ACL runtime"), strings.Index(s, "Driver HAL"))

	md := string(compatMarkdown(entries))
	assert.Contains(t, md, "| `a2` | unsupported | "+codeText(entries[1])+" | n |")
	assert.Contains(t, md, "| `a1` | supported | - | n |")
}

func TestReplaceBlock(t *testing.T) {
	tests := []struct {
		name, doc, want string
		wantErr         bool
	}{
		{name: "empty", doc: "", want: readmeBegin + "\nB\n" + readmeEnd + "\n"},
		{name: "no markers", doc: "# T\ntext", want: "# T\ntext\n" + readmeBegin + "\nB\n" + readmeEnd + "\n"},
		{name: "replace", doc: "a\n" + readmeBegin + "\nold\n" + readmeEnd + "\nz\n", want: "a\n" + readmeBegin + "\nB\n" + readmeEnd + "\nz\n"},
		{name: "empty block", doc: "a\n" + readmeBegin + "\n" + readmeEnd + "\n", want: "a\n" + readmeBegin + "\nB\n" + readmeEnd + "\n"},
		{name: "one marker", doc: "a\n" + readmeEnd + "\n", wantErr: true},
		{name: "reversed", doc: readmeEnd + "\n" + readmeBegin + "\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := replaceBlock([]byte(tt.doc), []byte("B\n"))
			if tt.wantErr {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			block, ok := readmeBlock(got)
			require.True(t, ok)
			assert.Equal(t, "B\n", string(block))
		})
	}
}

func TestCompatWrite(t *testing.T) {
	dir := t.TempDir()
	readme := filepath.Join(dir, "README.md")
	require.NoError(t, os.WriteFile(readme, []byte("intro\n"+readmeBegin+"\nold\n"+readmeEnd+"\noutro\n"), 0o644))
	require.Equal(t, 0, run([]string{"compat", "-summary", "-w", readme}, &bytes.Buffer{}))
	got, err := os.ReadFile(readme)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(got), "intro\n"))
	assert.True(t, strings.HasSuffix(string(got), readmeEnd+"\noutro\n"))
	block, ok := readmeBlock(got)
	require.True(t, ok)
	assert.Equal(t, string(compatSummary(supportEntries())), string(block))

	doc := filepath.Join(dir, "compat.md")
	require.Equal(t, 0, run([]string{"compat", "-markdown", "-w", doc}, &bytes.Buffer{}))
	got, err = os.ReadFile(doc)
	require.NoError(t, err)
	assert.Equal(t, string(compatMarkdown(supportEntries())), string(got))
}
