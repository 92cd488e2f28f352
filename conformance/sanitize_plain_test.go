package conformance

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlainKernelCasesUnderSanitizer runs cases that launch plain
// npuemu/kernel.h kernels with NPUEMU_SANITIZE on and checks what the
// sanitizer reports (docs/sanitizer.md, "Kernel footprints"): those whose
// programs are correctly synchronised report nothing. kernel_determinism
// leaves hand-offs unordered on purpose of its timing figures: stream a's
// device-to-device copy into d0 after ev4 and stream b's last kernel, which
// reads d0, also after ev4 only; and its kernels write d2 on both streams
// with nothing ordering them. They store the same values — unless the copy
// ran first, when b's last kernel stores new ones and its writes to d2 race
// for real with a's first kernel (it happens on a loaded host). So its
// reports must be races between a copy and a kernel, or between two kernels
// over the bytes they changed — never over a kernel's whole allocation,
// which is what untracked footprints reported before.
func TestPlainKernelCasesUnderSanitizer(t *testing.T) {
	tg := target(t)
	if !tg.Emulator {
		t.Skip("NPUEMU_SANITIZE is npuemu's")
	}
	bin := t.TempDir()
	for _, tc := range []struct {
		name, checks string
		only         func(line string) bool // every report must satisfy it; nil: no report at all
		some         bool                   // at least one report is expected
	}{
		{name: "kernel_vadd", checks: "all"},
		{name: "kernel_args", checks: "all"},
		{name: "kernel_printf", checks: "all"},
		{name: "kernel_load_data_many", checks: "all"},
		{name: "callback_launch", checks: "all"},
		{name: "kernel_determinism", checks: "racecheck", some: true, only: func(l string) bool {
			switch strings.Count(l, `kernel "vadd_f32"`) {
			case 1:
				return strings.Contains(l, "aclrtMemcpyAsync (task")
			case 2:
				return !racesWholeAllocation(l)
			}
			return false
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseFile(filepath.Join("cases", tc.name+".c"))
			require.NoError(t, err)
			// A bound no load reaches: a launch that waited longer would
			// run untracked and count its allocations whole (precision,
			// not correctness, depends on it; docs/sanitizer.md).
			c.Env = append(c.Env, "NPUEMU_SANITIZE="+tc.checks, "NPUEMU_SANITIZE_TRACK_WAIT=10m")
			exe, log, err := tg.Build(c, bin)
			require.NoError(t, err, "%s", log)
			ctx, cancel := context.WithTimeout(context.Background(), *caseTimeout)
			defer cancel()
			r := tg.Run(ctx, c, exe)
			require.Equal(t, Pass, r.Outcome, "%s\n--- stderr\n%s", r.Reason, r.Stderr)
			var reports []string
			for _, l := range strings.Split(string(r.Stderr), "\n") {
				if strings.HasPrefix(l, "npuemu: sanitize: ") && !strings.HasPrefix(l, "npuemu: sanitize: summary:") {
					reports = append(reports, l)
				}
			}
			if tc.only == nil {
				assert.Empty(t, reports)
				return
			}
			if tc.some {
				assert.NotEmpty(t, reports)
			}
			for _, l := range reports {
				assert.True(t, tc.only(l), "unexpected report: %s", l)
			}
		})
	}
}

// racesWholeAllocation reports whether a racecheck report's range is its
// whole allocation ("race on 0xLO..0xHI of device D allocation 0xBASE (N
// bytes)"): what a footprint that was not tracked gives.
func racesWholeAllocation(l string) bool {
	var lo, hi, base, n uint64
	var dev int
	i := strings.Index(l, "race on ")
	if i < 0 {
		return false
	}
	if _, err := fmt.Sscanf(l[i:], "race on 0x%x..0x%x of device %d allocation 0x%x (%d bytes)", &lo, &hi, &dev, &base, &n); err != nil {
		return true // unparsable: count it against the case
	}
	return lo == base && hi == base+n
}
