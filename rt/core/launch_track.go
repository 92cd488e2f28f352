package core

import (
	"slices"
	"sync"
	"time"

	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// Page footprints of plain npuemu/kernel.h kernels for the sanitizer
// (docs/sanitizer.md, "Kernel footprints"). An Ascend C kernel records
// its GM footprint itself (kernel_sanitize.go); a plain kernel does not,
// so while the sanitizer follows tasks, a launch of a kernel not known to
// record one is tracked: before its first block runs, the device pages of
// the allocations its pointer arguments point into are closed, the kernel
// host notes each first touch of its blocks (libfake/track.c) and, when
// the launch is done, says what it read and wrote
// (sanitize.State.CompletePaged); the pages it did not touch stay closed
// until something touches them (parked: a launch loop over the same
// buffers closes only what was opened in between). A kernel whose first launch turns out to
// record its own footprint is not tracked again.
//
// Closed pages must not be touched by anything else, so tracked launches
// run alone: they hold trackGate exclusively from their first block to
// their end; other launches (from their first block to their end) and
// every copy, memset and engine function (tsfw.SetEngineGate) hold it
// shared. Waits for the gate are bounded (gateWait): a tracked launch that
// cannot have it in time runs untracked (its allocations count whole, as
// before); work that waits for a tracked launch longer than that goes
// ahead, and a page it touches is opened for it and counts as read and
// written whole by the launch (spoiled). A kernel that never ends
// therefore stalls nothing for more than gateWait.

// PageSpan is a page-aligned range of device memory, tracked in units of
// 1 << Shift bytes.
type PageSpan struct {
	Lo, Hi uintptr
	Shift  uint32
}

// MaxUnits is how many tracking units an allocation is cut into at most:
// past 1 MiB the unit grows (a power of two) so that a kernel streaming
// through a large buffer takes at most this many faults per allocation.
const MaxUnits = 256

// UnitShift returns the tracking unit of n bytes: 4 KiB, or the power of
// two that cuts them into at most maxUnits.
func UnitShift(n uintptr) uint32 {
	s := uint32(12)
	for s < 30 && n>>s > MaxUnits {
		s++
	}
	return s
}

// PageTracker is implemented by kernel hosts that can track the pages a
// launch touches (libfake/track.c). One launch is tracked at a time.
type PageTracker interface {
	// TrackArm closes spans (sorted, disjoint) for the launch whose
	// scratch is state.
	TrackArm(state []byte, spans []PageSpan) error
	// TrackDisarm opens them again and returns the launch's footprint;
	// ok is false when the tracking broke down.
	TrackDisarm() (fp []sanitize.PageRange, ok bool)
}

// GateWait bounds every wait for trackGate: NPUEMU_SANITIZE_TRACK_WAIT
// (sanitize.TrackWait), read when the library loads with the sanitizer on
// (a variable for tests).
var GateWait = trackWait()

func trackWait() time.Duration {
	if !Sanitizing {
		return sanitize.DefaultTrackWait
	}
	return sanitize.TrackWait()
}

// maxTrackSpans is the most allocations one launch has tracked (the
// tracker's table, libfake/track.c).
const maxTrackSpans = 256

// TrackGate is a readers-writer gate whose waits are bounded. Writers
// waiting keep new readers out, so a stream of copies does not starve a
// tracked launch.
type TrackGate struct {
	mu      sync.Mutex
	readers int           // guarded by mu
	writer  bool          // guarded by mu
	since   time.Time     // when the writer took it; guarded by mu
	waiting int           // writers waiting; guarded by mu
	changed chan struct{} // closed when the gate opens further; guarded by mu
}

// gate is the process's trackGate (set as the engines' gate when the
// sanitizer is on at load time).
var gate = &TrackGate{}

func init() {
	if Sanitizing {
		tsfw.SetEngineGate(gate)
	}
}

// wait waits for a change until deadline and reports whether it may wait
// on. Precondition: g.mu held (released while waiting).
func (g *TrackGate) wait(deadline time.Time) bool {
	left := time.Until(deadline)
	if left <= 0 {
		return false
	}
	if g.changed == nil {
		g.changed = make(chan struct{})
	}
	ch := g.changed
	g.mu.Unlock()
	t := time.NewTimer(left)
	select {
	case <-ch:
	case <-t.C:
	}
	t.Stop()
	g.mu.Lock()
	return true
}

// signal wakes the waiters. Precondition: g.mu held.
func (g *TrackGate) signal() {
	if g.changed != nil {
		close(g.changed)
		g.changed = nil
	}
}

// Enter implements tsfw.Gate: it takes g shared, waiting for a tracked
// launch at most gateWait (and not at all for one that has run longer).
func (g *TrackGate) Enter() {
	g.mu.Lock()
	if g.writer || g.waiting > 0 {
		deadline := time.Now().Add(GateWait)
		for (g.writer && time.Since(g.since) < GateWait) || (!g.writer && g.waiting > 0) {
			if !g.wait(deadline) {
				break
			}
		}
	}
	g.readers++
	g.mu.Unlock()
}

// Leave implements tsfw.Gate.
func (g *TrackGate) Leave() {
	g.mu.Lock()
	g.readers--
	if g.readers == 0 {
		g.signal()
	}
	g.mu.Unlock()
}

// Lock takes g exclusively; false when it could not within gateWait, or
// at once when the writer holding it has held it longer than that (a
// kernel that may never end: the tracker stays its).
func (g *TrackGate) Lock() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	deadline := time.Now().Add(GateWait)
	g.waiting++
	for g.writer || g.readers > 0 {
		if (g.writer && time.Since(g.since) >= GateWait) || !g.wait(deadline) {
			g.waiting--
			g.signal()
			return false
		}
	}
	g.waiting--
	g.writer, g.since = true, time.Now()
	return true
}

