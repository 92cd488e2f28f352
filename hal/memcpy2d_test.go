package hal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// TestMemcpy2D copies a 2-D region host → device → host with different
// pitches, resumes from fixed_size, and checks every refusal.
func TestMemcpy2D(t *testing.T) {
	useNode(t, "Ascend910B3", 2, 64<<20)
	const (
		width, height  = 5, 4
		hpitch, dpitch = 8, 16
	)
	var host, back, dev uintptr
	require.NoError(t, MemAlloc(&host, hpitch*height, abi.MEM_HOST))
	require.NoError(t, MemAlloc(&back, hpitch*height, abi.MEM_HOST))
	require.NoError(t, MemAlloc(&dev, dpitch*height, abi.MEM_DEV|1))
	src := bytesAt(host, hpitch*height)
	for i := range src {
		src[i] = byte(i + 1)
	}
	zero := func(p uintptr, n uint64) { clear(bytesAt(p, n)) }
	zero(back, hpitch*height)
	require.NoError(t, MemsetD8(dev, dpitch*height, 0xEE, dpitch*height))

	c := &Memcpy2D{Type: abi.DEVMM_MEMCPY2D_SYNC, Copy2d: Mem2D{
		Dst: dev, Dpitch: dpitch, Src: host, Spitch: hpitch,
		Width: width, Height: height, Direction: abi.DRV_MEMCPY_HOST_TO_DEVICE}}
	require.NoError(t, HalMemcpy2D(c))
	assert.Equal(t, uint64(width*height), c.Copy2d.Fixed_size, "fixed_size reports the whole copy done")
	d := bytesAt(dev, dpitch*height)
	for r := range height {
		assert.Equal(t, src[r*hpitch:r*hpitch+width], d[r*dpitch:r*dpitch+width], "row %d", r)
		for _, b := range d[r*dpitch+width : (r+1)*dpitch] {
			require.Equal(t, byte(0xEE), b, "row %d: the pitch gap is untouched", r)
		}
	}

	// Back to the host, resuming after 7 bytes (row 1, column 2).
	c = &Memcpy2D{Copy2d: Mem2D{
		Dst: back, Dpitch: hpitch, Src: dev, Spitch: dpitch,
		Width: width, Height: height, Fixed_size: 7, Direction: abi.DRV_MEMCPY_DEVICE_TO_HOST}}
	require.NoError(t, HalMemcpy2D(c))
	assert.Equal(t, uint64(width*height), c.Copy2d.Fixed_size)
	b := bytesAt(back, hpitch*height)
	assert.Equal(t, []byte{0, 0, 0, 0, 0}, b[0:width], "row 0 was already done")
	assert.Equal(t, []byte{0, 0}, b[hpitch:hpitch+2], "row 1 resumes at column 2")
	assert.Equal(t, src[hpitch+2:hpitch+width], b[hpitch+2:hpitch+width])
	for r := 2; r < height; r++ {
		assert.Equal(t, src[r*hpitch:r*hpitch+width], b[r*hpitch:r*hpitch+width], "row %d", r)
	}
	require.NoError(t, HalMemcpy2D(c), "a finished copy is done again at once")

	good := func() *Memcpy2D {
		return &Memcpy2D{Copy2d: Mem2D{Dst: back, Dpitch: hpitch, Src: dev, Spitch: dpitch,
			Width: width, Height: height, Direction: abi.DRV_MEMCPY_DEVICE_TO_HOST}}
	}
	bad := []struct {
		name string
		edit func(*Memcpy2D)
		code abi.DrvCode
	}{
		{"async convert", func(c *Memcpy2D) { c.Type = abi.DEVMM_MEMCPY2D_ASYNC_CONVERT }, abi.DRV_ERROR_NOT_SUPPORT},
		{"async destroy", func(c *Memcpy2D) { c.Type = abi.DEVMM_MEMCPY2D_ASYNC_DESTROY }, abi.DRV_ERROR_NOT_SUPPORT},
		{"type out of range", func(c *Memcpy2D) { c.Type = abi.DEVMM_MEMCPY2D_TYPE_MAX }, abi.DRV_ERROR_INVALID_VALUE},
		{"NULL dst", func(c *Memcpy2D) { c.Copy2d.Dst = 0 }, abi.DRV_ERROR_INVALID_VALUE},
		{"NULL src", func(c *Memcpy2D) { c.Copy2d.Src = 0 }, abi.DRV_ERROR_INVALID_VALUE},
		{"width 0", func(c *Memcpy2D) { c.Copy2d.Width = 0 }, abi.DRV_ERROR_INVALID_VALUE},
		{"height 0", func(c *Memcpy2D) { c.Copy2d.Height = 0 }, abi.DRV_ERROR_INVALID_VALUE},
		{"width over dpitch", func(c *Memcpy2D) { c.Copy2d.Width = hpitch + 1 }, abi.DRV_ERROR_INVALID_VALUE},
		{"width over spitch", func(c *Memcpy2D) { c.Copy2d.Spitch = width - 1 }, abi.DRV_ERROR_INVALID_VALUE},
		{"fixed_size past the end", func(c *Memcpy2D) { c.Copy2d.Fixed_size = width*height + 1 }, abi.DRV_ERROR_INVALID_VALUE},
		{"direction out of range", func(c *Memcpy2D) { c.Copy2d.Direction = 4 }, abi.DRV_ERROR_INVALID_VALUE},
		{"direction not the addresses'", func(c *Memcpy2D) { c.Copy2d.Direction = abi.DRV_MEMCPY_HOST_TO_DEVICE }, abi.DRV_ERROR_INVALID_VALUE},
		{"rows past the source block", func(c *Memcpy2D) { c.Copy2d.Height = 300 /* 299*16+5 > the 4 KiB block */ }, abi.DRV_ERROR_INVALID_VALUE},
		{"huge geometry", func(c *Memcpy2D) { c.Copy2d.Dpitch, c.Copy2d.Height = 1<<62, 1<<8 }, abi.DRV_ERROR_INVALID_VALUE},
		{"unallocated device address", func(c *Memcpy2D) { c.Copy2d.Src = dev + 64<<10 }, abi.DRV_ERROR_INVALID_VALUE},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			c := good()
			tc.edit(c)
			before := c.Copy2d.Fixed_size
			assertDrv(t, HalMemcpy2D(c), tc.code)
			assert.Equal(t, before, c.Copy2d.Fixed_size, "no progress on a refused copy")
		})
	}
	assertDrv(t, HalMemcpy2D(nil), abi.DRV_ERROR_INVALID_VALUE)
	require.NoError(t, MemFree(dev))
	require.NoError(t, MemFree(host))
	require.NoError(t, MemFree(back))
}

