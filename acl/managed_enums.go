package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/svm"
)

// The managed-memory enums of the ACL surface, decoded into the svm model's
// own types (the model knows no API enum, docs/internals.md).

// managedAdvice decodes an aclrtMemManagedAdviseType.
func managedAdvice(fn string, v int32) (svm.Advice, error) {
	switch v {
	case abi.ACL_MEM_ADVISE_SET_READ_MOSTLY:
		return svm.AdviseSetReadMostly, nil
	case abi.ACL_MEM_ADVISE_UNSET_READ_MOSTLY:
		return svm.AdviseUnsetReadMostly, nil
	case abi.ACL_MEM_ADVISE_SET_PREFERRED_LOCATION:
		return svm.AdviseSetPreferredLocation, nil
	case abi.ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
		return svm.AdviseUnsetPreferredLocation, nil
	case abi.ACL_MEM_ADVISE_SET_ACCESSED_BY:
		return svm.AdviseSetAccessedBy, nil
	case abi.ACL_MEM_ADVISE_UNSET_ACCESSED_BY:
		return svm.AdviseUnsetAccessedBy, nil
	}
	return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: advise %d is not an aclrtMemManagedAdviseType", fn, v)
}

// managedLocation decodes an aclrtMemManagedLocation {type, id}. The host
// NUMA kinds name the host: npuemu models one host memory node.
func managedLocation(fn string, typ, id int32) (svm.Location, error) {
	switch typ {
	case abi.ACL_MEM_LOCATIONTYPE_DEVICE:
		if id < 0 || id >= svm.MaxDevices {
			return svm.NoLocation, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: managed location: device id %d is invalid", fn, id)
		}
		return svm.Location(id), nil
	case abi.ACL_MEM_LOCATIONTYPE_HOST, abi.ACL_MEM_LOCATIONTYPE_HOST_NUMA, abi.ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT:
		return svm.Host, nil
	}
	return svm.NoLocation, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: managed location: type %d is not a valid aclrtMemManagedLocationType", fn, typ)
}
