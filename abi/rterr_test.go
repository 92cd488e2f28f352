package abi

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRTCodeOf(t *testing.T) {
	tests := []struct {
		err  error
		want Code
	}{
		{nil, ACL_SUCCESS},
		{Errorf(ACL_ERROR_RT_STREAM_CONTEXT, "x"), ACL_ERROR_RT_STREAM_CONTEXT},
		{Errorf(ACL_ERROR_RT_MEMORY_ALLOCATION, "x"), ACL_ERROR_RT_MEMORY_ALLOCATION},
		{Errorf(ACL_ERROR_RT_INTERNAL_ERROR, "x"), ACL_ERROR_RT_INTERNAL_ERROR},
		{Errorf(ACL_ERROR_INVALID_PARAM, "x"), ACL_ERROR_RT_PARAM_INVALID},
		{Errorf(ACL_ERROR_BAD_ALLOC, "x"), ACL_ERROR_RT_MEMORY_ALLOCATION},
		{Errorf(ACL_ERROR_API_NOT_SUPPORT, "x"), ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
		// rt-types.md §8.4, and its fallback.
		{DrvErrorf(DRV_ERROR_OUT_OF_MEMORY, "x"), ACL_ERROR_RT_MEMORY_ALLOCATION},
		{DrvErrorf(DRV_ERROR_INVALID_DEVICE, "x"), ACL_ERROR_RT_INVALID_DEVICEID},
		{DrvErrorf(DRV_ERROR_INVALID_VALUE, "x"), ACL_ERROR_RT_PARAM_INVALID},
		{DrvErrorf(DRV_ERROR_NOT_SUPPORT, "x"), ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
		{DrvErrorf(DRV_ERROR_BUSY, "x"), ACL_ERROR_RT_DRV_INTERNAL_ERROR},
		{fmt.Errorf("wrapped: %w", DrvErrorf(DRV_ERROR_NO_DEVICE, "x")), ACL_ERROR_RT_NO_DEVICE},
		{fmt.Errorf("a bug"), ACL_ERROR_RT_INTERNAL_ERROR},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, RTCodeOf(tt.err), "%v", tt.err)
	}
}
