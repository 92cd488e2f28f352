package emu

// arena hands out blocks of an address range [base, base+span). The range is
// partitioned into segments, each free or allocated, kept in a treap ordered
// by address and augmented with the largest free segment of each subtree:
// first fit (lowest address), free with coalescing and lookup of the block
// holding an address are all O(log n). Lowest-address first fit keeps
// fragmentation low and makes freed memory reusable at once.
//
// arena does no locking: its owner (HBM, HostMem) holds a mutex.
type arena struct {
	base     uintptr
	span     uint64
	minAlign uint64 // every block starts and ends on this boundary
	root     *seg
	rng      uint64
	spare    []*seg // recycled nodes: no garbage per Alloc/Free
	count    int    // allocated blocks
}

// seg is one segment of the range.
type seg struct {
	addr    uintptr
	size    uint64 // extent in the range, a multiple of minAlign
	req     uint64 // size the caller asked for (allocated segments only)
	free    bool
	prio    uint64
	maxFree uint64 // largest free segment in this subtree
	left    *seg
	right   *seg
}

func newArena(base uintptr, span, minAlign uint64) *arena {
	a := &arena{base: base, span: span, minAlign: minAlign, rng: uint64(base) | 1}
	a.root = a.node(base, span, 0, true)
	return a
}

func (a *arena) node(addr uintptr, size, req uint64, free bool) *seg {
	var s *seg
	if n := len(a.spare); n > 0 {
		s = a.spare[n-1]
		a.spare = a.spare[:n-1]
	} else {
		s = new(seg)
	}
	// xorshift: treap priorities only need to be unpredictable to the input.
	a.rng ^= a.rng << 13
	a.rng ^= a.rng >> 7
	a.rng ^= a.rng << 17
	*s = seg{addr: addr, size: size, req: req, free: free, prio: a.rng}
	fix(s)
	return s
}

func (a *arena) recycle(s *seg) {
	*s = seg{}
	a.spare = append(a.spare, s)
}

func fix(s *seg) {
	m := uint64(0)
	if s.free {
		m = s.size
	}
	if s.left != nil && s.left.maxFree > m {
		m = s.left.maxFree
	}
	if s.right != nil && s.right.maxFree > m {
		m = s.right.maxFree
	}
	s.maxFree = m
}

// split divides t into the segments below key and those at or above it.
func split(t *seg, key uintptr) (l, r *seg) {
	if t == nil {
		return nil, nil
	}
	if t.addr < key {
		t.right, r = split(t.right, key)
		fix(t)
		return t, r
	}
	l, t.left = split(t.left, key)
	fix(t)
	return l, t
}

// merge joins l and r; every address in l is below every address in r.
func merge(l, r *seg) *seg {
	switch {
	case l == nil:
		return r
	case r == nil:
		return l
	case l.prio > r.prio:
		l.right = merge(l.right, r)
		fix(l)
		return l
	default:
		r.left = merge(l, r.left)
		fix(r)
		return r
	}
}

func leftmost(t *seg) *seg {
	for t != nil && t.left != nil {
		t = t.left
	}
	return t
}

func rightmost(t *seg) *seg {
	for t != nil && t.right != nil {
		t = t.right
	}
	return t
}

// firstFit returns the lowest free segment that can hold ext bytes starting
// on an align boundary.
func firstFit(t *seg, ext, align uint64) *seg {
	if t == nil || t.maxFree < ext {
		return nil
	}
	if s := firstFit(t.left, ext, align); s != nil {
		return s
	}
	if t.free {
		start := alignUp(t.addr, uintptr(align))
		if uint64(start-t.addr)+ext <= t.size {
			return t
		}
	}
	return firstFit(t.right, ext, align)
}

// alloc carves ext bytes aligned to align (both multiples of minAlign) and
// records req as the block's size. It returns 0 when no free segment fits.
func (a *arena) alloc(ext, req, align uint64) uintptr {
	f := firstFit(a.root, ext, align)
	if f == nil {
		return 0
	}
	l, r := split(a.root, f.addr)
	m, r := split(r, f.addr+1) // m is f alone
	start := alignUp(f.addr, uintptr(align))
	end := f.addr + uintptr(f.size)
	var mid *seg
	if start > f.addr {
		mid = a.node(f.addr, uint64(start-f.addr), 0, true)
	}
	mid = merge(mid, a.node(start, ext, req, false))
	if tail := start + uintptr(ext); tail < end {
		mid = merge(mid, a.node(tail, uint64(end-tail), 0, true))
	}
	a.recycle(m)
	a.root = merge(merge(l, mid), r)
	a.count++
	return start
}

// free releases the block starting at addr and returns its requested size
// and the free segment it is now part of. ok is false (and nothing changes)
// when no block starts at addr.
func (a *arena) free(addr uintptr) (req uint64, blockAddr uintptr, blockSize uint64, merged *seg, ok bool) {
	l, r := split(a.root, addr)
	m, r := split(r, addr+1)
	if m == nil || m.free {
		a.root = merge(merge(l, m), r)
		return 0, 0, 0, nil, false
	}
	req, blockAddr, blockSize = m.req, m.addr, m.size
	start, end := m.addr, m.addr+uintptr(m.size)
	a.recycle(m)
	if p := rightmost(l); p != nil && p.free {
		var pl *seg
		l, pl = split(l, p.addr)
		start = p.addr
		a.recycle(pl)
	}
	if n := leftmost(r); n != nil && n.free {
		var nr *seg
		nr, r = split(r, n.addr+1)
		end = n.addr + uintptr(n.size)
		a.recycle(nr)
	}
	merged = a.node(start, uint64(end-start), 0, true)
	a.root = merge(merge(l, merged), r)
	a.count--
	return req, blockAddr, blockSize, merged, true
}

// find returns the allocated block whose requested bytes hold addr.
func (a *arena) find(addr uintptr) (*seg, bool) {
	var floor *seg
	for t := a.root; t != nil; {
		if t.addr <= addr {
			floor = t
			t = t.right
		} else {
			t = t.left
		}
	}
	if floor == nil || floor.free || uint64(addr-floor.addr) >= floor.req {
		return nil, false
	}
	return floor, true
}

// walk calls fn for every allocated block in address order.
func (a *arena) walk(fn func(addr uintptr, req uint64)) {
	var rec func(*seg)
	rec = func(t *seg) {
		if t == nil {
			return
		}
		rec(t.left)
		if !t.free && t.req != 0 { // req 0: a placeholder (hbm_node.go)
			fn(t.addr, t.req)
		}
		rec(t.right)
	}
	rec(a.root)
}
