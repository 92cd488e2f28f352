package acl

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

func TestDevIDMapping(t *testing.T) {
	th := setup(t, nil)
	maps := []func(*core.Thread, int32, *int32) error{
		GetLogicDevIdByUserDevId, GetUserDevIdByLogicDevId, GetLogicDevIdByPhyDevId,
		GetPhyDevIdByLogicDevId, GetUserDevIdByPhyDevId, GetPhyDevIdByUserDevId,
	}
	for _, m := range maps {
		var out int32 = -5
		require.NoError(t, m(th, 1, &out))
		assert.Equal(t, int32(1), out)
		requireCode(t, m(th, 2, &out), abi.ACL_ERROR_RT_INVALID_DEVICEID)
		requireCode(t, m(th, -1, &out), abi.ACL_ERROR_RT_INVALID_DEVICEID)
		requireCode(t, m(th, 0, nil), abi.ACL_ERROR_INVALID_PARAM)
	}
}

func TestPCIBusAndUUID(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	for id := int32(0); id < 2; id++ {
		s, err := DeviceGetPCIBusId(th, id, true, 13)
		require.NoError(t, err)
		assert.Len(t, s, 12)
		var back int32 = -1
		require.NoError(t, DeviceGetByPCIBusId(th, strings.ToUpper(s), true, &back))
		assert.Equal(t, id, back)
	}
	_, err := DeviceGetPCIBusId(th, 0, true, 12)
	requireCode(t, err, abi.ACL_ERROR_INVALID_PARAM)
	_, err = DeviceGetPCIBusId(th, 2, true, 13)
	requireCode(t, err, abi.ACL_ERROR_RT_INVALID_DEVICEID)
	var id int32
	requireCode(t, DeviceGetByPCIBusId(th, "0000:00:00.0", true, &id), abi.ACL_ERROR_INVALID_PARAM)

	var u0, u0again, u1 [16]byte
	require.NoError(t, DeviceGetUuid(th, 0, &u0))
	require.NoError(t, DeviceGetUuid(th, 0, &u0again))
	require.NoError(t, DeviceGetUuid(th, 1, &u1))
	assert.Equal(t, u0, u0again)
	assert.NotEqual(t, u0, u1)
	assert.NotEqual(t, [16]byte{}, u0)
	// Version 5 of "Ascend910B3/0" in the name space: the value older
	// releases (which used a UUID package) gave, so it stays stable.
	assert.Equal(t, [16]byte{0xcd, 0x93, 0x2b, 0x1f, 0x11, 0xef, 0x5e, 0xd1, 0x85, 0xb9, 0x16, 0xdf, 0xc3, 0x56, 0x46, 0x87}, u0)
	// RFC 9562's example: the DNS name space and "www.example.com".
	dns := [16]byte{0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}
	assert.Equal(t, [16]byte{0x2e, 0xd6, 0x65, 0x7d, 0xe9, 0x27, 0x56, 0x8b, 0x95, 0xe1, 0x26, 0x65, 0xa8, 0xae, 0xa6, 0xa2}, uuidV5(dns, []byte("www.example.com")))
	requireCode(t, DeviceGetUuid(th, 0, nil), abi.ACL_ERROR_INVALID_PARAM)
}

