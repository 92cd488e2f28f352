package stack

import "github.com/npuemu/npuemu/hal"

// The driver's synchronous copy family, as the runtime calls it
// (rt-to-hal.tsv: rtMemcpy → halSdmaCopy, halMemcpy, drvMemcpy through
// NpuDriver::MemCopySync; rtMemset → drvMemsetD8; rtMemcpy2d →
// halMemcpy2D). Which call carries which copy is the runtime's decision
// (rt/core/copy_driver.go, docs/stack.md). Each wrapper calls an
// interposed definition when there is one (HALCalls), else the hal
// package directly.

// SdmaCopy is halSdmaCopy as the runtime calls it.
func SdmaCopy(dst uintptr, dstSize uint64, src uintptr, n uint64) error {
	if f := HAL.SdmaCopy; f != nil {
		return f(dst, dstSize, src, n)
	}
	return hal.SdmaCopy(dst, dstSize, src, n)
}

// HalMemcpy is halMemcpy as the runtime calls it.
func HalMemcpy(dst uintptr, dstSize uint64, src uintptr, n uint64, info *hal.MemcpyInfo) error {
	if f := HAL.HalMemcpy; f != nil {
		return f(dst, dstSize, src, n, info)
	}
	return hal.HalMemcpy(dst, dstSize, src, n, info)
}

// DrvMemcpy is drvMemcpy as the runtime calls it.
func DrvMemcpy(dst uintptr, destMax uint64, src uintptr, n uint64) error {
	if f := HAL.DrvMemcpy; f != nil {
		return f(dst, destMax, src, n)
	}
	return hal.Memcpy(dst, destMax, src, n)
}

// MemsetD8 is drvMemsetD8 as the runtime calls it.
func MemsetD8(dst uintptr, destMax uint64, value byte, n uint64) error {
	if f := HAL.MemsetD8; f != nil {
		return f(dst, destMax, value, n)
	}
	return hal.MemsetD8(dst, destMax, value, n)
}

// Memcpy2D is halMemcpy2D as the runtime calls it.
func Memcpy2D(p *hal.Memcpy2D) error {
	if f := HAL.Memcpy2D; f != nil {
		return f(p)
	}
	return hal.HalMemcpy2D(p)
}

// Why the other rt-to-hal.tsv pairs of the copy family are not crossed
// (NotCrossedPairs, crossings.go).
const (
	// The vendor runtime's copies of its own records.
	whyInternalCopy = "the vendor runtime's own copy of its records (launch arguments, kernel binaries, task, stream and model descriptors, event timestamps) between host and device memory; npuemu's runtime keeps them in host memory and copies nothing for them"
	// The asynchronous copies.
	whyQueuedCopy = "npuemu queues the copy as a stream task, pageable host memory included (the call then waits for it); the vendor's synchronous driver copy is its pageable-memory fallback after synchronising the stream, which npuemu does not make"
	// rtMemsetD32.
	whyWordFill = "a 32-bit fill: npuemu fills the words on the device model directly (no driver call of the family fills 32-bit words; the vendor's copy stages the pattern)"
	// drvMemsetD8 under the rt* functions other than rtMemset.
	whyCopyCall = "made where Crossings lists it (rtMemcpy, the synchronous copy: which of the three by direction, docs/stack.md). " +
		"The asynchronous copies and fills (rtMemcpyAsync, rtMemcpyAsyncEx, rtMemcpyAsyncWithOffset, rtsMemcpyAsyncWithDesc, rtsMemcpyBatchAsync, rtMemsetD32Async): " +
		whyQueuedCopy + ". rtMemsetD32: " + whyWordFill + ". The other rows: " + whyInternalCopy
	whyInternalClear = "the vendor runtime clears its own device-side records (stream, event, model, label and function tables) with drvMemsetD8; npuemu's runtime keeps them in host memory"
)
