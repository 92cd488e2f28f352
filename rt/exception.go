package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Exceptions, round 8: the calling thread's last error. The runtime keeps
// it per thread (RT_THREAD_LEVEL, the only level aclrtGetLastError
// documents); it is the last failure of any ACL or rt call on the thread,
// converted to the runtime's code (abi.RTCodeOf: rt codes pass unchanged).

// LastError implements rtGetLastError (clear) and rtPeekAtLastError: the
// rt code of the calling thread's last failure, 0 if none.
func LastError(t *core.Thread, level int32, clear bool) (abi.Code, error) {
	fn := "rtPeekAtLastError"
	if clear {
		fn = "rtGetLastError"
	}
	if level != abi.RT_THREAD_LEVEL {
		return 0, invalid(fn, "level %d is not RT_THREAD_LEVEL (0)", level)
	}
	c := t.LastError(clear)
	if c == 0 {
		return 0, nil
	}
	return abi.RTCodeOf(abi.Errorf(c, "%s", fn)), nil
}
