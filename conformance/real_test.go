package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// realTarget is the -real target: emu/include + emu/lib in passthrough
// mode. Without a vendor library it fails with the library's message, which
// says that none was found and where it looked.
func realTarget(t *testing.T, repo string) *Target {
	t.Helper()
	if *includeFlag != "" || *libFlag != "" {
		t.Fatal("-real runs npuemu's emu/include and emu/lib in passthrough mode; -include/-lib run another implementation directly: give one or the other")
	}
	include, lib := filepath.Join(repo, "emu", "include"), filepath.Join(repo, "emu", "lib")
	if _, err := os.Stat(filepath.Join(lib, "libascendcl.so")); err != nil {
		t.Fatalf("%s/libascendcl.so is missing: run `make lib` in %s first", lib, repo)
	}
	tg, err := NewPassthroughTarget(include, lib, t.TempDir())
	if err != nil {
		t.Fatalf("-real: %v", err)
	}
	return tg
}

// emuLib returns emu/include and emu/lib, failing when the library is not
// built (as the runner does).
func emuLib(t *testing.T) (include, lib string) {
	t.Helper()
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	include, lib = filepath.Join(repo, "emu", "include"), filepath.Join(repo, "emu", "lib")
	if _, err := os.Stat(filepath.Join(lib, "libascendcl.so")); err != nil {
		t.Fatalf("%s/libascendcl.so is missing: run `make lib` in %s first", lib, repo)
	}
	return include, lib
}

// noVendor points every place the passthrough looks at to nothing and
// returns the empty NPUEMU_VENDOR_LIB directory.
func noVendor(t *testing.T) string {
	missing := t.TempDir() // a directory without libascendcl.so
	t.Setenv("NPUEMU_VENDOR_LIB", missing)
	t.Setenv("ASCEND_HOME_PATH", "")
	t.Setenv("ASCEND_TOOLKIT_HOME", "")
	return missing
}

// TestRealWithoutVendor is what `go test ./conformance -real` does on a
// machine without CANN: it fails, saying that no vendor library was found
// and where it looked.
func TestRealWithoutVendor(t *testing.T) {
	include, lib := emuLib(t)
	missing := noVendor(t)
	if _, err := os.Stat("/usr/local/Ascend/ascend-toolkit"); err == nil {
		t.Skip("this machine has a CANN toolkit")
	}
	_, err := NewPassthroughTarget(include, lib, t.TempDir())
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, "no vendor library libascendcl.so found")
	assert.Contains(t, msg, "NPUEMU_VENDOR_LIB ("+missing+"/libascendcl.so: not found)")
	assert.Contains(t, msg, "$ASCEND_HOME_PATH not set")
	assert.Contains(t, msg, "$ASCEND_TOOLKIT_HOME not set")
	assert.Contains(t, msg, fmt.Sprintf("aclInit failed with %d", 200001), "ACL_ERROR_API_NOT_SUPPORT")

	// Our own library is never taken for the vendor's, even when it is
	// where the vendor's should be (emu/set_env.sh points ASCEND_HOME_PATH
	// at emu/).
	t.Setenv("NPUEMU_VENDOR_LIB", lib)
	_, err = NewPassthroughTarget(include, lib, t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "npuemu's own library, skipped")

	// -real does not take another implementation.
	vendor := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(vendor, "libascendcl.so"), nil, 0o644))
	_, err = NewPassthroughTarget(include, vendor, t.TempDir())
	assert.ErrorContains(t, err, "is not npuemu's")
}

func TestPassthroughEnv(t *testing.T) {
	env := PassthroughEnv([]string{"NPUEMU_VENDOR_LIB=/v", "NPUEMU_DEVICES=4", "NPUEMU_TRACE=/t", "HOME=/h", "NPUEMU_VENDOR_LIBX=1"})
	assert.Equal(t, []string{"NPUEMU_MODE=passthrough"}, PassthroughEnv([]string{"NPUEMU_TRACE="}), "an empty variable is unset")
	assert.Equal(t, []string{"NPUEMU_MODE=passthrough", "NPUEMU_VENDOR_LIB=/v", "NPUEMU_TRACE=/t"}, env)

	tg := &Target{Lib: "/emu/lib", ExtraEnv: env}
	t.Setenv("NPUEMU_MODE", "emulator")
	got := tg.Env(Case{Env: []string{"NPUEMU_DEVICES=2"}})
	assert.NotContains(t, got, "NPUEMU_MODE=emulator")
	assert.Equal(t, []string{"NPUEMU_MODE=passthrough", "NPUEMU_VENDOR_LIB=/v", "NPUEMU_TRACE=/t", "NPUEMU_DEVICES=2"}, got[len(got)-4:])
}

