package emu

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mappingOf reads the mapping holding addr from /proc/self/smaps: its
// permissions ("rw-", "---"; "" when unmapped) and its protection key (-1
// without a ProtectionKey line: a CPU without keys, or unmapped).
func mappingOf(t *testing.T, addr uintptr) (perm string, key int) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	require.NoError(t, err)
	defer f.Close()
	key = -1
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uint64
		var p string
		if _, err := fmt.Sscanf(line, "%x-%x %s", &lo, &hi, &p); err == nil { // a mapping's first line
			if in {
				break
			}
			if in = uint64(addr) >= lo && uint64(addr) < hi; in {
				perm = p[:3]
			}
			continue
		}
		if v, ok := strings.CutPrefix(line, "ProtectionKey:"); ok && in {
			_, _ = fmt.Sscan(v, &key)
		}
	}
	return perm, key
}

// protOf is mappingOf's permissions.
func protOf(t *testing.T, addr uintptr) string {
	t.Helper()
	p, _ := mappingOf(t, addr)
	return p
}

func TestHBMGuardPlacement(t *testing.T) {
	t.Setenv(EnvProtect, "1")
	h := newTestHBM(t, 64<<20)
	require.True(t, h.Protected())
	base, span := h.Range()
	assert.Equal(t, "---", protOf(t, base), "unallocated memory is inaccessible")
	assert.Equal(t, "---", protOf(t, base+uintptr(span)-1))

	a, err := h.Alloc(4096, 0)
	require.NoError(t, err)
	b, err := h.Alloc(100, 0)
	require.NoError(t, err)
	c, err := h.Alloc(3*4096, 0)
	require.NoError(t, err)
	for _, p := range []uintptr{a, b, c} {
		assert.Zero(t, p%pageSize, "blocks start on a page")
	}
	// Each block ends in a guard page: a page multiple is caught one byte
	// past its end; a smaller block at the end of its page.
	assert.Equal(t, "rw-", protOf(t, a))
	assert.Equal(t, "rw-", protOf(t, a+4095))
	assert.Equal(t, "---", protOf(t, a+4096), "the guard page after a 4 KiB block")
	assert.Equal(t, a+2*pageSize, b, "the next block lies past the guard")
	assert.Equal(t, "rw-", protOf(t, b+pageSize-1), "the rest of a small block's page")
	assert.Equal(t, "---", protOf(t, b+pageSize))
	assert.Equal(t, "rw-", protOf(t, c+3*4096-1))
	assert.Equal(t, "---", protOf(t, c+3*4096))
	// The block's own bytes are usable.
	buf := bytesAt(c, 3*4096)
	buf[0], buf[len(buf)-1] = 1, 2

	// Freed memory is queued for sealing: read-write until the next task
	// is queued (SealAll), inaccessible after, and remembered.
	_, err = h.Free(b)
	require.NoError(t, err)
	assert.True(t, SealPending())
	assert.Equal(t, "rw-", protOf(t, b), "not sealed yet")
	SealAll()
	assert.False(t, SealPending())
	assert.Equal(t, "---", protOf(t, b))
	fb, ok := h.FreedBlock(b + 10)
	require.True(t, ok)
	assert.Equal(t, Block{b, 100}, fb)
	below, above := h.Neighbours(b + 10)
	assert.Equal(t, Block{a, 4096}, below)
	assert.Equal(t, Block{c, 3 * 4096}, above)
	// Reuse opens the pages again.
	b2, err := h.Alloc(64, 0)
	require.NoError(t, err)
	assert.Equal(t, b, b2)
	assert.Equal(t, "rw-", protOf(t, b2))

	// Trim protects whole pages past what the owner hands out.
	d, err := h.Alloc(4*4096, 0)
	require.NoError(t, err)
	h.Trim(d, 4096+32)
	SealAll()
	assert.Equal(t, "rw-", protOf(t, d+8191))
	assert.Equal(t, "---", protOf(t, d+8192))
	f, _, ok := h.Find(d + 8192)
	assert.True(t, ok, "trimmed pages still belong to the block")
	assert.Equal(t, d, f)

	// Huge alignments keep their guard.
	e, err := h.Alloc(2<<20, 2<<20)
	require.NoError(t, err)
	assert.Zero(t, e%(2<<20))
	assert.Equal(t, "---", protOf(t, e+2<<20))
}

