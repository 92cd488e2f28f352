package abi

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDevKindTable: every kind has a row, and each row gives, at every
// boundary, exactly what that boundary's conversion gives the kind's ACL
// code — so converting at the boundary changes no code a program sees.
func TestDevKindTable(t *testing.T) {
	seen := map[Code]DevKind{}
	for k := DevKind(0); k < devKindCount; k++ {
		row := devKinds[k]
		require.NotEmpty(t, row.name, "kind %d has no row", k)
		assert.True(t, row.acl.Known(), "%v: ACL code %d is not an aclError", k, row.acl)
		if prev, dup := seen[row.acl]; dup {
			t.Errorf("%v and %v both become %s: one kind per code", prev, k, row.acl.Name())
		}
		seen[row.acl] = k
		acl := Err(row.acl)
		assert.Equal(t, RTCodeOf(acl), k.RT(), "%v: rt column", k)
		assert.Equal(t, DrvCodeOf(acl), k.Drv(), "%v: driver column", k)

		err := DevErrorf(k, "device 0: what happened")
		assert.Equal(t, row.acl, CodeOf(err), "%v: CodeOf", k)
		assert.Equal(t, row.rt, RTCodeOf(err), "%v: RTCodeOf", k)
		assert.Equal(t, row.drv, DrvCodeOf(err), "%v: DrvCodeOf", k)
	}
	assert.Equal(t, DevInternal.ACL(), DevKind(200).ACL(), "an unknown kind is internal")
	assert.Equal(t, "DevKind(200)", DevKind(200).String())
}

func TestDevError(t *testing.T) {
	err := DevErrorf(DevNoMemory, "HBM of device %d: %d bytes free", 1, 0)
	assert.Equal(t, "ACL_ERROR_RT_MEMORY_ALLOCATION (207001): HBM of device 1: 0 bytes free", err.Error(),
		"the text is the one the ACL surface reports")
	assert.Equal(t, "HBM of device 1: 0 bytes free", MessageOf(err))
	assert.Equal(t, Err(ACL_ERROR_RT_STREAM_ABORT).Error(), DevErr(DevStreamAbort).Error())

	assert.True(t, errors.Is(err, DevErr(DevNoMemory)))
	assert.False(t, errors.Is(err, DevErr(DevBadFree)))
	assert.True(t, errors.Is(err, Err(ACL_ERROR_RT_MEMORY_ALLOCATION)), "an API sentinel of the kind's code matches")
	assert.False(t, errors.Is(err, Err(ACL_ERROR_BAD_ALLOC)))
	assert.True(t, errors.Is(Err(ACL_ERROR_RT_MEMORY_ALLOCATION), DevErr(DevNoMemory)), "and the other way round")
	assert.False(t, errors.Is(Err(ACL_ERROR_RT_MEMORY_FREE), DevErr(DevNoMemory)))
	assert.True(t, IsDev(err, DevNoMemory))
	assert.False(t, IsDev(Err(ACL_ERROR_RT_MEMORY_ALLOCATION), DevNoMemory), "an API error is no device error")

	w := DevWrapf(err, "malloc %d", 64)
	assert.Equal(t, DevNoMemory, DevKindOf(w))
	assert.Equal(t, "malloc 64: HBM of device 1: 0 bytes free", MessageOf(w))
	assert.Same(t, err, errors.Unwrap(w))
	assert.Nil(t, DevWrapf(nil, "x"))
	assert.Equal(t, DevInternal, DevKindOf(errors.New("plain")))

	// Wrapped by the API layer, the code and the cause are kept.
	a := Wrapf(DevErrorf(DevBadArgument, "size 0"), "aclrtMalloc")
	assert.Equal(t, ACL_ERROR_INVALID_PARAM, CodeOf(a))
	assert.Equal(t, ACL_ERROR_RT_PARAM_INVALID, RTCodeOf(a))
	assert.Equal(t, DRV_ERROR_PARA_ERROR, DrvCodeOf(a))
	assert.True(t, IsDev(a, DevBadArgument))
}
