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
