package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const kernelSrc = `#include "kernel_operator.h"
#include "tiling.h"
// a comment naming fake<<<1, 2, 3>>>(x) and __global__ __aicore__ void nope(int a) {}
/* block comment: extern "C" __global__ __aicore__ void nope2() {} */
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTiling tiling)
{
    KernelAdd op;
    op.Init(x, y, z, tiling.totalLength, tiling.tileNum);
    op.Process();
}
extern "C" __global__ __aicore__ void declared_only(GM_ADDR x);
template <typename T> __global__ __aicore__ void templated(GM_ADDR x) {}
__global__ __aicore__ void cube_k(__gm__ uint8_t *a, uint32_t n, const float s)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    const char *msg = "add_custom<<<9, 9, 9>>>(x)";
}
void launch(uint32_t blockDim, void *l2ctrl, void *stream, uint8_t *x, uint8_t *y, uint8_t *z, AddTiling t)
{
    add_custom<<<blockDim, l2ctrl, stream>>>(x, y, z, t);
    cube_k <<< 1, nullptr, stream >>> (x, 4, 1.0f);
}
`

func TestScanKernels(t *testing.T) {
	s, err := scanSource(kernelSrc)
	require.NoError(t, err)
	require.Len(t, s.Kernels, 2, "definitions only: no prototype, no template, nothing in comments")
	add, cube := s.Kernels[0], s.Kernels[1]
	assert.Equal(t, "add_custom", add.Name)
	assert.Equal(t, []param{{"GM_ADDR", "x"}, {"GM_ADDR", "y"}, {"GM_ADDR", "z"}, {"AddTiling", "tiling"}}, add.Params)
	assert.Equal(t, "NPUEMU_VECTOR", add.Kind, "no task type, no Matmul: vector")
	assert.False(t, add.Coop)
	assert.Equal(t, "cube_k", cube.Name)
	assert.Equal(t, "NPUEMU_CUBE", cube.Kind)
	assert.Equal(t, []param{{"__gm__ uint8_t *", "a"}, {"uint32_t", "n"}, {"const float", "s"}}, cube.Params)
	require.Len(t, s.Warnings, 1, "the templated kernel")
	assert.Contains(t, s.Warnings[0], "templated")
	require.Len(t, s.Launches, 2, "the launches in code, not in the comment or the string")
	assert.Equal(t, "add_custom", s.Launches[0].Name)
	assert.Equal(t, "cube_k", s.Launches[1].Name)
}

func TestScanKindAndCooperation(t *testing.T) {
	for _, c := range []struct {
		src, kind string
		coop      bool
	}{
		{"__global__ __aicore__ void k() { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2); }", "NPUEMU_MIX", true},
		{"__global__ __aicore__ void k() { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }", "NPUEMU_VECTOR", false},
		{"#include \"lib/matmul_intf.h\"\n__global__ __aicore__ void k() { }", "NPUEMU_MIX", true},
		{"__global__ __aicore__ void k() { REGIST_MATMUL_OBJ(&pipe, ws, mm, &t); }", "NPUEMU_MIX", true},
		// SyncAll from a class the kernel uses: the whole file counts
		{"class C { void f() { AscendC::SyncAll(); } };\n__global__ __aicore__ void k() { }", "NPUEMU_VECTOR", true},
		{"__global__ __aicore__ void k() { CrossCoreSetFlag<0, PIPE_MTE3>(1); }", "NPUEMU_VECTOR", true},
		// the file's only task type, written in a helper the kernel calls
		{"inline void setup() { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); }\n__global__ __aicore__ void k() { setup(); }", "NPUEMU_CUBE", false},
		// two different ones outside: neither is taken
		{"void a() { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); }\nvoid b() { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }\n__global__ __aicore__ void k() { }", "NPUEMU_VECTOR", false},
	} {
		s, err := scanSource(c.src)
		require.NoError(t, err, c.src)
		require.Len(t, s.Kernels, 1, c.src)
		assert.Equal(t, c.kind, s.Kernels[0].Kind, c.src)
		assert.Equal(t, c.coop, s.Kernels[0].Coop, c.src)
	}
}

func TestScanErrors(t *testing.T) {
	_, err := scanSource("__global__ __aicore__ void k(GM_ADDR x) { if (x) {")
	assert.ErrorContains(t, err, "unbalanced")
	_, err = scanSource("void f() { k<<<1, nullptr, s>>(x); }")
	assert.ErrorContains(t, err, "without its >>>")
	_, err = scanSource("__global__ __aicore__ void k(GM_ADDR) {}")
	assert.ErrorContains(t, err, "want a type and a name")
}

