package tsfw

import (
	"time"

	"github.com/npuemu/npuemu/abi"
)

// ChargeNow charges cost on the device's virtual clock for work the host
// thread has already done synchronously on the device's behalf — the
// migration of managed pages that a synchronous aclrtMemcpy or aclrtMemset
// faults in, or the write-back of dirty managed pages at a synchronize. It
// is timed like CopyNow: the cost occupies the earliest free SDMA timeline
// from the time the host has observed, and the host observes its end, so
// the synchronous operation that follows starts after it. It does not wait
// for queued tasks. A zero cost charges nothing.
func (d *Device) ChargeNow(cost time.Duration) error {
	if cost < 0 {
		return abi.DevErrorf(abi.DevBadArgument, "%s: charge of negative time %v", d.cfg.Name, cost)
	}
	if cost == 0 {
		return nil
	}
	end, err := d.syncCharge(cost, nil)
	if err != nil {
		return err
	}
	d.syncDone(end)
	return nil
}
