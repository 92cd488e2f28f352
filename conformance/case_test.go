package conformance

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            Case
		err             string
	}{
		{
			name: "no directives",
			file: "plain.c",
			src:  "#include \"check.h\"\nint main(void) { return 0; }\n",
			want: Case{Name: "plain", Path: "plain.c"},
		},
		{
			name: "block comments, one per line",
			file: "two.c",
			src: "/* needs: devices=2 */\n/* env: NPUEMU_DEVICES=2 */\n" +
				"/* link: -lacl_rt */\n#include \"check.h\"\nint main(void) { return 0; }\n",
			want: Case{Name: "two", Path: "two.c", Needs: []Need{{"devices", "2"}},
				Env: []string{"NPUEMU_DEVICES=2"}, Link: []string{"-lacl_rt"}},
		},
		{
			name: "inside a multi-line doc comment with stars",
			file: "doc.cc",
			src: "/* What the case checks.\n *\n * needs: emulator, devices=4\n * env: A=1 B=x=y\n" +
				" * link: -lascendcl -lacl_rt\n */\nint main() {}\n",
			want: Case{Name: "doc", Path: "doc.cc", CXX: true,
				Needs: []Need{{"emulator", ""}, {"devices", "4"}},
				Env:   []string{"A=1", "B=x=y"}, Link: []string{"-lascendcl", "-lacl_rt"}},
		},
		{
			name: "line comments and includes before the directives",
			file: "mixed.c",
			src:  "#define _GNU_SOURCE\n#include <stdio.h>\n// needs: emulator\n\n// env: X=1\n#include \"check.h\"\nint main(void) { return 0; }\n",
			want: Case{Name: "mixed", Path: "mixed.c", Needs: []Need{{"emulator", ""}}, Env: []string{"X=1"}},
		},
		{
			name: "directives accumulate",
			file: "acc.c",
			src:  "/* env: A=1 */\n/* env: B=2 */\n/* needs: emulator */\n/* needs: devices=2 */\n",
			want: Case{Name: "acc", Path: "acc.c", Env: []string{"A=1", "B=2"},
				Needs: []Need{{"emulator", ""}, {"devices", "2"}}},
		},
		{
			name: "comments after the first line of code are not read",
			file: "late.c",
			src:  "int x;\n/* needs: emulator */\nint main(void) { return x; }\n",
			want: Case{Name: "late", Path: "late.c"},
		},
		{
			name: "a directive word in the middle of a sentence is prose",
			file: "prose.c",
			src:  "/* This case needs: nothing special. */\nint main(void) { return 0; }\n",
			want: Case{Name: "prose", Path: "prose.c"},
		},
		{name: "unknown need fails", file: "bad.c", src: "/* needs: gpu */\n", err: `bad.c:1: needs: unknown need "gpu"`},
		{name: "devices without a number", file: "bad.c", src: "\n/* needs: devices */\n", err: "bad.c:2: needs: \"devices\""},
		{name: "devices zero", file: "bad.c", src: "/* needs: devices=0 */\n", err: "want devices=N with N >= 1"},
		{name: "emulator with a value", file: "bad.c", src: "/* needs: emulator=1 */\n", err: "emulator takes no value"},
		{name: "empty needs", file: "bad.c", src: "/* needs: */\n", err: "needs: empty list"},
		{name: "env without =", file: "bad.c", src: "/*\n * env: NPUEMU_DEVICES\n */\n", err: "bad.c:2: env: \"NPUEMU_DEVICES\""},
		{name: "env sets LD_LIBRARY_PATH", file: "bad.c", src: "/* env: LD_LIBRARY_PATH=/x */\n", err: "set by the runner"},
		{name: "not a C file", file: "case.h", src: "", err: "a .c or .cc file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(tt.file, []byte(tt.src))
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, c)
		})
	}
}

func TestLinkFlags(t *testing.T) {
	assert.Equal(t, []string{"-lascendcl"}, Case{}.LinkFlags())
	assert.Equal(t, []string{"-lacl_rt"}, Case{Link: []string{"-lacl_rt"}}.LinkFlags())
}

func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"b.c":     "/* needs: emulator */\n",
		"a.cc":    "",
		"check.h": "not a case",
		"c.txt":   "",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	cases, err := Discover(dir)
	require.NoError(t, err)
	require.Len(t, cases, 2)
	assert.Equal(t, "a", cases[0].Name)
	assert.True(t, cases[0].CXX)
	assert.Equal(t, filepath.Join(dir, "a.cc"), cases[0].Path)
	assert.Equal(t, "b", cases[1].Name)
	assert.Equal(t, []Need{{"emulator", ""}}, cases[1].Needs)

	// The same name in C and C++ would make two subtests of one name.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.c"), nil, 0o644))
	_, err = Discover(dir)
	assert.ErrorContains(t, err, "same case name")

	// A broken directive stops discovery with the file and line.
	require.NoError(t, os.Remove(filepath.Join(dir, "a.c")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "z.c"), []byte("/* needs: nothing */"), 0o644))
	_, err = Discover(dir)
	assert.ErrorContains(t, err, "z.c:1")
}

