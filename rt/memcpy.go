package rt

import (
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The runtime's 2D copies and 32-bit fills. The work is still package
// acl's (acl/copy.go, acl/memsetd32.go); these convert the rt enums and
// give the results the runtime's codes.

// Memcpy2d implements rtMemcpy2d: height rows of width bytes, row i from
// src+i*srcPitch to dst+i*dstPitch, synchronously (host/device pairs, as
// aclrtMemcpy2d).
func Memcpy2d(t *core.Thread, dst uintptr, dstPitch uint64, src uintptr, srcPitch, width, height uint64, kind int32) error {
	const fn = "rtMemcpy2d"
	k, err := memcpyKind(fn, kind)
	if err != nil {
		return err
	}
	return wrap(fn, acl.Memcpy2D(t, dst, dstPitch, src, srcPitch, width, height, k))
}

// Memcpy2dAsync implements rtMemcpy2dAsync: the 2D copy in stream order
// (H2D, D2H, D2D).
func Memcpy2dAsync(t *core.Thread, dst uintptr, dstPitch uint64, src uintptr, srcPitch, width, height uint64, kind int32, stream core.Handle) error {
	const fn = "rtMemcpy2dAsync"
	k, err := memcpyKind(fn, kind)
	if err != nil {
		return err
	}
	return wrap(fn, acl.Memcpy2DAsync(t, dst, dstPitch, src, srcPitch, width, height, k, stream))
}

// MemsetD32 implements rtMemsetD32: count 32-bit words of value at dst
// (destMax bytes available).
func MemsetD32(t *core.Thread, dst uintptr, destMax uint64, value uint32, count uint64) error {
	return wrap("rtMemsetD32", acl.MemsetD32(t, dst, destMax, value, count))
}

// MemsetD32Async implements rtMemsetD32Async: device memory is filled in
// stream order, host memory at the call (as aclrtMemsetD32Async).
func MemsetD32Async(t *core.Thread, dst uintptr, destMax uint64, value uint32, count uint64, stream core.Handle) error {
	return wrap("rtMemsetD32Async", acl.MemsetD32Async(t, dst, destMax, value, count, stream))
}
