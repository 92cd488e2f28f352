package acl

import (
	"fmt"
	"strings"

	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/sanitize"
)

// The sanitizer's wiring (NPUEMU_SANITIZE, docs/sanitizer.md). The model
// lives in rt/sanitize; this file describes to it what the ACL layer does:
// each queued task (sanitizeOp, from the queueing point, rt/core/submit.go), the
// host calls that touch memory at once (aclrtMemcpy, aclrtMemset), the
// synchronisation points (stream, event, device, stream destroy), frees,
// the operands the API refuses as outside their allocation (memcheck) and
// the leak report (leakcheck). Every call site is behind `if sanitizing`,
// so a program without NPUEMU_SANITIZE pays one predictable branch.

// rows2D is the footprint of a 2-D copy's operand: height rows of width
// bytes, pitch apart (one range over the rows and the gaps between them).
func rows2D(addr uintptr, pitch, width, height uint64, mode sanitize.Mode) sanitize.Access {
	n := width
	if height > 1 {
		n += (height - 1) * pitch
	}
	return sanitize.Access{Addr: addr, Size: n, Mode: mode}
}

// sanitizeLeaks routes the leak report through the sanitizer (leakcheck):
// one line per object alive at aclFinalize. Precondition: core.Runtime.Mu held.
func sanitizeLeaks() {
	for _, l := range core.LiveLocked() {
		where := fmt.Sprintf("device %d", l.Device)
		dev := int(l.Device)
		if l.Device == core.ProcessWide {
			where, dev = "process", -1
		}
		what := l.Summary
		if !strings.Contains(what, l.Kind) {
			what = l.Kind + " " + what
		}
		core.SanitizerState.Report(sanitize.Leakcheck, dev, "", fmt.Sprintf("%s still alive at aclFinalize (%s)", what, where))
	}
}

// randomFootprint is what a random-number task writes: its result (the
// rest of the allocation when the count is read from device memory) and
// its 16-byte counter.
func randomFootprint(result, counter uintptr, n uint64, countInMemory bool) []sanitize.Access {
	if countInMemory {
		n = 0
		if w, r := core.SanitizeLookup(result); w == sanitize.Inside {
			n = uint64(r.Base) + r.Size - uint64(result)
		}
	}
	return []sanitize.Access{{Addr: result, Size: n, Mode: sanitize.Write}, {Addr: counter, Size: 16, Mode: sanitize.Write}}
}