func TestUnmet(t *testing.T) {
	var calls []string
	count := func(env []string) (int, error) {
		calls = append(calls, strings.Join(env, " "))
		switch strings.Join(env, " ") {
		case "NPUEMU_DEVICES=2":
			return 2, nil
		case "BROKEN=1":
			return 0, errors.New("probe crashed")
		}
		return 1, nil
	}
	emu := &Target{Emulator: true, CountDevices: count}
	vendor := &Target{CountDevices: count}
	tests := []struct {
		name   string
		target *Target
		c      Case
		skip   string
		err    string
	}{
		{name: "no needs", target: vendor, c: Case{}},
		{name: "emulator on the emulator", target: emu, c: Case{Needs: []Need{{"emulator", ""}}}},
		{name: "emulator elsewhere", target: vendor, c: Case{Needs: []Need{{"emulator", ""}}},
			skip: "needs the emulator"},
		{name: "enough devices", target: emu,
			c: Case{Needs: []Need{{"devices", "2"}}, Env: []string{"NPUEMU_DEVICES=2"}}},
		{name: "too few devices", target: emu, c: Case{Needs: []Need{{"devices", "2"}}},
			skip: "needs 2 devices, the target has 1"},
		{name: "first unmet need wins", target: vendor,
			c:    Case{Needs: []Need{{"emulator", ""}, {"devices", "9"}}},
			skip: "needs the emulator"},
		{name: "probe failure is an error, not a skip", target: emu,
			c: Case{Needs: []Need{{"devices", "1"}}, Env: []string{"BROKEN=1"}}, err: "probe crashed"},
		{name: "unknown need is an error", target: emu, c: Case{Needs: []Need{{"gpu", ""}}}, err: "unknown need gpu"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			skip, err := tt.target.Unmet(tt.c)
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			if tt.skip == "" {
				assert.Empty(t, skip)
			} else {
				assert.Contains(t, skip, tt.skip)
			}
		})
	}
	// The count is asked once per environment and target.
	_, err := emu.Unmet(Case{Needs: []Need{{"devices", "1"}}, Env: []string{"NPUEMU_DEVICES=2"}})
	require.NoError(t, err)
	assert.Equal(t, 1, countOf(calls, "NPUEMU_DEVICES=2"))
}

func countOf(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

func TestEnv(t *testing.T) {
	t.Setenv("NPUEMU_DEVICES", "5")
	t.Setenv("LD_LIBRARY_PATH", "/old")
	tg := &Target{Lib: "/lib/emu"}
	env := tg.Env(Case{Env: []string{"NPUEMU_SOC=Ascend310P3"}})
	assert.NotContains(t, env, "NPUEMU_DEVICES=5", "inherited NPUEMU_* variables are dropped")
	assert.Contains(t, env, "LD_LIBRARY_PATH=/lib/emu:/old")
	assert.Equal(t, "NPUEMU_SOC=Ascend310P3", env[len(env)-1], "the case's env comes last")

	t.Setenv("LD_LIBRARY_PATH", "")
	assert.Contains(t, tg.Env(Case{}), "LD_LIBRARY_PATH=/lib/emu")
}

// TestRunClassifies runs shell scripts in place of compiled cases: the exit
// protocol does not depend on the library.
func TestRunClassifies(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
		return p
	}
	tg := &Target{Lib: dir}
	tests := []struct {
		name, body string
		c          Case
		outcome    Outcome
		reason     string
	}{
		{name: "pass", body: "exit 0", outcome: Pass},
		{name: "skip", body: "echo hello; echo 'SKIP: no second device'; exit 77", outcome: Skip, reason: "no second device"},
		{name: "skip without reason", body: "exit 77", outcome: Skip, reason: "without a SKIP: line"},
		{name: "fail", body: "echo boom >&2; exit 1", outcome: Fail, reason: "exit status 1"},
		{name: "signal", body: "kill -SEGV $$", outcome: Fail, reason: "segmentation fault"},
		{name: "env reaches the case", body: `[ "$NPUEMU_SOC" = Ascend310P3 ] && [ "${LD_LIBRARY_PATH%%:*}" = "` + dir + `" ]`,
			c: Case{Env: []string{"NPUEMU_SOC=Ascend310P3"}}, outcome: Pass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tg.Run(context.Background(), tt.c, script(strings.ReplaceAll(tt.name, " ", "_"), tt.body))
			assert.Equal(t, tt.outcome, r.Outcome, "%s / %s", r.Stdout, r.Stderr)
			assert.Contains(t, r.Reason, tt.reason)
		})
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := tg.Run(ctx, Case{}, script("late", "exit 0"))
	assert.Equal(t, Fail, r.Outcome)
	assert.Contains(t, r.Reason, "did not finish")
}

// TestBuildReportsCompilerErrors needs only the C compiler.
func TestBuildReportsCompilerErrors(t *testing.T) {
	cc, err := goEnv("CC")
	require.NoError(t, err)
	if _, err := exec.LookPath(cc[0]); err != nil {
		t.Skipf("no C compiler: %v", err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "broken.c")
	require.NoError(t, os.WriteFile(src, []byte("int main(void) { return undefined_name; }\n"), 0o644))
	tg := &Target{Include: dir, Lib: dir, CC: cc}
	_, log, err := tg.Build(Case{Name: "broken", Path: src}, dir)
	require.Error(t, err)
	assert.Contains(t, string(log), "undefined_name")

	args := tg.CompileArgs(Case{Name: "x", Path: src, Link: []string{"-lacl_rt"}}, "/out/x")
	assert.Equal(t, []string{"-L", dir, "-lacl_rt", "-lpthread", "-ldl"}, args[len(args)-5:])
	assert.Contains(t, args, "-Werror")
}
