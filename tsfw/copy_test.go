package tsfw

import (
	"fmt"
	"reflect"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// pattern fills b with bytes that differ at every offset modulo 251, so a
// piece copied to the wrong place shows.
func pattern(b []byte, seed byte) {
	for i := range b {
		b[i] = byte(i%251) + seed
	}
}

func TestSplitCopyAndMemset(t *testing.T) {
	d := newDev(t, Config{})
	q := newQ(t, d, 0)
	// Sizes around the split threshold and not a multiple of a piece.
	for _, n := range []uint64{parallelMin - 1, parallelMin, parallelMin + parChunk/2 + 3} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			src, s := buf(t, int(n))
			dst, ds := buf(t, int(n))
			pattern(src, 1)
			require.NoError(t, d.CopyNow(ds, s, n, HostToDevice))
			assert.True(t, reflect.DeepEqual(src, dst), "synchronous copy")

			clear(dst)
			require.NoError(t, q.Submit(CopyTask(ds, s, n, HostToDevice)))
			require.NoError(t, q.Synchronize(-1))
			assert.True(t, reflect.DeepEqual(src, dst), "engine copy")

			require.NoError(t, d.MemsetNow(ds+1, 0xa5, n-2))
			assert.Equal(t, src[0], dst[0], "byte before the memset")
			assert.Equal(t, src[n-1], dst[n-1], "byte after the memset")
			for i := uint64(1); i < n-1; i += 4093 {
				require.Equal(t, byte(0xa5), dst[i], "offset %d", i)
			}
			assert.Equal(t, byte(0xa5), dst[n-2])
		})
	}
}

func TestSplitCopyOverlap(t *testing.T) {
	const n = parallelMin + parChunk
	for name, tc := range map[string]struct{ dstOff, srcOff uint64 }{
		"dst above src": {parChunk / 2, 0},
		"dst below src": {0, parChunk / 2},
	} {
		t.Run(name, func(t *testing.T) {
			b, p := buf(t, n+parChunk)
			pattern(b, 7)
			want := make([]byte, n)
			copy(want, b[tc.srcOff:tc.srcOff+n])
			memmove(p+uintptr(tc.dstOff), p+uintptr(tc.srcOff), n)
			assert.True(t, reflect.DeepEqual(want, b[tc.dstOff:tc.dstOff+n]), "memmove semantics")
		})
	}
}

// TestSplitCopyFault: a bad address in any piece, whichever goroutine
// copies it, fails the copy with the DMA error instead of crashing.
func TestSplitCopyFault(t *testing.T) {
	d := newDev(t, Config{})
	q := newQ(t, d, 0)
	const n = parallelMin + 4*parChunk
	// A source whose last piece is unmapped.
	src, s := buf(t, n)
	require.NoError(t, syscall.Mprotect(src[n-parChunk:], syscall.PROT_NONE))
	_, ds := buf(t, n)

	err := d.CopyNow(ds, s, n, HostToDevice)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_SYS_DMA), "%v", err)
	require.NoError(t, q.Submit(CopyTask(ds, s, n, HostToDevice)))
	err = q.Synchronize(-1)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_SYS_DMA), "%v", err)
	// The helpers survive a fault.
	require.NoError(t, d.CopyNow(ds, s, n-parChunk, HostToDevice))
}

// BenchmarkMemmove compares one memmove with the split one at sizes around
// parallelMin, on freshly mapped (4 KiB-page) buffers as a pageable
// aclrtMemcpy sees them.
func BenchmarkMemmove(b *testing.B) {
	src, s := buf(b, 64<<20)
	dst, ds := buf(b, 64<<20)
	pattern(src, 3)
	clear(dst)
	parallel(parallelMin) // start the helpers
	for _, n := range []uint64{1 << 20, 2 << 20, 4 << 20, 8 << 20, 16 << 20, 32 << 20, 64 << 20} {
		b.Run(fmt.Sprintf("%dMiB/serial", n>>20), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				memmoveSerial(ds, s, n)
			}
		})
		b.Run(fmt.Sprintf("%dMiB/split", n>>20), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				runParallel(&parJob{dst: ds, src: s, n: n})
			}
		})
	}
}

// An SDMA engine's goroutine starts with its first job: a device that
// copies nothing starts none, serial copies use (and start) one.
func TestEnginesStartOnFirstJob(t *testing.T) {
	d := newDev(t, Config{SDMAEngines: 4})
	started := func() (n int) {
		d.mu.Lock()
		defer d.mu.Unlock()
		for _, e := range d.engines {
			if e.started {
				n++
			}
		}
		return n
	}
	require.Len(t, d.engines, 4)
	assert.Zero(t, started())
	q := newQ(t, d, 0)
	src, s := buf(t, 4096)
	dst, ds := buf(t, 4096)
	for i := range 3 {
		pattern(src, byte(i))
		require.NoError(t, q.Submit(CopyTask(ds, s, 4096, HostToDevice)))
		require.NoError(t, q.Synchronize(-1))
		require.True(t, reflect.DeepEqual(src, dst), "copy %d", i)
	}
	assert.Equal(t, 1, started())
}
