package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// SkipExit is the exit status of a case that skips (check.h's SKIP).
const SkipExit = 77

// Target is an implementation of the ACL runtime that cases are built and
// run against: a directory of headers and a directory of libraries.
type Target struct {
	Include string // the directory holding acl/acl.h
	Lib     string // the directory holding libascendcl.so and the other names
	// Emulator is true when the libraries are npuemu's (libascendcl.so is a
	// link to libnpuemu.so); only then are "needs: emulator" cases run.
	Emulator bool
	CC, CXX  []string // compiler commands, e.g. ["gcc"]

	// Kind names the target in ledger.tsv: KindEmulator, KindPassthrough
	// (-real) or KindVendor (-include/-lib elsewhere); Version is the CANN
	// version of a vendor target ("" when unknown). See real.go.
	Kind, Version string
	// ExtraEnv is added to every run after the caller's environment and
	// before the case's env (-real: NPUEMU_MODE=passthrough).
	ExtraEnv []string

	// CountDevices returns the number of devices the target shows to a
	// program run with env; NewTarget sets it to a probe program (compiled
	// once into WorkDir), unit tests to a fake.
	CountDevices func(env []string) (int, error)
	WorkDir      string // scratch directory for the probe

	mu      sync.Mutex
	devices map[string]deviceCount // CountDevices results by environment
	probe   struct {
		once sync.Once
		bin  string
		err  error
	}
}

type deviceCount struct {
	n   int
	err error
}

// NewTarget checks that include and lib hold an implementation and returns
// the target. The compilers are `go env CC` and `go env CXX`.
func NewTarget(include, lib, workDir string) (*Target, error) {
	var err error
	if include, err = filepath.Abs(include); err != nil {
		return nil, err
	}
	if lib, err = filepath.Abs(lib); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(include, "acl", "acl.h")); err != nil {
		return nil, fmt.Errorf("include directory %s has no acl/acl.h", include)
	}
	so := filepath.Join(lib, "libascendcl.so")
	if _, err := os.Stat(so); err != nil {
		return nil, fmt.Errorf("library directory %s has no libascendcl.so", lib)
	}
	t := &Target{Include: include, Lib: lib, WorkDir: workDir}
	t.Kind = KindVendor
	if real, err := filepath.EvalSymlinks(so); err == nil && filepath.Base(real) == "libnpuemu.so" {
		t.Emulator, t.Kind = true, KindEmulator
	}
	if t.CC, err = goEnv("CC"); err != nil {
		return nil, err
	}
	if t.CXX, err = goEnv("CXX"); err != nil {
		return nil, err
	}
	t.CountDevices = t.probeDevices
	return t, nil
}

func goEnv(key string) ([]string, error) {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return nil, fmt.Errorf("go env %s: %w", key, err)
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return nil, fmt.Errorf("go env %s is empty", key)
	}
	return f, nil
}

// Unmet is the one place that decides whether the target lacks something a
// case needs. It returns the reason to skip, or "" when every need is met.
// An error means the target could not be asked (a probe failed): the case
// fails, since a target that cannot answer must not pass for one that lacks
// the feature.
func (t *Target) Unmet(c Case) (string, error) {
	for _, n := range c.Needs {
		switch n.Name {
		case NeedEmulator:
			if !t.Emulator {
				return "needs the emulator: the target is not npuemu", nil
			}
		case NeedDevices:
			want, err := strconv.Atoi(n.Value)
			if err != nil {
				return "", fmt.Errorf("need %s: %w", n, err)
			}
			have, err := t.deviceCount(c.Env)
			if err != nil {
				return "", fmt.Errorf("counting the devices for need %s: %w", n, err)
			}
			if have < want {
				return fmt.Sprintf("needs %d devices, the target has %d", want, have), nil
			}
		default:
			return "", fmt.Errorf("unknown need %s", n)
		}
	}
	return "", nil
}

// deviceCount caches CountDevices per environment.
func (t *Target) deviceCount(env []string) (int, error) {
	key := strings.Join(env, "\x00")
	t.mu.Lock()
	defer t.mu.Unlock()
	if d, ok := t.devices[key]; ok {
		return d.n, d.err
	}
	n, err := t.CountDevices(env)
	if t.devices == nil {
		t.devices = map[string]deviceCount{}
	}
	t.devices[key] = deviceCount{n, err}
	return n, err
}

const probeSource = `#include <stdio.h>
#include "acl/acl.h"

int main(void) {
    uint32_t n = 0;
    aclError e = aclInit(NULL);
    if (e != ACL_SUCCESS) {
        fprintf(stderr, "aclInit: %d\n", (int)e);
        return 1;
    }
    e = aclrtGetDeviceCount(&n);
    if (e != ACL_SUCCESS) {
        fprintf(stderr, "aclrtGetDeviceCount: %d\n", (int)e);
        return 1;
    }
    printf("%u\n", n);
    return aclFinalize() == ACL_SUCCESS ? 0 : 1;
}
`

