package emu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpenPages(t *testing.T) {
	t.Setenv(EnvProtect, "1")
	h := newTestHBM(t, 64<<20)
	a, err := h.Alloc(5000, 0)
	require.NoError(t, err)
	lo, hi, ok := h.OpenPages(a)
	require.True(t, ok)
	assert.Equal(t, a, lo)
	assert.Equal(t, a+2*pageSize, hi, "to the page holding the last byte")
	assert.Equal(t, "rw-", protOf(t, hi-1))
	_, _, ok = h.OpenPages(a + 64)
	assert.False(t, ok, "only a block's base")
	b, err := h.Alloc(3*pageSize, 0)
	require.NoError(t, err)
	h.Trim(b, 100) // the last two pages are not handed out
	_, hi, ok = h.OpenPages(b)
	require.True(t, ok)
	assert.Equal(t, b+pageSize, hi, "a trimmed tail is not open")
	_, err = h.Free(a)
	require.NoError(t, err)
	_, _, ok = h.OpenPages(a)
	assert.False(t, ok, "a freed block")
}
