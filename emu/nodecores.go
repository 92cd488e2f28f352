package emu

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// Core occupancy of a node directory (docs/node.md, "Contention between
// processes"): the processes that open one device share its AI Cores. Each
// device record holds, per process slot, one word (core_hold): the device
// time until which the slot holds cores and how many cube and vector
// cores it holds until then. A process's kernels wait, on the virtual
// clock, until the cores they need are free of the other processes'
// holdings (first come, first served in stamping order, as tsfw's SDMA
// timelines); see tsfw/share.go for the scheduler's side.
//
// The device clock: every process has its own virtual clock (0 when it
// opens the device). When it opens the device it takes as its clock base
// the latest holding end the node knows (core_clock_floor_ns and every
// slot's core_hold) and writes it to its slot's clock_base_ns[dev]: its
// virtual time v is device time v + base. So a process that opens a device
// after another's published work starts after it.
//
// Cost: a kernel stamped while the process is the device's only user
// reads two words (core_users, its own core_hold) and publishes its
// holding only when the published end lags behind by more than aloneLag
// of device time (one compare-and-swap per millisecond of device time at
// most): a process alone gets exactly the virtual times it gets without a
// node. Shared, a kernel reads the holdings of the other users and
// publishes its own with one compare-and-swap. A process that opens the
// device while another works alone may therefore overlap the last
// aloneLag of the work stamped before it came, never more.

// holdUntilMask masks a core_hold word's device time (NPUEMU_NODE_HOLD_UNTIL).
const holdUntilMask = 1<<NodeHoldUntilBits - 1

// holdCoresMax is the most cores of one kind a core_hold word records.
const holdCoresMax = 0xff

func packHold(until uint64, cube, vector int) uint64 {
	return min(until, holdUntilMask) | uint64(min(cube, holdCoresMax))<<48 | uint64(min(vector, holdCoresMax))<<56
}

func unpackHold(w uint64) (until uint64, cube, vector int) {
	return w & holdUntilMask, int(w >> 48 & 0xff), int(w >> 56)
}

// nodeCores is one process's tsfw.CoreArbiter of one device.
type nodeCores struct {
	dir          *NodeDir
	rec          *NodeDevice
	phys         int
	slot         int
	base         uint64 // device time at this process's virtual 0
	cube, vector int    // this process's pools (its vNPU's when bound)
}

// joinCores registers this process as a user of physical device phys with
// pools of cube and vector cores and returns its arbiter; it fixes the
// process's clock base (see above).
func (d *NodeDir) joinCores(phys, cube, vector int) (*nodeCores, error) {
	if err := d.lock(); err != nil {
		return nil, err
	}
	defer d.unlock()
	rec := d.Device(phys)
	c := &nodeCores{dir: d, rec: rec, phys: phys, slot: d.slot, cube: cube, vector: vector}
	bit := uint64(1) << uint(d.slot%64)
	if atomic.LoadUint64(&rec.CoreUserMask[d.slot/64])&bit == 0 {
		atomic.StoreUint64(&rec.CoreHold[d.slot], 0)
		atomic.OrUint64(&rec.CoreUserMask[d.slot/64], bit)
		atomic.AddUint32(&rec.CoreUsers, 1)
	}
	base := atomic.LoadUint64(&rec.CoreClockFloor)
	for i := range rec.CoreHold {
		until, _, _ := unpackHold(atomic.LoadUint64(&rec.CoreHold[i]))
		base = max(base, until)
	}
	c.base = base
	atomic.StoreUint64(&d.proc.ClockBaseNS[phys], base)
	return c, nil
}

// leaveCoresLocked releases every holding of slot i (a process that closed
// or died): its devices' core_hold words go to 0, their ends raise the
// device's clock floor, and the slot stops being a user.
// Precondition: table lock held.
func (d *NodeDir) leaveCoresLocked(i int) {
	bit := uint64(1) << uint(i%64)
	for dev := 0; dev < int(d.hdr.DeviceCount); dev++ {
		rec := d.Device(dev)
		if atomic.LoadUint64(&rec.CoreUserMask[i/64])&bit == 0 {
			continue
		}
		until, _, _ := unpackHold(atomic.SwapUint64(&rec.CoreHold[i], 0))
		for {
			f := atomic.LoadUint64(&rec.CoreClockFloor)
			if f >= until || atomic.CompareAndSwapUint64(&rec.CoreClockFloor, f, until) {
				break
			}
		}
		atomic.AndUint64(&rec.CoreUserMask[i/64], ^bit)
		for {
			n := atomic.LoadUint32(&rec.CoreUsers)
			if n == 0 || atomic.CompareAndSwapUint32(&rec.CoreUsers, n, n-1) {
				break
			}
		}
	}
}

