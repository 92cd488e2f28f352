package hal

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/svm"
)

// The managed-memory enums of the HAL, decoded into the svm model's own
// types (the model knows no API enum, docs/internals.md).

// uvmAdvice decodes a uvmMemAdviseType (halMemManagedAdvise).
func uvmAdvice(fn string, v uint32) (svm.Advice, error) {
	switch v {
	case abi.READ_MOSTLY:
		return svm.AdviseSetReadMostly, nil
	case abi.UNSET_READ_MOSTLY:
		return svm.AdviseUnsetReadMostly, nil
	case abi.PREFER_LOCATION:
		return svm.AdviseSetPreferredLocation, nil
	case abi.UNSET_PREFER_LOCATION:
		return svm.AdviseUnsetPreferredLocation, nil
	case abi.ACCESS_BY_LOCATION:
		return svm.AdviseSetAccessedBy, nil
	case abi.UNSET_ACCESS_BY_LOCATION:
		return svm.AdviseUnsetAccessedBy, nil
	}
	return 0, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: advise %d is not a uvmMemAdviseType", fn, v)
}

// uvmLocationOf decodes a struct drv_uvm_location {type, id}; the device id
// is checked against the model's limit here, against the node by the caller.
func uvmLocationOf(fn string, typ, id uint32) (svm.Location, error) {
	switch typ {
	case abi.DRV_UVM_LOCATION_TYPE_DEVICE:
		if id >= svm.MaxDevices {
			return svm.NoLocation, abi.DrvErrorf(abi.DRV_ERROR_INVALID_DEVICE, "%s: drv_uvm_location: device id %d is invalid", fn, id)
		}
		return svm.Location(id), nil
	case abi.DRV_UVM_LOCATION_TYPE_HOST, abi.DRV_UVM_LOCATION_TYPE_HOST_NUMA:
		return svm.Host, nil
	}
	return svm.NoLocation, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: drv_uvm_location: type %d is not a valid drv_uvm_location_type", fn, typ)
}

// adviseBits are the ADVISE_* bits halMemAdvise knows.
const adviseBits = abi.ADVISE_TYPE | abi.ADVISE_EXE | abi.ADVISE_THP | abi.ADVISE_PLE | abi.ADVISE_PIN | abi.ADVISE_UNPIN

// residency decodes halMemAdvise's type, an OR of ADVISE_* bits, into the
// residency advice of the svm model: ADVISE_TYPE (HBM) prefers the device,
// ADVISE_PIN (pin in DDR) prefers the host, ADVISE_UNPIN clears a host
// preference, ADVISE_PLE prefetches to the device. ADVISE_EXE and
// ADVISE_THP concern executability and page size, which do not change
// residency: they are accepted and change nothing.
func residency(fn string, bits uint32) (svm.Residency, error) {
	if bits&^adviseBits != 0 {
		return svm.Residency{}, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: type %#x has unknown ADVISE_* bits %#x", fn, bits, bits&^adviseBits)
	}
	if bits&abi.ADVISE_PIN != 0 && bits&(abi.ADVISE_UNPIN|abi.ADVISE_TYPE) != 0 {
		return svm.Residency{}, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: type %#x combines ADVISE_PIN with ADVISE_UNPIN or ADVISE_TYPE", fn, bits)
	}
	return svm.Residency{
		PreferDevice: bits&abi.ADVISE_TYPE != 0,
		PinHost:      bits&abi.ADVISE_PIN != 0,
		Unpin:        bits&abi.ADVISE_UNPIN != 0,
		Prefetch:     bits&abi.ADVISE_PLE != 0,
	}, nil
}
