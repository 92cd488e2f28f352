package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Uncorrectable memory errors (aclrtGetMemUceInfo, aclrtMemUceRepair) and
// error repair (aclrtRepairError), 950/A3/A2 per the documentation. The
// emulated HBM is host memory without ECC, so no device ever has an
// uncorrectable error (UCE) or any other hardware error to repair, as
// aclrtGetErrorVerbose reports (ACL_RT_NO_ERROR). So: the UCE list holds
// only the errors injected with NPUEMU_FAULTS (uce and ecc rules,
// faults.go, docs/faults.md), which aclrtMemUceRepair of the reported range
// clears; repairing an address range that was never reported, or an error
// the device never raised, fails with ACL_ERROR_RT_PARAM_INVALID; repairing
// ACL_RT_NO_ERROR has nothing to do and succeeds.

func uceDevice(fn string, id int32) error {
	_, err := core.OpenDevice(fn, id)
	return err
}

// GetMemUceInfo implements aclrtGetMemUceInfo: *retSize is the number of
// entries written to out, always 0 since the emulated HBM has no UCE.
func GetMemUceInfo(t *core.Thread, id int32, out []core.MemUceInfo, hasArray bool, retSize *uint64) error {
	const fn = "aclrtGetMemUceInfo"
	if retSize == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: retSize must not be NULL", fn)
	}
	if !hasArray || len(out) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: memUceInfoArray must not be NULL and arraySize must be > 0", fn)
	}
	if err := uceDevice(fn, id); err != nil {
		return err
	}
	n := copy(out, core.InjectedUCE(id)) // faults.go: uce/ecc rules
	*retSize = uint64(n)
	return nil
}

// MemUceRepair implements aclrtMemUceRepair: each range must be one that
// aclrtGetMemUceInfo reported; none ever is.
func MemUceRepair(t *core.Thread, id int32, in []core.MemUceInfo, hasArray bool) error {
	const fn = "aclrtMemUceRepair"
	if !hasArray || len(in) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: memUceInfoArray must not be NULL and arraySize must be > 0", fn)
	}
	if err := uceDevice(fn, id); err != nil {
		return err
	}
	if core.RepairUCE(id, in[0]) { // faults.go: an injected error is repaired
		for _, x := range in[1:] {
			core.RepairUCE(id, x)
		}
		return nil
	}
	return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: device %d has no uncorrectable memory error at %#x (+%d bytes): the emulated HBM never reports one (aclrtGetMemUceInfo lists none)", fn, id, in[0].Addr, in[0].Len)
}

// RepairError implements aclrtRepairError for an aclrtErrorInfo of
// aclrtGetErrorVerbose (errorType is its aclrtErrorType).
func RepairError(t *core.Thread, id int32, info *ErrorInfo) error {
	const fn = "aclrtRepairError"
	if info == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: errorInfo must not be NULL", fn)
	}
	if err := uceDevice(fn, id); err != nil {
		return err
	}
	switch info.ErrorType {
	case abi.ACL_RT_NO_ERROR:
		return nil
	case abi.ACL_RT_ERROR_MEMORY, abi.ACL_RT_ERROR_L2, abi.ACL_RT_ERROR_AICORE, abi.ACL_RT_ERROR_LINK, abi.ACL_RT_ERROR_L3_PORT, abi.ACL_RT_ERROR_OTHERS:
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: device %d has no error of type %d to repair (aclrtGetErrorVerbose reports ACL_RT_NO_ERROR: the emulated hardware raises none)", fn, id, info.ErrorType)
	}
	return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: errorType %d is not an aclrtErrorType", fn, info.ErrorType)
}
