package abi

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// compilers returns the C compiler (go env CC) and the C++ compiler, or
// skips when the machine has none.
func compilers(t *testing.T) (cc, cxx string) {
	t.Helper()
	cc = os.Getenv("CC")
	if cc == "" {
		out, err := exec.Command("go", "env", "CC").Output()
		if err == nil {
			cc = strings.TrimSpace(string(out))
		}
	}
	if cc == "" {
		cc = "gcc"
	}
	cxx = os.Getenv("CXX")
	if cxx == "" {
		cxx = "g++"
	}
	for _, c := range []string{cc, cxx} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("compiler %s not found: %v", c, err)
		}
	}
	return cc, cxx
}

const includeRoot = "../emu/include"

// compile runs a syntax-only compile and fails the test with the compiler
// output.
func compile(t *testing.T, compiler string, args ...string) {
	t.Helper()
	base := []string{"-Wall", "-Werror", "-fsyntax-only", "-I", includeRoot, "-I", filepath.Join(includeRoot, "driver")}
	out, err := exec.Command(compiler, append(base, args...)...).CombinedOutput()
	require.NoError(t, err, "%s %s:\n%s", compiler, strings.Join(args, " "), out)
}

// TestABIChecks compiles the checks generated from the spec tables against
// our headers: every constant value and type, struct layout and function
// prototype must agree, as C11 and as C++11.
func TestABIChecks(t *testing.T) {
	cc, cxx := compilers(t)
	for _, f := range []string{"zabi_acl.c", "zabi_hal.c", "zabi_rt.c"} {
		src := filepath.Join("testdata", f)
		t.Run(f+"/c11", func(t *testing.T) {
			t.Parallel()
			compile(t, cc, "-std=c11", "-x", "c", src)
		})
		t.Run(f+"/c++11", func(t *testing.T) {
			t.Parallel()
			compile(t, cxx, "-std=c++11", "-x", "c++", src)
		})
	}
}

// cxx17Marker marks a C++17-only header (the Ascend C headers: kernel
// operator API, tiling and platform headers): its first line contains it.
// Such a header is compiled alone as C++17 instead of C99 and C++11. This
// is the one rule by which the hygiene test tells them apart.
const cxx17Marker = "npuemu-cxx17"

// isCXX17Header reports whether the header at path carries cxx17Marker on
// its first line.
func isCXX17Header(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(b), "\n")
	return strings.Contains(first, cxx17Marker)
}

// TestHeadersStandalone includes each header of emu/include alone in a
// translation unit, as C99 and as C++11 (C++17 for the headers marked
// npuemu-cxx17), so every header carries its own dependencies.
func TestHeadersStandalone(t *testing.T) {
	cc, cxx := compilers(t)
	var headers []string
	err := filepath.WalkDir(includeRoot, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".h") {
			rel, _ := filepath.Rel(includeRoot, p)
			headers = append(headers, filepath.ToSlash(rel))
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, headers)
	dir := t.TempDir()
	for _, h := range headers {
		src := filepath.Join(dir, strings.NewReplacer("/", "_", ".", "_").Replace(h)+".c")
		require.NoError(t, os.WriteFile(src, []byte("#include \""+h+"\"\n"), 0o644))
		if isCXX17Header(filepath.Join(includeRoot, h)) {
			t.Run(h+"/c++17", func(t *testing.T) {
				t.Parallel()
				compile(t, cxx, "-std=c++17", "-x", "c++", src)
			})
			continue
		}
		t.Run(h+"/c99", func(t *testing.T) {
			t.Parallel()
			compile(t, cc, "-std=c99", "-x", "c", src)
		})
		t.Run(h+"/c++11", func(t *testing.T) {
			t.Parallel()
			compile(t, cxx, "-std=c++11", "-x", "c++", src)
		})
	}
}
