package rt

import (
	"github.com/npuemu/npuemu/rt/core"
)

// ModelExecute implements rtModelExecute: run the model run instance on the
// stream (flag must be 0, the only value the runtime defines).
func ModelExecute(t *core.Thread, m, s core.Handle, flag uint32) error {
	const fn = "rtModelExecute"
	if m == 0 {
		return invalid(fn, "mdl must not be NULL")
	}
	if flag != 0 {
		return invalid(fn, "flag %#x: only 0 is defined", flag)
	}
	return wrap(fn, core.ExecuteAsync(t, m, s))
}
