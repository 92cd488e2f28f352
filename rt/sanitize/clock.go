package sanitize

// Actor is a stream or a host thread: an index into the sanitizer's
// actors and into every vector clock.
type Actor int32

// Clock is a vector clock: for each actor, the number of its steps
// (tasks of a stream, accesses and queueings of a host thread) known to
// have happened before. Missing entries are 0.
type Clock []uint64

// Get returns a's entry.
func (c Clock) Get(a Actor) uint64 {
	if int(a) < len(c) {
		return c[a]
	}
	return 0
}

// Tick advances a's own entry and returns its new value (the epoch of
// a's new step).
func (c *Clock) Tick(a Actor) uint64 {
	c.grow(int(a) + 1)
	(*c)[a]++
	return (*c)[a]
}

// Join makes c know everything o knows (the entry-wise maximum).
func (c *Clock) Join(o Clock) {
	c.grow(len(o))
	for i, v := range o {
		if v > (*c)[i] {
			(*c)[i] = v
		}
	}
}

// Covers reports whether step epoch of actor a happened before everything
// c describes.
func (c Clock) Covers(a Actor, epoch uint64) bool { return c.Get(a) >= epoch }

// Copy returns a copy of c that later changes to c do not affect.
func (c Clock) Copy() Clock { return append(Clock(nil), c...) }

func (c *Clock) grow(n int) {
	if n > len(*c) {
		*c = append(*c, make([]uint64, n-len(*c))...)
	}
}
