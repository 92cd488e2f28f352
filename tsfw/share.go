package tsfw

import "time"

// Cores shared with kernels outside this Device: the other processes of a
// node that open the same device (emu/nodecores.go). A Device with
// Config.Cores set asks it, when it stamps a kernel, when the cores the
// kernel holds are free of other holders; the kernel's virtual start moves
// to that time and its queue's later tasks with it. The arbitration is
// first come, first served in stamping order, like the SDMA timelines:
// whoever stamps first holds the cores, and a later kernel of another
// holder starts when they are released. The Device's own kernels never
// wait for each other here (contention between its queues is not charged,
// see aicore.go), so a Device whose arbiter never reports another holder
// keeps exactly the virtual times it has without one.

// CoreArbiter shares a device's AI Cores with holders outside the Device.
type CoreArbiter interface {
	// Claim is told, when a kernel is stamped, its earliest virtual
	// start, its duration and the cube and vector cores it holds for
	// that time; it records the holding and returns the start, never
	// earlier than start, at which those cores are free of other
	// holders. Calls for different queues may run at once (see
	// Config.OnBusy): it must be safe for concurrent use, and must not
	// block or call back.
	Claim(start, dur time.Duration, cube, vector int) time.Duration
}

// claimCores asks the arbiter when kernel t, ready at start and lasting
// cost, may hold its cores: as many blocks at once as the whole pool takes
// (the width its duration was computed with, see KernelSpec.duration).
// Precondition: as for stamp; d.cfg.Cores is set.
func (d *Device) claimCores(t *Task, start, cost time.Duration) time.Duration {
	a := &d.aic
	c, v := t.ks.need(a.vectorCores)
	w := t.ks.width(c, v, a.cubeCores, a.vectorCores)
	if w == 0 { // a mix ratio above the vector pool: one block on the whole pool
		w, c, v = 1, min(c, a.cubeCores), min(v, a.vectorCores)
	}
	return d.cfg.Cores.Claim(start, cost, w*c, w*v)
}
