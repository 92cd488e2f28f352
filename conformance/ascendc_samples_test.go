package conformance

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// ascendcSample says how one program of ../shared/ascendc-samples is built,
// run and judged: with its own script or README commands (CHECK.md), and
// its own success criterion.
type ascendcSample struct {
	script string                         // bash script run in the copy of the sample
	check  func(out string, rc int) error // the sample's success criterion
	torch  bool                           // gen_data.py imports torch
}

// runScript is the vendor's usual run.sh call for the emulated SoC.
const runScript = "bash run.sh -r npu -v Ascend910B3"

// passCount: verify_result.py printed "test pass" n times and run.sh
// exited 0 (every run.sh but the CCE ones exits non-zero on a failed check).
func passCount(n int) func(string, int) error {
	return func(out string, rc int) error {
		if rc != 0 {
			return fmt.Errorf("exit status %d", rc)
		}
		if got := countLines(out, "test pass"); got != n {
			return fmt.Errorf(`"test pass" printed %d times, want %d`, got, n)
		}
		return nil
	}
}

// ccePass: the CCE samples' verify_result.py always exits 0; success is
// the run's "INFO: execute op on npu succeed!" and then "test pass" lines.
func ccePass(runs int) func(string, int) error {
	return func(out string, rc int) error {
		if got := countLines(out, "INFO: execute op on npu succeed!"); got != runs {
			return fmt.Errorf(`"INFO: execute op on npu succeed!" printed %d times, want %d`, got, runs)
		}
		if got := countLines(out, "test pass"); got != runs {
			return fmt.Errorf(`"test pass" printed %d times, want %d`, got, runs)
		}
		return nil
	}
}

func countLines(out, line string) int {
	n := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(l) == line {
			n++
		}
	}
	return n
}

var ascendcSamples = map[string]ascendcSample{
	"add_fatbin_acl":       {script: runScript, check: passCount(1)},
	"abs_gathermask":       {script: runScript, check: passCount(1)},
	"add_tiling_struct":    {script: runScript, check: passCount(1)},
	"static_tensor_add":    {script: runScript, check: passCount(4)},
	"reducemin_unaligned":  {script: runScript, check: passCount(1)},
	"mmad_bias_cube":       {script: runScript, check: passCount(1)},
	"matmul_leakyrelu_mix": {script: runScript, check: passCount(1)},
	"leakyrelu_cce":        {script: runScript, check: ccePass(1)},
	// README commands: no run.sh, no Python
	"simple_add_asc": {
		script: `set -e
source ${ASCEND_INSTALL_PATH}/bin/setenv.bash
export CMAKE_PREFIX_PATH=${ASCEND_INSTALL_PATH}/compiler/tikcpp/ascendc_kernel_cmake:$CMAKE_PREFIX_PATH
mkdir -p build && cd build
cmake .. && make -j
./demo`,
		check: func(out string, rc int) error {
			if rc != 0 {
				return fmt.Errorf("exit status %d", rc)
			}
			if countLines(out, "[Success] Case accuracy is verification passed.") != 1 {
				return fmt.Errorf(`no "[Success] Case accuracy is verification passed." line`)
			}
			return nil
		},
	},
	// its run.sh reads ASCEND_HOME_DIR and takes the mode and case as words
	"moe_softmax_topk_cce": {
		script: `export ASCEND_HOME_DIR=$ASCEND_INSTALL_PATH
bash run.sh npu case1
bash run.sh npu case2`,
		check: ccePass(2),
		torch: true,
	},
}

// ascendcCPUSamples are also built with RUN_MODE=cpu (find_package
// (tikicpulib), ICPU_RUN_KF), which npuemu runs on its runtime too: one of
// each build style.
var ascendcCPUSamples = map[string]ascendcSample{
	"add_tiling_struct": {script: "bash run.sh -r cpu -v Ascend910B3", check: passCount(1)},
	"leakyrelu_cce": {script: "bash run.sh -r cpu -v Ascend910B3", check: func(out string, rc int) error {
		if countLines(out, "INFO: execute op on cpu succeed!") != 1 || countLines(out, "test pass") != 1 {
			return fmt.Errorf(`want "INFO: execute op on cpu succeed!" and "test pass" once each`)
		}
		return nil
	}},
}