// standin is the stand-in vendor library and the program that calls it,
// built once per test binary.
var standin struct {
	once          sync.Once
	dir, app, err string
}

// buildStandin compiles conformance/standin into a temporary directory:
// libascend_hal.so, libruntime.so (needs the HAL), libascendcl.so (needs
// both), with sonames and no RPATH, like a vendor install found through
// the environment; and app, linked against npuemu's emu/lib.
func buildStandin(t *testing.T) (dir, app string) {
	t.Helper()
	include, lib := emuLib(t)
	standin.once.Do(func() {
		dir, err := os.MkdirTemp("", "npuemu-standin")
		if err != nil {
			standin.err = err.Error()
			return
		}
		cc, err := goEnv("CC")
		if err != nil {
			standin.err = err.Error()
			return
		}
		inc := []string{"-I", include, "-I", filepath.Join(include, "driver")}
		so := func(name, src string, libs ...string) []string {
			args := append([]string{"-shared", "-fPIC", "-O1", "-Wall", "-Werror"}, inc...)
			args = append(args, "-Wl,-soname,"+name, "-o", filepath.Join(dir, name), filepath.Join("standin", src), "-L", dir)
			return append(args, libs...)
		}
		app := append(append([]string{"-O1", "-Wall", "-Werror"}, inc...),
			"-o", filepath.Join(dir, "app"), filepath.Join("standin", "app.c"), "-L", lib, "-lascendcl", "-lascend_hal", "-lpthread")
		for _, args := range [][]string{
			so("libascend_hal.so", "hal.c"),
			so("libruntime.so", "runtime.c", "-lascend_hal"),
			so("libascendcl.so", "acl.c", "-lruntime", "-lascend_hal"),
			app,
		} {
			cmd := exec.Command(cc[0], append(cc[1:], args...)...)
			if out, err := cmd.CombinedOutput(); err != nil {
				standin.err = fmt.Sprintf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
				return
			}
		}
		standin.dir, standin.app = dir, filepath.Join(dir, "app")
	})
	if standin.err != "" {
		t.Fatal(standin.err)
	}
	return standin.dir, standin.app
}

// runApp runs the stand-in program with npuemu's emu/lib first on
// LD_LIBRARY_PATH, no NPUEMU_* variable of the caller, and env.
func runApp(t *testing.T, app string, env []string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	_, lib := emuLib(t)
	tg := &Target{Lib: lib, ExtraEnv: env}
	cmd := exec.Command(app, args...)
	cmd.Env = tg.Env(Case{})
	cmd.Dir = t.TempDir()
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// traceLine is one line of NPUEMU_TRACE.
type traceLine struct {
	Tid  int                    `json:"tid"`
	Sym  string                 `json:"sym"`
	Args map[string]json.Number `json:"-"`
	Raw  map[string]any         `json:"args"`
	Ret  any                    `json:"ret"`
	Ns   *int64                 `json:"ns"`
}

func readTrace(t *testing.T, path string) []traceLine {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var lines []traceLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 64*1024)
	for sc.Scan() {
		var l traceLine
		d := json.NewDecoder(strings.NewReader(sc.Text()))
		d.UseNumber()
		require.NoError(t, d.Decode(&l), "trace line %q", sc.Text())
		require.NotNil(t, l.Ns, "trace line without ns: %q", sc.Text())
		require.NotZero(t, l.Tid)
		lines = append(lines, l)
	}
	require.NoError(t, sc.Err())
	return lines
}

