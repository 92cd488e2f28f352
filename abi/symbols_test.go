package abi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSymbols(t *testing.T) {
	libs := map[string]int{}
	seen := map[string]bool{}
	last := ""
	order := map[string]int{"acl": 0, "hal": 1, "dsmi": 2, "rt": 3}
	for i, s := range Symbols() {
		require.NotEmpty(t, s.Name)
		assert.False(t, seen[s.Name], "duplicate %s", s.Name)
		seen[s.Name] = true
		libs[s.Lib]++
		if s.Area == "prof" || s.Area == "mstx" {
			libs["prof-api.md"]++
		}
		_, ok := order[s.Lib]
		require.True(t, ok, "%s: lib %q", s.Name, s.Lib)
		if last != "" {
			assert.LessOrEqual(t, order[last], order[s.Lib], "%s out of order", s.Name)
		}
		last = s.Lib
		assert.NotEmpty(t, s.Return, s.Name)
		assert.NotEmpty(t, s.Params, s.Name)
		assert.NotEmpty(t, s.Header, s.Name)
		assert.NotEmpty(t, s.Area, s.Name)
		got, ok := SymbolByName(s.Name)
		assert.True(t, ok)
		assert.Equal(t, s, got)
		assert.Equal(t, i, SymbolIndex(s.Name))
	}
	assert.Equal(t, 404, libs["acl"]-libs["prof-api.md"], "acl-functions.tsv has 404 rows")
	assert.Equal(t, 38+14, libs["prof-api.md"], "prof-api.md declares 38 aclprof and 14 mstx functions")
	assert.Positive(t, libs["hal"])
	assert.Positive(t, libs["dsmi"])
	assert.Equal(t, 355+7, libs["rt"], "rt-functions.tsv has 355 priority-A functions; cmd/specgen exports 7 of priority B with them (rtExtraFunctions)")

	_, ok := SymbolByName("aclrtNoSuchThing")
	assert.False(t, ok)
	assert.Equal(t, -1, SymbolIndex("aclrtNoSuchThing"))
}

func TestSymbolDetails(t *testing.T) {
	tests := []Symbol{
		{Name: "aclrtGetSocName", Lib: "acl", Header: "acl/acl_base_rt.h", Return: "const char*", Params: "(empty)"},
		{Name: "aclrtSynchronizeDevice", Lib: "acl", Header: "acl/acl_rt.h", Return: "aclError", Params: "void"},
		{Name: "aclrtQueryEvent", Lib: "acl", Header: "acl/acl_rt.h", Return: "aclError",
			Deprecated: "aclrtQueryEvent is deprecated, use aclrtQueryEventStatus instead"},
		{Name: "halMemAlloc", Lib: "hal", Header: "ascend_hal_base.h", Area: "mem", Return: "drvError_t",
			Params: "void **pp, unsigned long long size, unsigned long long flag"},
		{Name: "drvGetDevNum", Lib: "hal", Area: "device", Return: "drvError_t", Params: "uint32_t *num_dev"},
		{Name: "halSupportFeature", Lib: "hal", Return: "bool"},
		{Name: "dsmi_get_device_count", Lib: "dsmi", Header: "dsmi_common_interface.h", Return: "int", Params: "int *device_count"},
		{Name: "dsmi_get_memory_info_v2", Lib: "dsmi", Header: "dsmi_common_interface.h", Return: "int"},
	}
	for _, want := range tests {
		got, ok := SymbolByName(want.Name)
		require.True(t, ok, want.Name)
		assert.Equal(t, want.Lib, got.Lib, want.Name)
		assert.Equal(t, want.Return, got.Return, want.Name)
		for _, f := range []struct{ want, got string }{
			{want.Header, got.Header}, {want.Area, got.Area}, {want.Params, got.Params}, {want.Deprecated, got.Deprecated},
		} {
			if f.want != "" {
				assert.Equal(t, f.want, f.got, want.Name)
			}
		}
	}
}
