package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func TestGenFront(t *testing.T) {
	syms := []abi.Symbol{
		{Name: "aclA", Lib: "acl", Header: "acl/acl.h", Return: "aclError", Params: "const void* p, int32_t n"},
		{Name: "aclGetRecentErrMsg", Lib: "acl", Header: "acl/acl.h", Return: "const char*", Params: "(empty)"},
		{Name: "halC", Lib: "hal", Header: "ascend_hal.h", Return: "drvError_t", Params: "void"},
		{Name: "dsmiD", Lib: "dsmi", Header: "dsmi_common_interface.h", Return: "int", Params: "int *n"},
		{Name: "halE", Lib: "hal", Header: "ascend_hal.h", Return: "void", Params: "const char *name, int pid[]"},
		{Name: "rtF", Lib: "rt", Header: "runtime/rt.h", Return: "rtError_t", Params: "uint32_t x"},
		{Name: "aclAppLog", Lib: "acl", Header: "acl/acl.h", Return: "void", Params: "aclLogLevel l, const char* fmt, ..."},
	}
	out, err := genFront(syms)
	require.NoError(t, err)
	src := string(out)

	// Every call: one acquire load of the slot, the hand-over of queued
	// launches (one relaxed load when none was ever queued) and the call in
	// the protection key's window (a tail call without a key: front.h);
	// the first goes through the cold load_ function, which resolves the
	// name and then does the same (launches may be queued by then).
	assert.Contains(t, src, "NPU_EXPORT aclError aclA(const void* p, int32_t n) {\n"+
		"    void *f = npu_front_slot(0);\n    if (__builtin_expect(f == NULL, 0))\n        return load_aclA(p, n);\n"+
		"    NPU_LQ_BEFORE(0);\n    NPU_FRONT_RETURN(aclError, ((__typeof__(&aclA))f)(p, n));\n}")
	assert.Contains(t, src, "static NPU_FRONT_COLD aclError load_aclA(const void* p, int32_t n) {\n"+
		"    void *f = npu_front_load(0);\n    if (f == NULL)\n        return (aclError)npu_front_fail(0);\n"+
		"    NPU_LQ_BEFORE(0);\n    NPU_FRONT_RETURN(aclError, ((__typeof__(&aclA))f)(p, n));\n}")
	// Without a core: the reason itself, the library's codes, void.
	assert.Contains(t, src, "return npu_front_errmsg(1);")
	assert.Contains(t, src, "return (drvError_t)npu_front_fail(2);")
	assert.Contains(t, src, "return (rtError_t)npu_front_fail(5);")
	assert.Contains(t, src, "NPU_EXPORT void halE(const char *name, int pid[]) {\n    void *f = npu_front_slot(4);\n"+
		"    if (__builtin_expect(f == NULL, 0)) {\n        load_halE(name, pid);\n        return;\n    }\n"+
		"    NPU_LQ_BEFORE(0);\n    NPU_FRONT_DO(((__typeof__(&halE))f)(name, pid));\n}")
	// aclGetRecentErrMsg keeps the thread's armed launches.
	assert.Contains(t, src, "        return load_aclGetRecentErrMsg();\n    NPU_LQ_BEFORE(1);\n")
	// The table: names by index (their offsets in one array); DSMI is not
	// the front's; aclAppLog is written by hand (front.c) but resolved by
	// name.
	assert.Contains(t, src, "const char npu_front_names[] =\n    \"\\0\"\n    \"aclA\\0\"\n    \"aclGetRecentErrMsg\\0\"\n"+
		"    \"halC\\0\"\n    \"halE\\0\"\n    \"rtF\\0\"\n    \"aclAppLog\\0\";\n")
	assert.Contains(t, src, "const npu_front_sym npu_front_syms[] = {\n    {1, NPU_FRONT_ACL},\n"+
		"    {6, NPU_FRONT_ACL},\n    {25, NPU_FRONT_HAL},\n    {0, NPU_FRONT_ACL},\n    {30, NPU_FRONT_HAL},\n    {35, NPU_FRONT_RT},\n")
	assert.Contains(t, src, "const int npu_front_nsyms = 7;\nvoid *npu_front_fns[7];\n")
	assert.NotContains(t, src, "dsmiD(")
	assert.NotContains(t, src, "aclAppLog(")
}

// TestGenFrontBatched: the launch and the stream synchronisation are
// written by hand (launchq.c), which gets their indexes; the other
// synchronisations keep the armed launches and report a queued launch's
// failure (npu_lq_after); frontAsyncErr only names aclError functions that
// exist.
func TestGenFrontBatched(t *testing.T) {
	syms := []abi.Symbol{
		{Name: "aclrtSynchronizeStream", Lib: "acl", Header: "acl/acl.h", Return: "aclError", Params: "aclrtStream stream"},
		{Name: "aclrtLaunchKernelWithConfig", Lib: "acl", Header: "acl/acl.h", Return: "aclError", Params: "aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg* cfg, aclrtArgsHandle argsHandle, void* reserve"},
		{Name: "aclrtSynchronizeDevice", Lib: "acl", Header: "acl/acl.h", Return: "aclError", Params: "void"},
	}
	out, err := genFront(syms)
	require.NoError(t, err)
	src := string(out)
	assert.Contains(t, src, "const int npu_front_idx_aclrtSynchronizeStream = 0;\n")
	assert.Contains(t, src, "const int npu_front_idx_aclrtLaunchKernelWithConfig = 1;\n")
	assert.NotContains(t, src, "NPU_EXPORT aclError aclrtSynchronizeStream(")
	assert.NotContains(t, src, "NPU_EXPORT aclError aclrtLaunchKernelWithConfig(")
	assert.Contains(t, src, "    NPU_LQ_BEFORE(1);\n    NPU_FRONT_AFTER(((__typeof__(&aclrtSynchronizeDevice))f)());\n}")
	// Its first call too (the cold path), which may come after launches.
	assert.Contains(t, src, "static NPU_FRONT_COLD aclError load_aclrtSynchronizeDevice(void) {\n"+
		"    void *f = npu_front_load(2);\n    if (f == NULL)\n        return (aclError)npu_front_fail(2);\n"+
		"    NPU_LQ_BEFORE(1);\n    NPU_FRONT_AFTER(((__typeof__(&aclrtSynchronizeDevice))f)());\n}")

	names := map[string]abi.Symbol{}
	for _, s := range abi.Symbols() {
		names[s.Name] = s
	}
	for n := range frontOwn {
		assert.Contains(t, names, n)
	}
	for n := range frontKeep {
		assert.Contains(t, names, n)
	}
	for n := range frontAsyncErr {
		if assert.Contains(t, names, n) {
			assert.Equal(t, "aclError", names[n].Return, n)
			assert.True(t, frontKeep[n], "%s reports queued failures but forgets the armed launches", n)
		}
	}
}