// hold is another slot's holding as a kernel's claim sees it.
type hold struct {
	until        uint64
	cube, vector int
}

// aloneLag: a process alone on a device publishes its holding only when
// the published end lags behind a kernel's end by more than this, so that
// a process that opens the device later starts its clock after (all but
// the last aloneLag of) the work stamped before it came.
const aloneLag = uint64(time.Millisecond)

// Claim implements tsfw.CoreArbiter.
func (c *nodeCores) Claim(start, dur time.Duration, cube, vector int) time.Duration {
	s := uint64(start) + c.base
	end := s + uint64(max(dur, 0))
	if atomic.LoadUint32(&c.rec.CoreUsers) < 2 {
		// Alone on the device: nothing to wait for.
		if until, _, _ := unpackHold(atomic.LoadUint64(&c.rec.CoreHold[c.slot])); end > until+aloneLag {
			c.publish(s, end, cube, vector)
		}
		return start
	}
	s = c.firstFree(s, cube, vector)
	c.publish(s, s+uint64(max(dur, 0)), cube, vector)
	return time.Duration(s - c.base)
}

// firstFree returns the earliest device time from s at which cube and
// vector cores are free of the other slots' holdings.
func (c *nodeCores) firstFree(s uint64, cube, vector int) uint64 {
	var buf [8]hold
	hs := buf[:0]
	usedC, usedV := 0, 0
	for w := range c.rec.CoreUserMask {
		m := atomic.LoadUint64(&c.rec.CoreUserMask[w])
		for m != 0 {
			i := w*64 + bits.TrailingZeros64(m)
			m &= m - 1
			if i == c.slot {
				continue
			}
			until, hc, hv := unpackHold(atomic.LoadUint64(&c.rec.CoreHold[i]))
			if until <= s || (hc == 0 && hv == 0) || !c.contends(i) {
				continue
			}
			hs = append(hs, hold{until, hc, hv})
			usedC += hc
			usedV += hv
		}
	}
	// Release the holdings in the order they end until the kernel fits.
	for len(hs) > 0 && (cube > 0 && usedC+cube > c.cube || vector > 0 && usedV+vector > c.vector) {
		k := 0
		for j := range hs {
			if hs[j].until < hs[k].until {
				k = j
			}
		}
		s = max(s, hs[k].until)
		usedC -= hs[k].cube
		usedV -= hs[k].vector
		hs[k] = hs[len(hs)-1]
		hs = hs[:len(hs)-1]
	}
	return s
}

// contends reports whether slot i's kernels compete with this process's
// on the device: both use the whole device, or one does, or both are
// bound to the same vNPU (vNPUs have cores of their own).
func (c *nodeCores) contends(i int) bool {
	mine := atomic.LoadInt32(&c.dir.proc.VNPU[c.phys])
	theirs := atomic.LoadInt32(&c.dir.Proc(i).VNPU[c.phys])
	return mine < 0 || theirs < 0 || mine == theirs
}

// publish records that this process holds cube and vector cores from s to
// end. The slot's one word keeps the latest end and never understates the
// cores held before it: kernels that overlap (this process's streams run
// side by side) add up, capped at the pools; a kernel that follows the
// holding without a gap keeps the larger count; after a gap the new
// kernel's cores replace it. So two processes never hold more than the
// pool at once, at the price of a wait that may be longer than needed when
// a process's kernels shrink while it stays busy.
func (c *nodeCores) publish(s, end uint64, cube, vector int) {
	p := &c.rec.CoreHold[c.slot]
	for {
		old := atomic.LoadUint64(p)
		until, hc, hv := unpackHold(old)
		wc, wv := cube, vector
		switch {
		case until > s: // overlapping kernels (this process's streams)
			wc, wv = min(hc+cube, c.cube), min(hv+vector, c.vector)
		case until == s: // back to back: the word cannot say when the cores drop
			wc, wv = max(hc, cube), max(hv, vector)
		}
		w := packHold(max(until, end), wc, wv)
		if w == old || atomic.CompareAndSwapUint64(p, old, w) {
			return
		}
	}
}