// TestMemcpy2DDeviceToDevice copies between two devices' memory (1 and 2:
// under -race device 0's window collides with the race detector's
// mappings, a limit of the test binary that the base tree shares).
func TestMemcpy2DDeviceToDevice(t *testing.T) {
	useNode(t, "Ascend910B3", 3, 64<<20)
	var a, b uintptr
	require.NoError(t, MemAlloc(&a, 4096, abi.MEM_DEV|1))
	require.NoError(t, MemAlloc(&b, 4096, abi.MEM_DEV|2))
	require.NoError(t, MemsetD8(a, 4096, 0x5A, 4096))
	require.NoError(t, MemsetD8(b, 4096, 0, 4096))
	c := &Memcpy2D{Copy2d: Mem2D{Dst: b, Dpitch: 100, Src: a, Spitch: 64, Width: 64, Height: 10,
		Direction: abi.DRV_MEMCPY_DEVICE_TO_DEVICE}}
	require.NoError(t, HalMemcpy2D(c))
	got := bytesAt(b, 4096)
	assert.Equal(t, byte(0x5A), got[9*100+63])
	assert.Equal(t, byte(0), got[64], "the gap after row 0")
	assert.Equal(t, byte(0), got[9*100+64], "nothing after the last row")
	require.NoError(t, MemFree(a))
	require.NoError(t, MemFree(b))
}
