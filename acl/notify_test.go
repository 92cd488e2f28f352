package acl

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// signalTables checks that the notify and label tables are empty once the
// runtime is finalized.
func signalTables(t *testing.T) {
	t.Cleanup(func() {
		resetRuntime()
		assert.Zero(t, core.Notifies.Len(), "notifies left")
		assert.Zero(t, core.CntNotifies.Len(), "counting notifies left")
		assert.Zero(t, core.Labels.Len(), "labels left")
		assert.Zero(t, core.LabelLists.Len(), "label lists left")
	})
}

func TestNotifyAcrossStreamsAndDevices(t *testing.T) {
	th := setup(t, nil)
	signalTables(t)
	require.NoError(t, SetDevice(th, 0))
	s0 := newStream(t, th)
	var n core.Handle
	requireCode(t, CreateNotify(th, nil, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CreateNotify(th, &n, 2), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, CreateNotify(th, &n, abi.ACL_NOTIFY_DEFAULT))
	var id uint32
	require.NoError(t, GetNotifyID(th, n, &id))
	requireCode(t, GetNotifyID(th, n, nil), abi.ACL_ERROR_INVALID_PARAM)

	// Same device, two streams: record on the default stream, wait on s0.
	require.NoError(t, WaitAndResetNotify(th, n, s0, 0))
	var st int32
	require.NoError(t, core.StreamQuery(th, s0, &st))
	assert.Equal(t, int32(abi.ACL_STREAM_STATUS_NOT_READY), st, "the wait blocks until a record")
	require.NoError(t, RecordNotify(th, n, 0))
	require.NoError(t, core.SynchronizeStream(th, s0, -1))

	// Another device's stream waits; device 0 records.
	th1 := core.NewThread()
	require.NoError(t, SetDevice(th1, 1))
	s1 := newStream(t, th1)
	require.NoError(t, WaitAndResetNotify(th1, n, s1, 0))
	require.NoError(t, RecordNotify(th, n, s0))
	require.NoError(t, core.SynchronizeStream(th1, s1, -1))

	require.NoError(t, DestroyNotify(th, n))
	requireCode(t, RecordNotify(th, n, s0), abi.ACL_ERROR_RT_INVALID_HANDLE)
	requireCode(t, DestroyNotify(th, 0), abi.ACL_ERROR_INVALID_PARAM)
}

func TestNotifyWaitTimeout(t *testing.T) {
	th := setup(t, nil)
	signalTables(t)
	require.NoError(t, SetDevice(th, 0))
	s := newStream(t, th)
	var n core.Handle
	require.NoError(t, CreateNotify(th, &n, 0))
	require.NoError(t, WaitAndResetNotify(th, n, s, 1))
	requireCode(t, core.SynchronizeStream(th, s, -1), abi.ACL_ERROR_RT_WAIT_TIMEOUT)
	require.NoError(t, core.SynchronizeStream(th, s, -1), "reported once")
}

func TestNotifyLimitAndBatchReset(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend310P3", "NPUEMU_DEVICES": "1"})
	signalTables(t)
	require.NoError(t, SetDevice(th, 0))
	made := 0
	var err error
	for made <= 1024 {
		var n core.Handle
		if err = CreateNotify(th, &n, 0); err != nil {
			break
		}
		made++
	}
	assert.Equal(t, 1024, made, "the 310P's notify table")
	requireCode(t, err, abi.ACL_ERROR_RT_NO_NOTIFY_RESOURCE)
	requireCode(t, core.CheckSoC("aclrtNotifyBatchReset"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
}

func TestNotifyBatchResetAndIPC(t *testing.T) {
	th := setup(t, nil)
	signalTables(t)
	require.NoError(t, SetDevice(th, 0))
	s := newStream(t, th)
	var a, b core.Handle
	require.NoError(t, CreateNotify(th, &a, 0))
	require.NoError(t, CreateNotify(th, &b, abi.ACL_NOTIFY_DEVICE_USE_ONLY))
	require.NoError(t, RecordNotify(th, a, s))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	requireCode(t, NotifyBatchReset(th, nil), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, NotifyBatchReset(th, []core.Handle{a, b}))
	require.NoError(t, WaitAndResetNotify(th, a, s, 0))
	var st int32
	require.NoError(t, core.StreamQuery(th, s, &st))
	assert.Equal(t, int32(abi.ACL_STREAM_STATUS_NOT_READY), st, "the reset consumed the record")

	// IPC within the process: export, whitelist, import; the imported
	// handle records the notify the exporter's stream waits on.
	key := make([]byte, 65)
	requireCode(t, NotifyGetExportKey(th, b, key[:64], 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, NotifySetImportPid(th, b, []int32{int32(os.Getpid())}), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, NotifyGetExportKey(th, b, key, 0))
	k := string(key[:clen(key)])
	var imp core.Handle
	requireCode(t, NotifyImportByKey(th, &imp, k, 0), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, NotifySetImportPid(th, b, []int32{int32(os.Getpid())}))
	require.NoError(t, NotifyImportByKey(th, &imp, k, abi.ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS))
	requireCode(t, NotifyImportByKey(th, &imp, "npuemu-notify-1-ff", 0), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	requireCode(t, NotifyImportByKey(th, &imp, "garbage", 0), abi.ACL_ERROR_INVALID_PARAM)
	var idA, idB uint32
	require.NoError(t, GetNotifyID(th, b, &idA))
	require.NoError(t, GetNotifyID(th, imp, &idB))
	assert.Equal(t, idA, idB, "one hardware notify")
	require.NoError(t, DestroyNotify(th, b)) // the imported handle keeps it
	s2 := newStream(t, th)
	require.NoError(t, WaitAndResetNotify(th, imp, s2, 0))
	require.NoError(t, RecordNotify(th, imp, 0))
	require.NoError(t, core.SynchronizeStream(th, s2, -1))
	require.NoError(t, RecordNotify(th, a, 0)) // releases the wait on s
	require.NoError(t, core.SynchronizeStream(th, s, -1))
}

func clen(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return len(b)
}

func TestCntNotify(t *testing.T) {
	th := setup(t, nil)
	signalTables(t)
	require.NoError(t, SetDevice(th, 0))
	var c core.Handle
	requireCode(t, core.CheckSoC("aclrtCntNotifyCreate"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT) // Atlas A2
	resetRuntime()

	th = setup(t, map[string]string{"NPUEMU_SOC": "Ascend950PR_9599"})
	require.NoError(t, SetDevice(th, 0))
	s := newStream(t, th)
	requireCode(t, CntNotifyCreate(th, &c, 1), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, CntNotifyCreate(th, &c, 0))
	requireCode(t, CntNotifyRecord(th, c, s, &CntNotifyRecordInfo{Mode: 3, Value: 1}), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CntNotifyRecord(th, c, s, nil), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CntNotifyWaitWithTimeout(th, c, s, &CntNotifyWaitInfo{Mode: 5}), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CntNotifyWaitWithTimeout(th, c, s, &CntNotifyWaitInfo{Mode: 0, IsClear: 2}), abi.ACL_ERROR_INVALID_PARAM)

	// The wait on s needs count & 0b101 == 0b101; the default stream ORs
	// the bits in one at a time.
	require.NoError(t, CntNotifyWaitWithTimeout(th, c, s, &CntNotifyWaitInfo{Mode: abi.ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, Value: 0b101, IsClear: 1}))
	require.NoError(t, CntNotifyRecord(th, c, 0, &CntNotifyRecordInfo{Mode: abi.ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, Value: 0b001}))
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	var st int32
	require.NoError(t, core.StreamQuery(th, s, &st))
	assert.Equal(t, int32(abi.ACL_STREAM_STATUS_NOT_READY), st)
	require.NoError(t, CntNotifyRecord(th, c, 0, &CntNotifyRecordInfo{Mode: abi.ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, Value: 0b100}))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	n, _ := core.CntNotifies.Get(c)
	assert.Equal(t, uint32(0), n.TSCntNotify.Count(), "isClear")

	require.NoError(t, CntNotifyRecord(th, c, s, &CntNotifyRecordInfo{Mode: abi.ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, Value: 7}))
	require.NoError(t, CntNotifyReset(th, c, s))
	require.NoError(t, CntNotifyWaitWithTimeout(th, c, s, &CntNotifyWaitInfo{Mode: abi.ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, Value: 1}))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	var id uint32
	require.NoError(t, CntNotifyGetID(th, c, &id))
	require.NoError(t, CntNotifyDestroy(th, c))
	requireCode(t, CntNotifyGetID(th, c, &id), abi.ACL_ERROR_RT_INVALID_HANDLE)
}

func TestEventPoolAndTimeouts(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend310P3", "NPUEMU_DEVICES": "1"})
	require.NoError(t, SetDevice(th, 0))
	var avail uint32
	require.NoError(t, GetEventAvailNum(th, &avail))
	assert.Equal(t, uint32(1023), avail)
	// Ex events and flagged events without SYNC take no hardware id.
	var ex, tl core.Handle
	require.NoError(t, CreateEventExWithFlag(th, &ex, abi.ACL_EVENT_SYNC))
	require.NoError(t, CreateEventWithFlag(th, &tl, abi.ACL_EVENT_TIME_LINE))
	require.NoError(t, GetEventAvailNum(th, &avail))
	assert.Equal(t, uint32(1023), avail)
	made := 0
	var err error
	for made <= 1023 {
		var e core.Handle
		if err = CreateEventWithFlag(th, &e, abi.ACL_EVENT_SYNC); err != nil {
			break
		}
		made++
	}
	assert.Equal(t, 1023, made)
	requireCode(t, err, abi.ACL_ERROR_RT_NO_EVENT_RESOURCE)
	require.NoError(t, GetEventAvailNum(th, &avail))
	assert.Zero(t, avail)

	// A wait on an event whose record never comes expires.
	s := newStream(t, th)
	blocker := newStream(t, th)
	var ev core.Handle
	require.NoError(t, CreateEventExWithFlag(th, &ev, abi.ACL_EVENT_SYNC))
	require.NoError(t, StreamWaitEventWithTimeout(th, blocker, ex, 0)) // never recorded: a no-op
	var n core.Handle
	require.NoError(t, CreateNotify(th, &n, 0))
	require.NoError(t, WaitAndResetNotify(th, n, blocker, 0)) // holds the record back
	require.NoError(t, core.RecordEvent(th, ev, blocker, 0))
	require.NoError(t, StreamWaitEventWithTimeout(th, s, ev, 1))
	requireCode(t, StreamWaitEventWithTimeout(th, s, ev, -1), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, core.SynchronizeStream(th, s, -1), abi.ACL_ERROR_RT_WAIT_TIMEOUT)
	requireCode(t, core.SynchronizeEvent(th, ev, 20), abi.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT)
	require.NoError(t, RecordNotify(th, n, 0))
	require.NoError(t, core.SynchronizeEvent(th, ev, -1))

	// StreamWaitEventWithFlag is 950/A3/A2 only.
	requireCode(t, core.CheckSoC("aclrtStreamWaitEventWithFlag"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	requireCode(t, StreamWaitEventWithFlag(th, s, ev, 0, 7), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, StreamWaitEventWithFlag(th, s, ev, 1, abi.ACL_EVENT_WAIT_EXTERNAL), abi.ACL_ERROR_INVALID_PARAM)
}

func TestOpTimeouts(t *testing.T) {
	th := setup(t, nil)
	t.Cleanup(func() { core.OpWaitTimeout.Store(0); core.OpExecTimeout.Store(0) })
	require.NoError(t, SetDevice(th, 0))
	var ms uint32
	require.NoError(t, GetOpExecuteTimeout(th, &ms))
	assert.Equal(t, uint32(1091000), ms, "A2 default")
	require.NoError(t, SetOpExecuteTimeOut(th, 5))
	require.NoError(t, GetOpExecuteTimeout(th, &ms))
	assert.Equal(t, uint32(5000), ms)
	require.NoError(t, SetOpExecuteTimeOut(th, 0))
	require.NoError(t, GetOpExecuteTimeout(th, &ms))
	assert.Equal(t, uint32(1091000), ms, "0 = the maximum")
	requireCode(t, GetOpExecuteTimeout(th, nil), abi.ACL_ERROR_INVALID_PARAM)

	// aclrtSetOpWaitTimeout applies to later plain waits.
	require.NoError(t, SetOpWaitTimeout(th, 1))
	s, blocker := newStream(t, th), newStream(t, th)
	var ev, n core.Handle
	require.NoError(t, CreateEventWithFlag(th, &ev, abi.ACL_EVENT_SYNC))
	require.NoError(t, CreateNotify(th, &n, 0))
	require.NoError(t, WaitAndResetNotify(th, n, blocker, 0))
	require.NoError(t, core.RecordEvent(th, ev, blocker, 0))
	require.NoError(t, core.StreamWaitEvent(th, s, ev))
	requireCode(t, core.SynchronizeStream(th, s, -1), abi.ACL_ERROR_RT_WAIT_TIMEOUT)
	require.NoError(t, SetOpWaitTimeout(th, 0))
	require.NoError(t, core.StreamWaitEvent(th, s, ev))
	require.NoError(t, RecordNotify(th, n, 0))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
}

func TestIPCEvent(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	var e, plain core.Handle
	requireCode(t, CreateEventWithFlag(th, &e, abi.ACL_EVENT_IPC), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CreateEventExWithFlag(th, &e, abi.ACL_EVENT_IPC|abi.ACL_EVENT_SYNC), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, CreateEventExWithFlag(th, &e, abi.ACL_EVENT_IPC))
	require.NoError(t, core.CreateEvent(th, &plain))
	var ih IpcEventHandle
	requireCode(t, IpcGetEventHandle(th, plain, &ih), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, IpcGetEventHandle(th, e, nil), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, IpcGetEventHandle(th, e, &ih))
	var st int32
	require.NoError(t, core.QueryEventStatus(th, e, &st), "IPC events are queried like any other")
	assert.Equal(t, int32(abi.ACL_EVENT_RECORDED_STATUS_COMPLETE), st, "an Ex event never recorded reads complete")

	var opened core.Handle
	require.NoError(t, IpcOpenEventHandle(th, ih, &opened))
	assert.NotEqual(t, e, opened)
	var bad IpcEventHandle
	requireCode(t, IpcOpenEventHandle(th, bad, &opened), abi.ACL_ERROR_INVALID_PARAM)

	// The exporter records; a stream waits through the opened handle.
	s := newStream(t, th)
	var n core.Handle
	require.NoError(t, CreateNotify(th, &n, 0))
	require.NoError(t, WaitAndResetNotify(th, n, 0, 0))
	require.NoError(t, core.RecordEvent(th, e, 0, 0))
	require.NoError(t, core.DestroyEvent(th, e)) // the opened handle keeps it
	require.NoError(t, core.StreamWaitEvent(th, s, opened))
	require.NoError(t, core.StreamQuery(th, s, &st))
	assert.Equal(t, int32(abi.ACL_STREAM_STATUS_NOT_READY), st)
	require.NoError(t, RecordNotify(th, n, s)) // behind the wait: never runs first
	require.NoError(t, RecordNotify(th, n, newStream(t, th)))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	require.NoError(t, core.DestroyEvent(th, opened))
	require.NoError(t, core.DestroyEvent(th, plain))
}

func TestLabels(t *testing.T) {
	th := setup(t, nil)
	signalTables(t)
	var l core.Handle
	requireCode(t, CreateLabel(th, &l), abi.ACL_ERROR_RT_CONTEXT_NULL)
	require.NoError(t, SetDevice(th, 0))
	requireCode(t, CreateLabel(th, nil), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, CreateLabel(th, &l))
	var l2 core.Handle
	require.NoError(t, CreateLabel(th, &l2))

	var list core.Handle
	requireCode(t, CreateLabelList(th, nil, 1, &list), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CreateLabelList(th, []core.Handle{l}, 0, &list), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CreateLabelList(th, []core.Handle{}, core.MaxLabels+1, &list), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CreateLabelList(th, []core.Handle{l, 0}, 2, &list), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CreateLabelList(th, []core.Handle{l}, 1, nil), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, CreateLabelList(th, []core.Handle{l, l2}, 2, &list))

	// Labels of another context cannot share a list.
	th1 := core.NewThread()
	require.NoError(t, SetDevice(th1, 1))
	var other core.Handle
	require.NoError(t, CreateLabel(th1, &other))
	var mixed core.Handle
	requireCode(t, CreateLabelList(th, []core.Handle{l, other}, 2, &mixed), abi.ACL_ERROR_RT_LABEL_CONTEXT)

	// Setting a label needs a stream bound to a model run instance.
	s := newStream(t, th)
	requireCode(t, SetLabel(th, l, s), abi.ACL_ERROR_RT_STREAM_MODEL)
	requireCode(t, SetLabel(th, 0, s), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, SwitchLabelByIndex(th, 0, 1, list, s), abi.ACL_ERROR_INVALID_PARAM)
	var ps core.Handle
	require.NoError(t, core.CreateStreamWithConfig(th, &ps, 0, abi.ACL_STREAM_PERSISTENT))
	require.NoError(t, PersistentTaskClean(th, ps))
	requireCode(t, PersistentTaskClean(th, s), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, ActiveStream(th, ps, s), abi.ACL_ERROR_RT_STREAM_MODEL)
	requireCode(t, SwitchStream(th, 1, 0, 1, 0, s, s, s), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, SwitchStream(th, 1, 9, 1, 0, s, 0, s), abi.ACL_ERROR_INVALID_PARAM)

	require.NoError(t, DestroyLabelList(th, list))
	requireCode(t, DestroyLabelList(th, list), abi.ACL_ERROR_RT_INVALID_HANDLE)
	require.NoError(t, DestroyLabel(th, l))
	requireCode(t, DestroyLabel(th, l), abi.ACL_ERROR_RT_INVALID_HANDLE)
}
