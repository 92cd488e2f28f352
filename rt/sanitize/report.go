package sanitize

import (
	"fmt"
	"math/bits"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/npuemu/npuemu/timeline"
)

// Prefix starts every line the sanitizer writes.
const Prefix = "npuemu: sanitize: "

// Report writes one report of check on device dev (-1: none) unless the
// same key was reported before (a loop repeating one bug prints it once;
// every occurrence is counted). The API layer calls it for what it finds
// itself: operands it refuses (memcheck) and leaked objects (leakcheck).
func (s *State) Report(check Check, dev int, key, line string) {
	if s.checks&check == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.report(check, dev, key, line)
}

// report is Report with s.mu held.
func (s *State) report(check Check, dev int, key, line string) {
	s.counts[bits.TrailingZeros8(uint8(check))]++
	if key != "" {
		if s.seen[key] {
			return
		}
		s.seen[key] = true
	}
	s.distinct++
	fmt.Fprintf(s.out, "%s%s: %s\n", Prefix, check, line)
	if timeline.Enabled() && dev >= 0 {
		timeline.Instant(dev, "sanitize: "+check.String(), map[string]any{"report": line})
	}
}

// Count returns how many reports s made, every occurrence counted.
func (s *State) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.counts {
		n += c
	}
	return n
}

// Summary writes the one-line summary printed at process exit.
func (s *State) Summary() {
	s.mu.Lock()
	defer s.mu.Unlock()
	var parts []string
	total := 0
	for _, n := range checkNames {
		c := s.counts[bits.TrailingZeros8(uint8(n.c))]
		total += c
		if c > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", n.name, c))
		}
	}
	if total == 0 {
		fmt.Fprintf(s.out, "%ssummary: no reports (checks: %s)\n", Prefix, s.checks)
		return
	}
	fmt.Fprintf(s.out, "%ssummary: %d report(s), %d distinct (%s; checks: %s)\n", Prefix, total, s.distinct, strings.Join(parts, ", "), s.checks)
}

// FromEnv returns the sanitizer NPUEMU_SANITIZE asks for, reporting on
// stderr, or nil when it is unset or names no check. A value it does not
// understand is reported once on stderr; the checks it names that are
// known still run.
func FromEnv(lookup Lookup) *State {
	v := os.Getenv(Env)
	if v == "" {
		return nil
	}
	c, err := Parse(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "npuemu: %v\n", err)
	}
	if c == 0 {
		return nil
	}
	return New(c, lookup, os.Stderr)
}

// DefaultTrackWait is TrackWait's bound when TrackWaitEnv is unset.
const DefaultTrackWait = 2 * time.Second

// TrackWait returns how long a tracked kernel launch waits to run alone,
// and device work waits for a tracked launch, before going ahead with
// less precision (docs/sanitizer.md, "Kernel footprints"): the value of
// NPUEMU_SANITIZE_TRACK_WAIT, a Go duration ("2s", "500ms", "1m"), or
// DefaultTrackWait. On a loaded machine a longer bound keeps the reports
// of a correct program the same from run to run; the bound exists for
// kernels that never end.
func TrackWait() time.Duration {
	v := os.Getenv(TrackWaitEnv)
	if v == "" {
		return DefaultTrackWait
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		fmt.Fprintf(os.Stderr, "npuemu: %s=%q: want a positive duration such as 2s or 500ms; using %s\n", TrackWaitEnv, v, DefaultTrackWait)
		return DefaultTrackWait
	}
	return d
}

// ExitCode returns the exit status NPUEMU_SANITIZE_EXITCODE asks for when
// s made reports; ok is false when the status must stay the program's.
func (s *State) ExitCode() (code int, ok bool) {
	v := os.Getenv(ExitCodeEnv)
	if v == "" || s.Count() == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 255 {
		fmt.Fprintf(os.Stderr, "npuemu: %s=%q: want an exit status 0..255; the program's own status is kept\n", ExitCodeEnv, v)
		return 0, false
	}
	return n, true
}
