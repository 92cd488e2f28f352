package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// TestRoutes checks the routed ACL functions: each names an ACL symbol and
// an rt* symbol that libfake implements (so a hook that forwards reaches
// working code), once each.
func TestRoutes(t *testing.T) {
	exp, err := scanExports(libDir)
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, r := range routes {
		assert.False(t, seen[r.acl], "%s routed twice", r.acl)
		seen[r.acl] = true
		a, ok := abi.SymbolByName(r.acl)
		if assert.True(t, ok, r.acl) {
			assert.Equal(t, "acl", a.Lib, r.acl)
			assert.Equal(t, "aclError", a.Return, "%s: a route returns the rt* code as the aclError", r.acl)
		}
		s, ok := abi.SymbolByName(r.rt)
		if assert.True(t, ok, r.rt) {
			assert.Equal(t, "rt", s.Lib, r.rt)
			assert.True(t, exp[r.rt], "%s routes to %s, which libfake does not implement", r.acl, r.rt)
		}
	}
}

// TestEveryRoutableCallIsRouted holds the routes to the spec: every row of
// acl-to-rt.tsv that is one rt* call, where npuemu implements both the ACL
// function and that rt* function, is routed (routes, or in Go: goRouted) or
// listed in unrouted with why. A newly implemented rt* function therefore
// fails this test until its ACL caller is routed or the reason is written.
func TestEveryRoutableCallIsRouted(t *testing.T) {
	exp, err := scanExports(libDir)
	require.NoError(t, err)
	data, err := os.ReadFile("../../../shared/spec/acl-to-rt.tsv")
	if os.IsNotExist(err) {
		t.Skip("../shared/spec is not beside the repository")
	}
	require.NoError(t, err)
	routed := map[string]bool{}
	for _, r := range routes {
		routed[r.acl] = true
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		f := strings.Split(line, "\t")
		if len(f) < 2 || strings.Contains(f[1], ",") || f[1] == "-" {
			continue
		}
		acl, rt := f[0], strings.TrimSpace(f[1])
		if !exp[acl] || !exp[rt] {
			continue
		}
		why := unrouted[acl]
		if goRouted[acl] {
			why = "routed in Go"
		}
		assert.True(t, routed[acl] || why != "", "%s is one %s call and both are implemented: route it (route.go) or say in unrouted why not", acl, rt)
		assert.False(t, routed[acl] && why != "", "%s is routed and listed as not routed", acl)
	}
	for acl := range unrouted {
		assert.True(t, exp[acl], "unrouted lists %s, which npuemu does not implement", acl)
	}
}