// TestAscendCSamples builds every program of ../shared/ascendc-samples with
// its own CMake files and runs it with its own script (CHECK.md), with
// ASCEND_INSTALL_PATH at the toolkit emu/, and asserts the program's own
// success criterion; ascendcCPUSamples again with RUN_MODE=cpu. Each runs
// in a copy (shared/ is read-only) from scratch; two run at a time. The tools come from scripts/install-deps.sh:
// cmake, and python3 with numpy; the samples call `python3`, so a
// directory whose python3 imports numpy (Debian's /usr/bin) goes first on
// their PATH. The sample whose gen_data.py needs torch skips without it.
func TestAscendCSamples(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds and runs every Ascend C sample (minutes)")
	}
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	samples := filepath.Join(repo, "..", "shared", "ascendc-samples")
	if _, err := os.Stat(samples); err != nil {
		t.Skipf("no samples at %s (the shared folder beside the repository)", samples)
	}
	root := filepath.Join(repo, "emu")
	for _, f := range []string{"compiler/ccec_compiler/bin/bisheng", "lib/libascendcl.so"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Fatalf("%s is missing: run `make lib` first", filepath.Join(root, f))
		}
	}
	if _, err := exec.LookPath("cmake"); err != nil {
		t.Fatal("cmake is missing: run `bash scripts/install-deps.sh`")
	}
	pyDir := numpyPythonDir(t)
	torch := exec.Command(filepath.Join(pyDir, "python3"), "-c", "import torch").Run() == nil

	entries, err := os.ReadDir(samples)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	require.NotEmpty(t, names)
	env := samplesEnv(pyDir, root)
	slots := make(chan struct{}, 2)
	type job struct {
		test, sample string
		s            ascendcSample
		ok           bool
	}
	var jobs []job
	for _, name := range names {
		s, ok := ascendcSamples[name]
		jobs = append(jobs, job{name, name, s, ok})
		if c, ok := ascendcCPUSamples[name]; ok {
			jobs = append(jobs, job{name + "_cpu", name, c, true})
		}
	}
	for _, j := range jobs {
		name, s, ok := j.sample, j.s, j.ok
		t.Run(j.test, func(t *testing.T) {
			if !ok {
				t.Fatalf("sample %s has no entry in ascendcSamples: add how its CHECK.md says to build, run and judge it", name)
			}
			if s.torch && !torch {
				t.Skipf("%s: scripts/gen_data.py imports torch, which %s/python3 lacks (the one sample allowed to skip)", name, pyDir)
			}
			t.Parallel()
			slots <- struct{}{}
			defer func() { <-slots }()
			dir := filepath.Join(t.TempDir(), name)
			require.NoError(t, copyTree(filepath.Join(samples, name), dir))
			out, rc := runSample(t, dir, s.script, env)
			if err := s.check(out, rc); err != nil {
				t.Errorf("%s: %v\n--- last lines of its output ---\n%s", name, err, tail(out, 60))
			}
		})
	}
}

// numpyPythonDir finds a directory whose python3 imports numpy: Debian's
// /usr/bin first (python3-numpy), then the python3 on PATH.
func numpyPythonDir(t *testing.T) string {
	cands := []string{"/usr/bin"}
	if p, err := exec.LookPath("python3"); err == nil {
		cands = append(cands, filepath.Dir(p))
	}
	for _, d := range cands {
		if exec.Command(filepath.Join(d, "python3"), "-c", "import numpy").Run() == nil {
			return d
		}
	}
	t.Fatal("no python3 with numpy (the samples' scripts need it): run `bash scripts/install-deps.sh` (Debian's python3-numpy)")
	return ""
}

// samplesEnv: the caller's environment, the numpy python first on PATH,
// ASCEND_INSTALL_PATH at the toolkit, no other toolkit variables (the run
// scripts source setenv.bash themselves), then -env's settings.
func samplesEnv(pyDir, root string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k := kv[:strings.IndexByte(kv, '=')]
		switch k {
		case "PATH", "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_INSTALL_PATH", "ASCEND_HOME_DIR",
			"ASCEND_CANN_PACKAGE_PATH", "CMAKE_PREFIX_PATH", "TERM", "MAKEFLAGS", "MFLAGS", "MAKELEVEL":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "PATH="+pyDir+":"+os.Getenv("PATH"), "ASCEND_INSTALL_PATH="+root, "TERM=dumb")
	return append(env, extraEnv...) // -env
}

// runSample runs the script in dir (its own process group, killed whole
// after 6 minutes: a hang guard, generous for a busy machine) and returns
// stdout+stderr and the exit status.
func runSample(t *testing.T, dir, script string, env []string) (string, int) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Errorf("timed out after 6 minutes")
	}
	rc := 0
	if err != nil {
		rc = -1
		if ee, ok := err.(*exec.ExitError); ok {
			rc = ee.ExitCode()
		}
	}
	return out.String(), rc
}

// copyTree copies a sample, writable (shared/ is read-only).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestAscendCExample builds and runs the README's Ascend C demo,
// examples/ascendc/vector_add (ascendc.cmake, ascendc_library STATIC,
// ACLRT_LAUNCH_KERNEL), with its own script, in a scratch build directory.
func TestAscendCExample(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a CMake project")
	}
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(repo, "emu", "compiler", "ccec_compiler", "bin", "bisheng")); err != nil {
		t.Fatal("the Ascend C driver is missing: run `make lib` first")
	}
	if _, err := exec.LookPath("cmake"); err != nil {
		t.Fatal("cmake is missing: run `bash scripts/install-deps.sh`")
	}
	env := append(samplesEnv("/usr/bin", filepath.Join(repo, "emu")), "BUILD_DIR="+t.TempDir())
	out, rc := runSample(t, repo, "bash examples/ascendc/vector_add/run.sh", env)
	require.Equal(t, 0, rc, "%s", tail(out, 40))
	require.Equal(t, 1, countLines(out, "vector_add: 262144 floats in 8 blocks through TPipe/TQue/DataCopy/Add: OK"), "%s", tail(out, 40))
}
