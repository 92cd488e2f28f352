package emu

import (
	"strconv"
	"strings"

	"github.com/npuemu/npuemu/timeline"
)

// traceUsedLocked steps the timeline's "HBM in use" counter of the device
// (docs/timeline.md); nothing when the timeline is off.
// Precondition: h.mu held.
func (h *HBM) traceUsedLocked() {
	if !timeline.Enabled() {
		return
	}
	dev, err := strconv.Atoi(strings.TrimPrefix(h.name, "dev"))
	if err != nil {
		return // not a device's HBM (tests name theirs freely)
	}
	timeline.Counter(dev, "HBM in use", int64(h.used))
}
