package sweep

import (
	"bufio"
	"bytes"
	_ "embed"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

//go:embed testdata/runner.c
var runnerSrc string

var (
	onlyFlag   = flag.String("sweep.only", "", "regexp: sweep only the functions it matches")
	alarmFlag  = flag.Int("sweep.alarm", 10, "seconds one call may take before it counts as a hang")
	jobsFlag   = flag.Int("sweep.jobs", 0, "batches run in parallel (default GOMAXPROCS)")
	reportFlag = flag.String("sweep.report", "", "file to write every case's outcome to")
	libFlag    = flag.String("sweep.lib", "", "libascendcl.so to sweep (default: emu/lib of this repository)")
)

func repoRoot(t *testing.T) string {
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, parent, dir, "no go.mod above the test")
		dir = parent
	}
}

func cc(t *testing.T) string {
	out, err := exec.Command("go", "env", "CC").Output()
	require.NoError(t, err)
	if c := strings.TrimSpace(string(out)); c != "" {
		return c
	}
	return "gcc"
}

// probe compiles and runs the type probe.
func probe(t *testing.T, dir, inc string, types []string, src []byte) map[string]typeInfo {
	c, bin := filepath.Join(dir, "probe.c"), filepath.Join(dir, "probe")
	require.NoError(t, os.WriteFile(c, src, 0o644))
	out, err := exec.Command(cc(t), "-w", "-I", inc, "-I", filepath.Join(inc, "driver"), "-o", bin, c).CombinedOutput()
	require.NoError(t, err, "probe: %s", out)
	out, err = exec.Command(bin).Output()
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, len(types))
	info := map[string]typeInfo{}
	for i, l := range lines {
		var ti typeInfo
		_, err := fmt.Sscanf(l, "%d %d", &ti.class, &ti.size)
		require.NoError(t, err)
		info[types[i]] = ti
	}
	return info
}

// outcome is what happened to one case.
type outcome struct {
	status, detail string
	result         string
	panic          string // the message of a panic the guard caught
}

// mustFail are calls with out-of-range values that must not succeed.
var mustFail = []string{
	"aclrtMalloc(size=all-ones(SIZE_MAX))", "aclrtMalloc(size=sign-bit)",
	"aclrtMalloc(policy=-1)", "aclrtMalloc(policy=0x7fffffff)", "aclrtMalloc(policy=1000)",
	"aclrtMallocCached(size=all-ones(SIZE_MAX))", "aclrtMallocWithCfg(size=all-ones(SIZE_MAX))",
	"aclrtCreateStreamWithConfig(flag=-1)", "aclrtCreateStreamWithConfig(flag=0x7fffffff)", "aclrtCreateStreamWithConfig(flag=1000)",
	"aclrtMemsetD32Async(stream=stale)",
}

// successOK are bad-handle calls whose success is the documented answer.
var successOK = map[string]string{
	"aclrtAllocatorUnregister(stream=stale)": "a destroyed stream's registration went with it (acl/allocator.go)",
}

func TestSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("the sweep forks a process per call")
	}
	repo := repoRoot(t)
	inc, lib := filepath.Join(repo, "emu", "include"), filepath.Join(repo, "emu", "lib", "libascendcl.so")
	if *libFlag != "" {
		lib = *libFlag
	}
	if _, err := os.Stat(lib); err != nil {
		t.Fatalf("%s is missing: run `make lib` first", lib)
	}
	var only *regexp.Regexp
	if *onlyFlag != "" {
		only = regexp.MustCompile(*onlyFlag)
	}
	syms := callable(only)
	require.NotEmpty(t, syms)
	dir := t.TempDir()
	types := paramTypes(syms)
	info := probe(t, dir, inc, types, genProbe(syms, types))
	cases, sw := genCases(syms, info)

	src := strings.Replace(runnerSrc, "/*INCLUDES*/", headerIncludes(syms), 1)
	src = strings.Replace(src, "/*CASES*/", string(sw), 1)
	c, bin := filepath.Join(dir, "sweep.c"), filepath.Join(dir, "sweep")
	require.NoError(t, os.WriteFile(c, []byte(src), 0o644))
	out, err := exec.Command(cc(t), "-O0", "-w", "-I", inc, "-I", filepath.Join(inc, "driver"), "-o", bin, c, "-ldl").CombinedOutput()
	require.NoError(t, err, "sweep.c: %s", out)
	kernel := filepath.Join(dir, "vadd.so")
	out, err = exec.Command(cc(t), "-shared", "-fPIC", "-O2", "-I", inc, "-o", kernel, filepath.Join(repo, "examples", "kernels", "vadd.c")).CombinedOutput()
	require.NoError(t, err, "vadd.so: %s", out)

	jobs := *jobsFlag
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	results := make([]outcome, len(cases))
	var (
		mu     sync.Mutex
		wg     sync.WaitGroup
		stderr bytes.Buffer
	)
	per := (len(cases) + jobs - 1) / jobs
	for first := 0; first < len(cases); first += per {
		end := min(first+per, len(cases))
		wg.Add(1)
		go func(first, end int) {
			defer wg.Done()
			cmd := exec.Command(bin, lib, kernel, strconv.Itoa(first), strconv.Itoa(end), strconv.Itoa(*alarmFlag))
			cmd.Env = append(os.Environ(), "NPUEMU_LOG=off")
			var eb bytes.Buffer
			cmd.Stderr = &eb
			stdout, err := cmd.Output()
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				fmt.Fprintf(&stderr, "batch %d..%d: %v\n", first, end, err)
			}
			if eb.Len() > 0 {
				tail := eb.Bytes()
				if len(tail) > 4096 {
					tail = tail[len(tail)-4096:]
				}
				fmt.Fprintf(&stderr, "batch %d..%d stderr (tail):\n%s\n", first, end, tail)
			}
			sc := bufio.NewScanner(bytes.NewReader(stdout))
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				if len(f) < 3 {
					continue
				}
				i, err := strconv.Atoi(f[1])
				if err != nil || i < 0 || i >= len(results) {
					continue
				}
				switch f[0] {
				case "R":
					results[i].result = f[2]
				case "P":
					results[i].panic = strings.Join(f[2:], " ")
				case "M":
					results[i].result = "missing " + f[2]
				case "S":
					results[i].status = f[2]
					if len(f) > 3 {
						results[i].detail = f[3]
					}
				}
			}
		}(first, end)
	}
	wg.Wait()

	var crashes, hangs, missing, unrun, panics, accepted []string
	for i, r := range results {
		switch {
		case r.status == "":
			unrun = append(unrun, cases[i].String())
		case r.status == "crash":
			crashes = append(crashes, cases[i].String()+" "+r.detail)
		case r.status == "hang":
			hangs = append(hangs, cases[i].String())
		case strings.HasPrefix(r.result, "missing"):
			missing = append(missing, cases[i].String())
		case r.panic != "":
			panics = append(panics, cases[i].String()+": "+r.panic)
		case cases[i].MustFail && r.result == "0" && successOK[cases[i].String()] == "":
			accepted = append(accepted, cases[i].String())
		}
	}
	sort.Strings(crashes)
	if *reportFlag != "" {
		var rb bytes.Buffer
		for i, r := range results {
			fmt.Fprintf(&rb, "%s\t%s %s\t%s\t%s\n", cases[i], r.status, r.detail, r.result, r.panic)
		}
		require.NoError(t, os.WriteFile(*reportFlag, rb.Bytes(), 0o644))
	}
	t.Logf("sweep: %d functions, %d calls, %d crashes, %d hangs, %d panics caught by the guard, %d missing symbols",
		len(syms), len(cases), len(crashes), len(hangs), len(panics), len(missing))
	if stderr.Len() > 0 && (len(crashes) > 0 || len(unrun) > 0) {
		t.Logf("%s", stderr.String())
	}
	assert.Empty(t, unrun, "cases with no status (the runner died)")
	assert.Empty(t, crashes, "calls that crashed the host program")
	assert.Empty(t, hangs, "calls that hung past %ds", *alarmFlag)
	assert.Empty(t, missing, "spec symbols the library does not export")
	assert.Empty(t, accepted, "bad handles answered with success")
	// Out-of-range values the issue found accepted (#14).
	byName := map[string]outcome{}
	for i, r := range results {
		byName[cases[i].String()] = r
	}
	for _, c := range mustFail {
		if r, ok := byName[c]; ok {
			assert.NotEqual(t, "0", r.result, "%s must fail", c)
		}
	}
	// A caught panic is no crash, but it is a check the boundary missed.
	assert.Empty(t, panics, "calls answered by the panic guard instead of a validation")
}
