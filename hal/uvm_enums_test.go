package hal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/svm"
)

// The svm model's locations pass through the range attributes unchanged:
// its host and "none" values are the HAL's ids.
func TestLocationIsTheRangeAttributeID(t *testing.T) {
	assert.EqualValues(t, abi.MEM_RANGE_CPU_DEVICE_ID, svm.Host)
	assert.EqualValues(t, abi.MEM_RANGE_INVALID_DEVICE_ID, svm.NoLocation)
}

func TestUVMEnumDecoding(t *testing.T) {
	for v, want := range map[uint32]svm.Advice{
		abi.READ_MOSTLY:              svm.AdviseSetReadMostly,
		abi.UNSET_READ_MOSTLY:        svm.AdviseUnsetReadMostly,
		abi.PREFER_LOCATION:          svm.AdviseSetPreferredLocation,
		abi.UNSET_PREFER_LOCATION:    svm.AdviseUnsetPreferredLocation,
		abi.ACCESS_BY_LOCATION:       svm.AdviseSetAccessedBy,
		abi.UNSET_ACCESS_BY_LOCATION: svm.AdviseUnsetAccessedBy,
	} {
		a, err := uvmAdvice("f", v)
		require.NoError(t, err)
		assert.Equal(t, want, a, "uvmMemAdviseType %d", v)
	}
	_, err := uvmAdvice("f", 99)
	assert.Equal(t, abi.DRV_ERROR_INVALID_VALUE, abi.DrvCodeOf(err))

	l, err := uvmLocationOf("f", abi.DRV_UVM_LOCATION_TYPE_DEVICE, 2)
	require.NoError(t, err)
	assert.Equal(t, svm.Location(2), l)
	for _, typ := range []uint32{abi.DRV_UVM_LOCATION_TYPE_HOST, abi.DRV_UVM_LOCATION_TYPE_HOST_NUMA} {
		l, err = uvmLocationOf("f", typ, 7)
		require.NoError(t, err)
		assert.Equal(t, svm.Host, l)
	}
	_, err = uvmLocationOf("f", abi.DRV_UVM_LOCATION_TYPE_INVALID, 0)
	assert.Equal(t, abi.DRV_ERROR_INVALID_VALUE, abi.DrvCodeOf(err))
	_, err = uvmLocationOf("f", abi.DRV_UVM_LOCATION_TYPE_DEVICE, svm.MaxDevices)
	assert.Equal(t, abi.DRV_ERROR_INVALID_DEVICE, abi.DrvCodeOf(err))

	r, err := residency("f", abi.ADVISE_TYPE|abi.ADVISE_PLE|abi.ADVISE_EXE|abi.ADVISE_THP)
	require.NoError(t, err)
	assert.Equal(t, svm.Residency{PreferDevice: true, Prefetch: true}, r)
	r, err = residency("f", abi.ADVISE_PIN)
	require.NoError(t, err)
	assert.Equal(t, svm.Residency{PinHost: true}, r)
	r, err = residency("f", abi.ADVISE_UNPIN)
	require.NoError(t, err)
	assert.Equal(t, svm.Residency{Unpin: true}, r)
	for _, bad := range []uint32{1 << 6, abi.ADVISE_PIN | abi.ADVISE_UNPIN, abi.ADVISE_PIN | abi.ADVISE_TYPE} {
		_, err = residency("f", bad)
		assert.Equal(t, abi.DRV_ERROR_INVALID_VALUE, abi.DrvCodeOf(err), "type %#x", bad)
	}
}
