package conformance

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestExamples builds every examples/*.c (and *.cc) against emu/include and
// emu/lib and runs it the way the README tells a user to, with
// LD_LIBRARY_PATH=emu/lib; each must exit 0. An example declares extra
// environment, link flags or needs in its header comments exactly like a
// conformance case (docs/md). Each C file starts with
// "//go:build ignore" so that the go tool does not take it for a cgo source
// of this package.
func TestExamples(t *testing.T) {
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	examples, err := Discover(filepath.Join(repo, "examples"))
	require.NoError(t, err)
	if len(examples) == 0 {
		t.Skip("no example program in examples/ yet")
	}
	lib := filepath.Join(repo, "emu", "lib")
	if _, err := os.Stat(filepath.Join(lib, "libascendcl.so")); err != nil {
		t.Fatalf("%s/libascendcl.so is missing: run `make lib` in %s first", lib, repo)
	}
	tg, err := NewTarget(filepath.Join(repo, "emu", "include"), lib, t.TempDir())
	require.NoError(t, err)
	tg.ExtraEnv = append(tg.ExtraEnv, extraEnv...) // -env
	bin := t.TempDir()
	for _, ex := range examples {
		t.Run(ex.Name, func(t *testing.T) {
			t.Parallel()
			reason, err := tg.Unmet(ex)
			require.NoError(t, err)
			if reason != "" {
				t.Skip(reason)
			}
			exe, log, err := tg.Build(ex, bin)
			require.NoError(t, err, "%s", log)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r := tg.Run(ctx, ex, exe)
			// An example is documentation that must work: exit 0 only, a
			// skip is not good enough.
			if r.Outcome != Pass {
				t.Fatalf("%s: %s\n--- stdout\n%s--- stderr\n%s", ex.Name, r.Reason, r.Stdout, r.Stderr)
			}
			t.Logf("%s", r.Stdout)
		})
	}
}
