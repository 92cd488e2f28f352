package abi

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryCodeHasNameAndMessage(t *testing.T) {
	require.NotEmpty(t, codeNames)
	for c, n := range codeNames() {
		assert.Equal(t, n, c.Name())
		assert.True(t, c.Known(), n)
		m, ok := codeMessages()[c]
		assert.True(t, ok, "no message for %s", n)
		assert.NotEmpty(t, m, n)
	}
	for c := range codeMessages() {
		assert.True(t, c.Known(), "message for unknown code %d", c)
	}
	require.NotEmpty(t, drvCodeNames)
	for d, n := range drvCodeNames() {
		assert.Equal(t, n, d.Name())
		m, ok := drvCodeMessages()[d]
		assert.True(t, ok, "no message for %s", n)
		assert.NotEmpty(t, m, n)
	}
	for d := range drvCodeMessages() {
		assert.True(t, d.Known(), "message for unknown driver code %d", d)
	}
}

func TestCodeNames(t *testing.T) {
	tests := []struct {
		code Code
		name string
	}{
		{0, "ACL_SUCCESS"}, // shared by ACL_ERROR_NONE and ACL_RT_SUCCESS
		{ACL_ERROR_NONE, "ACL_SUCCESS"},
		{ACL_RT_SUCCESS, "ACL_SUCCESS"},
		{100000, "ACL_ERROR_INVALID_PARAM"},
		{107000, "ACL_ERROR_RT_PARAM_INVALID"},
		{207001, "ACL_ERROR_RT_MEMORY_ALLOCATION"},
		{145000, "ACL_ERROR_GE_PARAM_INVALID"},
		{507899, "ACL_ERROR_RT_DRV_INTERNAL_ERROR"},
		{123, "aclError(123)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.name, tt.code.Name(), "code %d", tt.code)
	}
	assert.False(t, Code(123).Known())
	assert.Equal(t, "unknown error code", Code(123).Message())

	drv := []struct {
		code DrvCode
		name string
	}{
		{0, "DRV_ERROR_NONE"},
		{6, "DRV_ERROR_OUT_OF_MEMORY"},
		{DRV_ERROR_QUEUE_INNER_ERROR, "DRV_ERROR_INNER_ERR"}, // alias keeps the enumerator's name
		{0xfffe, "DRV_ERROR_NOT_SUPPORT"},
		{90, "DEV_ERROR_UNAUTHORIZED_ACCESS_DEVICE"},
		{1000, "drvError_t(1000)"},
	}
	for _, tt := range drv {
		assert.Equal(t, tt.name, tt.code.Name(), "code %d", tt.code)
	}
}

// TestDrvToACL follows the driver → ACL table of hal-api.md §2.
func TestDrvToACL(t *testing.T) {
	tests := []struct {
		drv DrvCode
		acl Code
	}{
		{DRV_ERROR_NONE, 0},
		{DRV_ERROR_NO_DEVICE, 207004},
		{DRV_ERROR_INVALID_DEVICE, 107001},
		{DRV_ERROR_INVALID_VALUE, 107000},
		{DRV_ERROR_INVALID_HANDLE, 107017},
		{DRV_ERROR_INVALID_MALLOC_TYPE, 107018},
		{DRV_ERROR_OUT_OF_MEMORY, 207001},
		{DRV_ERROR_WAIT_TIMEOUT, 507012},
		{DRV_ERROR_SOCKET_CLOSE, 507901},
		{DRV_ERROR_SEND_MESG, 507051},
		{DRV_ERROR_BUS_DOWN, 507010},
		{DRV_ERROR_DEV_PROCESS_HANG, 507000},
		{DRV_ERROR_MALLOC_FAIL, 207005},
		{DRV_ERROR_OPER_NOT_PERMITTED, 207006},
		{DRV_ERROR_NO_EVENT_RESOURCES, 207007},
		{DRV_ERROR_NO_STREAM_RESOURCES, 207008},
		{DRV_ERROR_NO_NOTIFY_RESOURCES, 207009},
		{DRV_ERROR_NO_MODEL_RESOURCES, 207010},
		{DRV_ERROR_NOT_SUPPORT, 207000},
		{DRV_ERROR_NO_CDQ_RESOURCES, 207011},
		{DRV_ERROR_CDQ_NOT_EXIST, 107000},
		{DRV_ERROR_CDQ_ABNORMAL, 507037},
		{DRV_ERROR_OVER_LIMIT, 207012},
		{DRV_ERROR_QUEUE_EMPTY, 207013},
		{DRV_ERROR_QUEUE_FULL, 207014},
		{DRV_ERROR_REPEATED_INIT, 207015},
		{DRV_ERROR_IOCRL_FAIL, 507899},
		{DRV_ERROR_NO_RESOURCES, 207005},
		{DRV_ERROR_COPY_USER_FAIL, 507052},
		{DRV_ERROR_MEMORY_OPT_FAIL, 107000},
		{DRV_ERROR_RESUME, 207020},
		// Unlisted codes are driver internal errors.
		{DRV_ERROR_INNER_ERR, 507899},
		{DRV_ERROR_BUSY, 507899},
		{DrvCode(4242), 507899},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.acl, tt.drv.ACL(), "%s", tt.drv.Name())
	}
}