func TestBlankKeepsOffsets(t *testing.T) {
	src := "a = \"x<<<\\\"y\"; // c\nb = 'q'; int n = 1'000; R\"(raw<<<)\" /* z\n */ end"
	bl := blank(src)
	require.Equal(t, len(src), len(bl))
	assert.Equal(t, strings.Count(src, "\n"), strings.Count(bl, "\n"))
	assert.NotContains(t, bl, "<<<")
	assert.Contains(t, bl, "1'000", "digit separators are not character literals")
	assert.True(t, strings.HasSuffix(bl, " end"))
}

func TestRewriteLaunches(t *testing.T) {
	s, err := scanSource(kernelSrc)
	require.NoError(t, err)
	out := rewriteLaunches(kernelSrc, s.Launches)
	assert.Equal(t, strings.Count(kernelSrc, "\n"), strings.Count(out, "\n"), "lines are kept")
	assert.Contains(t, out, `npuemu_asc_drv::make_launcher(add_custom, "add_custom", blockDim, l2ctrl, stream)(x, y, z, t);`)
	assert.Contains(t, out, `npuemu_asc_drv::make_launcher(cube_k, "cube_k",  1, nullptr, stream )`)
	assert.Contains(t, out, `"add_custom<<<9, 9, 9>>>(x)"`, "strings are left alone")
}

func TestLaunchHeader(t *testing.T) {
	s, err := scanSource(kernelSrc)
	require.NoError(t, err)
	h := launchHeader(s.Kernels[0], "add_custom.cpp")
	assert.Contains(t, h, "uint32_t aclrtlaunch_add_custom(uint32_t blockDim, aclrtStream stream, void* x, void* y, void* z, void* tiling);")
	assert.Contains(t, h, "#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func")
	h = launchHeader(s.Kernels[1], "k.cpp")
	assert.Contains(t, h, "aclrtlaunch_cube_k(uint32_t blockDim, aclrtStream stream, void* a, uint32_t n, float s)")
}

func TestParseArgs(t *testing.T) {
	inv, err := parseArgs([]string{"-xcce", "-DFOO=1", "-I", "inc", "--cce-aicore-arch=dav-m200-vec", "--cce-auto-sync",
		"-mllvm", "-cce-aicore-function-stack-size=16000", "-O2", "-std=c++17", "-MD", "-MT", "a.o", "-MF", "a.o.d",
		"-Xaicore-start", "-DDEV", "-Xaicore-end", "-o", "a.o", "-c", "k.cpp"})
	require.NoError(t, err)
	assert.True(t, inv.compileOnly)
	assert.Equal(t, "a.o", inv.output)
	assert.Equal(t, []string{"k.cpp"}, inv.inputs)
	assert.Equal(t, []string{"-DFOO=1", "-I", "inc", "-O2", "-std=c++17"}, inv.common)
	assert.Equal(t, []string{"-MD", "-MT", "a.o", "-MF", "a.o.d"}, inv.hostOnly)
	assert.Equal(t, []string{"-DDEV"}, inv.deviceOnly)
	assert.Equal(t, "a.o.d", inv.depFile)
	assert.Equal(t, archs["dav-m200"], inv.arch)

	inv, err = parseArgs([]string{"--npuemu-launcher", "--npuemu-device-only", "/usr/bin/c++", "-fPIC", "-c", "k.asc", "-o", "k.o"})
	require.NoError(t, err)
	assert.Equal(t, "/usr/bin/c++", inv.cxx)
	assert.True(t, inv.deviceObj)
	assert.True(t, isSource("k.asc"))

	inv, err = parseArgs([]string{"--cce-fatobj-link", "a.o", "b.o", "-o", "app", "-L/x", "-lruntime", "-lascendcl"})
	require.NoError(t, err)
	assert.False(t, inv.compileOnly)
	assert.Equal(t, []string{"a.o", "b.o"}, inv.inputs)
	assert.Equal(t, []string{"-L/x", "-lruntime", "-lascendcl"}, inv.linkOnly)

	_, err = parseArgs([]string{"--npuemu-bogus"})
	assert.ErrorContains(t, err, "unknown option")
	_, err = parseArgs([]string{"-o"})
	assert.ErrorContains(t, err, "needs an argument")
}

func TestDevicePassFlags(t *testing.T) {
	inv, err := parseArgs([]string{"-O0", "-g", "-Werror", "-Wall", "-c", "k.cpp"})
	require.NoError(t, err)
	inv.root = "/tk"
	dev := inv.passFlags(true)
	assert.Contains(t, dev, "-fPIC")
	assert.Equal(t, "-O2", dev[len(dev)-1], "the device pass runs kernels: optimised")
	assert.NotContains(t, dev, "-Werror")
	assert.Contains(t, dev, "-std=c++17")
	assert.Contains(t, dev, "-I/tk/include")
	host := inv.passFlags(false)
	assert.Contains(t, host, "-Werror", "the host pass keeps the user's warnings")
	assert.NotContains(t, host, "-O2")
	assert.Contains(t, host, "-D__NPUEMU_HOST_PASS__=1")
}

