package hal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func queueAttr(name string, depth uint32, overWrite bool) *QueueAttr {
	a := &QueueAttr{Depth: depth, OverWriteFlag: overWrite}
	copy(a.Name[:], name)
	return a
}

func TestQueueFIFOAndCodes(t *testing.T) {
	useNode(t, "Ascend910B1", 2, 0)
	var qid uint32
	assertDrv(t, QueueCreate(0, queueAttr("q", 2, false), &qid), abi.DRV_ERROR_UNINIT)
	require.NoError(t, QueueInit(0))
	assertDrv(t, QueueInit(0), abi.DRV_ERROR_REPEATED_INIT)
	assertDrv(t, QueueInit(2), abi.DRV_ERROR_INVALID_DEVICE)
	assertDrv(t, QueueCreate(0, nil, &qid), abi.DRV_ERROR_INVALID_HANDLE)
	assertDrv(t, QueueCreate(0, queueAttr("q", 1, false), &qid), abi.DRV_ERROR_PARA_ERROR)
	require.NoError(t, QueueCreate(0, queueAttr("q", 2, false), &qid))
	assert.Equal(t, uint32(0), qid)
	var other uint32
	assertDrv(t, QueueCreate(0, queueAttr("q", 2, false), &other), abi.DRV_ERROR_PARA_ERROR, "a name is unique on its device")

	var a, b, c, got uintptr
	for _, p := range []*uintptr{&a, &b, &c} {
		require.NoError(t, MbufAlloc(16, p))
	}
	require.NoError(t, MbufSetDataLen(a, 7))
	assertDrv(t, QueueDeQueue(0, qid, &got), abi.DRV_ERROR_QUEUE_EMPTY)
	var n uint64
	assertDrv(t, QueuePeek(0, qid, &n, 0), abi.DRV_ERROR_QUEUE_EMPTY)
	assertDrv(t, QueuePeek(0, qid, &n, 5), abi.DRV_ERROR_QUEUE_EMPTY, "nothing came within the timeout")
	require.NoError(t, QueueEnQueue(0, qid, a))
	assertDrv(t, QueueEnQueue(0, qid, a), abi.DRV_ERROR_PARA_ERROR, "already queued")
	assertDrv(t, MbufFree(a), abi.DRV_ERROR_INVALID_VALUE, "the queue holds it")
	require.NoError(t, QueueEnQueue(0, qid, b))
	assertDrv(t, QueueEnQueue(0, qid, c), abi.DRV_ERROR_QUEUE_FULL)
	require.NoError(t, QueuePeek(0, qid, &n, 0))
	assert.Equal(t, uint64(7), n)
	require.NoError(t, QueueDeQueue(0, qid, &got))
	assert.Equal(t, a, got, "first in, first out")
	require.NoError(t, MbufFree(a))
	assertDrv(t, QueueEnQueue(0, 9, c), abi.DRV_ERROR_NOT_EXIST)
	assertDrv(t, QueueEnQueue(1, qid, c), abi.DRV_ERROR_UNINIT, "queues are per device")

	require.NoError(t, QueueDestroy(0, qid))
	assertDrv(t, MbufFree(b), abi.DRV_ERROR_INVALID_VALUE, "destroy freed what it held")
	assertDrv(t, QueueDestroy(0, qid), abi.DRV_ERROR_NOT_EXIST)
	require.NoError(t, MbufFree(c))
}

func TestQueueOverwriteAndBlockingPeek(t *testing.T) {
	useNode(t, "Ascend910B1", 1, 0)
	require.NoError(t, QueueInit(0))
	var qid uint32
	require.NoError(t, QueueCreate(0, queueAttr("", 2, true), &qid))
	var m [3]uintptr
	for i := range m {
		require.NoError(t, MbufAlloc(8, &m[i]))
		require.NoError(t, QueueEnQueue(0, qid, m[i]))
	}
	var n uint64
	assertDrv(t, MbufGetDataLen(m[0], &n), abi.DRV_ERROR_INVALID_VALUE, "overwritten: the oldest was dropped")
	var got uintptr
	require.NoError(t, QueueDeQueue(0, qid, &got))
	assert.Equal(t, m[1], got)
	require.NoError(t, QueueDeQueue(0, qid, &got))
	assert.Equal(t, m[2], got)

	// A peek that waits sees an mbuf enqueued by another goroutine.
	done := make(chan error, 1)
	go func() { done <- QueuePeek(0, qid, &n, -1) }()
	require.NoError(t, QueueEnQueue(0, qid, m[1]))
	require.NoError(t, <-done)
	assert.Equal(t, uint64(8), n)
	// One waiting forever ends when the queue is destroyed.
	require.NoError(t, QueueDeQueue(0, qid, &got))
	go func() { done <- QueuePeek(0, qid, &n, -1) }()
	require.NoError(t, QueueDestroy(0, qid))
	assertDrv(t, <-done, abi.DRV_ERROR_NOT_EXIST, "before or while it waited")
	require.NoError(t, MbufFree(m[1]))
	require.NoError(t, MbufFree(m[2]))
}
