package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// analysed is the analysis of the repository, made once for the tests.
var analysed = sync.OnceValues(func() (*Result, error) { return Analyze("../..") })

// docLevels reads the table of docs/internals.md, "Lock order": lock →
// level (−1 for a leaf).
func docLevels(t *testing.T) map[string]int {
	b, err := os.ReadFile("../../docs/internals.md")
	require.NoError(t, err)
	s := string(b)
	i := strings.Index(s, "\n## Lock order\n")
	require.True(t, i >= 0, "docs/internals.md has no section \"Lock order\"")
	s = s[i+1:]
	if j := strings.Index(s[3:], "\n## "); j >= 0 {
		s = s[:j+3]
	}
	row := regexp.MustCompile("(?m)^\\| (\\d+|leaf) \\| (.*) \\|$")
	name := regexp.MustCompile("`([^`]+)`")
	lv := map[string]int{}
	for _, m := range row.FindAllStringSubmatch(s, -1) {
		level := -1
		if m[1] != "leaf" {
			fmt.Sscan(m[1], &level)
		}
		for _, n := range name.FindAllStringSubmatch(m[2], -1) {
			_, dup := lv[n[1]]
			assert.False(t, dup, "%s is listed twice", n[1])
			lv[n[1]] = level
		}
	}
	require.NotEmpty(t, lv, "no rows in the lock order table")
	return lv
}

// TestLockOrder: every place a lock is taken under another respects the
// documented levels, and the table lists exactly the mutexes the code
// declares.
func TestLockOrder(t *testing.T) {
	r, err := analysed()
	require.NoError(t, err)
	require.NotEmpty(t, r.Locks)
	require.NotEmpty(t, r.Edges, "the analysis found no nesting at all; it is broken")
	_, cycle := r.Levels()
	assert.Empty(t, cycle, "the locks nest in a cycle (go run ./cmd/lockorder lists the edges)")

	lv := docLevels(t)
	declared := map[string]bool{}
	for _, l := range r.Locks {
		declared[l] = true
		_, ok := lv[l]
		assert.True(t, ok, "%s is not in docs/internals.md \"Lock order\" (go run ./cmd/lockorder -levels suggests a level)", l)
	}
	for l := range lv {
		assert.True(t, declared[l], "docs/internals.md \"Lock order\" names %s, which the code no longer declares", l)
	}
	for _, e := range r.Edges {
		a, okA := lv[e.A]
		b, okB := lv[e.B]
		if !okA || !okB {
			assert.True(t, declared[e.A] && declared[e.B], "edge %s -> %s names a lock the analysis did not find declared (%s)", e.A, e.B, e.Where)
			continue
		}
		assert.False(t, a < 0 || b < 0, "%s -> %s: a leaf lock is nested (%s)", e.A, e.B, e.Where)
		assert.Less(t, a, b, "%s (level %d) is held while %s (level %d) is taken: %s", e.A, a, e.B, b, e.Where)
	}
}

// TestAnalyzeSeesNesting: the analysis finds a nesting written in plain
// sight, so an empty edge list cannot pass for a clean one.
func TestAnalyzeSeesNesting(t *testing.T) {
	assert.True(t, hasEdge(t, "core.runtimeState.Mu", "core.Reg.Mu"),
		"core.runtimeState.Mu -> core.Reg.Mu (stream creation registers the stream under the runtime lock) not found")
}

// TestAnalyzeFollowsHookTable: a call through a struct field of function
// type reaches every function a struct literal assigns to it, so a lock
// taken there is seen under the caller's (testdata/hooks: core.Destroy
// holds core.mu and calls the hook fam fills, which takes fam.mu).
func TestAnalyzeFollowsHookTable(t *testing.T) {
	r := analyseHooks(t)
	var found bool
	for _, e := range r.Edges {
		found = found || e.A == "core.mu" && e.B == "fam.mu"
	}
	assert.True(t, found, "core.mu -> fam.mu (through core.H.Drop) not found in %v", r.Edges)
}

// TestAnalyzeGoStatement: a goroutine started under a lock does not hold
// it (testdata/hooks: core.Start starts work under mu, core.Run calls it,
// core.StartOnly only starts it under otherMu).
func TestAnalyzeGoStatement(t *testing.T) {
	r := analyseHooks(t)
	edges := map[string]bool{}
	for _, e := range r.Edges {
		edges[e.A+" -> "+e.B] = true
	}
	assert.True(t, edges["core.mu -> core.workMu"], "the call in Run: %v", r.Edges)
	assert.False(t, edges["core.otherMu -> core.workMu"], "the go statement in StartOnly: %v", r.Edges)
}

// analyseHooks analyses the fixture testdata/hooks (packages core, fam).
func analyseHooks(t *testing.T) *Result {
	t.Helper()
	saved := Packages
	Packages = []string{"./core", "./fam"}
	defer func() { Packages = saved }()
	r, err := Analyze("testdata/hooks")
	require.NoError(t, err)
	return r
}

// hasEdge reports whether the analysis finds lock b taken under lock a.
func hasEdge(t *testing.T, a, b string) bool {
	r, err := analysed()
	require.NoError(t, err)
	for _, e := range r.Edges {
		if e.A == a && e.B == b {
			return true
		}
	}
	return false
}
