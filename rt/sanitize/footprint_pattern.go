package sanitize

// Strided byte ranges. A strided copy of an Ascend C kernel (rows of a
// matrix, DataCopyParams with gaps) touches n bursts of the same length,
// each stride bytes after the one before; the sanitizer keeps such an
// access as one record (a pattern) instead of one per burst, so that a
// copy of thousands of rows is one of the 256 records an allocation keeps
// (docs/sanitizer.md, Kernel footprints), and expands it only where it
// must: a burst at a time, and only the bursts that can meet the other
// side's.

// pattern is n bursts [lo + i*stride, hi + i*stride), i < n. n == 1 is
// the plain range [lo, hi) (stride unused).
type pattern struct {
	lo, hi uintptr // the first burst
	stride uintptr
	n      int
}

// contiguous is the pattern of the plain range [lo, hi).
func contiguous(lo, hi uintptr) pattern { return pattern{lo: lo, hi: hi, n: 1} }

// strided is the pattern of n bursts of burst bytes from lo, stride
// apart; bursts that touch or overlap make one plain range.
func strided(lo, burst, stride uintptr, n int) pattern {
	if n <= 1 || stride <= burst {
		if n < 1 {
			n = 1
		}
		return contiguous(lo, lo+uintptr(n-1)*stride+burst)
	}
	return pattern{lo: lo, hi: lo + burst, stride: stride, n: n}
}

// end is the end of p's last burst.
func (p pattern) end() uintptr { return p.lo + uintptr(p.n-1)*p.stride + (p.hi - p.lo) }

// burst returns p's i-th burst.
func (p pattern) burst(i int) (lo, hi uintptr) {
	off := uintptr(i) * p.stride
	return p.lo + off, p.hi + off
}

// bytes is how many bytes p's bursts hold.
func (p pattern) bytes() uint64 { return uint64(p.n) * uint64(p.hi-p.lo) }

// within returns the first part of [a, b) that p's bursts hold.
func (p pattern) within(a, b uintptr) (lo, hi uintptr, ok bool) {
	if b <= a || b <= p.lo || a >= p.end() {
		return 0, 0, false
	}
	first := 0 // the first burst that ends after a
	if n := p.hi - p.lo; p.n > 1 && a >= p.lo+n {
		first = int((a-p.lo-n)/p.stride) + 1
	}
	if first >= p.n {
		return 0, 0, false
	}
	lo, hi = p.burst(first)
	lo, hi = max(lo, a), min(hi, b)
	return lo, hi, lo < hi
}

// overlap returns the first bytes p and q share (within the first burst
// of the one with fewer bursts that meets the other).
func overlap(p, q pattern) (lo, hi uintptr, ok bool) {
	if p.end() <= q.lo || q.end() <= p.lo {
		return 0, 0, false
	}
	if p.n > q.n {
		p, q = q, p
	}
	// Walk p's bursts from the first that can meet q.
	i := 0
	if p.n > 1 && q.lo > p.hi {
		i = int((q.lo - p.hi) / p.stride)
	}
	for ; i < p.n; i++ {
		a, b := p.burst(i)
		if a >= q.end() {
			break
		}
		if lo, hi, ok := q.within(a, b); ok {
			return lo, hi, true
		}
	}
	return 0, 0, false
}

// covers reports whether every byte of q is one of p's (exactly when p is
// a plain range, q is a plain range, or both have one stride; otherwise
// it answers false, which only keeps a record longer).
func (p pattern) covers(q pattern) bool {
	switch {
	case q.lo < p.lo || q.end() > p.end():
		return false
	case p.n == 1:
		return true
	case q.n == 1:
		lo, hi, ok := p.within(q.lo, q.hi)
		return ok && lo == q.lo && hi == q.hi
	case p.stride == q.stride:
		return (q.lo-p.lo)%p.stride+(q.hi-q.lo) <= p.hi-p.lo
	}
	return false
}
