package core

import "sync/atomic"

// readIndex is a growable array of atomic pointers that readers index
// without taking a lock. The hot lookups of every call (its thread, its
// stream, function and args handles) used to take a sync.RWMutex read
// lock each; a read lock is an atomic add on a counter that every calling
// thread shares, so on a many-core host threads launching on streams of
// their own still passed one cache line around four times per launch.
// Here a lookup reads only lines that no other lookup writes.
//
// Elements live in fixed chunks that never move; the directory of chunks is
// copied when it grows (one pointer per chunk) and published atomically.
// Writers (store) are serialised by the caller.
type readIndex[E any] struct {
	dir atomic.Pointer[[]*indexChunk[E]]
}

// IndexChunkBits sets the elements per chunk (256).
const IndexChunkBits = 8

type indexChunk[E any] [1 << IndexChunkBits]atomic.Pointer[E]

// load returns element i, nil when it was never stored (or stored nil).
func (x *readIndex[E]) load(i uint32) *E {
	d := x.dir.Load()
	c := int(i >> IndexChunkBits)
	if d == nil || c >= len(*d) {
		return nil
	}
	return (*d)[c][i&(1<<IndexChunkBits-1)].Load()
}

// store sets element i to e. Callers serialise stores.
func (x *readIndex[E]) store(i uint32, e *E) {
	c := int(i >> IndexChunkBits)
	var d []*indexChunk[E]
	if p := x.dir.Load(); p != nil {
		d = *p
	}
	if c >= len(d) {
		if e == nil {
			return // never stored: already nil
		}
		grown := make([]*indexChunk[E], c+1)
		copy(grown, d)
		for j := len(d); j <= c; j++ {
			grown[j] = new(indexChunk[E])
		}
		x.dir.Store(&grown)
		d = grown
	}
	d[c][i&(1<<IndexChunkBits-1)].Store(e)
}