// probeDevices runs a small program that prints aclrtGetDeviceCount.
func (t *Target) probeDevices(env []string) (int, error) {
	t.probe.once.Do(func() {
		src := filepath.Join(t.WorkDir, "npuemu_probe_devices.c")
		if t.probe.err = os.WriteFile(src, []byte(probeSource), 0o644); t.probe.err != nil {
			return
		}
		c := Case{Name: "npuemu_probe_devices", Path: src}
		var log []byte
		t.probe.bin, log, t.probe.err = t.Build(c, t.WorkDir)
		if t.probe.err != nil {
			t.probe.err = fmt.Errorf("%w\n%s", t.probe.err, log)
		}
	})
	if t.probe.err != nil {
		return 0, t.probe.err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := t.Run(ctx, Case{Name: "npuemu_probe_devices", Env: env}, t.probe.bin)
	if r.Outcome != Pass {
		return 0, fmt.Errorf("device probe: %s\n%s%s", r.Reason, r.Stdout, r.Stderr)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(r.Stdout)))
	if err != nil {
		return 0, fmt.Errorf("device probe printed %q", r.Stdout)
	}
	return n, nil
}

// CompileArgs returns the compiler command line that builds c into out.
func (t *Target) CompileArgs(c Case, out string) []string {
	cc := t.CC
	if c.CXX {
		cc = t.CXX
	}
	args := append([]string{}, cc...)
	// Warnings are errors so that a case cannot hide a mistake; calling a
	// deprecated function is legitimate in a case that checks it.
	args = append(args, "-g", "-O1", "-Wall", "-Werror", "-Wno-deprecated-declarations",
		"-I", t.Include, "-I", filepath.Dir(c.Path), "-o", out, c.Path, "-L", t.Lib)
	args = append(args, c.LinkFlags()...)
	return append(args, "-lpthread", "-ldl")
}

// Build compiles c into dir and returns the executable's path; on failure
// the compiler's output is returned with the error.
func (t *Target) Build(c Case, dir string) (string, []byte, error) {
	bin := filepath.Join(dir, c.Name)
	args := t.CompileArgs(c, bin)
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	if err != nil {
		return "", out, fmt.Errorf("compiling %s: %w\n%s", filepath.Base(c.Path), err, strings.Join(args, " "))
	}
	return bin, out, nil
}

// Outcome is how a case run ended.
type Outcome int

// The outcomes of a case.
const (
	Pass Outcome = iota
	Skip
	Fail
)

func (o Outcome) String() string {
	switch o {
	case Pass:
		return "pass"
	case Skip:
		return "skip"
	default:
		return "fail"
	}
}

// Result is what one run of a case produced.
type Result struct {
	Outcome        Outcome
	Reason         string // skip reason or why it failed
	Stdout, Stderr []byte
}

// Env returns the environment a case runs with: the caller's, without any
// NPUEMU_* variable (a case sees the emulator's defaults unless it declares
// otherwise), LD_LIBRARY_PATH led by the target's library directory, and the
// case's own env directives last.
func (t *Target) Env(c Case) []string {
	var env []string
	ld := t.Lib
	for _, kv := range os.Environ() {
		switch {
		case strings.HasPrefix(kv, "NPUEMU_"):
		case strings.HasPrefix(kv, "LD_LIBRARY_PATH="):
			if old := strings.TrimPrefix(kv, "LD_LIBRARY_PATH="); old != "" {
				ld += ":" + old
			}
		default:
			env = append(env, kv)
		}
	}
	env = append(env, "LD_LIBRARY_PATH="+ld)
	env = append(env, t.ExtraEnv...)
	return append(env, c.Env...)
}

// Run runs the built case bin until it exits or ctx ends, and classifies the
// exit: 0 passed, SkipExit skipped (the reason from a "SKIP: " line of
// stdout), anything else failed.
func (t *Target) Run(ctx context.Context, c Case, bin string) Result {
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = t.Env(c)
	if dir := privateNode(c); dir != "" { // node.go
		cmd.Env = append(cmd.Env, "NPUEMU_NODE="+dir)
		defer os.RemoveAll(dir)
	}
	cmd.Dir = filepath.Dir(bin)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	return classify(r, err, ctx.Err())
}

func classify(r Result, runErr, ctxErr error) Result {
	var exit *exec.ExitError
	switch {
	case runErr == nil:
		r.Outcome = Pass
	case ctxErr != nil:
		r.Outcome, r.Reason = Fail, fmt.Sprintf("did not finish: %v", ctxErr)
	case errors.As(runErr, &exit) && exit.ExitCode() == SkipExit:
		r.Outcome, r.Reason = Skip, skipReason(r.Stdout)
	case errors.As(runErr, &exit):
		r.Outcome, r.Reason = Fail, exit.ProcessState.String()
	default:
		r.Outcome, r.Reason = Fail, runErr.Error()
	}
	return r
}

func skipReason(stdout []byte) string {
	for _, l := range strings.Split(string(stdout), "\n") {
		if r, ok := strings.CutPrefix(l, "SKIP: "); ok {
			return strings.TrimSpace(r)
		}
	}
	return "exit status 77 without a SKIP: line"
}