func readLog(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

// TestPassthroughStandin runs app.c through npuemu in passthrough mode
// against the stand-in vendor library and checks that every call reached it
// with its arguments unchanged, every result came back, callbacks were
// handed through, threads ran at once, the stand-in's own libruntime.so
// and libascend_hal.so were bound (not npuemu's, which come first on
// LD_LIBRARY_PATH), and the trace lists every call.
func TestPassthroughStandin(t *testing.T) {
	dir, app := buildStandin(t)
	work := t.TempDir()
	logPath, tracePath := filepath.Join(work, "standin.log"), filepath.Join(work, "trace.jsonl")
	out, stderr, err := runApp(t, app, []string{"NPUEMU_MODE=passthrough", "NPUEMU_VENDOR_LIB=" + dir,
		"NPUEMU_TRACE=" + tracePath, "STANDIN_LOG=" + logPath})
	require.NoError(t, err, "stdout:\n%s\nstderr:\n%s", out, stderr)
	assert.Equal(t, "ok\n", out, "the program checks every result of the stand-in")
	assert.Equal(t, "npuemu passthrough: aclrtSynchronizeDevice is not in the vendor's libascendcl.so\n", stderr)

	log := readLog(t, logPath)
	realDir, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	// Namespace isolation: the vendor's dependencies are the vendor's.
	assert.Equal(t, fmt.Sprintf("aclInit configPath=/cfg/standin.json runtime=%s/libruntime.so hal=%s/libascend_hal.so", realDir, realDir), log[0])

	// Arguments arrive exactly: 64-bit values, pointers, enums, floats,
	// structs by value, strings, the formatted aclAppLog.
	for _, want := range []string{
		"aclrtSetDevice deviceId=7",
		"aclrtMalloc devPtr=0x", // the address is the program's stack
		"aclrtMemcpy dst=0xdeadbeef000 destMax=18364758544493064720 src=0x1000 count=1311768467463790320 kind=2",
		"aclrtSubscribeReport threadId=12302652060662169617 stream=0x57ae0001",
		"aclFloatToFloat16 value=0x1.921fap+1",
		"aclFloat16ToFloat value=10",
		"aclrtMemManagedPrefetchAsync ptr=0xabc000 size=4096 type=1 id=2 flags=5 stream=0x57ae0001",
		"aclrtLaunchSIMTKernelWithArgsArray func=0xf00 grid=1,2,3 block=4,5,6 dynUbufSize=77 stream=0x57ae0001 cfg=(nil) args=(nil)",
		"aclrtGetDeviceInfo deviceId=2 attr=101 value=0x",
		"aclAppLog logLevel=1 func=fn file=app.c line=42 fmt=%s msg=value 7 and text",
		"halGetDeviceInfo devId=1 moduleType=2 infoType=3 value=0x",
		"halMemManagedPrefetch ptr=123456789abc size=8192 type=2 id=-4 flags=9",
		"aclFinalize",
	} {
		assert.True(t, hasPrefixLine(log, want), "the stand-in did not receive %q", want)
	}
	// Callbacks reach the stand-in as the program's own function.
	var cb, host string
	for _, l := range log {
		if v, ok := strings.CutPrefix(l, "aclrtLaunchCallback fn="); ok {
			cb = strings.Fields(v)[0]
		}
		if _, v, ok := strings.Cut(l, "aclrtLaunchHostFunc stream=0x57ae0001 fn="); ok {
			host = strings.Fields(v)[0]
		}
	}
	assert.NotEmpty(t, cb)
	assert.Equal(t, cb, host, "both were given the same function")

	// Threads: each worker's sizes arrived once, with its policy.
	const threads, perThread = 8, 50
	mallocs := map[string]int{}
	for _, l := range log {
		if strings.HasPrefix(l, "aclrtMalloc ") {
			f := strings.Fields(l)
			mallocs[f[2]+" "+f[3]]++
		}
	}
	for th := 0; th < threads; th++ {
		for i := 0; i < perThread; i++ {
			k := fmt.Sprintf("size=%d policy=%d", th<<16|i, th%3)
			assert.Equal(t, 1, mallocs[k], k)
		}
	}

	// The trace lists every call the stand-in saw, symbol by symbol, and
	// the one it could not see.
	trace := readTrace(t, tracePath)
	require.Len(t, trace, len(log)+1)
	bySym := map[string]int{"aclrtSynchronizeDevice": 1}
	for _, l := range log {
		bySym[strings.Fields(l)[0]]++
	}
	traced := map[string]int{}
	tids := map[int]bool{}
	for _, l := range trace {
		traced[l.Sym]++
		tids[l.Tid] = true
	}
	assert.Equal(t, bySym, traced)
	assert.Len(t, tids, threads+1, "the main thread and each worker")

	find := func(sym string) traceLine {
		for _, l := range trace {
			if l.Sym == sym {
				return l
			}
		}
		t.Fatalf("no %s in the trace", sym)
		return traceLine{}
	}
	l := find("aclrtMemcpy")
	assert.Equal(t, json.Number("0"), l.Ret)
	assert.Equal(t, "0xdeadbeef000", l.Raw["dst"])
	assert.Equal(t, json.Number("18364758544493064720"), l.Raw["destMax"])
	assert.Equal(t, json.Number("2"), l.Raw["kind"])
	l = find("aclrtSetDevice")
	assert.Equal(t, json.Number("7"), l.Raw["deviceId"])
	assert.Equal(t, json.Number("107001"), l.Ret)
	assert.Equal(t, "/cfg/standin.json", find("aclInit").Raw["configPath"])
	assert.Equal(t, json.Number("3.14159012"), find("aclFloatToFloat16").Raw["value"])
	assert.Equal(t, json.Number("2.5"), find("aclFloat16ToFloat").Ret)
	assert.Equal(t, map[string]any{"struct": "010000000200000003000000"}, find("aclrtLaunchSIMTKernelWithArgsArray").Raw["gridDim"])
	assert.Equal(t, "value 7 and text", find("aclAppLog").Raw["msg"])
	assert.Nil(t, find("aclAppLog").Ret, "aclAppLog returns nothing")
	assert.Equal(t, json.Number("20015998343868"), find("halMemManagedPrefetch").Raw["ptr"], "DVdeviceptr is an integer type")
	assert.Equal(t, json.Number("200001"), find("aclrtSynchronizeDevice").Ret)
}

func hasPrefixLine(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// TestPassthroughNoVendor: without a vendor library every call fails with
// a code and the message says what was searched; nothing crashes.
func TestPassthroughNoVendor(t *testing.T) {
	_, app := buildStandin(t)
	missing := noVendor(t)
	out, stderr, err := runApp(t, app, []string{"NPUEMU_MODE=passthrough", "NPUEMU_VENDOR_LIB=" + missing}, "probe")
	require.NoError(t, err, "stdout:\n%s\nstderr:\n%s", out, stderr)
	assert.Contains(t, out, "aclInit=200001\n", "ACL_ERROR_API_NOT_SUPPORT")
	assert.Contains(t, out, "msg=npuemu passthrough (NPUEMU_MODE=passthrough): no vendor library libascendcl.so found; searched: NPUEMU_VENDOR_LIB ("+missing+"/libascendcl.so: not found)")
	assert.Contains(t, out, "aclrtGetDeviceCount=200001 n=77\n", "no out-parameter is written")
	assert.Contains(t, out, "drvGetDevNum=65534\n", "DRV_ERROR_NOT_SUPPORT")
	assert.Contains(t, out, "aclrtGetSocName=NULL\n")
	assert.Equal(t, 1, strings.Count(stderr, "no vendor library libascendcl.so found"), "told once on stderr:\n%s", stderr)

	out, _, err = runApp(t, app, []string{"NPUEMU_MODE=bogus"}, "probe")
	require.NoError(t, err)
	assert.Contains(t, out, "aclInit=200001\nmsg=npuemu: NPUEMU_MODE=bogus is not a mode (emulator, passthrough)")
}

// TestTraceEmulator: the trace works the same in emulator mode.
func TestTraceEmulator(t *testing.T) {
	_, app := buildStandin(t)
	tracePath := filepath.Join(t.TempDir(), "trace-%p.jsonl")
	out, stderr, err := runApp(t, app, []string{"NPUEMU_TRACE=" + tracePath}, "probe")
	require.NoError(t, err, "stdout:\n%s\nstderr:\n%s", out, stderr)
	assert.Contains(t, out, "aclInit=0\n")
	files, err := filepath.Glob(strings.Replace(tracePath, "%p", "*", 1))
	require.NoError(t, err)
	require.Len(t, files, 1, "%%p is replaced with the process id")
	trace := readTrace(t, files[0])
	var syms []string
	for _, l := range trace {
		syms = append(syms, l.Sym)
	}
	assert.Equal(t, []string{"aclInit", "aclGetRecentErrMsg", "aclrtGetDeviceCount", "drvGetDevNum", "aclrtGetSocName"}, syms)
	assert.Nil(t, trace[0].Raw["configPath"], "a NULL string is null")
	assert.Equal(t, json.Number("0"), trace[0].Ret)
	assert.Equal(t, json.Number("0"), trace[2].Ret)
}

// TestPassthroughTarget: with a vendor library (the stand-in), -real's
// target initialises it through npuemu and runs cases as a non-emulator.
func TestPassthroughTarget(t *testing.T) {
	dir, _ := buildStandin(t)
	include, lib := emuLib(t)
	t.Setenv("NPUEMU_VENDOR_LIB", dir)
	t.Setenv("NPUEMU_TRACE", "")
	tg, err := NewPassthroughTarget(include, lib, t.TempDir())
	require.NoError(t, err)
	assert.Equal(t, KindPassthrough, tg.Kind)
	assert.False(t, tg.Emulator, "needs: emulator cases skip")
	assert.Equal(t, "", tg.Version, "the stand-in has no aclsysGetVersionStr")
	assert.Equal(t, []string{"NPUEMU_MODE=passthrough", "NPUEMU_VENDOR_LIB=" + dir}, tg.ExtraEnv)
	skip, err := tg.Unmet(Case{Needs: []Need{{NeedEmulator, ""}}})
	require.NoError(t, err)
	assert.Contains(t, skip, "needs the emulator")
	// The stand-in shows three devices through npuemu.
	skip, err = tg.Unmet(Case{Needs: []Need{{NeedDevices, "3"}}})
	require.NoError(t, err)
	assert.Empty(t, skip)
}
