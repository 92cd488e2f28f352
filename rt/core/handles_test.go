package core

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every handleKind constant of the package has a name: messages never say
// "tag-0x.. handle" (or "handle handle") for a kind the package defines.
func TestEveryHandleKindHasAName(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	decl := regexp.MustCompile(`(?m)^\s*(?:const\s+)?(Kind\w+)\s+HandleKind\s*=\s*0x([0-9A-Fa-f]{2})`)
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			seen[m[1]] = true
		}
	}
	assert.Len(t, seen, len(HandleKindNames), "constants %v", seen)
	names := map[string]bool{}
	for k, n := range HandleKindNames {
		assert.NotContains(t, n, "handle", "%#x", uint8(k))
		assert.False(t, names[n], "%q twice", n)
		names[n] = true
	}
	assert.Equal(t, "tag-0x01", HandleKind(1).String())
}

func TestStaleHandleMessageNamesTheKind(t *testing.T) {
	tb := NewTable[int](KindMemPool)
	v := 1
	h := tb.Add(&v)
	tb.Remove(h)
	_, err := tb.Get(h)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "memory pool handle")
}
