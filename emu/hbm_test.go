package emu

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/npuemu/npuemu/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newTestHBM(t *testing.T, total uint64) *HBM {
	t.Helper()
	h, err := NewHBM("dev0", total)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, h.Close()) })
	return h
}

func isCode(err error, code abi.Code) bool { return errors.Is(err, abi.Err(code)) }

func TestHBMExactCapacity(t *testing.T) {
	const total = 1 << 20
	h := newTestHBM(t, total)
	assert.Equal(t, uint64(total), h.Total())

	a, err := h.Alloc(total-100, 0)
	require.NoError(t, err)
	b, err := h.Alloc(100, 0)
	require.NoError(t, err, "the last byte of capacity must be allocatable")
	assert.Equal(t, uint64(total), h.Used())

	_, err = h.Alloc(1, 0)
	require.True(t, isCode(err, abi.ACL_ERROR_RT_MEMORY_ALLOCATION), "%v", err)
	assert.Contains(t, err.Error(), "1048576 of 1048576 bytes in use")

	n, err := h.Free(b)
	require.NoError(t, err)
	assert.Equal(t, uint64(100), n)
	_, err = h.Alloc(101, 0)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_MEMORY_ALLOCATION), "101 bytes must not fit in 100 free")
	c, err := h.Alloc(100, 0)
	require.NoError(t, err)
	assert.Equal(t, b, c, "freed memory is reused at once")

	for _, p := range []uintptr{a, c} {
		_, err := h.Free(p)
		require.NoError(t, err)
	}
	assert.Zero(t, h.Used())
	assert.Zero(t, h.Count())
	_, err = h.Alloc(total+1, 0)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_MEMORY_ALLOCATION))
	whole, err := h.Alloc(total, 0)
	require.NoError(t, err, "after freeing everything the whole capacity is one block again")
	_, err = h.Free(whole)
	require.NoError(t, err)
}

func TestHBMAlignment(t *testing.T) {
	h := newTestHBM(t, 64<<20)
	for _, align := range []uint64{0, 1, 32, 64, 512, 4096, 1 << 21} {
		_, err := h.Alloc(3, 0) // disturb the next start
		require.NoError(t, err)
		p, err := h.Alloc(1000, align)
		require.NoError(t, err)
		assert.Zero(t, uint64(p)%max(align, HBMMinAlign), "align %d: %#x", align, p)
	}
	_, err := h.Alloc(10, 48)
	assert.True(t, isCode(err, abi.ACL_ERROR_INVALID_PARAM))
	_, err = h.Alloc(0, 0)
	assert.True(t, isCode(err, abi.ACL_ERROR_INVALID_PARAM))
}

func TestHBMFindAndFree(t *testing.T) {
	h := newTestHBM(t, 1<<20)
	p, err := h.Alloc(1000, 0)
	require.NoError(t, err)
	q, err := h.Alloc(10, 0)
	require.NoError(t, err)

	tests := []struct {
		name   string
		addr   uintptr
		base   uintptr
		size   uint64
		wantOK bool
	}{
		{"start", p, p, 1000, true},
		{"inside", p + 999, p, 1000, true},
		{"past the requested size", p + 1000, 0, 0, false},
		{"second block", q + 5, q, 10, true},
		{"unallocated in range", q + 4096, 0, 0, false},
		{"outside range", 4096, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, size, ok := h.Find(tt.addr)
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.base, base)
			assert.Equal(t, tt.size, size)
		})
	}
	assert.True(t, h.Contains(q+4096))
	assert.False(t, h.Contains(4096))
	rb, rs := h.Range()
	assert.True(t, h.Contains(rb+uintptr(rs)-1))
	assert.False(t, h.Contains(rb+uintptr(rs)))

	_, err = h.Free(p + 8)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_MEMORY_FREE), "interior pointer: %v", err)
	assert.Contains(t, err.Error(), "not its start")
	_, err = h.Free(4096)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_MEMORY_FREE))
	_, err = h.Free(p)
	require.NoError(t, err)
	_, err = h.Free(p)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_MEMORY_FREE), "double free")
	_, _, ok := h.Find(p)
	assert.False(t, ok)
	assert.Equal(t, uint64(10), h.Used())

	var walked []uintptr
	h.Walk(func(b uintptr, s uint64) { walked = append(walked, b) })
	assert.Equal(t, []uintptr{q}, walked)
}

func TestHBMRangesDisjoint(t *testing.T) {
	a := newTestHBM(t, 1<<30)
	b := newTestHBM(t, 1<<30)
	ab, as := a.Range()
	bb, bs := b.Range()
	assert.True(t, ab+uintptr(as) <= bb || bb+uintptr(bs) <= ab, "ranges overlap")
	p, err := a.Alloc(64, 0)
	require.NoError(t, err)
	assert.False(t, b.Contains(p))
	_, _, ok := b.Find(p)
	assert.False(t, ok)
}

