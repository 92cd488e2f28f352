package rt

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// setup initialises the runtime on one default device of a private node
// and returns the test's thread; cleanup finalizes and checks that no
// event or notify is left.
func setup(t *testing.T) *core.Thread {
	t.Helper()
	t.Setenv("NPUEMU_DEVICES", "1")
	t.Setenv("NPUEMU_SOC", "")
	t.Setenv("NPUEMU_CONFIG", "")
	t.Setenv("NPUEMU_NODE", "")
	th := core.NewThread()
	require.NoError(t, acl.Init(th, ""))
	t.Cleanup(func() {
		assert.NoError(t, acl.Finalize(th))
		assert.Zero(t, core.Events.Len(), "events left")
		assert.Zero(t, core.Notifies.Len(), "notifies left")
	})
	require.NoError(t, SetDevice(th, 0))
	return th
}

// requireRT asserts err carries the rt code and names fn exactly once.
func requireRT(t *testing.T, err error, code abi.Code, fn string) {
	t.Helper()
	require.Error(t, err)
	assert.Equal(t, code, abi.CodeOf(err), "%v", err)
	assert.Equal(t, 1, strings.Count(abi.MessageOf(err), fn), "%v", err)
}

// The ACL checks underneath answer ACL_ERROR_INVALID_PARAM; the rt calls
// answer the runtime's ACL_ERROR_RT_PARAM_INVALID, and a destroyed handle
// ACL_ERROR_RT_INVALID_HANDLE.
func TestEventCodes(t *testing.T) {
	th := setup(t)
	var e core.Handle
	requireRT(t, EventCreateWithFlag(th, nil, abi.RT_EVENT_TIME_LINE), abi.ACL_ERROR_RT_PARAM_INVALID, "rtEventCreateWithFlag")
	requireRT(t, EventCreateWithFlag(th, &e, 0x80), abi.ACL_ERROR_RT_PARAM_INVALID, "rtEventCreateWithFlag")
	assert.Zero(t, e)
	requireRT(t, EventCreateExWithFlag(th, &e, abi.RT_EVENT_IPC|abi.RT_EVENT_TIME_LINE), abi.ACL_ERROR_RT_PARAM_INVALID, "rtEventCreateExWithFlag")
	require.NoError(t, EventCreateWithFlag(th, &e, abi.RT_EVENT_TIME_LINE))

	var ts uint64 = 7
	requireRT(t, EventGetTimeStamp(th, &ts, e), abi.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "rtEventGetTimeStamp")
	assert.Equal(t, uint64(7), ts, "no output on failure")
	require.NoError(t, EventRecordWithFlag(th, e, 0, abi.RT_EVENT_RECORD_DEFAULT))
	requireRT(t, EventSynchronizeWithTimeout(th, e, 0), abi.ACL_ERROR_RT_PARAM_INVALID, "rtEventSynchronizeWithTimeout")
	require.NoError(t, EventSynchronizeWithTimeout(th, e, -1))
	require.NoError(t, EventGetTimeStamp(th, &ts, e))
	var aclTs uint64
	require.NoError(t, acl.EventGetTimestamp(th, e, &aclTs))
	assert.Equal(t, aclTs, ts)

	// A TIME_LINE-only event takes no hardware id and cannot be waited on.
	requireRT(t, EventWait(th, 0, e, 0), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsEventWait")

	var id uint32
	require.NoError(t, EventDestroy(th, e))
	requireRT(t, EventGetID(th, e, &id), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtsEventGetId")
}

// A notify wait holds its stream until another stream records it.
func TestNotifyWaitRecord(t *testing.T) {
	th := setup(t)
	var s, w, n core.Handle
	require.NoError(t, StreamCreate(th, &s, 0))
	require.NoError(t, StreamCreate(th, &w, 0))
	requireRT(t, NotifyCreate(th, &n, 5), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsNotifyCreate")
	require.NoError(t, NotifyCreate(th, &n, abi.RT_NOTIFY_FLAG_DEFAULT))
	require.NoError(t, NotifyWaitAndReset(th, n, w, 0))
	require.NoError(t, StreamSynchronize(th, s))
	requireRT(t, StreamQuery(th, w), abi.ACL_ERROR_RT_STREAM_NOT_COMPLETE, "rtStreamQuery")
	require.NoError(t, NotifyRecord(th, n, s))
	require.NoError(t, StreamSynchronize(th, w))
	requireRT(t, NotifyBatchReset(th, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsNotifyBatchReset")
	require.NoError(t, NotifyDestroy(th, n))
	requireRT(t, NotifyRecord(th, n, s), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtsNotifyRecord")
	require.NoError(t, StreamDestroy(th, s))
	require.NoError(t, StreamDestroy(th, w))
}
