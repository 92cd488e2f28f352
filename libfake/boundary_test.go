package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/hal"
)

// These tests build the library (go build -buildmode=c-shared) into a
// temporary directory and run a C program against it, the way an
// application uses it.

var built struct {
	once sync.Once
	dir  string
	err  error
}

// halCandidates are HAL calls with zero arguments; the test uses the first
// one that is still unsupported.
var halCandidates = []struct{ name, call string }{
	{"halGetVdevNum", "halGetVdevNum(NULL)"},
	{"halGetDeviceSplitMode", "halGetDeviceSplitMode(0, NULL)"},
	{"halMemAddressFree", "halMemAddressFree(NULL)"},
	{"halMemUnmap", "halMemUnmap(NULL)"},
	{"halMemFree", "halMemFree(NULL)"},
	{"halMemAgentOpen", "halMemAgentOpen(0, 0)"},
	{"halMemCtl", "halMemCtl(0, NULL, 0, NULL, NULL)"},
	{"halGetChipCapability", "halGetChipCapability(0, NULL)"},
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// buildFixture builds the library and testdata/boundary.c once.
func buildFixture(tb testing.TB) string {
	tb.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "libfake-test")
		if built.err != nil {
			return
		}
		built.err = buildIn(built.dir)
	})
	require.NoError(tb, built.err)
	return built.dir
}

func buildIn(dir string) error {
	goTool := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		goTool = "go"
	}
	cmd := exec.Command(goTool, "build", "-buildmode=c-shared", "-o", filepath.Join(dir, "libnpuemu.so"), ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	var hal struct{ name, call string }
	for _, c := range halCandidates {
		if e, ok := halSupportOf(c.name); ok && e.Status == abi.Unsupported {
			hal = c
			break
		}
	}
	if hal.name == "" {
		return fmt.Errorf("no HAL candidate is unsupported any more: update halCandidates")
	}
	out, err := exec.Command(goTool, "env", "CC").Output()
	if err != nil {
		return fmt.Errorf("go env CC: %v", err)
	}
	cc := strings.TrimSpace(string(out))
	cmd = exec.Command(cc, "-O2", "-Wall", "-Wextra", "-Werror",
		"-I", "../emu/include", "-I", "../emu/include/driver",
		"-DHAL_CALL="+hal.call, "-DHAL_NAME=\""+hal.name+"\"",
		"-o", filepath.Join(dir, "boundary"), "testdata/boundary.c",
		"-L", dir, "-lnpuemu", "-lpthread")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	return nil
}

func halSupportOf(name string) (abi.Entry, bool) { return hal.SupportOf(name) }

func runFixture(tb testing.TB, args ...string) (stdout, stderr string) {
	dir := buildFixture(tb)
	cmd := exec.Command(filepath.Join(dir, "boundary"), args...)
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+dir)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	require.NoError(tb, err, "boundary %v:\nstdout:\n%s\nstderr:\n%s", args, o.String(), e.String())
	return o.String(), e.String()
}

func TestBoundary(t *testing.T) {
	for _, name := range []string{"aclrtUnSubscribeHostFunc", "aclrtSubscribeHostFunc", "aclrtProcessHostFunc"} {
		e, ok := acl.SupportOf(name)
		require.True(t, ok, name)
		require.Equal(t, abi.Unsupported, e.Status, "%s: the fixture expects it unsupported", name)
		require.Equal(t, int32(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT), e.Code, name)
	}
	out, stderr := runFixture(t)
	assert.Equal(t, "ok\n", out)

	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	require.Len(t, lines, 3, stderr)
	assert.Equal(t, "[WARNING] myfunc app.c:42: short 7", lines[0])

	assert.True(t, strings.HasPrefix(lines[1], "[ERROR] main "), lines[1])
	assert.Contains(t, lines[1], "boundary.c:")
	assert.True(t, strings.HasSuffix(lines[1], "...[truncated]"), "a long message ends with the marker")
	msg := lines[1][strings.Index(lines[1], ": ")+2:]
	assert.Len(t, msg, 1023, "at most 1024 bytes including the NUL")
	assert.Equal(t, strings.Repeat("x", 1023-len("...[truncated]")), strings.TrimSuffix(msg, "...[truncated]"))

	assert.Equal(t, "[INFO] ? ?:0: ", lines[2], "NULL arguments are tolerated")
}

// BenchmarkTrivialCall measures one C → Go call (aclrtPeekAtLastError) in
// the C fixture; the target is ≤ 100 ns.
func BenchmarkTrivialCall(b *testing.B) {
	out, _ := runFixture(b, "bench", strconv.Itoa(b.N))
	ns, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(out), " ns/op"), 64)
	require.NoError(b, err, out)
	b.ReportMetric(ns, "c-ns/op")
}
