// Command bench runs the npuemu benchmark and its PoCL peer side by side and
// prints one table of medians, ratios and targets, followed by the machine's
// limits.
//
//	make lib && go run ./bench [-runs 3] [-quick] [-peer-dir DIR] [-v]
//
// It compiles bench/c/npuemu_bench.c against emu/include and emu/lib, and
// ocl_peer.c and limits.c from the shared peer folder (../shared/bench next
// to the repository), into build/bench, then runs each program -runs times,
// interleaved so that a slow phase of the machine hits every column alike.
// It never builds the library itself (that is `make lib`) and never installs
// the peer (that is bench/install-pocl.sh); it says which one is missing.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/npuemu/npuemu/emu"
)

func main() {
	runs := flag.Int("runs", 3, "runs of each program; the table shows medians")
	quick := flag.Bool("quick", false, "run npuemu_bench with tiny sizes only (checks that it runs; skips the peer and the limits)")
	repo := flag.String("repo", "", "repository root (default: the directory holding go.mod, searched upwards)")
	peerDir := flag.String("peer-dir", "", "folder with ocl_peer.c and limits.c (default: REPO/../shared/bench)")
	verbose := flag.Bool("v", false, "print each program's raw output")
	timeout := flag.Duration("timeout", 10*time.Minute, "limit for one run of one program")
	flag.Parse()
	if *runs < 1 {
		fmt.Fprintln(os.Stderr, "bench: -runs must be at least 1")
		os.Exit(2)
	}
	root := *repo
	if root == "" {
		var err error
		if root, err = findRepoRoot(); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
	}
	if *peerDir == "" {
		*peerDir = filepath.Join(root, "..", "shared", "bench")
	}
	h := &harness{root: root, peerDir: *peerDir, cc: compiler(), timeout: *timeout, verbose: *verbose, log: os.Stderr}
	rep := h.run(context.Background(), *runs, *quick)
	rep.Write(os.Stdout)
	if rep.NpuErr != nil {
		os.Exit(1)
	}
}

// findRepoRoot walks up from the working directory to the directory that
// holds go.mod.
func findRepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory; pass -repo")
		}
		dir = parent
	}
}

// compiler returns the C compiler Go uses, as the Makefile does.
func compiler() string {
	if out, err := exec.Command("go", "env", "CC").Output(); err == nil {
		if cc := strings.TrimSpace(string(out)); cc != "" {
			return cc
		}
	}
	return "gcc"
}

type harness struct {
	root, peerDir, cc string
	timeout           time.Duration
	verbose           bool
	log               io.Writer
}

// program is a built benchmark binary and how to run it.
type program struct {
	path string
	args []string
	env  []string
}

func (h *harness) run(ctx context.Context, runs int, quick bool) *Report {
	rep := &Report{Runs: runs, Quick: quick, Npu: Series{}, Peer: Series{}, Limits: Series{}}
	if dir, why := emu.ProgramNodePages(os.Getenv(emu.EnvNode)); why != "" {
		rep.Pages = dir + ": " + why
	}
	out := filepath.Join(h.root, "build", "bench")
	if err := os.MkdirAll(out, 0o755); err != nil {
		rep.NpuErr = err
		return rep
	}

	var npu, replay, svmProg, peer, limits *program
	npu, rep.NpuErr = h.buildNpuemu(ctx, out)
	if npu != nil && quick {
		npu.args = []string{"--quick"}
	}
	if rep.NpuErr == nil {
		replay, rep.NpuErr = h.buildReplay(ctx, out)
		if replay != nil && quick {
			replay.args = []string{"--quick"}
		}
	}
	if rep.NpuErr == nil {
		svmProg, rep.NpuErr = h.buildSVM(ctx, out) // svm.go
		if svmProg != nil && quick {
			svmProg.args = []string{"--quick"}
		}
	}
	var ascendc []*program
	if rep.NpuErr == nil {
		ascendc, rep.NpuErr = h.buildAscendc(ctx, out, quick) // ascendc.go
	}
	if quick {
		rep.PeerErr = errors.New("not run in -quick mode")
	} else {
		peer, rep.PeerErr = h.buildPeer(ctx, out)
		var err error
		if limits, err = h.buildLimits(ctx, out); err != nil {
			fmt.Fprintln(h.log, "bench: machine limits skipped:", err)
		}
	}

	for i := 0; i < runs; i++ {
		fmt.Fprintf(h.log, "bench: run %d/%d\n", i+1, runs)
		if npu != nil && rep.NpuErr == nil {
			rep.NpuErr = h.collect(ctx, npu, rep.Npu)
		}
		if replay != nil && rep.NpuErr == nil {
			rep.NpuErr = h.collect(ctx, replay, rep.Npu)
		}
		if svmProg != nil && rep.NpuErr == nil {
			rep.NpuErr = h.collect(ctx, svmProg, rep.Npu)
		}
		for _, p := range ascendc {
			if rep.NpuErr == nil {
				rep.NpuErr = h.collect(ctx, p, rep.Npu)
			}
		}
		if ascendc != nil && rep.NpuErr == nil {
			rep.NpuErr = h.collectAscendcBuild(ctx, out, rep.Npu)
		}
		if peer != nil && rep.PeerErr == nil {
			if err := h.collect(ctx, peer, rep.Peer); err != nil {
				rep.PeerErr = fmt.Errorf("%w\ninstall or repair the peer with bench/install-pocl.sh", err)
			}
		}
		if limits != nil {
			if err := h.collect(ctx, limits, rep.Limits); err != nil {
				fmt.Fprintln(h.log, "bench: machine limits:", err)
				limits = nil
			}
		}
	}
	return rep
}

