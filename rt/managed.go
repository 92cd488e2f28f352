package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// MemAllocManaged implements rtMemAllocManaged: managed (unified) memory
// in the svm window, as aclrtMemAllocManaged (docs/svm.md). flag is
// RT_MEMORY_ATTACH_GLOBAL (the same value as ACL_RT_MEM_ATTACH_GLOBAL);
// moduleId is accepted (managed memory is not charged to device modules).
func MemAllocManaged(t *core.Thread, out *uintptr, size uint64, flag uint32, module uint16) error {
	const fn = "rtMemAllocManaged"
	if flag != abi.RT_MEMORY_ATTACH_GLOBAL {
		return invalid(fn, "flag %d: only RT_MEMORY_ATTACH_GLOBAL (1) is accepted", flag)
	}
	return wrap(fn, acl.AllocManaged(t, out, size, flag))
}

// MemManagedPrefetchAsync implements rtMemManagedPrefetchAsync: the
// managed range moves to location in stream order, as
// aclrtMemManagedPrefetchAsync. rtMemManagedLocationType is numbered as
// aclrtMemManagedLocationType (rt-types.md: invalid 0, device 1, host 2,
// host NUMA 3, current host NUMA 4); flags must be 0.
func MemManagedPrefetchAsync(t *core.Thread, p uintptr, size uint64, loc acl.ManagedLocation, flags uint32, stm core.Handle) error {
	return wrap("rtMemManagedPrefetchAsync", acl.PrefetchAsync(t, p, size, loc, flags, stm))
}
