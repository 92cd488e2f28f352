package abi

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWrapfKeepsCodeAndCause(t *testing.T) {
	assert.NoError(t, Wrapf(nil, "nothing"))

	inner := Errorf(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of HBM")
	err := Wrapf(inner, "%s: device %d", "aclrtMalloc", 1)
	assert.Equal(t, ACL_ERROR_RT_MEMORY_ALLOCATION, CodeOf(err))
	assert.Equal(t, "aclrtMalloc: device 1: out of HBM", MessageOf(err))
	assert.Same(t, inner, errors.Unwrap(err))
	assert.ErrorIs(t, err, Err(ACL_ERROR_RT_MEMORY_ALLOCATION))

	drv := &DrvError{Code: DRV_ERROR_OUT_OF_MEMORY, Msg: "no pages"}
	err = Wrapf(drv, "halMemAlloc")
	var d *DrvError
	require.ErrorAs(t, err, &d, "the driver error stays reachable")
	assert.Equal(t, DRV_ERROR_OUT_OF_MEMORY, d.Code)
	assert.Equal(t, drv.Code.ACL(), CodeOf(err))
	assert.Contains(t, MessageOf(err), "halMemAlloc: ")

	other := errors.New("plain")
	assert.Equal(t, "ctx: plain", MessageOf(Wrapf(other, "ctx")))
	assert.Equal(t, internalErrorCode, CodeOf(Wrapf(other, "ctx")))
}