// TestCompileSmoke compiles a kernel with a stand-in kernel_operator.h
// through both passes and checks the object: the launch stub, the embedded
// device object with its kernel table. The driver's end-to-end proof is
// conformance's TestAscendCSamples.
func TestCompileSmoke(t *testing.T) {
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("no g++")
	}
	root, err := filepath.Abs("../../emu")
	require.NoError(t, err)
	dir := t.TempDir()
	mock := `#pragma once
#include <cstdint>
#include <cstring>
#include "npuemu/kernel.h"
#define __global__
#define __aicore__
#define __gm__
typedef uint8_t *GM_ADDR;
namespace AscendC { inline void SetSysWorkspace(GM_ADDR) {} }
namespace npuemu { namespace asc {
template <class T> T arg(const npuemu_kernel_ctx *ctx, size_t off) { T v; std::memcpy((void *)&v, (const char *)ctx->args + off, sizeof(T)); return v; }
template <class F> void run_block(const npuemu_kernel_ctx *, const char *, uint32_t, F &&f) { f(); }
}}
`
	src := `#include "kernel_operator.h"
struct T { uint32_t n; float s; };
extern "C" __global__ __aicore__ void k(GM_ADDR x, T t) { ((float *)x)[0] = t.s * t.n; }
void elsewhere();
void k_do(uint32_t b, void *s, uint8_t *x, T t) { elsewhere(); k<<<b, nullptr, s>>>(x, t); }
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kernel_operator.h"), []byte(mock), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "k.cpp"), []byte(src), 0o644))
	t.Setenv("NPUEMU_TOOLKIT_ROOT", root)
	obj := filepath.Join(dir, "k.o")
	require.NoError(t, run([]string{"-DHAVE_WORKSPACE", "-c", filepath.Join(dir, "k.cpp"), "-o", obj}))
	// a dependency file asked for with -MD alone: named after the output,
	// for the output, listing the source and not the generated unit
	require.NoError(t, run([]string{"-MD", "-c", filepath.Join(dir, "k.cpp"), "-o", filepath.Join(dir, "kd.o")}))
	dep, err := os.ReadFile(filepath.Join(dir, "kd.d"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(dep), filepath.Join(dir, "kd.o")+":"), "%s", dep)
	assert.Contains(t, string(dep), filepath.Join(dir, "k.cpp"))
	assert.Contains(t, string(dep), "kernel_operator.h")
	assert.NotContains(t, string(dep), "npuemu_host_tu")

	nm, err := exec.Command("nm", obj).Output()
	require.NoError(t, err)
	assert.Contains(t, string(nm), " T aclrtlaunch_k")
	assert.Contains(t, string(nm), " U aclrtLaunchKernelWithHostArgs")
	assert.Contains(t, string(nm), " U aclrtBinaryLoadFromData")
	assert.Regexp(t, ` R npuemu_asc_devbin_[0-9a-f]+_end`, string(nm))

	// the CCE modules' static library rule: an archive of the objects
	lib := filepath.Join(dir, "libk.a")
	require.NoError(t, run([]string{"--cce-fatobj-link", "-fPIC", "--cce-build-static-lib", "-o", lib, obj}))
	members, err := exec.Command("ar", "t", lib).Output()
	require.NoError(t, err)
	assert.Equal(t, "k.o\n", string(members))

	// the device part alone, linked as a fatbin: one exported table
	dev := filepath.Join(dir, "k.dev.o")
	require.NoError(t, run([]string{"--npuemu-launcher", "--npuemu-device-only", "g++", "-c", filepath.Join(dir, "k.cpp"), "-o", dev}))
	fat := filepath.Join(dir, "fatbin", "k", "k.o")
	require.NoError(t, run([]string{"--npuemu-fatbin-link", "-o", fat, dev}))
	nm, err = exec.Command("nm", "-D", "--defined-only", fat).Output()
	require.NoError(t, err)
	assert.Contains(t, string(nm), "npuemu_kernel_table")
	// host code of the unit is left out of the device binary: a dlopen
	// could not resolve what it calls in other units
	nm, err = exec.Command("nm", "-D", "--undefined-only", fat).Output()
	require.NoError(t, err)
	assert.NotContains(t, string(nm), "elsewhere")
	assert.NotContains(t, string(nm), "aclrt")

	// a launch of a kernel defined elsewhere is refused with the reason
	require.NoError(t, os.WriteFile(filepath.Join(dir, "l.cpp"), []byte("extern \"C\" void k(int);\nvoid f() { k<<<1, nullptr, nullptr>>>(1); }\n"), 0o644))
	err = run([]string{"-c", filepath.Join(dir, "l.cpp"), "-o", filepath.Join(dir, "l.o")})
	assert.ErrorContains(t, err, "not defined in this file")
}
