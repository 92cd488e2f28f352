package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bruteBytes lists p's bytes (for small patterns).
func bruteBytes(p pattern) map[uintptr]bool {
	m := map[uintptr]bool{}
	for i := 0; i < p.n; i++ {
		lo, hi := p.burst(i)
		for b := lo; b < hi; b++ {
			m[b] = true
		}
	}
	return m
}

func TestPatternShapes(t *testing.T) {
	assert.Equal(t, contiguous(100, 164), strided(100, 32, 32, 2), "touching bursts are one range")
	assert.Equal(t, contiguous(100, 148), strided(100, 32, 16, 2), "overlapping bursts are one range")
	p := strided(100, 32, 64, 3)
	assert.Equal(t, 3, p.n)
	assert.Equal(t, uintptr(100+2*64+32), p.end())
	assert.Equal(t, uint64(96), p.bytes())
}

// TestPatternOverlapAgainstBytes compares overlap, within and covers with
// the byte sets of small patterns.
func TestPatternOverlapAgainstBytes(t *testing.T) {
	var ps []pattern
	for lo := uintptr(0); lo < 24; lo += 3 {
		for _, burst := range []uintptr{1, 2, 4, 8} {
			for _, stride := range []uintptr{0, 5, 8, 12} {
				for _, n := range []int{1, 2, 3} {
					ps = append(ps, strided(lo, burst, stride, n))
				}
			}
		}
	}
	for _, p := range ps {
		pb := bruteBytes(p)
		for _, q := range ps {
			qb := bruteBytes(q)
			shared, all := false, true
			for b := range qb {
				if pb[b] {
					shared = true
				} else {
					all = false
				}
			}
			lo, hi, ok := overlap(p, q)
			require.Equal(t, shared, ok, "overlap(%+v, %+v)", p, q)
			if ok {
				for b := lo; b < hi; b++ {
					require.True(t, pb[b] && qb[b], "overlap(%+v, %+v) = %d..%d holds byte %d not in both", p, q, lo, hi, b)
				}
			}
			if p.covers(q) {
				require.True(t, all, "%+v covers %+v, but not every byte", p, q)
			}
			if p.n == 1 || q.n == 1 || p.stride == q.stride {
				require.Equal(t, all, p.covers(q), "covers(%+v, %+v)", p, q)
			}
		}
	}
}

func TestMergePats(t *testing.T) {
	// Two blocks copying consecutive rows, and a repeat: one pattern.
	got := mergePats([]pattern{strided(1000+8*64, 16, 64, 8), strided(1000, 16, 64, 8), strided(1000, 16, 64, 4)})
	require.Len(t, got, 1)
	assert.Equal(t, strided(1000, 16, 64, 16), got[0])
	// The other phase (interleaved rows) stays apart.
	got = mergePats([]pattern{strided(1000, 16, 64, 8), strided(1032, 16, 64, 8), strided(1000+8*64, 16, 64, 8)})
	assert.ElementsMatch(t, []pattern{strided(1000, 16, 64, 16), strided(1032, 16, 64, 8)}, got)
}

func TestRowsOf(t *testing.T) {
	sp := []span{{0, 16}, {64, 80}, {128, 144}, {200, 210}, {300, 301}, {400, 401}}
	assert.Equal(t, []pattern{strided(0, 16, 64, 3), contiguous(200, 210), strided(300, 1, 100, 2)}, rowsOf(sp))
	// Plain ranges pass through mergePats (no stride to divide by).
	got := mergePats([]pattern{contiguous(0, 8), strided(100, 8, 32, 2), contiguous(50, 60), strided(164, 8, 32, 2)})
	assert.ElementsMatch(t, []pattern{contiguous(0, 8), contiguous(50, 60), strided(100, 8, 32, 4)}, got)
}

func TestManyRowsOneRecord(t *testing.T) {
	// 2048 rows written one at a time by a core (2048 ranges in the
	// footprint) are one record: a race with the last row is found.
	f := newFixture(All)
	p1 := f.launch("s1", 1, "k1", NoSync, nil)
	p2 := f.launch("s2", 2, "k2", NoSync, nil)
	var fp []Range
	for i := uintptr(0); i < 2048; i++ {
		fp = append(fp, Range{Lo: bufA + 2*i, Hi: bufA + 2*i + 1, Write: true})
	}
	f.s.Complete(p1, fp, true)
	f.s.mu.Lock()
	n := len(f.s.shadows[bufA].recs)
	f.s.mu.Unlock()
	assert.Equal(t, 1, n)
	f.s.Complete(p2, []Range{{Lo: bufA + 2*2047, Hi: bufA + 2*2047 + 1, Write: true}}, true)
	require.Len(t, f.lines(t, "racecheck"), 1, f.out.String())
}
