package main

import (
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