func TestHBMClosed(t *testing.T) {
	h, err := NewHBM("dev0", 1<<20)
	require.NoError(t, err)
	p, err := h.Alloc(64, 0)
	require.NoError(t, err)
	require.NoError(t, h.Close())
	require.NoError(t, h.Close())
	_, err = h.Alloc(64, 0)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_MEMORY_ALLOCATION))
	_, err = h.Free(p)
	assert.Error(t, err)
	_, _, ok := h.Find(p)
	assert.False(t, ok)
}

// TestHBMRandomAgainstModel runs random allocations and frees and checks the
// allocator against a plain map: blocks never overlap, Find agrees, Used is
// the sum of live sizes and a full free restores one free range.
func TestHBMRandomAgainstModel(t *testing.T) {
	const total = 4 << 20
	h := newTestHBM(t, total)
	rng := rand.New(rand.NewPCG(1, 2))
	live := map[uintptr]uint64{}
	var used uint64
	for i := 0; i < 3000; i++ {
		if len(live) > 0 && rng.IntN(3) == 0 {
			for p, s := range live { // map order is random enough
				n, err := h.Free(p)
				require.NoError(t, err)
				require.Equal(t, s, n)
				delete(live, p)
				used -= s
				break
			}
			continue
		}
		size := uint64(1 + rng.IntN(64<<10))
		align := uint64(1) << rng.IntN(14)
		p, err := h.Alloc(size, align)
		if used+size > total {
			require.True(t, isCode(err, abi.ACL_ERROR_RT_MEMORY_ALLOCATION))
			continue
		}
		require.NoError(t, err, "used %d + %d <= %d", used, size, total)
		require.Zero(t, uint64(p)%max(align, HBMMinAlign))
		live[p] = size
		used += size
		require.Equal(t, used, h.Used())
	}
	type blk struct {
		p uintptr
		s uint64
	}
	var all []blk
	h.Walk(func(p uintptr, s uint64) { all = append(all, blk{p, s}) })
	require.Len(t, all, len(live))
	for i, b := range all {
		assert.Equal(t, live[b.p], b.s)
		if i > 0 {
			assert.LessOrEqual(t, all[i-1].p+uintptr(all[i-1].s), b.p, "blocks overlap")
		}
		base, size, ok := h.Find(b.p + uintptr(b.s) - 1)
		assert.True(t, ok)
		assert.Equal(t, b.p, base)
		assert.Equal(t, b.s, size)
	}
	for p := range live {
		_, err := h.Free(p)
		require.NoError(t, err)
	}
	assert.Zero(t, h.Used())
	h.mu.RLock()
	root := h.arena.root
	h.mu.RUnlock()
	assert.True(t, root.free && root.left == nil && root.right == nil, "free ranges must coalesce back into one")
}

func TestHBMConcurrent(t *testing.T) {
	const total = 8 << 20
	h := newTestHBM(t, total)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, 7))
			var mine []uintptr
			for i := 0; i < 400; i++ {
				if len(mine) > 0 && rng.IntN(2) == 0 {
					k := rng.IntN(len(mine))
					_, err := h.Free(mine[k])
					assert.NoError(t, err)
					mine = append(mine[:k], mine[k+1:]...)
					continue
				}
				p, err := h.Alloc(uint64(1+rng.IntN(16<<10)), 0)
				if err != nil {
					assert.True(t, isCode(err, abi.ACL_ERROR_RT_MEMORY_ALLOCATION))
					continue
				}
				base, _, ok := h.Find(p)
				assert.True(t, ok)
				assert.Equal(t, p, base)
				mine = append(mine, p)
			}
			for _, p := range mine {
				_, err := h.Free(p)
				assert.NoError(t, err)
			}
		}(uint64(g))
	}
	wg.Wait()
	assert.Zero(t, h.Used())
	assert.Zero(t, h.Count())
}

func BenchmarkHBMAllocFree(b *testing.B) {
	h, err := NewHBM("dev0", 1<<30)
	require.NoError(b, err)
	defer h.Close()
	// A populated allocator: 1000 live blocks.
	for i := 0; i < 1000; i++ {
		_, err := h.Alloc(uint64(512+i*64), 0)
		require.NoError(b, err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := h.Alloc(4096, 0)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := h.Free(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHBMFind(b *testing.B) {
	h, err := NewHBM("dev0", 1<<30)
	require.NoError(b, err)
	defer h.Close()
	var ps []uintptr
	for i := 0; i < 1000; i++ {
		p, err := h.Alloc(4096, 0)
		require.NoError(b, err)
		ps = append(ps, p)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, ok := h.Find(ps[i%len(ps)] + 100); !ok {
			b.Fatal("not found")
		}
	}
}