func TestErrorAndDrvError(t *testing.T) {
	e := Errorf(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size is 0")
	assert.Equal(t, "ACL_ERROR_INVALID_PARAM (100000): aclrtMalloc: size is 0", e.Error())
	assert.Equal(t, "ACL_ERROR_RT_NO_DEVICE (207004): no device available", Err(ACL_ERROR_RT_NO_DEVICE).Error())
	wrapped := fmt.Errorf("context: %w", e)
	assert.True(t, errors.Is(wrapped, Err(ACL_ERROR_INVALID_PARAM)))
	assert.False(t, errors.Is(wrapped, Err(ACL_ERROR_RT_PARAM_INVALID)))
	assert.Equal(t, ACL_ERROR_INVALID_PARAM, CodeOf(wrapped))

	d := DrvErrorf(DRV_ERROR_INVALID_VALUE, "halMemAlloc: size is 0")
	assert.Equal(t, "DRV_ERROR_INVALID_VALUE (3): halMemAlloc: size is 0", d.Error())
	assert.True(t, strings.HasPrefix(DrvErr(DRV_ERROR_BUSY).Error(), "DRV_ERROR_BUSY (13): "))
	dw := fmt.Errorf("layer: %w", d)
	assert.True(t, errors.Is(dw, DrvErr(DRV_ERROR_INVALID_VALUE)))
	assert.False(t, errors.Is(dw, DrvErr(DRV_ERROR_PARA_ERROR)))
	assert.False(t, errors.Is(dw, Err(ACL_ERROR_RT_PARAM_INVALID)), "different error types never match")

	// A driver error reaching the ACL boundary becomes the runtime's code.
	assert.Equal(t, ACL_ERROR_RT_PARAM_INVALID, CodeOf(dw))
	assert.Equal(t, Code(0), CodeOf(nil))
	assert.Equal(t, ACL_ERROR_INTERNAL_ERROR, CodeOf(errors.New("plain")))
}

func TestDrvCodeOf(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want DrvCode
	}{
		{"nil", nil, DRV_ERROR_NONE},
		{"drv", DrvErr(DRV_ERROR_BUSY), DRV_ERROR_BUSY},
		{"wrapped drv", fmt.Errorf("x: %w", DrvErr(DRV_ERROR_NO_DEVICE)), DRV_ERROR_NO_DEVICE},
		{"acl oom", Err(ACL_ERROR_RT_MEMORY_ALLOCATION), DRV_ERROR_OUT_OF_MEMORY},
		{"acl bad alloc", Err(ACL_ERROR_BAD_ALLOC), DRV_ERROR_OUT_OF_MEMORY},
		{"acl invalid param", Err(ACL_ERROR_INVALID_PARAM), DRV_ERROR_PARA_ERROR},
		{"acl rt param", Err(ACL_ERROR_RT_PARAM_INVALID), DRV_ERROR_INVALID_VALUE},
		{"acl device", Err(ACL_ERROR_RT_INVALID_DEVICEID), DRV_ERROR_INVALID_DEVICE},
		{"acl unsupported", Err(ACL_ERROR_FEATURE_UNSUPPORTED), DRV_ERROR_NOT_SUPPORT},
		{"acl unmapped", Err(ACL_ERROR_RT_AICORE_EXCEPTION), DRV_ERROR_INNER_ERR},
		{"plain", errors.New("plain"), DRV_ERROR_INNER_ERR},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, DrvCodeOf(tt.err))
		})
	}
	// Every ACL → driver choice must map back to an ACL code of the same
	// family, so a round trip never invents an unrelated error.
	for c, d := range aclToDrv() {
		assert.True(t, d.Known(), "%s maps to unknown driver code", c.Name())
		assert.True(t, c.Known(), "unknown ACL code %d in aclToDrv", c)
	}
}
