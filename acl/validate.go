package acl

import "github.com/npuemu/npuemu/abi"

// Boundary rules shared by the handlers (docs/hardening.md): a value that
// no valid call carries is refused with the documented code before any
// arithmetic on it or any state change.

// maxDeviceBytes bounds any device-memory size before rounding: no HBM is
// larger than 2^48 bytes, and rounding a larger size up would wrap.
const maxDeviceBytes = 1 << 48

// checkAllocSize refuses a size that cannot be allocated on any device
// (SIZE_MAX and other wrapped values) with the out-of-memory code the
// runtime gives for a size beyond the free HBM.
func checkAllocSize(fn string, size uint64) error {
	if size > maxDeviceBytes {
		return abi.Errorf(abi.ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: size %d (%#x) exceeds any device's memory", fn, size, size)
	}
	return nil
}

// checkMallocPolicy refuses an aclrtMemMallocPolicy outside the enum: a
// base policy 0..7 (HUGE_FIRST .. HUGE1G_ONLY_P2P) with, optionally, the
// memory-type and access flags of policyFlags.
func checkMallocPolicy(fn string, policy uint32) error {
	if base := policy &^ policyFlags; base > abi.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: policy %#x is not an aclrtMemMallocPolicy (base policies 0..%d, flags %#x)", fn, policy, abi.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, policyFlags)
	}
	return nil
}
