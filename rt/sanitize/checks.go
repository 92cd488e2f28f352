package sanitize

import (
	"fmt"
	"strings"
)

// Check is a set of sanitizer checks.
type Check uint8

// The checks NPUEMU_SANITIZE names.
const (
	Memcheck Check = 1 << iota
	Racecheck
	Initcheck
	Synccheck
	Leakcheck

	All = Memcheck | Racecheck | Initcheck | Synccheck | Leakcheck
)

// Env names the variable that turns the sanitizer on; ExitCodeEnv the one
// that makes a process that got reports exit with that status;
// TrackWaitEnv the one that bounds how long tracked kernel launches and
// the device work around them wait for one another (TrackWait).
const (
	Env          = "NPUEMU_SANITIZE"
	ExitCodeEnv  = "NPUEMU_SANITIZE_EXITCODE"
	TrackWaitEnv = "NPUEMU_SANITIZE_TRACK_WAIT"
)

var checkNames = [...]struct {
	c    Check
	name string
}{{Memcheck, "memcheck"}, {Racecheck, "racecheck"}, {Initcheck, "initcheck"}, {Synccheck, "synccheck"}, {Leakcheck, "leakcheck"}}

// String names the checks of c, comma-separated.
func (c Check) String() string {
	var names []string
	for _, n := range checkNames {
		if c&n.c != 0 {
			names = append(names, n.name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ",")
}

// Parse reads a NPUEMU_SANITIZE value: check names separated by commas
// (or spaces), "all" for every check. Unknown names are returned as an
// error next to the checks that were understood.
func Parse(v string) (Check, error) {
	var c Check
	var bad []string
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == ':' }) {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "all" || f == "1" {
			c |= All
			continue
		}
		found := false
		for _, n := range checkNames {
			if f == n.name {
				c |= n.c
				found = true
			}
		}
		if !found {
			bad = append(bad, fmt.Sprintf("%q", f))
		}
	}
	if len(bad) > 0 {
		return c, fmt.Errorf("%s: unknown check %s (want memcheck, racecheck, initcheck, synccheck, leakcheck or all)", Env, strings.Join(bad, ", "))
	}
	return c, nil
}
