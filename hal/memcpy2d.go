package hal

import (
	"math/bits"

	"github.com/npuemu/npuemu/abi"
)

// halMemcpy2D (hal-api.md §3.4): a copy of height rows of width bytes,
// rows dpitch bytes apart at dst and spitch bytes apart at src, described
// by struct MEMCPY2D. Decisions where the documentation is silent
// (docs/hal.md, "halMemcpy2D"):
//   - DEVMM_MEMCPY2D_SYNC is the synchronous copy, over the memory the
//     other HAL copies use (device memory of any device, pinned and other
//     host memory, mapped VMM memory), each row on the SDMA model of the
//     device involved, as drvMemcpy;
//   - fixed_size is the progress the header describes: the copy resumes at
//     byte fixed_size of the width*height bytes and, npuemu copying the
//     whole remainder in one call, leaves it at width*height; a value
//     beyond width*height is DRV_ERROR_INVALID_VALUE;
//   - direction is a drvMemcpyKind_t and must agree with where dst and src
//     are (a host pointer for a host end, device memory for a device end):
//     a mismatch is DRV_ERROR_INVALID_VALUE rather than a silent
//     reinterpretation;
//   - ASYNC_CONVERT / ASYNC_DESTROY turn the copy into DMA descriptors
//     (struct DMA_ADDR) for an asynchronous engine npuemu does not model:
//     DRV_ERROR_NOT_SUPPORT.

// HalMemcpy2D implements halMemcpy2D (HalMemcpy's 2-D form).
func HalMemcpy2D(p *Memcpy2D) error {
	const fn = "halMemcpy2D"
	if p == nil {
		return nullArg(fn, "p_copy")
	}
	switch p.Type {
	case abi.DEVMM_MEMCPY2D_SYNC:
	case abi.DEVMM_MEMCPY2D_ASYNC_CONVERT, abi.DEVMM_MEMCPY2D_ASYNC_DESTROY:
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT,
			"%s: type %d: DMA descriptors for asynchronous 2-D copies are not modelled by npuemu (DEVMM_MEMCPY2D_SYNC is)", fn, p.Type)
	default:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: type %d is not a DEVMM_MEMCPY2D_TYPE (0..%d)", fn, p.Type, abi.DEVMM_MEMCPY2D_TYPE_MAX-1)
	}
	c := &p.Copy2d
	total, err := check2D(fn, c)
	if err != nil {
		return err
	}
	if c.Fixed_size == total {
		return nil // already done
	}
	n, err := node(fn)
	if err != nil {
		return err
	}
	dst, src := c.Dst, c.Src
	d, err := locate(fn, "dst", n, dst)
	if err != nil {
		return err
	}
	s, err := locate(fn, "src", n, src)
	if err != nil {
		return err
	}
	if err := d.fits(fn, "dst", dst, span(c.Dpitch, c.Width, c.Height)); err != nil {
		return err
	}
	if err := s.fits(fn, "src", src, span(c.Spitch, c.Width, c.Height)); err != nil {
		return err
	}
	if err := checkDirection(fn, c.Direction, d, s); err != nil {
		return err
	}
	for c.Fixed_size < total {
		row, col := c.Fixed_size/c.Width, c.Fixed_size%c.Width
		op := copyOp{
			dst:   dst + uintptr(row*c.Dpitch+col),
			src:   src + uintptr(row*c.Spitch+col),
			count: c.Width - col,
			d:     d, s: s,
		}
		if err := op.run(fn); err != nil {
			return err
		}
		c.Fixed_size += op.count
	}
	return nil
}

// check2D validates the geometry of a 2-D copy and returns its size in
// bytes (width*height).
func check2D(fn string, c *Mem2D) (uint64, error) {
	bad := func(format string, args ...any) (uint64, error) {
		return 0, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: "+format, append([]any{fn}, args...)...)
	}
	switch {
	case c.Dst == 0:
		return bad("copy2d.dst must not be NULL")
	case c.Src == 0:
		return bad("copy2d.src must not be NULL")
	case c.Width == 0 || c.Height == 0:
		return bad("width %d and height %d must not be 0", c.Width, c.Height)
	case c.Width > c.Dpitch:
		return bad("width %d exceeds dpitch %d", c.Width, c.Dpitch)
	case c.Width > c.Spitch:
		return bad("width %d exceeds spitch %d", c.Width, c.Spitch)
	case c.Direction > abi.DRV_MEMCPY_DEVICE_TO_DEVICE:
		return bad("direction %d is not a drvMemcpyKind_t (0..%d)", c.Direction, abi.DRV_MEMCPY_DEVICE_TO_DEVICE)
	}
	hi, total := bits.Mul64(c.Width, c.Height)
	if hi != 0 || total > maxAllocBytes {
		return bad("width %d x height %d is beyond any memory", c.Width, c.Height)
	}
	for _, pitch := range []uint64{c.Dpitch, c.Spitch} {
		if hi, lo := bits.Mul64(pitch, c.Height-1); hi != 0 || lo > maxAllocBytes {
			return bad("pitch %d x %d rows is beyond any memory", pitch, c.Height-1)
		}
	}
	if c.Fixed_size > total {
		return bad("fixed_size %d exceeds width x height (%d bytes)", c.Fixed_size, total)
	}
	return total, nil
}

// span is the bytes from the first row's start to the last row's end.
func span(pitch, width, height uint64) uint64 { return (height-1)*pitch + width }

// checkDirection checks that the drvMemcpyKind_t dir names where dst (d)
// and src (s) are.
func checkDirection(fn string, dir uint32, d, s where) error {
	var want uint32
	switch {
	case d.dev == nil && s.dev == nil:
		want = abi.DRV_MEMCPY_HOST_TO_HOST
	case s.dev == nil:
		want = abi.DRV_MEMCPY_HOST_TO_DEVICE
	case d.dev == nil:
		want = abi.DRV_MEMCPY_DEVICE_TO_HOST
	default:
		want = abi.DRV_MEMCPY_DEVICE_TO_DEVICE
	}
	if want != dir {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE,
			"%s: direction %d does not match the addresses, which make it %d (%s)", fn, dir, want, kindName[want])
	}
	return nil
}

// kindName names the drvMemcpyKind_t values.
var kindName = map[uint32]string{
	abi.DRV_MEMCPY_HOST_TO_HOST:     "DRV_MEMCPY_HOST_TO_HOST",
	abi.DRV_MEMCPY_HOST_TO_DEVICE:   "DRV_MEMCPY_HOST_TO_DEVICE",
	abi.DRV_MEMCPY_DEVICE_TO_HOST:   "DRV_MEMCPY_DEVICE_TO_HOST",
	abi.DRV_MEMCPY_DEVICE_TO_DEVICE: "DRV_MEMCPY_DEVICE_TO_DEVICE",
}
