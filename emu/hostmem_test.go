package emu

import (
	"testing"

	"github.com/npuemu/npuemu/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHostMem(t *testing.T) {
	var h HostMem
	t.Cleanup(func() { assert.NoError(t, h.Close()) })

	_, _, ok := h.Find(12345)
	assert.False(t, ok, "nothing is pinned before the first Alloc")
	_, err := h.Alloc(0)
	assert.True(t, isCode(err, abi.ACL_ERROR_INVALID_PARAM))

	a, err := h.Alloc(1)
	require.NoError(t, err)
	b, err := h.Alloc(5000)
	require.NoError(t, err)
	for _, p := range []uintptr{a, b} {
		assert.Zero(t, p%pageSize, "page aligned: %#x", p)
	}
	assert.Equal(t, uint64(5001), h.Used())
	assert.Equal(t, 2, h.Count())

	base, size, ok := h.Find(b + 4999)
	assert.True(t, ok)
	assert.Equal(t, b, base)
	assert.Equal(t, uint64(5000), size)
	_, _, ok = h.Find(b + 5000)
	assert.False(t, ok)

	assert.True(t, isCode(h.Free(b+1), abi.ACL_ERROR_RT_MEMORY_FREE))
	require.NoError(t, h.Free(b))
	assert.True(t, isCode(h.Free(b), abi.ACL_ERROR_RT_MEMORY_FREE), "double free")
	_, _, ok = h.Find(b)
	assert.False(t, ok)
	c, err := h.Alloc(5000)
	require.NoError(t, err)
	assert.Equal(t, b, c, "freed pinned memory is reused")

	_, err = h.Alloc(1 << 62)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_MEMORY_ALLOCATION))
}

func TestHostMemDisjointFromHBM(t *testing.T) {
	var h HostMem
	t.Cleanup(func() { assert.NoError(t, h.Close()) })
	d := newTestHBM(t, 1<<20)
	p, err := h.Alloc(100)
	require.NoError(t, err)
	q, err := d.Alloc(100, 0)
	require.NoError(t, err)
	assert.False(t, d.Contains(p))
	_, _, ok := h.Find(q)
	assert.False(t, ok)
}

func TestHostMemClosed(t *testing.T) {
	var h HostMem
	p, err := h.Alloc(100)
	require.NoError(t, err)
	require.NoError(t, h.Close())
	_, err = h.Alloc(100)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_MEMORY_ALLOCATION))
	assert.Error(t, h.Free(p))
}
