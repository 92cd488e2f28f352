package rt

import (
	"github.com/npuemu/npuemu/abi"
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

// cmoType maps an rtCmoOpCode_t to the aclrtCmoType of the same operation
// (RT_CMO_PREFETCH is 6, ACL_RT_CMO_TYPE_PREFETCH 0).
func cmoType(fn string, op int32) (int32, error) {
	switch op {
	case abi.RT_CMO_PREFETCH:
		return abi.ACL_RT_CMO_TYPE_PREFETCH, nil
	case abi.RT_CMO_WRITEBACK:
		return abi.ACL_RT_CMO_TYPE_WRITEBACK, nil
	case abi.RT_CMO_INVALID:
		return abi.ACL_RT_CMO_TYPE_INVALID, nil
	case abi.RT_CMO_FLUSH:
		return abi.ACL_RT_CMO_TYPE_FLUSH, nil
	}
	return 0, invalid(fn, "cmoType %d is not an rtCmoOpCode_t (RT_CMO_PREFETCH..RT_CMO_FLUSH, 6..9)", op)
}

// CmoAsync implements rtCmoAsync: a cache operation on
// device memory [src, src+len) in stream order, as aclrtCmoAsync
// (RT_CMO_PREFETCH; the others are refused as there).
func CmoAsync(t *core.Thread, src uintptr, n uint64, op int32, stm core.Handle) error {
	const fn = "rtCmoAsync"
	typ, err := cmoType(fn, op)
	if err != nil {
		return err
	}
	return wrap(fn, acl.CmoAsync(t, src, n, typ, stm))
}