// buildNpuemu compiles npuemu_bench.c the way a user builds a CANN program
// against npuemu, after checking that `make lib` has been run.
func (h *harness) buildNpuemu(ctx context.Context, out string) (*program, error) {
	lib := filepath.Join(h.root, "emu", "lib")
	inc := filepath.Join(h.root, "emu", "include")
	if err := libraryBuilt(h.root); err != nil {
		return nil, err
	}
	exe := filepath.Join(out, "npuemu_bench")
	src := filepath.Join(h.root, "bench", "c", "npuemu_bench.c")
	if err := h.compile(ctx, "-O2", "-Wall", "-Werror", "-I", inc, "-o", exe, src, "-L", lib, "-lascendcl"); err != nil {
		return nil, err
	}
	return &program{path: exe, env: libraryEnv(lib)}, nil
}

// buildReplay compiles replay_bench.c (capture + replay against direct
// submission) the same way.
func (h *harness) buildReplay(ctx context.Context, out string) (*program, error) {
	lib := filepath.Join(h.root, "emu", "lib")
	inc := filepath.Join(h.root, "emu", "include")
	if err := libraryBuilt(h.root); err != nil {
		return nil, err
	}
	exe := filepath.Join(out, replayBench)
	src := filepath.Join(h.root, "bench", "c", replayBench+".c")
	if err := h.compile(ctx, "-O2", "-Wall", "-Werror", "-I", inc, "-o", exe, src, "-L", lib, "-lascendcl"); err != nil {
		return nil, err
	}
	return &program{path: exe, env: libraryEnv(lib)}, nil
}

// libraryBuilt reports what is missing for building against npuemu.
func libraryBuilt(root string) error {
	for _, f := range []string{"emu/lib/libascendcl.so", "emu/include/acl/acl.h"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			return fmt.Errorf("%s is missing: build the library first with `make lib`", f)
		}
	}
	return nil
}

// libraryEnv is the environment of a program run on npuemu: the library
// directory first on LD_LIBRARY_PATH, as a user runs it.
func libraryEnv(lib string) []string {
	env := os.Environ()
	path := lib
	if old := os.Getenv("LD_LIBRARY_PATH"); old != "" {
		path += ":" + old
	}
	return append(env, "LD_LIBRARY_PATH="+path)
}

func (h *harness) buildPeer(ctx context.Context, out string) (*program, error) {
	exe := filepath.Join(out, "ocl_peer")
	if err := h.compile(ctx, "-O2", "-o", exe, filepath.Join(h.peerDir, "ocl_peer.c"), "-lOpenCL"); err != nil {
		return nil, fmt.Errorf("PoCL peer not built (%v)\ninstall it with bench/install-pocl.sh (as root)", err)
	}
	return &program{path: exe}, nil
}

func (h *harness) buildLimits(ctx context.Context, out string) (*program, error) {
	exe := filepath.Join(out, "limits")
	if err := h.compile(ctx, "-O2", "-o", exe, filepath.Join(h.peerDir, "limits.c"), "-lpthread"); err != nil {
		return nil, err
	}
	return &program{path: exe}, nil
}

func (h *harness) compile(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, h.cc, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", h.cc, strings.Join(args, " "), err, tail(stderr.String()))
	}
	return nil
}

// collect runs p once and adds its figures to s.
func (h *harness) collect(ctx context.Context, p *program, s Series) error {
	stdout, err := h.execute(ctx, p)
	if err != nil {
		return err
	}
	run, err := ParseMetrics(bytes.NewReader(stdout))
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(p.path), err)
	}
	return s.Add(run)
}

// execute runs p and returns its standard output; on failure the error
// carries the end of its standard error.
func (h *harness) execute(ctx context.Context, p *program) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.path, p.args...)
	cmd.Env = p.env
	// A killed program's children (npuemu_bench spawns itself) may hold the
	// output pipes; do not wait for them forever.
	cmd.WaitDelay = 2 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if h.verbose {
		fmt.Fprintf(h.log, "--- %s %s\n%s%s", filepath.Base(p.path), strings.Join(p.args, " "), stdout.String(), stderr.String())
	}
	if err != nil {
		return nil, fmt.Errorf("%s failed: %v\n%s", filepath.Base(p.path), err, tail(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// tail keeps the last lines of a program's diagnostics.
func tail(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 8 {
		lines = lines[len(lines)-8:]
	}
	return strings.Join(lines, "\n")
}