func TestMemsetD32(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	const n = 37
	var d, h uintptr
	require.NoError(t, Malloc(th, &d, 4*n+64, 0, core.MallocOpts{}))
	require.NoError(t, core.MallocHost(th, &h, 4*n, "aclrtMallocHost"))
	var s core.Handle
	require.NoError(t, CreateStream(th, &s))
	out := make([]byte, 4*n+8)
	check := func(v uint32, words int) {
		t.Helper()
		for i := range words {
			require.Equal(t, v, binary.LittleEndian.Uint32(out[4*i:]), "word %d", i)
		}
	}
	require.NoError(t, MemsetD32(th, d, 4*n+64, 0xdeadbeef, n))
	require.NoError(t, core.Memcpy(th, bufAddr(out), uint64(len(out)), d, 4*n+8, abi.ACL_MEMCPY_DEVICE_TO_HOST))
	check(0xdeadbeef, n)

	require.NoError(t, MemsetD32Async(th, d, 4*n, 0x01020304, n-1, s))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	require.NoError(t, core.Memcpy(th, bufAddr(out), uint64(len(out)), d, 4*n, abi.ACL_MEMCPY_DEVICE_TO_HOST))
	check(0x01020304, n-1)
	assert.Equal(t, uint32(0xdeadbeef), binary.LittleEndian.Uint32(out[4*(n-1):]), "word past N untouched")

	require.NoError(t, MemsetD32Async(th, h, 4*n, 7, n, s))
	require.NoError(t, core.Memcpy(th, bufAddr(out), uint64(len(out)), h, 4*n, abi.ACL_MEMCPY_HOST_TO_HOST))
	check(7, n)

	requireCode(t, MemsetD32(th, d, 4*n-1, 1, n), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemsetD32(th, bufAddr(out), uint64(len(out)), 1, 1), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemsetD32(th, 0, 4, 1, 1), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, MemsetD32(th, 0, 0, 1, 0))
	require.NoError(t, core.DestroyStream(th, s, false))
	require.NoError(t, core.FreeHost(th, h, false))
	require.NoError(t, Free(th, d, false))
	require.NoError(t, core.ResetDevice(th, 0))
}

func TestMemcpyBatch(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	var d uintptr
	require.NoError(t, Malloc(th, &d, 64, 0, core.MallocOpts{}))
	src, out := pattern(64, 9), make([]byte, 64)
	h2d := core.BatchAttr{DstType: abi.ACL_MEM_LOCATION_TYPE_DEVICE, SrcType: abi.ACL_MEM_LOCATION_TYPE_HOST}
	d2h := core.BatchAttr{DstType: abi.ACL_MEM_LOCATION_TYPE_HOST, SrcType: abi.ACL_MEM_LOCATION_TYPE_DEVICE}
	in := []core.BatchItem{{Dst: d, Src: bufAddr(src), DestMax: 32, Count: 32}, {Dst: d + 32, Src: bufAddr(src) + 32, DestMax: 32, Count: 32}}
	var fail uint64
	require.NoError(t, MemcpyBatch(th, "aclrtMemcpyBatch", in, []core.BatchAttr{h2d, h2d}, []uint64{0, 1}, &fail))
	assert.Equal(t, NoFailIndex, fail)
	var s core.Handle
	require.NoError(t, CreateStream(th, &s))
	back := []core.BatchItem{{Dst: bufAddr(out), Src: d, DestMax: 64, Count: 64}}
	require.NoError(t, MemcpyBatchAsync(th, "aclrtMemcpyBatchAsyncV2", back, []core.BatchAttr{d2h}, []uint64{0}, nil, s))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	assert.Equal(t, src, out)

	tests := []struct {
		name  string
		items []core.BatchItem
		attrs []core.BatchAttr
		idx   []uint64
		fail  uint64
	}{
		{"mixed directions", in, []core.BatchAttr{h2d, d2h}, []uint64{0, 1}, NoFailIndex},
		{"first index not 0", in, []core.BatchAttr{h2d}, []uint64{1}, NoFailIndex},
		{"indexes not increasing", in, []core.BatchAttr{h2d, h2d}, []uint64{0, 0}, NoFailIndex},
		{"host to host", in, []core.BatchAttr{{}}, []uint64{0}, NoFailIndex},
		{"item against direction", []core.BatchItem{in[0], {Dst: bufAddr(out), Src: d, DestMax: 8, Count: 8}}, []core.BatchAttr{h2d}, []uint64{0}, 1},
		{"item over destMax", []core.BatchItem{{Dst: d, Src: bufAddr(src), DestMax: 4, Count: 8}}, []core.BatchAttr{h2d}, []uint64{0}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fail := uint64(12345)
			err := MemcpyBatch(th, "aclrtMemcpyBatch", tc.items, tc.attrs, tc.idx, &fail)
			require.Error(t, err)
			assert.Equal(t, tc.fail, fail)
		})
	}
	require.NoError(t, core.DestroyStream(th, s, false))
	require.NoError(t, Free(th, d, false))
	require.NoError(t, core.ResetDevice(th, 0))
}

