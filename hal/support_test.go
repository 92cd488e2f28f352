package hal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func TestSupportHasOneEntryPerSymbol(t *testing.T) {
	var syms []abi.Symbol
	for _, s := range abi.Symbols() {
		if s.Lib == "hal" || s.Lib == "dsmi" {
			syms = append(syms, s)
		}
	}
	require.NotEmpty(t, syms)
	table := Support()
	require.Len(t, table, len(syms))
	for i, s := range syms {
		e := table[i]
		assert.Equal(t, s.Name, e.Symbol, "table order follows abi.Symbols()")
		assert.Equal(t, s.Lib, e.Lib)
		assert.Equal(t, s.Area, e.Area)
		got, ok := SupportOf(s.Name)
		assert.True(t, ok, s.Name)
		assert.Equal(t, e, got)
	}
	_, ok := SupportOf("aclrtMalloc")
	assert.False(t, ok, "ACL symbols belong to acl.Support")
}

func TestSupportRules(t *testing.T) {
	areas := map[string]bool{}
	names := map[string]bool{}
	for _, s := range abi.Symbols() {
		if s.Lib != "hal" && s.Lib != "dsmi" {
			continue
		}
		areas[s.Area] = true
		names[s.Name] = true
		assert.Contains(t, areaRules(), s.Area, "area %s (of %s) has no rule", s.Area, s.Name)
	}
	for a := range areaRules() {
		assert.True(t, areas[a], "areaRules names area %s, which has no symbol", a)
	}
	for n := range symbolRules() {
		assert.True(t, names[n], "symbolRules names %s, which is no HAL symbol", n)
	}
	for _, e := range Support() {
		assert.NotEmpty(t, e.Note, "%s has no note", e.Symbol)
		if e.Status == abi.Unsupported {
			assert.Equal(t, int32(abi.DRV_ERROR_NOT_SUPPORT), e.Code, e.Symbol)
		} else {
			assert.Zero(t, e.Code, e.Symbol)
		}
	}
}

// TestUnsupportedSaysWhatIsMissing holds every unsupported driver symbol
// to a note of its own (issue #13 point 5): a call stays unsupported only
// where the documentation gives no behaviour, and its note says what is
// missing, never an area's default.
func TestUnsupportedSaysWhatIsMissing(t *testing.T) {
	for _, e := range Support() {
		if e.Status != abi.Unsupported {
			continue
		}
		_, own := symbolRules()[e.Symbol]
		assert.True(t, own, "%s is unsupported by its area's default (%q), not by a rule of its own", e.Symbol, e.Note)
		assert.NotContains(t, e.Note, "not implemented yet", e.Symbol)
	}
}
