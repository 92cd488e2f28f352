package abi

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// driverKinds are the kinds of errors the driver model met (emu's VMM,
// shared memory, host registration), which used to be drvError_t values:
// their row is what the runtime makes of the driver code. The others were
// ACL codes: their row is what the driver layer makes of the ACL code.
var driverKinds = map[DevKind]bool{DevBadHandle: true, DevNotFound: true, DevInUse: true, DevBusy: true, DevDriverInternal: true}

// bothWays are the kinds both sides met: each way round gives the same.
var bothWays = []DevKind{DevInvalidValue, DevNoDevice, DevNoMemory, DevNoPermission, DevUnsupported, DevBadHandle, DevDriverInternal}

// TestDevKindTable: every kind has a row, and each row gives, at every
// boundary, exactly what that boundary's conversion gave the code the model
// used to build — so converting at the boundary changes no code a program
// sees.
func TestDevKindTable(t *testing.T) {
	seen := map[Code]DevKind{}
	for k := DevKind(0); k < devKindCount; k++ {
		row := devKinds[k]
		require.NotEmpty(t, row.name, "kind %d has no row", k)
		assert.True(t, row.acl.Known(), "%v: ACL code %d is not an aclError", k, row.acl)
		assert.True(t, row.drv.Known(), "%v: driver code %d is not a drvError_t", k, row.drv)
		if prev, dup := seen[row.acl]; dup && row.acl != ACL_ERROR_RT_DRV_INTERNAL_ERROR {
			t.Errorf("%v and %v both become %s: one kind per code", prev, k, row.acl.Name())
		}
		seen[row.acl] = k
		if driverKinds[k] {
			drv := DrvErr(row.drv)
			assert.Equal(t, CodeOf(drv), k.ACL(), "%v: ACL column", k)
			assert.Equal(t, RTCodeOf(drv), k.RT(), "%v: rt column", k)
		} else {
			acl := Err(row.acl)
			assert.Equal(t, RTCodeOf(acl), k.RT(), "%v: rt column", k)
			assert.Equal(t, DrvCodeOf(acl), k.Drv(), "%v: driver column", k)
		}

		err := DevErrorf(k, "device 0: what happened")
		assert.Equal(t, row.acl, CodeOf(err), "%v: CodeOf", k)
		assert.Equal(t, row.rt, RTCodeOf(err), "%v: RTCodeOf", k)
		assert.Equal(t, row.drv, DrvCodeOf(err), "%v: DrvCodeOf", k)
	}
	for _, k := range bothWays {
		assert.Equal(t, k.Drv(), DrvCodeOf(Err(k.ACL())), "%v: ACL code down to the driver", k)
		assert.Equal(t, k.ACL(), CodeOf(DrvErr(k.Drv())), "%v: driver code up to ACL", k)
		assert.Equal(t, k.RT(), RTCodeOf(DrvErr(k.Drv())), "%v: driver code up to rt", k)
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
	assert.True(t, errors.Is(DevErrorf(DevNotFound, "x"), DrvErr(DRV_ERROR_NOT_EXIST)), "a driver sentinel of the kind's code matches")
	assert.False(t, errors.Is(DevErrorf(DevNotFound, "x"), DrvErr(DRV_ERROR_REPEATED_USERD)))
	// A driver kind keeps its driver code through the ACL layer's Wrapf.
	assert.Equal(t, DRV_ERROR_NOT_EXIST, DrvCodeOf(Wrapf(DevErrorf(DevNotFound, "x"), "aclrtHostUnregister")))

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

// TestDevInDriver: an error the model met inside a driver call reaches every
// boundary exactly as the driver's error of the kind's code did (what the VMM
// built before it spoke no driver codes), and keeps its kind and cause.
func TestDevInDriver(t *testing.T) {
	differs := 0
	for k := DevKind(0); k < devKindCount; k++ {
		cause := DevErrorf(k, "cannot open")
		err := DevInDriverf(cause, "device %d", 3)
		old := DrvErrorf(k.Drv(), "device 3: cannot open")
		assert.Equal(t, CodeOf(old), CodeOf(err), "%s", k)
		assert.Equal(t, RTCodeOf(old), RTCodeOf(err), "%s", k)
		assert.Equal(t, DrvCodeOf(old), DrvCodeOf(err), "%s", k)
		assert.Equal(t, old.Error(), err.Error(), "%s", k)
		assert.True(t, errors.Is(err, Err(CodeOf(old))), "%s", k)
		assert.Equal(t, k, DevKindOf(err))
		assert.Same(t, cause, errors.Unwrap(err))
		if CodeOf(old) != CodeOf(cause) {
			differs++
		}
	}
	assert.Positive(t, differs, "for some kinds the driver's route gives another ACL code than the kind's own")
	assert.Nil(t, DevInDriverf(nil, "x"))
}
