package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

func TestErrMsgScope(t *testing.T) {
	for name, tc := range map[string]struct {
		config      string
		processWide bool
	}{
		"default: thread": {"{}", false},
		"mode 0: thread":  {`{"err_msg_mode": "0"}`, false},
		"mode 1: process": {`{"err_msg_mode": "1"}`, true},
	} {
		t.Run(name, func(t *testing.T) {
			resetRuntime()
			t.Cleanup(resetRuntime)
			a, b := core.NewThread(), core.NewThread()
			require.NoError(t, Init(a, writeTemp(t, tc.config)))
			assert.Equal(t, tc.processWide, core.ErrMsgProcessWide())

			a.Fail(abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "first"))
			b.Fail(abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "second"))
			msg, ok := core.TakeProcessErrMsg()
			assert.Equal(t, tc.processWide, ok)
			if tc.processWide {
				assert.Regexp(t, `^.*second\n.*first$`, msg, "newest first")
				again, _ := core.TakeProcessErrMsg()
				assert.Empty(t, again, "reading clears")
				assert.Empty(t, a.TakeErrMsg(), "nothing kept per thread")
			} else {
				assert.Contains(t, a.TakeErrMsg(), "first")
				assert.Contains(t, b.TakeErrMsg(), "second")
			}
			// The last error is per thread in both modes.
			assert.Equal(t, abi.ACL_ERROR_INVALID_PARAM, a.LastError(false))
			assert.Equal(t, abi.ACL_ERROR_RT_CONTEXT_NULL, b.LastError(false))

			require.NoError(t, Finalize(a))
			_, ok = core.TakeProcessErrMsg()
			assert.False(t, ok, "aclFinalize returns to the thread scope")
		})
	}
}

func TestErrMsgProcessBounded(t *testing.T) {
	resetRuntime()
	t.Cleanup(resetRuntime)
	th := core.NewThread()
	require.NoError(t, Init(th, writeTemp(t, `{"err_msg_mode": "1"}`)))
	for i := range core.MaxProcErrMsgs + 5 {
		th.Fail(abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "m%d", i))
	}
	msg, ok := core.TakeProcessErrMsg()
	require.True(t, ok)
	assert.Regexp(t, `^ACL_ERROR_INVALID_PARAM \(100000\): m20\n`, msg, "newest first")
	assert.Regexp(t, `: m5$`, msg, "the oldest beyond the bound are dropped")
	assert.NotContains(t, msg, ": m4\n")
}
