package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt"
)

const (
	libDir   = "../../libfake"
	casesDir = "../../conformance/cases"
	refresh  = "go run ./cmd/shimgen -out libfake (make generate)"
)

// helperExports are libfake exports that are not spec symbols.
var helperExports = map[string]bool{"unsupported": true}

func TestParseParams(t *testing.T) {
	tests := []struct {
		in       string
		want     []param
		variadic bool
		wantErr  bool
	}{
		{in: "(empty)"},
		{in: "void"},
		{in: "int32_t deviceId", want: []param{{typ: "int32_t", name: "deviceId"}}},
		{in: "const char* func, uint32_t line", want: []param{{typ: "const char*", name: "func"}, {typ: "uint32_t", name: "line"}}},
		{in: "uint64_t shareable_handle, int pid[], uint32_t pid_num", want: []param{
			{typ: "uint64_t", name: "shareable_handle"}, {typ: "int", name: "pid", array: true}, {typ: "uint32_t", name: "pid_num"}}},
		{in: "const struct drv_mem_prop *prop", want: []param{{typ: "const struct drv_mem_prop *", name: "prop"}}},
		{in: "aclLogLevel l, const char* fmt, ...", want: []param{{typ: "aclLogLevel", name: "l"}, {typ: "const char*", name: "fmt"}}, variadic: true},
		{in: "void*", wantErr: true},
		{in: "unsigned int", wantErr: true},
		{in: "int (*fn)(int)", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, variadic, err := parseParams(tt.in)
			if tt.wantErr {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.variadic, variadic)
		})
	}
}

func TestForwardAndZero(t *testing.T) {
	tests := []struct {
		p             param
		forward, zero string
	}{
		{param{typ: "int32_t", name: "d"}, "d", "(int32_t){0}"},
		{param{typ: "const void*", name: "src"}, "(void*)src", "(const void*){0}"},
		{param{typ: "const void* const", name: "p"}, "(void*)p", "(const void* const){0}"},
		{param{typ: "const void**", name: "pp"}, "(void**)pp", "(const void**){0}"},
		{param{typ: "int32_t* const", name: "ids"}, "ids", "(int32_t* const){0}"},
		{param{typ: "const aclrtStream", name: "s"}, "s", "(const aclrtStream){0}"},
		{param{typ: "const struct drv_mem_prop *", name: "prop"}, "(struct drv_mem_prop*)prop", "(const struct drv_mem_prop *){0}"},
		{param{typ: "int", name: "pid", array: true}, "pid", "(int*){0}"},
	}
	for _, tt := range tests {
		t.Run(tt.p.typ, func(t *testing.T) {
			assert.Equal(t, tt.forward, tt.p.forward())
			assert.Equal(t, tt.zero, tt.p.zero())
		})
	}
}