func (g *TrackGate) Unlock() {
	g.mu.Lock()
	g.writer = false
	g.signal()
	g.mu.Unlock()
}

// selfFootprint holds the functions known to record their own footprint
// (Ascend C kernels): their launches are not tracked.
var selfFootprint sync.Map // *Function → struct{}

// kernelTrack is a launch's side of the tracking (nil when the sanitizer
// does not follow tasks).
type kernelTrack struct {
	once   sync.Once
	shared bool      // holds gate shared
	excl   bool      // holds gate exclusively
	armed  bool      // its pages are tracked
	bases  []uintptr // the allocations tracked
}

// begin runs before each block: the first takes the gate (and arms the
// tracker), the others wait for it to have done so.
func (k *kernelTrack) begin(l *Launch) { k.once.Do(func() { k.start(l) }) }

func (k *kernelTrack) start(l *Launch) {
	pt, ok := l.Host.(PageTracker)
	if _, self := selfFootprint.Load(l.F); !ok || self {
		gate.Enter()
		k.shared = true
		return
	}
	spans, bases := trackSpans(l.Args, l.Size)
	if len(spans) == 0 || len(spans) > maxTrackSpans {
		gate.Enter() // nothing to track (or too much): runs with the others, its allocations whole
		k.shared = true
		return
	}
	if !gate.Lock() {
		return // runs untracked, its allocations whole
	}
	k.excl = true
	if pt.TrackArm(l.Buf[:LaunchHeader], spans) != nil {
		return
	}
	k.armed, k.bases = true, bases
}

// end disarms the tracker and releases the gate; fp and ok are the
// tracked footprint (armed only).
func (k *kernelTrack) end(l *Launch) (fp []sanitize.PageRange, ok bool) {
	if k.armed {
		fp, ok = l.Host.(PageTracker).TrackDisarm()
	}
	switch {
	case k.excl:
		gate.Unlock()
	case k.shared:
		gate.Leave()
	}
	return fp, ok
}

// trackSpans returns the pages to track for a launch whose argument image
// is [args, args+size): those of every live device allocation an 8-byte
// word of the image points into, merged, and the allocations' bases.
func trackSpans(args uintptr, size uint64) ([]PageSpan, []uintptr) {
	var spans []PageSpan
	var bases []uintptr
	words, word := deviceWords(args, size)
	for i := range words {
		v := uintptr(word(i))
		d := DeviceOf(v)
		if d == nil {
			continue
		}
		base, _, ok := d.Emu.HBM.Find(v)
		if !ok || slices.Contains(bases, base) {
			continue
		}
		d.AllocMu.RLock()
		_, live := d.Allocs[base]
		d.AllocMu.RUnlock()
		if !live {
			continue // a HAL block or freed memory: not watched
		}
		lo, hi, ok := d.Emu.HBM.OpenPages(base)
		if !ok {
			continue
		}
		bases = append(bases, base)
		spans = append(spans, PageSpan{lo, hi, UnitShift(hi - lo)})
	}
	slices.SortFunc(spans, func(a, b PageSpan) int {
		switch {
		case a.Lo < b.Lo:
			return -1
		case a.Lo > b.Lo:
			return 1
		}
		return 0
	})
	out := spans[:0]
	for _, s := range spans {
		if n := len(out); n > 0 && s.Lo < out[n-1].Hi { // shared pages (protection off)
			out[n-1].Hi = max(out[n-1].Hi, s.Hi)
			out[n-1].Shift = min(out[n-1].Shift, s.Shift)
			continue
		}
		out = append(out, s)
	}
	return out, bases
}