func TestInitFinalizeCallbacks(t *testing.T) {
	resetRuntime()
	t.Setenv("NPUEMU_DEVICES", "1")
	th := core.NewThread()
	var log []string
	initCB := core.InitCallback{Type: abi.ACL_REG_TYPE_OTHER, Key: 1, Call: func(c []byte) { log = append(log, "init:"+string(c)) }}
	finCB := core.FinalizeCallback{Type: abi.ACL_REG_TYPE_OTHER, Key: 2, Call: func() { log = append(log, "fin:"+boolStr(core.Initialized())) }}
	require.NoError(t, InitCallbackRegister(th, initCB))
	require.NoError(t, FinalizeCallbackRegister(th, finCB))
	t.Cleanup(func() {
		_ = InitCallbackUnRegister(th, abi.ACL_REG_TYPE_OTHER, 1)
		_ = FinalizeCallbackUnRegister(th, abi.ACL_REG_TYPE_OTHER, 2)
		resetRuntime()
	})
	assert.Empty(t, log, "nothing runs before aclInit")
	cfg := writeTemp(t, `{"dump":{}}`)
	require.NoError(t, Init(th, cfg))
	require.Equal(t, []string{`init:{"dump":{}}`}, log)
	// Registered after aclInit: runs at once.
	require.NoError(t, InitCallbackRegister(th, core.InitCallback{Type: abi.ACL_REG_TYPE_ACL_DVPP, Key: 3, Call: func(c []byte) { log = append(log, "late") }}))
	require.NoError(t, InitCallbackUnRegister(th, abi.ACL_REG_TYPE_ACL_DVPP, 3))
	require.NoError(t, Finalize(th))
	assert.Equal(t, []string{`init:{"dump":{}}`, "late", "fin:true"}, log)

	requireCode(t, InitCallbackUnRegister(th, abi.ACL_REG_TYPE_ACL_DVPP, 3), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, InitCallbackRegister(th, core.InitCallback{Type: 99, Key: 4, Call: func([]byte) {}}), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, FinalizeCallbackRegister(th, core.FinalizeCallback{Type: 0}), abi.ACL_ERROR_INVALID_PARAM)
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestCacheLastTaskInfoAndCheckMemType(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, CacheLastTaskOpInfo(th, []byte(`{"op":"x"}`), true))
	requireCode(t, CacheLastTaskOpInfo(th, nil, true), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CacheLastTaskOpInfo(th, make([]byte, maxOpInfo+1), true), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, CacheLastTaskExtendInfo(th, make([]byte, maxExtendInfo+100), true))
	op, ext := core.LastTaskInfo(th)
	assert.Equal(t, `{"op":"x"}`, string(op))
	assert.Len(t, ext, maxExtendInfo)

	require.NoError(t, SetDevice(th, 0))
	var d uintptr
	require.NoError(t, Malloc(th, &d, 64, 0, core.MallocOpts{}))
	host := make([]byte, 8)
	var res uint32 = 7
	require.NoError(t, CheckMemType(th, []uintptr{d, d + 8}, true, abi.ACL_RT_MEM_TYPE_DEV, &res, 0))
	assert.Equal(t, uint32(1), res)
	require.NoError(t, CheckMemType(th, []uintptr{d, bufAddr(host)}, true, abi.ACL_RT_MEM_TYPE_DEV|abi.ACL_RT_MEM_TYPE_DVPP, &res, 0))
	assert.Equal(t, uint32(0), res)
	require.NoError(t, CheckMemType(th, []uintptr{d}, true, abi.ACL_RT_MEM_TYPE_DVPP, &res, 0))
	assert.Equal(t, uint32(0), res)
	requireCode(t, CheckMemType(th, []uintptr{d}, true, 0x1, &res, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CheckMemType(th, []uintptr{d}, true, abi.ACL_RT_MEM_TYPE_DEV, &res, 1), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, Free(th, d, false))
	require.NoError(t, core.ResetDevice(th, 0))
}