func TestFailureBody(t *testing.T) {
	const call = "npu_unsupported(npu_self(), 7)"
	tests := []struct {
		ret, lib string
		want     string
		wantErr  bool
	}{
		{ret: "aclError", lib: "acl", want: "return (aclError)" + call},
		{ret: "drvError_t", lib: "hal", want: "return (drvError_t)" + call},
		{ret: "DVresult", lib: "hal", want: "return (DVresult)" + call},
		{ret: "int", lib: "dsmi", want: "return (int)" + call},
		{ret: "int", lib: "hal", want: "return 0;"},
		{ret: "const char*", lib: "acl", want: "return NULL;"},
		{ret: "aclrtBinary", lib: "acl", want: "return NULL;"},
		{ret: "float", lib: "acl", want: "return 0;"},
		{ret: "bool", lib: "hal", want: "return false;"},
		{ret: "void", lib: "acl", want: call + ";"},
		{ret: "struct mystery", lib: "acl", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.lib+" "+tt.ret, func(t *testing.T) {
			got, err := failureBody(abi.Symbol{Name: "f", Lib: tt.lib, Return: tt.ret}, call)
			if tt.wantErr {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Contains(t, got, tt.want)
			assert.Contains(t, got, call, "the unsupported call must be made for its message")
		})
	}
}

func TestGenShimsBodies(t *testing.T) {
	syms := []abi.Symbol{
		{Name: "aclA", Lib: "acl", Header: "acl/acl.h", Return: "aclError", Params: "const void* p, int32_t n"},
		{Name: "aclB", Lib: "acl", Header: "acl/acl.h", Return: "const char*", Params: "(empty)"},
		{Name: "halC", Lib: "hal", Header: "ascend_hal.h", Return: "drvError_t", Params: "void"},
		{Name: "dsmiD", Lib: "dsmi", Header: "dsmi_common_interface.h", Return: "int", Params: "int *n"},
		{Name: "aclFinalize", Lib: "acl", Header: "acl/acl.h", Return: "aclError", Params: "(empty)"},
		{Name: "halE", Lib: "hal", Header: "ascend_hal.h", Return: "void", Params: "const char *name, int pid[]"},
	}
	out, err := genShims(syms, map[string]bool{"aclA": true, "aclFinalize": true, "halE": true})
	require.NoError(t, err)
	src := string(out)

	// The emulator path is the old shim body, behind one test of npu_hooks.
	assert.Contains(t, src, "static inline aclError emu_aclA(const void* p, int32_t n) {\n    return npug_aclA(npu_self(), (void*)p, n);\n}")
	assert.Contains(t, src, "NPU_EXPORT aclError aclA(const void* p, int32_t n) {\n"+
		"    if (__builtin_expect(npu_hooks != 0, 0))\n        return hook_aclA(p, n);\n    return emu_aclA(p, n);\n}")
	assert.Contains(t, src, "static inline const char* emu_aclB(void) {\n    npu_unsupported(npu_self(), 1);\n    return NULL;\n}")
	assert.Contains(t, src, "static inline drvError_t emu_halC(void) {\n    return (drvError_t)npu_unsupported(npu_self(), 2);\n}")

	// The hook forwards by index, with the arguments unchanged, and traces.
	assert.Contains(t, src, "static NPU_HOOK aclError hook_aclA(const void* p, int32_t n) {\n"+
		"    npu_call c;\n    npu_call_begin(&c);\n    aclError r;\n"+
		"    if (!npu_pt_on)\n        r = emu_aclA(p, n);\n"+
		"    else if (npu_pt_fns[0] != NULL)\n        r = ((__typeof__(&aclA))npu_pt_fns[0])(p, n);\n"+
		"    else\n        r = (aclError)npu_pt_fail(0);\n"+
		"    if (c.trace) {\n        npu_tr *t = npu_tr_start(&c, 0);\n"+
		"        NPU_TR_ARG(t, \"p\", p);\n        NPU_TR_ARG(t, \"n\", n);\n        NPU_TR_RET(t, r);\n"+
		"        npu_tr_finish(t, &c);\n    }\n    return r;\n}")
	assert.Contains(t, src, "r = ((void)npu_pt_fail(1), (const char*)NULL);")
	assert.Contains(t, src, "r = (drvError_t)npu_pt_fail(2);")
	assert.Contains(t, src, "    npu_tr_flush();\n    return r;\n}\n\nNPU_EXPORT aclError aclFinalize(void)", "aclFinalize flushes the trace")

	// A void function; a string is traced as a string, an array as a pointer.
	assert.Contains(t, src, "NPU_EXPORT void halE(const char *name, int pid[]) {\n"+
		"    if (__builtin_expect(npu_hooks != 0, 0)) {\n        hook_halE(name, pid);\n        return;\n    }\n"+
		"    emu_halE(name, pid);\n}")
	assert.Contains(t, src, "    else\n        npu_pt_fail(5);\n")
	assert.Contains(t, src, "npu_tr_str(t, \"name\", name);\n        npu_tr_ptr(t, \"pid\", pid);\n        npu_tr_finish")

	// The table has every symbol by index; DSMI has no shim yet.
	assert.Contains(t, src, "const char npu_pt_names[] =\n    \"\\0\"\n    \"aclA\\0\"\n    \"aclB\\0\"\n    \"halC\\0\"\n    \"dsmiD\\0\"\n")
	assert.Contains(t, src, "const npu_pt_sym npu_pt_syms[] = {\n    {1, NPU_LIB_ACL},\n    {6, NPU_LIB_ACL},\n"+
		"    {11, NPU_LIB_HAL},\n    {16, NPU_LIB_OTHER},\n")
	assert.Contains(t, src, "const int npu_pt_nsyms = 6;\nconst int npu_pt_idx_recent = -1, npu_pt_idx_applog = -1;\nvoid *npu_pt_fns[6];\n")
	assert.NotContains(t, src, "dsmiD(", "dsmi symbols belong to a later library")
	assert.Contains(t, src, `#include "ascend_hal.h"`)
	assert.NotContains(t, src, `#include "dsmi_common_interface.h"`)

	_, err = genShims([]abi.Symbol{{Name: "aclV", Lib: "acl", Return: "void", Params: "const char* fmt, ..."}}, nil)
	assert.ErrorContains(t, err, "variadic")
}

func TestPtFailure(t *testing.T) {
	tests := []struct {
		ret, lib, want string
	}{
		{"aclError", "acl", "(aclError)npu_pt_fail(3)"},
		{"DVresult", "hal", "(DVresult)npu_pt_fail(3)"},
		{"int", "dsmi", "(int)npu_pt_fail(3)"},
		{"aclrtBinary", "acl", "((void)npu_pt_fail(3), (aclrtBinary)NULL)"},
		{"bool", "hal", "((void)npu_pt_fail(3), false)"},
		{"float", "acl", "((void)npu_pt_fail(3), (float)0)"},
		{"void", "acl", "npu_pt_fail(3)"},
	}
	for _, tt := range tests {
		got, err := ptFailure(abi.Symbol{Name: "f", Lib: tt.lib, Return: tt.ret}, 3)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, tt.ret)
	}
	_, err := ptFailure(abi.Symbol{Name: "f", Lib: "acl", Return: "struct mystery"}, 3)
	assert.Error(t, err)
}

