package acl

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func aclSymbols() []abi.Symbol {
	var syms []abi.Symbol
	for _, s := range abi.Symbols() {
		if s.Lib == "acl" {
			syms = append(syms, s)
		}
	}
	return syms
}

func TestSupportHasOneEntryPerSymbol(t *testing.T) {
	syms := aclSymbols()
	require.NotEmpty(t, syms)
	table := Support()
	require.Len(t, table, len(syms))
	for i, s := range syms {
		e := table[i]
		assert.Equal(t, s.Name, e.Symbol, "table order follows abi.Symbols()")
		assert.Equal(t, "acl", e.Lib)
		assert.Equal(t, s.Area, e.Area)
		got, ok := SupportOf(s.Name)
		assert.True(t, ok, s.Name)
		assert.Equal(t, e, got)
	}
	_, ok := SupportOf("aclNoSuchFunction")
	assert.False(t, ok)
	_, ok = SupportOf("halMemAlloc")
	assert.False(t, ok, "HAL symbols belong to hal.Support")
}

func TestSupportRules(t *testing.T) {
	areas := map[string]bool{}
	names := map[string]bool{}
	for _, s := range aclSymbols() {
		areas[s.Area] = true
		names[s.Name] = true
		assert.Contains(t, areaRules(), s.Area, "area %s (of %s) has no rule", s.Area, s.Name)
	}
	for a := range areaRules() {
		assert.True(t, areas[a], "areaRules names area %s, which has no symbol", a)
	}
	for n := range symbolRules() {
		assert.True(t, names[n], "symbolRules names %s, which is no ACL symbol", n)
	}
	for _, e := range Support() {
		assert.NotEmpty(t, e.Note, "%s has no note", e.Symbol)
		switch e.Status {
		case abi.Supported, abi.Partial:
			assert.Zero(t, e.Code, "%s is %s but carries a code", e.Symbol, e.Status)
		case abi.Unsupported:
			assert.Contains(t, []int32{int32(abi.ACL_ERROR_API_NOT_SUPPORT), int32(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)}, e.Code,
				"%s: unsupported entries return ACL_ERROR_API_NOT_SUPPORT or ACL_ERROR_RT_FEATURE_NOT_SUPPORT", e.Symbol)
			assert.Equal(t, e.Symbol+" is not supported by npuemu: "+e.Note, e.Message())
		default:
			t.Errorf("%s: status %v", e.Symbol, e.Status)
		}
	}
}

// TestSupportNotesNameTheWork checks that the areas planned in later issues
// say so, so that `npuemu compat` tells a user where the work stands.
func TestSupportNotesNameTheWork(t *testing.T) {
	issue := map[string]string{
		"kernel": "#4", "callback": "#4", "exception": "#4",
		"managed": "#5", "vmm": "#5", "host-mem": "#5",
		"capture": "#6", "label": "#6", "notify": "#6", "cntnotify": "#6", "ipc-event": "#6",
	}
	for _, e := range Support() {
		want, ok := issue[e.Area]
		if !ok || e.Status != abi.Unsupported || e.Code != int32(abi.ACL_ERROR_API_NOT_SUPPORT) || strings.Contains(e.Note, "undocumented") {
			continue
		}
		assert.Contains(t, e.Note, want, "%s (%s)", e.Symbol, e.Area)
	}
}

// TestSupportFollowsSpecColumns reads the support columns of the spec: a
// function the docs deny to Atlas A2 (the default emulated product) or mark
// reserved must answer ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
func TestSupportFollowsSpecColumns(t *testing.T) {
	f, err := os.Open("../../shared/spec/acl-functions.tsv")
	if os.IsNotExist(err) {
		t.Skip("spec not beside the repository")
	}
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	require.True(t, sc.Scan())
	header := strings.Split(sc.Text(), "\t")
	require.Equal(t, "name", header[3])
	require.True(t, strings.HasPrefix(header[7], "support_950/A3/A2"), header[7])
	checked := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		name, sup := cols[3], cols[7]
		if sup == "undocumented" {
			continue
		}
		flags := strings.Split(sup, "/")
		if len(flags) == 6 && flags[2] == "Y" {
			continue
		}
		checked++
		e, ok := SupportOf(name)
		require.True(t, ok, name)
		if e.Status != abi.Unsupported && strings.Contains(e.Note, " only") {
			// Implemented for the products that have it; the note names
			// them and other SoCs get ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
			continue
		}
		if e.Status != abi.Unsupported && strings.HasPrefix(sup, "RESERVED") && strings.Contains(e.Note, "vendor-reserved API, implemented") {
			// Reserved by the vendor, implemented on request (the Mbuf
			// API, docs/groups.md): the note says so.
			continue
		}
		if e.Status != abi.Unsupported && strings.Contains(e.Note, "documentation lists no product") {
			// Listed for no product at all, yet asked for (stream config
			// handles): implemented everywhere, the note warns -real may differ.
			continue
		}
		assert.Equal(t, abi.Unsupported, e.Status, "%s (%s)", name, sup)
		assert.Equal(t, int32(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT), e.Code, "%s (%s)", name, sup)
	}
	require.NoError(t, sc.Err())
	assert.NotZero(t, checked)
}
