package conformance

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Flags of `go test ./conformance [flags]`: by default the cases run against
// emu/include + emu/lib of this repository.
var (
	includeFlag = flag.String("include", "", "header directory of the target, relative to the repository root (default emu/include)")
	libFlag     = flag.String("lib", "", "library directory of the target, relative to the repository root (default emu/lib)")
	realFlag    = flag.Bool("real", false, "run the cases through npuemu's passthrough mode (NPUEMU_MODE=passthrough) on a machine with the vendor's CANN; see docs/passthrough.md")
	caseTimeout = flag.Duration("case-timeout", 60*time.Second, "how long one case may run")
	extraEnv    []string // -env, repeatable
)

func init() {
	flag.Func("env", "NAME=VALUE added to the environment of every case, example and Ascend C sample run (repeatable; e.g. -env NPUEMU_THREADS=16 runs the many-lane paths of a big machine here)", func(kv string) error {
		if name, _, ok := strings.Cut(kv, "="); !ok || name == "" {
			return fmt.Errorf("-env %q: want NAME=VALUE", kv)
		}
		extraEnv = append(extraEnv, kv)
		return nil
	})
}

// target returns the target chosen by the flags, with -env's settings,
// failing the test with what to do when it is not usable.
func target(t *testing.T) *Target {
	t.Helper()
	tg := chosenTarget(t)
	tg.ExtraEnv = append(tg.ExtraEnv, extraEnv...)
	return tg
}

func chosenTarget(t *testing.T) *Target {
	t.Helper()
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	if *realFlag {
		return realTarget(t, repo) // real_test.go
	}
	include, lib := *includeFlag, *libFlag
	if (include == "") != (lib == "") {
		t.Fatal("-include and -lib go together: give both, or neither for the emulator in emu/")
	}
	if include == "" {
		include, lib = filepath.Join(repo, "emu", "include"), filepath.Join(repo, "emu", "lib")
		if _, err := os.Stat(filepath.Join(lib, "libascendcl.so")); err != nil {
			t.Fatalf("%s/libascendcl.so is missing: run `make lib` in %s first", lib, repo)
		}
	}
	// go test runs us in conformance/; relative paths are meant from the
	// repository root, where `go test ./conformance` is typed.
	if !filepath.IsAbs(include) {
		include = filepath.Join(repo, include)
	}
	if !filepath.IsAbs(lib) {
		lib = filepath.Join(repo, lib)
	}
	tg, err := NewTarget(include, lib, t.TempDir())
	require.NoError(t, err)
	return tg
}

// TestConformance builds every case of cases/ against the target and runs
// each as its own process; see docs/conformance.md.
func TestConformance(t *testing.T) {
	tg := target(t)
	cases, err := Discover("cases")
	require.NoError(t, err)
	require.NotEmpty(t, cases, "no case in conformance/cases")
	t.Logf("target: include %s, lib %s (%s%s)", tg.Include, tg.Lib, tg.Kind, cannText(tg))

	var tally tally
	// Compilation is the slow part: bound it to GOMAXPROCS compilers at a
	// time whatever -parallel says.
	compilers := make(chan struct{}, runtime.GOMAXPROCS(0))
	bin := t.TempDir()
	t.Run("target", func(t *testing.T) {
		t.Run("foundation_headers", func(t *testing.T) {
			t.Parallel()
			t.Cleanup(func() { tally.record(t) })
			checkHeaders(t, tg, compilers)
		})
		for _, c := range cases {
			t.Run(c.Name, func(t *testing.T) {
				t.Parallel()
				t.Cleanup(func() { tally.record(t) })
				runCase(t, tg, c, bin, compilers)
			})
		}
	})
	// "one word with a colon" and the counts: the plain summary line.
	fmt.Printf("conformance: %d passed, %d failed, %d skipped\n", tally.passed, tally.failed, tally.skipped)
}

type tally struct {
	mu                      sync.Mutex
	passed, failed, skipped int
}

// record counts t's outcome; registered with t.Cleanup, so it runs after
// Skip, Fatal and the test's own parallel subtests.
func (y *tally) record(t *testing.T) {
	y.mu.Lock()
	defer y.mu.Unlock()
	switch {
	case t.Failed():
		y.failed++
	case t.Skipped():
		y.skipped++
	default:
		y.passed++
	}
}

func runCase(t *testing.T, tg *Target, c Case, dir string, compilers chan struct{}) {
	reason, err := tg.Unmet(c)
	require.NoError(t, err)
	if reason != "" {
		checkLedger(t, tg, c, Result{Outcome: Skip, Reason: reason}) // ledger_test.go
		t.Skip(reason)
	}
	compilers <- struct{}{}
	exe, log, err := tg.Build(c, dir)
	<-compilers
	if err != nil {
		checkLedger(t, tg, c, Result{Outcome: Fail, Reason: "does not compile", Stderr: log})
		t.Fatalf("%v\n%s", err, log)
	}

	ctx, cancel := context.WithTimeout(context.Background(), *caseTimeout)
	defer cancel()
	r := tg.Run(ctx, c, exe)
	checkLedger(t, tg, c, r)
	switch r.Outcome {
	case Pass:
		if len(r.Stdout) > 0 { // what a case reports of itself (-v)
			t.Logf("%s", r.Stdout)
		}
	case Skip:
		t.Skip(r.Reason)
	default:
		t.Fatalf("%s: %s\n--- stdout\n%s--- stderr\n%s", c.Name, r.Reason, r.Stdout, r.Stderr)
	}
}

// headerDirs are the directories whose every header must compile on its own.
var headerDirs = []string{"acl", "driver"}

// checkHeaders compiles each header of the target standalone, twice in one
// translation unit (its include guard must work), as C99 and as C++11 with
// -Wall -Werror: a program includes any one of them first.
func checkHeaders(t *testing.T, tg *Target, compilers chan struct{}) {
	var headers []string
	for _, d := range headerDirs {
		root := filepath.Join(tg.Include, d)
		if _, err := os.Stat(root); err != nil {
			t.Errorf("the target has no %s/ header directory", root)
			continue
		}
		err := filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".h") {
				rel, _ := filepath.Rel(tg.Include, p)
				headers = append(headers, filepath.ToSlash(rel))
			}
			return err
		})
		require.NoError(t, err)
	}
	sort.Strings(headers)
	require.NotEmpty(t, headers)
	langs := []struct {
		name string
		cc   []string
		args []string
	}{
		{"c99", tg.CC, []string{"-x", "c", "-std=c99"}},
		{"c++11", tg.CXX, []string{"-x", "c++", "-std=c++11"}},
	}
	for _, h := range headers {
		for _, l := range langs {
			t.Run(h+"/"+l.name, func(t *testing.T) {
				t.Parallel()
				args := append(append(append([]string{}, l.cc[1:]...), l.args...),
					"-Wall", "-Werror", "-fsyntax-only", "-I", tg.Include, "-")
				cmd := exec.Command(l.cc[0], args...)
				cmd.Stdin = strings.NewReader(fmt.Sprintf("#include \"%s\"\n#include \"%s\"\n", h, h))
				compilers <- struct{}{}
				out, err := cmd.CombinedOutput()
				<-compilers
				if err != nil {
					t.Errorf("%s does not compile standalone as %s: %v\n%s", h, l.name, err, out)
				}
			})
		}
	}
}
