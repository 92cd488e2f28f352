package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The rest of the runtime's managed-memory calls (docs/svm.md). Numbering
// decisions: rtMemManagedLocationType and rtMemManagedRangeAttribute have
// the values of aclrtMemManagedLocationType and
// aclrtMemManagedRangeAttribute (rt-types.md); the advice of
// rtMemManagedAdvise is a uint16_t that the runtime's header gives no enum
// for, and aclrtMemManagedAdvise passes its aclrtMemManagedAdviseType
// through unconverted (acl-to-rt.tsv casts only the location type), so the
// rt advice is numbered as ACL's: 0 SET_READ_MOSTLY, 1 UNSET_READ_MOSTLY,
// 2 SET_PREFERRED_LOCATION, 3 UNSET_PREFERRED_LOCATION, 4 SET_ACCESSED_BY,
// 5 UNSET_ACCESSED_BY.

// MemManagedAdvise implements rtMemManagedAdvise: advice on a managed
// range (read-mostly, preferred location, accessed-by), as
// aclrtMemManagedAdvise.
func MemManagedAdvise(t *core.Thread, p uintptr, size uint64, advise uint16, loc acl.ManagedLocation) error {
	const fn = "rtMemManagedAdvise"
	if p == 0 || size == 0 {
		return invalid(fn, "ptr must not be NULL and size must not be 0")
	}
	if advise > abi.ACL_MEM_ADVISE_UNSET_ACCESSED_BY {
		return invalid(fn, "advise %d is not an advice (0..5, numbered as aclrtMemManagedAdviseType)", advise)
	}
	return wrap(fn, acl.ManagedAdvise(t, p, size, int32(advise), loc))
}

// MemManagedGetAttr implements rtMemManagedGetAttr: one attribute of a
// managed range into data (len(data) bytes; nil for NULL), sizes as
// semantics.md §12. The LAST_PREFETCH_* attributes are reserved by the
// documentation and answered ACL_ERROR_RT_FEATURE_NOT_SUPPORT, as
// aclrtMemManagedGetAttr does.
func MemManagedGetAttr(t *core.Thread, attr int32, p uintptr, size uint64, data []byte) error {
	const fn = "rtMemManagedGetAttr"
	if data == nil {
		return invalid(fn, "data must not be NULL and dataSize must not be 0")
	}
	return wrap(fn, acl.ManagedGetAttr(t, attr, p, size, data))
}

// MemManagedGetAttrs implements rtMemManagedGetAttrs: data[i] receives
// attrs[i].
func MemManagedGetAttrs(t *core.Thread, attrs []int32, p uintptr, size uint64, data [][]byte) error {
	const fn = "rtMemManagedGetAttrs"
	if len(attrs) == 0 || len(data) != len(attrs) {
		return invalid(fn, "attributes, data and dataSizes must not be NULL and numAttributes must be > 0")
	}
	return wrap(fn, acl.ManagedGetAttrs(t, attrs, p, size, data))
}

// MemManagedPrefetchBatchAsync implements rtMemManagedPrefetchBatchAsync:
// locs[k] applies to items locIdxs[k] .. locIdxs[k+1]-1 (the index scheme
// of the batch copies); flags must be 0.
func MemManagedPrefetchBatchAsync(t *core.Thread, ptrs []uintptr, sizes []uint64, locs []acl.ManagedLocation, locIdxs []uint64, flags uint64, stream core.Handle) error {
	return wrap("rtMemManagedPrefetchBatchAsync", acl.PrefetchBatchAsync(t, ptrs, sizes, locs, locIdxs, flags, stream))
}

// MemPrefetchToDevice implements rtMemPrefetchToDevice, the call
// aclrtMemP2PMap makes after resolving the peer's physical id: managed
// pages of [devPtr, devPtr+len) get a mapping for device devId (a peer
// with access to them), device memory is checked only (an enabled peer
// reaches it already). The runtime's documentation does not describe the
// call on its own; npuemu gives it aclrtMemP2PMap's behaviour (docs/svm.md
// "aclrtMemP2PMap"), physical ids being logical ids.
func MemPrefetchToDevice(t *core.Thread, p uintptr, n uint64, dev int32) error {
	const fn = "rtMemPrefetchToDevice"
	if p == 0 || n == 0 {
		return invalid(fn, "devPtr must not be NULL and len must not be 0")
	}
	return wrap(fn, acl.MemP2PMap(t, p, n, dev, 0))
}
