package acl

import (
	"encoding/binary"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/svm"
)

const mpage = svm.HugePage

func devStats(t *testing.T, dev int32) svm.Stats {
	t.Helper()
	st, err := core.ManagedStats(dev)
	require.NoError(t, err)
	return st
}

func TestManagedAllocAccessFree(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_HBM_BYTES": "16777216", "NPUEMU_SVM_HOST_FAULTS": ""})
	require.NoError(t, SetDevice(th, 0))
	var p uintptr
	requireCode(t, AllocManaged(th, &p, 0, abi.ACL_RT_MEM_ATTACH_GLOBAL), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, AllocManaged(th, &p, mpage, 2), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, AllocManaged(th, nil, mpage, abi.ACL_RT_MEM_ATTACH_GLOBAL), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, AllocManaged(th, &p, 3*mpage-1, abi.ACL_RT_MEM_ATTACH_GLOBAL))
	assert.GreaterOrEqual(t, p, svm.ManagedBase)

	var pa PtrAttributes
	require.NoError(t, PointerGetAttributes(th, p+10, &pa))
	assert.Equal(t, uint32(abi.ACL_MEM_LOCATION_TYPE_MANAGED), pa.Location.Type)
	assert.Equal(t, uint32(mpage), pa.PageSize)

	// An async memset faults the pages in on the stream's device and
	// charges the faults on the stream; the host sees the bytes.
	require.NoError(t, core.MemsetAsync(th, p, 3*mpage, 9, 3*mpage, 0))
	require.NoError(t, core.SynchronizeDevice(th))
	st := devStats(t, 0)
	assert.Equal(t, uint64(3), st.Faults)
	assert.Equal(t, uint64(3*mpage), st.ResidentBytes)
	// The managed window lies outside the Go heap: reinterpret, not convert.
	b := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), 3*mpage)
	assert.Equal(t, byte(9), b[3*mpage-1])

	var free, total uint64
	require.NoError(t, GetMemInfo(th, abi.ACL_HBM_MEM, &free, &total))
	assert.Equal(t, total-3*mpage, free, "resident managed pages take device memory")

	// A synchronous copy to host memory is a host access.
	out := make([]byte, 16)
	require.NoError(t, core.Memcpy(th, uintptr(unsafe.Pointer(&out[0])), 16, p+mpage, 16, abi.ACL_MEMCPY_DEFAULT))
	assert.Equal(t, byte(9), out[15])
	hs := devStats(t, -1)
	assert.Equal(t, uint64(1), hs.Faults)

	requireCode(t, Free(th, p+mpage, false), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, Free(th, p, false))
	requireCode(t, Free(th, p, false), abi.ACL_ERROR_RT_PARAM_INVALID)
	assert.Zero(t, devStats(t, 0).ResidentBytes)
	_, err := core.ManagedStats(7)
	requireCode(t, err, abi.ACL_ERROR_RT_INVALID_DEVICEID)
}

