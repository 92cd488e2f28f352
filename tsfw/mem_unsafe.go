package tsfw

import "unsafe"

// bytesAt views n bytes at addr. The address is reinterpreted through
// memory rather than converted from a uintptr expression: the memory is
// outside the Go heap (HBM reservation, pinned host blocks, C allocations),
// so the garbage collector has nothing to track.
func bytesAt(addr uintptr, n uint64) []byte {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return unsafe.Slice((*byte)(p), n)
}

// chunk bounds one memmove so a huge copy does not hold a goroutine in one
// non-preemptible call.
const chunk = 4 << 20

// memmoveSerial copies n bytes on the calling goroutine, with memmove's
// semantics for overlapping ranges.
func memmoveSerial(dst, src uintptr, n uint64) {
	if n == 0 {
		return
	}
	// Overlapping ranges with dst above src must be copied back to front
	// when chunked.
	if dst > src && dst < src+uintptr(n) {
		for end := n; end > 0; {
			c := min(end, chunk)
			copy(bytesAt(dst+uintptr(end-c), c), bytesAt(src+uintptr(end-c), c))
			end -= c
		}
		return
	}
	for off := uint64(0); off < n; {
		c := min(n-off, chunk)
		copy(bytesAt(dst+uintptr(off), c), bytesAt(src+uintptr(off), c))
		off += c
	}
}

// memsetSerial fills n bytes at dst with v on the calling goroutine.
func memsetSerial(dst uintptr, v byte, n uint64) {
	for off := uint64(0); off < n; {
		c := min(n-off, chunk)
		b := bytesAt(dst+uintptr(off), c)
		if v == 0 {
			clear(b)
		} else {
			b[0] = v
			for i := 1; i < len(b); i *= 2 {
				copy(b[i:], b[:i])
			}
		}
		off += c
	}
}
