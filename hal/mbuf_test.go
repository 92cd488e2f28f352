package hal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

func TestMbufDataLengthPrivAndRefs(t *testing.T) {
	useNode(t, "Ascend910B1", 1, 0)
	live := MbufLive()
	var a uintptr
	require.NoError(t, MbufAlloc(1000, &a))
	assert.Equal(t, uint64(MbufTag), uint64(a)>>56, "an Mbuf * is a tagged handle")
	var data uintptr
	var size, n uint64
	require.NoError(t, MbufGetBuffAddr(a, &data))
	require.NoError(t, MbufGetBuffSize(a, &size))
	assert.Equal(t, uint64(1000), size)
	bytesAt(data, size)[999] = 0x5a
	require.NoError(t, MbufGetDataLen(a, &n))
	assert.Equal(t, uint64(1000), n, "a new mbuf's data length is its whole area")
	require.NoError(t, MbufSetDataLen(a, 10))
	assertDrv(t, MbufSetDataLen(a, 1001), abi.DRV_ERROR_INVALID_VALUE)

	var priv uintptr
	var psize uint32
	require.NoError(t, MbufGetPrivInfo(a, &priv, &psize))
	assert.Equal(t, uint32(MbufPrivSize), psize)
	assert.Equal(t, make([]byte, MbufPrivSize), bytesAt(priv, MbufPrivSize), "zero at allocation")
	bytesAt(priv, MbufPrivSize)[5] = 9

	var b uintptr
	require.NoError(t, MbufCopyRef(a, &b))
	assert.NotEqual(t, a, b)
	var bdata, bpriv uintptr
	require.NoError(t, MbufGetBuffAddr(b, &bdata))
	assert.Equal(t, data, bdata, "the copy shares the data area")
	require.NoError(t, MbufGetDataLen(b, &n))
	assert.Equal(t, uint64(10), n)
	require.NoError(t, MbufGetPrivInfo(b, &bpriv, &psize))
	assert.NotEqual(t, priv, bpriv, "each head has its own private area")
	assert.Equal(t, byte(9), bytesAt(bpriv, MbufPrivSize)[5], "copied")

	require.NoError(t, MbufFree(a))
	assertDrv(t, MbufGetDataLen(a, &n), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MbufFree(a), abi.DRV_ERROR_INVALID_VALUE)
	assert.Equal(t, byte(0x5a), bytesAt(bdata, 1000)[999], "the data area lives with its last head")
	require.NoError(t, MbufFree(b))
	assert.Equal(t, live, MbufLive())

	assertDrv(t, MbufAlloc(0, &a), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MbufAlloc(8, nil), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MbufFree(0), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MbufFree(0x1234), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MbufAlloc(1<<50, &a), abi.DRV_ERROR_OUT_OF_MEMORY)
}

func TestMbufChains(t *testing.T) {
	useNode(t, "Ascend910B1", 1, 0)
	var h, m1, m2, got uintptr
	require.NoError(t, MbufAlloc(64, &h))
	require.NoError(t, MbufAlloc(64, &m1))
	require.NoError(t, MbufAlloc(64, &m2))
	var num uint32
	require.NoError(t, MbufChainGetMbufNum(h, &num))
	assert.Equal(t, uint32(1), num)
	require.NoError(t, MbufChainAppend(h, m1))
	require.NoError(t, MbufChainAppend(h, m2))
	require.NoError(t, MbufChainGetMbufNum(h, &num))
	assert.Equal(t, uint32(3), num)
	require.NoError(t, MbufChainGetMbuf(h, 2, &got))
	assert.Equal(t, m2, got)
	assertDrv(t, MbufChainGetMbuf(h, 3, &got), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MbufChainAppend(h, m1), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MbufChainAppend(h, h), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MbufChainAppend(m1, m2), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MbufChainGetMbufNum(m1, &num), abi.DRV_ERROR_INVALID_VALUE, "a member is no head")
	assertDrv(t, MbufFree(m1), abi.DRV_ERROR_INVALID_VALUE, "a member alone")
	require.NoError(t, MbufFree(h))
	assertDrv(t, MbufFree(m2), abi.DRV_ERROR_INVALID_VALUE, "freed with its chain")
}

func TestMbufOfClosedNodeIsGone(t *testing.T) {
	useNode(t, "Ascend910B1", 1, 0)
	var m uintptr
	require.NoError(t, MbufAlloc(32, &m))
	emu.CloseCurrent()
	_, err := emu.Current()
	require.NoError(t, err)
	var n uint64
	assertDrv(t, MbufGetDataLen(m, &n), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MbufFree(m), abi.DRV_ERROR_INVALID_VALUE)
}

func TestMbufConcurrentUse(t *testing.T) {
	useNode(t, "Ascend910B1", 1, 0)
	require.NoError(t, QueueInit(0))
	var qid uint32
	require.NoError(t, QueueCreate(0, queueAttr("c", 64, false), &qid))
	live := MbufLive()
	done := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 50; i++ {
				var m, c, got uintptr
				if err := MbufAlloc(32, &m); err != nil {
					done <- err
					return
				}
				if err := MbufCopyRef(m, &c); err != nil {
					done <- err
					return
				}
				if err := MbufChainAppend(m, c); err != nil {
					done <- err
					return
				}
				if err := QueueEnQueue(0, qid, m); err != nil {
					done <- err
					return
				}
				if err := QueueDeQueue(0, qid, &got); err != nil {
					done <- err
					return
				}
				if err := MbufFree(got); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 8; g++ {
		require.NoError(t, <-done)
	}
	assert.Equal(t, live, MbufLive(), "every head was freed")
	require.NoError(t, QueueDestroy(0, qid))
}