func TestInputString(t *testing.T) {
	for typ, want := range map[string]bool{
		"const char*": true, "const char *": true, "const char* const": true,
		"char*": false, "char *": false, "const char**": false, "const void*": false,
	} {
		assert.Equal(t, want, param{typ: typ, name: "s"}.inputString(), typ)
	}
	assert.False(t, param{typ: "const char", name: "s", array: true}.inputString())
}

func TestGeneratedFilesUpToDate(t *testing.T) {
	got, err := generate(libDir)
	require.NoError(t, err)
	type file struct {
		path string
		want []byte
	}
	files := []file{
		{filepath.Join(libDir, shimsFile), got.shims},
		{filepath.Join(casesDir, caseFile), got.unsupported},
		{filepath.Join(libDir, guardFile), got.guards},
		{filepath.Join(libDir, frontFile), got.front},
		{filepath.Join(libDir, mirrorsFile), got.mirrors},
	}
	assert.Len(t, got.mirrorTypes, 3, "acl, hal and rt own mirrors of vendor structs")
	for _, pkg := range []string{"acl", "hal", "rt"} {
		files = append(files, file{mirrorTypesPath(libDir, pkg), got.mirrorTypes[pkg]})
	}
	for _, f := range files {
		have, err := os.ReadFile(f.path)
		require.NoError(t, err, "run %s", refresh)
		assert.True(t, string(have) == string(f.want), "%s is stale: run %s", f.path, refresh)
	}
}

// plainCSources are the libraries npuemu ships as plain C instead of
// through libfake (docs/dcmi.md), with the file that defines their symbols.
var plainCSources = map[string]string{"dsmi": "../../dcmi/dsmi.c"}

