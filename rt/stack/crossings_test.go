package stack_test

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt"
	"github.com/npuemu/npuemu/rt/stack"
	"github.com/stretchr/testify/require"
)

// rtToHAL reads rt-to-hal.tsv: rt* function -> the driver calls its row
// lists (rows of one function are merged; halMapErrorCode, the vendor's
// code translation, is not a call with work behind it).
func rtToHAL(t *testing.T) map[string][]string {
	f, err := os.Open(filepath.Join("..", "..", "..", "shared", "spec", "rt-to-hal.tsv"))
	if os.IsNotExist(err) {
		t.Skip("../shared/spec is not beside this checkout")
	}
	require.NoError(t, err)
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, -1
	rows, err := r.ReadAll()
	require.NoError(t, err)
	out := map[string][]string{}
	for _, row := range rows[1:] {
		if len(row) < 3 || !strings.HasPrefix(row[0], "rt") {
			continue
		}
		for _, h := range strings.Split(row[2], ",") {
			h = strings.TrimSpace(h)
			if (strings.HasPrefix(h, "hal") || strings.HasPrefix(h, "drv")) && h != "halMapErrorCode" &&
				!slices.Contains(out[row[0]], h) {
				out[row[0]] = append(out[row[0]], h)
			}
		}
	}
	return out
}

func implemented(e abi.Entry, ok bool) bool {
	return ok && (e.Status == abi.Supported || e.Status == abi.Partial)
}

// TestCrossingsAreVendorCalls: every pair of Crossings is a call the
// vendor's runtime makes (a row of rt-to-hal.tsv), between an rt* function
// and a driver function npuemu implements.
func TestCrossingsAreVendorCalls(t *testing.T) {
	vendor := rtToHAL(t)
	for fn, calls := range stack.Crossings {
		require.True(t, implemented(rt.SupportOf(fn)), "%s is not an implemented rt* function", fn)
		for _, h := range calls {
			require.True(t, slices.Contains(vendor[fn], h), "%s → %s is not a row of rt-to-hal.tsv", fn, h)
			require.True(t, implemented(hal.SupportOf(h)), "%s is not an implemented driver function", h)
			require.Empty(t, stack.NotCrossedPairs[fn+" "+h], "%s → %s is both crossed and excused", fn, h)
		}
	}
	for pair := range stack.NotCrossedPairs {
		f := strings.Fields(pair)
		require.Len(t, f, 2, pair)
		require.True(t, slices.Contains(vendor[f[0]], f[1]), "NotCrossedPairs %q is not a row of rt-to-hal.tsv", pair)
	}
}

// TestEveryVendorCrossingIsAccounted: every driver call rt-to-hal.tsv
// lists for an rt* function npuemu implements, to a driver function npuemu
// implements, is made through the driver's symbols (Crossings) or excused
// with a reason (NotCrossed, NotCrossedPairs) — so a driver hook's view of
// npuemu is a documented decision, call by call.
func TestEveryVendorCrossingIsAccounted(t *testing.T) {
	vendor := rtToHAL(t)
	var missing []string
	for fn, calls := range vendor {
		if !implemented(rt.SupportOf(fn)) {
			continue
		}
		for _, h := range calls {
			if !implemented(hal.SupportOf(h)) || stack.NotCrossed[h] != "" ||
				stack.NotCrossedPairs[fn+" "+h] != "" || slices.Contains(stack.Crossings[fn], h) {
				continue
			}
			missing = append(missing, fn+" → "+h)
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "driver calls of rt-to-hal.tsv neither crossed (stack.Crossings) nor excused (NotCrossed, NotCrossedPairs)")
}
