package rt

import (
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The runtime's cache maintenance of host-visible device memory. npuemu's
// device memory is host memory the emulated cores and the host see
// coherently, so there is no cache line to write back or drop: the calls
// check their arguments (as aclrtMemFlush / aclrtMemInvalidate, which call
// them) and do nothing else.

// FlushCache implements rtFlushCache: write back [base, base+len).
func FlushCache(t *core.Thread, base uintptr, n uint64) error {
	return wrap("rtFlushCache", acl.MemFlush(t, "rtFlushCache", base, n))
}

// InvalidCache implements rtInvalidCache: drop cached lines of
// [base, base+len).
func InvalidCache(t *core.Thread, base uintptr, n uint64) error {
	return wrap("rtInvalidCache", acl.MemFlush(t, "rtInvalidCache", base, n))
}
