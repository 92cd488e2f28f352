package hal

import (
	"runtime/debug"
	"unsafe"

	"github.com/npuemu/npuemu/abi"
)

// bytesAt views n bytes at addr. The address is reinterpreted through
// memory rather than converted from a uintptr expression: it lies outside
// the Go heap (HBM reservation, pinned blocks, C memory), so the garbage
// collector has nothing to track.
func bytesAt(addr uintptr, n uint64) []byte {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return unsafe.Slice((*byte)(p), n)
}

// hostAccess runs fn, turning a fault on a bad host address into an error
// instead of crashing the application.
func hostAccess(fn string, body func()) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			err = abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: host address not accessible: %v", fn, r)
		}
	}()
	body()
	return nil
}

// hostCopy copies n bytes between host addresses (overlap allowed).
func hostCopy(fn string, dst, src uintptr, n uint64) error {
	return hostAccess(fn, func() { copy(bytesAt(dst, n), bytesAt(src, n)) })
}

// hostSet fills n (> 0) bytes at dst with v.
func hostSet(fn string, dst uintptr, v byte, n uint64) error {
	return hostAccess(fn, func() {
		b := bytesAt(dst, n)
		b[0] = v
		for i := 1; i < len(b); i *= 2 {
			copy(b[i:], b[:i])
		}
	})
}
