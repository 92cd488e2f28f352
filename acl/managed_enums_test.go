package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/svm"
	"github.com/npuemu/npuemu/tsfw"
)

func TestManagedEnumDecoding(t *testing.T) {
	for v, want := range map[int32]svm.Advice{
		abi.ACL_MEM_ADVISE_SET_READ_MOSTLY:          svm.AdviseSetReadMostly,
		abi.ACL_MEM_ADVISE_UNSET_READ_MOSTLY:        svm.AdviseUnsetReadMostly,
		abi.ACL_MEM_ADVISE_SET_PREFERRED_LOCATION:   svm.AdviseSetPreferredLocation,
		abi.ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION: svm.AdviseUnsetPreferredLocation,
		abi.ACL_MEM_ADVISE_SET_ACCESSED_BY:          svm.AdviseSetAccessedBy,
		abi.ACL_MEM_ADVISE_UNSET_ACCESSED_BY:        svm.AdviseUnsetAccessedBy,
	} {
		a, err := managedAdvice("f", v)
		require.NoError(t, err)
		assert.Equal(t, want, a, "aclrtMemManagedAdviseType %d", v)
	}
	_, err := managedAdvice("f", 6)
	assert.Equal(t, abi.ACL_ERROR_INVALID_PARAM, abi.CodeOf(err))

	for _, tc := range []struct {
		typ, id int32
		want    svm.Location
	}{
		{abi.ACL_MEM_LOCATIONTYPE_DEVICE, 3, 3},
		{abi.ACL_MEM_LOCATIONTYPE_HOST, 0, svm.Host},
		{abi.ACL_MEM_LOCATIONTYPE_HOST_NUMA, 1, svm.Host},
		{abi.ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT, 0, svm.Host},
	} {
		l, err := managedLocation("f", tc.typ, tc.id)
		require.NoError(t, err)
		assert.Equal(t, tc.want, l)
	}
	_, err = managedLocation("f", abi.ACL_MEM_LOCATIONTYPE_INVALID, 0)
	assert.Equal(t, abi.ACL_ERROR_INVALID_PARAM, abi.CodeOf(err))
	_, err = managedLocation("f", abi.ACL_MEM_LOCATIONTYPE_DEVICE, -1)
	assert.Equal(t, abi.ACL_ERROR_INVALID_PARAM, abi.CodeOf(err))
}

func TestCntNotifyModeDecoding(t *testing.T) {
	assert.Equal(t, map[uint32]tsfw.CntRecordMode{0: tsfw.CntSet, 1: tsfw.CntAdd, 2: tsfw.CntOr, 4: tsfw.CntAnd}, cntRecordModes,
		"aclrtCntNotifyRecordMode values (acl_rt.h)")
	assert.Equal(t, map[uint32]tsfw.CntWaitMode{0: tsfw.CntLess, 1: tsfw.CntEqual, 2: tsfw.CntBigger, 3: tsfw.CntBiggerEqual, 4: tsfw.CntEqualBitmask}, cntWaitModes,
		"aclrtCntNotifyWaitMode values (acl_rt.h)")
}