func TestHBMProtectOff(t *testing.T) {
	t.Setenv(EnvProtect, "0")
	h := newTestHBM(t, 64<<20)
	require.False(t, h.Protected())
	a, err := h.Alloc(4096, 0)
	require.NoError(t, err)
	b, err := h.Alloc(100, 0)
	require.NoError(t, err)
	assert.Equal(t, a+4096, b, "without protection blocks are packed")
	assert.Equal(t, "rw-", protOf(t, b+4096))
}

func TestHBMProtectedFillsCapacity(t *testing.T) {
	t.Setenv(EnvProtect, "1")
	h := newTestHBM(t, 64<<20)
	// Capacity, not guard pages, is the limit: 2 MiB blocks aligned to
	// 2 MiB fill the device.
	var n int
	for {
		if _, err := h.Alloc(2<<20, 2<<20); err != nil {
			break
		}
		n++
	}
	assert.Equal(t, 32, n)
}

// TestNodeHBMProtected: on a node directory the shared window is PROT_NONE
// in this process except the blocks it allocated.
func TestNodeHBMProtected(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory holds the node window's address")
	}
	t.Setenv(EnvProtect, "1")
	cfg, _ := nodeTestConfig(t)
	n := newTestNode(t, cfg)
	d, err := n.Device(0)
	require.NoError(t, err)
	h := d.HBM
	require.NotNil(t, h.nd, "node-wide memory")
	require.True(t, h.Protected())
	a, err := h.Alloc(8192, 0)
	require.NoError(t, err)
	b, err := h.Alloc(64, 0)
	require.NoError(t, err)
	assert.Equal(t, "rw-", protOf(t, a+8191))
	assert.Equal(t, "---", protOf(t, a+8192), "guard page")
	assert.Equal(t, a+3*pageSize, b)
	base, span := h.Range()
	assert.Equal(t, "---", protOf(t, base+uintptr(span)/2), "the rest of the window")
	_, err = h.Free(a)
	require.NoError(t, err)
	SealAll()
	assert.Equal(t, "---", protOf(t, a))
	assert.Equal(t, "rw-", protOf(t, b))
}

// A block allocated over pages still waiting to be sealed takes them as
// they are; sealing never closes a live block's pages.
func TestHBMSealReuse(t *testing.T) {
	h := newTestHBM(t, 64<<20)
	a, err := h.Alloc(3*4096, 0)
	require.NoError(t, err)
	_, err = h.Free(a)
	require.NoError(t, err)
	b, err := h.Alloc(2*4096, 0) // the same first pages
	require.NoError(t, err)
	require.Equal(t, a, b)
	SealAll()
	assert.Equal(t, "rw-", protOf(t, b), "the live block stays open")
	assert.Equal(t, "rw-", protOf(t, b+2*4096-1))
	assert.Equal(t, "---", protOf(t, b+2*4096), "the freed block's third page is sealed")
	// A trimmed block freed and reallocated larger: its sealed tail opens.
	c, err := h.Alloc(4*4096, 0)
	require.NoError(t, err)
	h.Trim(c, 4096)
	SealAll()
	_, err = h.Free(c)
	require.NoError(t, err)
	c2, err := h.Alloc(4*4096, 0)
	require.NoError(t, err)
	require.Equal(t, c, c2)
	assert.Equal(t, "rw-", protOf(t, c2+4*4096-1))
	bytesAt(c2, 4*4096)[4*4096-1] = 1
}

func TestSpans(t *testing.T) {
	s := spans{{0x1000, 0x3000}, {0x3000, 0x5000}}
	assert.True(t, s.covers(0x1000, 0x5000))
	assert.True(t, s.covers(0x2000, 0x4000))
	assert.False(t, s.covers(0x0, 0x2000))
	assert.False(t, s.covers(0x4000, 0x6000))
	s.cut(0x2000, 0x4000)
	assert.Equal(t, spans{{0x1000, 0x2000}, {0x4000, 0x5000}}, s)
	assert.False(t, s.covers(0x1000, 0x5000))
}