func TestManagedAdvisePrefetchAttrs(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SVM_HOST_FAULTS": ""})
	require.NoError(t, SetDevice(th, 0))
	var p uintptr
	require.NoError(t, AllocManaged(th, &p, 2*mpage, abi.ACL_RT_MEM_ATTACH_GLOBAL))
	t.Cleanup(func() { _ = Free(th, p, false) })
	dev1 := ManagedLocation{abi.ACL_MEM_LOCATIONTYPE_DEVICE, 1}
	host := ManagedLocation{abi.ACL_MEM_LOCATIONTYPE_HOST, 0}

	require.NoError(t, PrefetchAsync(th, p, 2*mpage, dev1, 0, 0))
	require.NoError(t, core.SynchronizeDevice(th))
	assert.Equal(t, uint64(2*mpage), devStats(t, 1).PrefetchedBytes)
	require.NoError(t, PrefetchBatchAsync(th, []uintptr{p, p + mpage}, []uint64{mpage, mpage},
		[]ManagedLocation{host, dev1}, []uint64{0, 1}, 0, 0))
	require.NoError(t, core.SynchronizeDevice(th))
	assert.Equal(t, uint64(mpage), devStats(t, 1).ResidentBytes)

	require.NoError(t, ManagedAdvise(th, p, mpage, abi.ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, dev1))
	require.NoError(t, ManagedAdvise(th, p, 2*mpage, abi.ACL_MEM_ADVISE_SET_ACCESSED_BY, dev1))
	require.NoError(t, ManagedAdvise(th, p, 2*mpage, abi.ACL_MEM_ADVISE_SET_ACCESSED_BY, host))
	word := func(attr int32, n uint64, size int) []int32 {
		buf := make([]byte, size)
		require.NoError(t, ManagedGetAttr(th, attr, p, n, buf))
		out := make([]int32, size/4)
		for i := range out {
			out[i] = int32(binary.LittleEndian.Uint32(buf[4*i:]))
		}
		return out
	}
	assert.Equal(t, []int32{1}, word(abi.ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, mpage, 4))
	assert.Equal(t, []int32{-2}, word(abi.ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, 2*mpage, 4))
	assert.Equal(t, []int32{abi.ACL_MEM_LOCATIONTYPE_DEVICE}, word(abi.ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, mpage, 4))
	assert.Equal(t, []int32{-1, 1, -2}, word(abi.ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, 2*mpage, 12))
	assert.Equal(t, []int32{0}, word(abi.ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, 2*mpage, 4))

	cases := []struct {
		name string
		err  error
		code abi.Code
	}{
		{"advise unknown", ManagedAdvise(th, p, mpage, 7, host), abi.ACL_ERROR_INVALID_PARAM},
		{"advise not managed", ManagedAdvise(th, 0x1000, mpage, abi.ACL_MEM_ADVISE_SET_READ_MOSTLY, host), abi.ACL_ERROR_INVALID_PARAM},
		{"advise misaligned", ManagedAdvise(th, p+4096, mpage, abi.ACL_MEM_ADVISE_SET_READ_MOSTLY, host), abi.ACL_ERROR_RT_PARAM_INVALID},
		{"advise device 9", ManagedAdvise(th, p, mpage, abi.ACL_MEM_ADVISE_SET_ACCESSED_BY, ManagedLocation{abi.ACL_MEM_LOCATIONTYPE_DEVICE, 9}), abi.ACL_ERROR_RT_INVALID_DEVICEID},
		{"prefetch flags", PrefetchAsync(th, p, mpage, host, 1, 0), abi.ACL_ERROR_INVALID_PARAM},
		{"prefetch past the end", PrefetchAsync(th, p, 4*mpage, host, 0, 0), abi.ACL_ERROR_RT_PARAM_INVALID},
		{"batch without locations", PrefetchBatchAsync(th, []uintptr{p}, []uint64{mpage}, nil, nil, 0, 0), abi.ACL_ERROR_INVALID_PARAM},
		{"batch index past count", PrefetchBatchAsync(th, []uintptr{p}, []uint64{mpage}, []ManagedLocation{host}, []uint64{1}, 0, 0), abi.ACL_ERROR_INVALID_PARAM},
		{"attr reserved", ManagedGetAttr(th, abi.ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, mpage, make([]byte, 4)), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
		{"attr short", ManagedGetAttr(th, abi.ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, mpage, make([]byte, 2)), abi.ACL_ERROR_INVALID_PARAM},
		{"attrs mismatch", ManagedGetAttrs(th, []int32{1, 2}, p, mpage, [][]byte{make([]byte, 4)}), abi.ACL_ERROR_INVALID_PARAM},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { requireCode(t, c.err, c.code) })
	}
}

func TestManagedOnlyOnA2A3(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend310P3"})
	require.NoError(t, SetDevice(th, 0))
	requireCode(t, core.CheckSoC("aclrtMemAllocManaged"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
}
