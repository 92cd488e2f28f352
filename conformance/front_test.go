package conformance

import (
	"context"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// TestFrontExportsCore: programs bind to the plain-C front library
// (emu/lib/libnpuemu.so), which loads the Go core (libnpuemu_core.so) on the
// first call (docs/internals.md "The C boundary"). Every name a program may
// call — a spec symbol or a function of our headers — that the core defines
// must be defined by the front too, or a program linking it fails to load;
// and the core's static TLS must stay small, since the core is always
// dlopen'ed after start-up.
func TestFrontExportsCore(t *testing.T) {
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	lib := filepath.Join(repo, "emu", "lib")
	coreFile := filepath.Join(lib, "libnpuemu_core.so")
	if _, err := os.Stat(coreFile); err != nil {
		t.Fatalf("the library is not built: run `make lib` first (%v)", err)
	}
	core := definedFuncs(t, coreFile)
	front := definedFuncs(t, filepath.Join(lib, "libnpuemu.so"))

	public := map[string]bool{}
	for _, s := range abi.Symbols() {
		public[s.Name] = true
	}
	decl := regexp.MustCompile(`\b([A-Za-z_]\w*)\s*\(`)
	err = filepath.WalkDir(filepath.Join(repo, "emu", "include"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".h" {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllSubmatch(src, -1) {
			public[string(m[1])] = true
		}
		return nil
	})
	require.NoError(t, err)

	var missing []string
	n := 0
	for name := range core {
		if !public[name] {
			continue
		}
		n++
		if !front[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	assert.Greater(t, n, 500, "the core defines the spec's names")
	assert.Empty(t, missing, "names the core defines for programs but the front does not (cmd/shimgen front.go, libfake/front/front.c)")
	assert.True(t, front["npu_unsupported"], "npuemu's mark (conformance/cases/zunsupported.c)")

	f, err := elf.Open(coreFile)
	require.NoError(t, err)
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_TLS {
			assert.LessOrEqual(t, p.Memsz, uint64(256),
				"the core's static TLS block (%d bytes) must fit the loader's reserve for dlopen: keep large per-thread buffers on the heap", p.Memsz)
		}
	}
}

// definedFuncs returns the functions path defines in its dynamic table.
func definedFuncs(t *testing.T, path string) map[string]bool {
	f, err := elf.Open(path)
	require.NoError(t, err)
	defer f.Close()
	syms, err := f.DynamicSymbols()
	require.NoError(t, err)
	out := map[string]bool{}
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			out[s.Name] = true
		}
	}
	return out
}

// frontAlone is a program run against the front library without its core.
const frontAlone = `#include <stdio.h>
#include <string.h>
#include "acl/acl.h"
#include "driver/ascend_hal.h"
int main(void) {
    int bad = 0;
    if (aclInit(NULL) != ACL_ERROR_RT_DEV_SETUP_ERROR) bad |= 1;
    const char *m = aclGetRecentErrMsg();
    if (m == NULL || strstr(m, "cannot load the runtime core") == NULL) bad |= 2;
    uint32_t n = 7;
    if (drvGetDevNum(&n) != DRV_ERROR_NO_DEVICE) bad |= 4;
    void *p = NULL;
    if (aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_ERROR_RT_DEV_SETUP_ERROR || p != NULL) bad |= 8;
    aclAppLog(ACL_INFO, "f", "alone.c", 1, "still logs %d", 5);
    printf("%d %s\n", bad, m ? m : "(null)");
    return bad;
}
`

// TestFrontWithoutCore: when the core cannot be loaded, every call fails
// with the documented code (ACL and rt: ACL_ERROR_RT_DEV_SETUP_ERROR, HAL:
// DRV_ERROR_NO_DEVICE), the reason is aclGetRecentErrMsg's message and goes
// to stderr once, and nothing crashes or hangs.
func TestFrontWithoutCore(t *testing.T) {
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	front := filepath.Join(repo, "emu", "lib", "libnpuemu.so")
	if _, err := os.Stat(front); err != nil {
		t.Fatalf("the library is not built: run `make lib` first (%v)", err)
	}
	dir := t.TempDir()
	data, err := os.ReadFile(front)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "libascendcl.so"), data, 0o755))
	src := filepath.Join(dir, "alone.c")
	require.NoError(t, os.WriteFile(src, []byte(frontAlone), 0o644))
	cc := "cc"
	if v := os.Getenv("CC"); v != "" {
		cc = v
	}
	exe := filepath.Join(dir, "alone")
	out, err := exec.Command(cc, "-O2", "-I", filepath.Join(repo, "emu", "include"), "-o", exe, src, "-L", dir, "-lascendcl").CombinedOutput()
	require.NoError(t, err, "%s", out)
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+dir)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "stdout: %s\nstderr: %s", stdout.String(), stderr.String())
	assert.True(t, strings.HasPrefix(stdout.String(), "0 npuemu: cannot load the runtime core "+filepath.Join(dir, "libnpuemu_core.so")), stdout.String())
	assert.Equal(t, 1, strings.Count(stderr.String(), "cannot load the runtime core"), "the reason goes to stderr once: %s", stderr.String())
	assert.Contains(t, stderr.String(), "[INFO] f alone.c:1: still logs 5")
}

// pythonPool is Python multiprocessing with the "fork" start method after
// the library is imported (ctypes, nothing called): each worker's first
// call loads its own core (docs/node.md "fork").
const pythonPool = `import ctypes, multiprocessing as mp, sys
lib = ctypes.CDLL(sys.argv[1])
lib.aclGetRecentErrMsg.restype = ctypes.c_char_p
def work(i):
    if lib.aclInit(None) != 0: return "aclInit: %s" % lib.aclGetRecentErrMsg()
    if lib.aclrtSetDevice(0) != 0: return "aclrtSetDevice"
    p = ctypes.c_void_p()
    if lib.aclrtMalloc(ctypes.byref(p), 1 << 20, 0) != 0: return "aclrtMalloc"
    src = (ctypes.c_ubyte * 4096)(*([i + 1] * 4096))
    dst = (ctypes.c_ubyte * 4096)()
    if lib.aclrtMemcpy(p, 4096, src, 4096, 1) != 0: return "h2d"
    if lib.aclrtMemcpy(dst, 4096, p, 4096, 2) != 0: return "d2h"
    lib.aclrtFree(p); lib.aclrtResetDevice(0); lib.aclFinalize()
    return "ok" if dst[0] == i + 1 and dst[4095] == i + 1 else "bad bytes"
if __name__ == "__main__":
    mp.set_start_method("fork")
    with mp.Pool(3) as pool:
        print(" ".join(pool.map(work, range(6))))
    print("parent", work(41))
`

// TestPythonForkPool runs pythonPool (skipped without python3).
func TestPythonForkPool(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	lib := filepath.Join(repo, "emu", "lib")
	if _, err := os.Stat(filepath.Join(lib, "libnpuemu_core.so")); err != nil {
		t.Fatalf("the library is not built: run `make lib` first (%v)", err)
	}
	script := filepath.Join(t.TempDir(), "pool.py")
	require.NoError(t, os.WriteFile(script, []byte(pythonPool), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, script, filepath.Join(lib, "libascendcl.so"))
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+lib)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, "ok ok ok ok ok ok\nparent ok\n", string(out))
}