// TestSupportTablesAgree checks that every spec symbol is in exactly one
// support table, in its own library's, and that a symbol is supported or
// partial exactly when libfake implements it.
func TestSupportTablesAgree(t *testing.T) {
	exp, err := scanExports(libDir)
	require.NoError(t, err)
	plainCLibs := map[string]string{}
	for lib, path := range plainCSources {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		plainCLibs[lib] = string(src)
	}
	require.NotEmpty(t, exp, "no //export npu_* found in %s", libDir)

	bySymbol := map[string]abi.Symbol{}
	for _, s := range abi.Symbols() {
		bySymbol[s.Name] = s
	}
	for name := range exp {
		if helperExports[name] {
			continue
		}
		s, ok := bySymbol[name]
		if assert.True(t, ok, "libfake exports npu_%s, which is no spec symbol", name) {
			assert.True(t, shimLibs[s.Lib], "libfake exports npu_%s of library %s, which it does not ship", name, s.Lib)
		}
	}
	for name := range cOnly {
		assert.Contains(t, bySymbol, name, "cOnly names %s, which is no spec symbol", name)
	}

	tables := map[string]func(string) (abi.Entry, bool){"acl": acl.SupportOf, "hal": hal.SupportOf, "rt": rt.SupportOf}
	n := 0
	for _, s := range abi.Symbols() {
		n++
		var found []abi.Entry
		for _, of := range tables {
			if e, ok := of(s.Name); ok {
				found = append(found, e)
			}
		}
		if !assert.Len(t, found, 1, "%s must be in exactly one support table", s.Name) {
			continue
		}
		e := found[0]
		assert.Equal(t, s.Lib, e.Lib, "%s: table library", s.Name)
		assert.Equal(t, s.Area, e.Area, "%s: table area", s.Name)
		if src, ok := plainCLibs[s.Lib]; ok {
			// shipped by a plain-C library (not libfake): what the table
			// calls implemented must be defined there
			if e.Status.Implemented() {
				assert.Contains(t, src, " "+s.Name+"(", "%s is %s but %s does not define it", s.Name, e.Status, plainCSources[s.Lib])
			}
		} else if !shimLibs[s.Lib] {
			assert.Equal(t, abi.Unsupported, e.Status, "%s: library %s is not shipped", s.Name, s.Lib)
		} else if implemented(s, exp) {
			assert.True(t, e.Status.Implemented(), "%s is implemented in libfake but its support entry says %s: flip it in %s/support.go", s.Name, e.Status, s.Lib)
		} else {
			assert.Equal(t, abi.Unsupported, e.Status, "%s has no libfake export (npu_%s) but its support entry says %s", s.Name, s.Name, e.Status)
		}
	}
	assert.Equal(t, n, len(acl.Support())+len(hal.Support())+len(rt.Support()), "the support tables list symbols that are not in abi.Symbols()")
}

// TestGeneratedCaseCoversUnsupported checks the conformance case against the
// ACL table: one CHECK_ERR per unsupported aclError function, with its code.
func TestGeneratedCaseCoversUnsupported(t *testing.T) {
	exp, err := scanExports(libDir)
	require.NoError(t, err)
	out, err := genUnsupported(abi.Symbols(), exp)
	require.NoError(t, err)
	src := string(out)
	want := 0
	for _, e := range acl.Support() {
		s := symbolOf(t, e.Symbol)
		call := "CHECK_ERR(" + e.Symbol + "("
		if e.Status != abi.Unsupported || s.Return != "aclError" {
			assert.NotContains(t, src, call)
			continue
		}
		want++
		i := strings.Index(src, call)
		if assert.GreaterOrEqual(t, i, 0, "%s is not called", e.Symbol) {
			line := src[i : i+strings.Index(src[i:], "\n")]
			assert.True(t, strings.HasSuffix(line, ", "+codeName(e.Code)+");"), "%s: %s", e.Symbol, line)
		}
	}
	assert.Equal(t, want, strings.Count(src, "CHECK_ERR("))
}

func symbolOf(t *testing.T, name string) abi.Symbol {
	for _, s := range abi.Symbols() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no symbol %s", name)
	return abi.Symbol{}
}
