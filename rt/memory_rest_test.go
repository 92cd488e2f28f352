package rt

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
)

// The properties rtMemGetAllocationPropertiesFromHandle reads back (the
// driver's, halMemGetAllocationPropertiesFromHandle) are the ones
// rtMallocPhysical was given, for every memory kind npuemu models on
// normal and huge pages.
func TestAllocationPropertiesEveryKind(t *testing.T) {
	th := setup(t)
	require.NoError(t, SetDevice(th, 0))
	n := 0
	for _, mem := range []uint32{abi.MEM_HBM_TYPE, abi.MEM_DDR_TYPE, abi.MEM_P2P_HBM_TYPE, abi.MEM_P2P_DDR_TYPE} {
		for _, pg := range []uint32{abi.MEM_NORMAL_PAGE_TYPE, abi.MEM_HUGE_PAGE_TYPE} {
			in := DrvMemProp{Side: abi.MEM_DEV_SIDE, Mem_type: mem, Pg_type: pg, Module_id: 1}
			if _, err := memAttr("test", &in); err != nil {
				continue // a kind npuemu does not model
			}
			var h uint64
			if MallocPhysical(th, &h, 2<<20, &in, 0) != nil {
				continue // a kind this SoC does not have
			}
			var out DrvMemProp
			require.NoError(t, MemGetAllocationPropertiesFromHandle(th, h, &out))
			assert.Equal(t, in, out, "mem %d pg %d", mem, pg)
			require.NoError(t, FreePhysical(th, h))
			n++
		}
	}
	assert.NotZero(t, n, "no kind could be allocated")
}

// The round trip through the runtime: a physical allocation's driver
// properties come back from its handle.
func TestAllocationPropertiesRoundTrip(t *testing.T) {
	th := setup(t)
	require.NoError(t, SetDevice(th, 0))
	in := DrvMemProp{Side: abi.MEM_DEV_SIDE, Pg_type: abi.MEM_HUGE_PAGE_TYPE, Mem_type: abi.MEM_HBM_TYPE, Module_id: 3}
	var h uint64
	require.NoError(t, MallocPhysical(th, &h, 2<<20, &in, 0))
	var out DrvMemProp
	require.NoError(t, MemGetAllocationPropertiesFromHandle(th, h, &out))
	assert.Equal(t, in, out)
	require.NoError(t, FreePhysical(th, h))
	err := MemGetAllocationPropertiesFromHandle(th, h, &out)
	assert.NotEqual(t, abi.ACL_SUCCESS, abi.CodeOf(err), "a freed handle")
}

// rtsMalloc answers with rt codes: DVPP memory is a feature npuemu does
// not have, an unknown advice or attribute a bad argument.
func TestSMallocCodes(t *testing.T) {
	th := setup(t)
	require.NoError(t, SetDevice(th, 0))
	var p uintptr
	assert.Equal(t, abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, abi.CodeOf(SMalloc(th, &p, 4096, 0, abi.RT_MEM_ADVISE_DVPP, nil)))
	assert.Equal(t, abi.ACL_ERROR_RT_PARAM_INVALID, abi.CodeOf(SMalloc(th, &p, 4096, 0, 4, nil)))
	assert.Equal(t, abi.ACL_ERROR_RT_PARAM_INVALID, abi.CodeOf(SMalloc(th, &p, 4096, 0, 0, []MallocAttr{{Attr: abi.RT_MEM_MALLOC_ATTR_MAX}})))
	assert.Zero(t, p)
	require.NoError(t, SMalloc(th, &p, 4096, 0, abi.RT_MEM_ADVISE_TS, []MallocAttr{{Attr: abi.RT_MEM_MALLOC_ATTR_MODULE_ID, Value: 3}}))
	var a acl.PtrAttributes
	require.NoError(t, PointerGetAttributes(th, p, &a))
	assert.Equal(t, uint32(abi.RT_MEMORY_LOC_DEVICE), a.Location.Type)
	require.NoError(t, Free(th, p))
}

// rtDataType is not aclDataType: the reduce task gets the ACL type of the
// same element.
func TestReduceTypes(t *testing.T) {
	assert.Equal(t, int32(abi.ACL_INT32), reduceTypes[abi.RT_DATA_TYPE_INT32])
	assert.Equal(t, int32(abi.ACL_INT8), reduceTypes[abi.RT_DATA_TYPE_INT8])
	assert.Equal(t, int32(abi.ACL_BF16), reduceTypes[abi.RT_DATA_TYPE_BFP16])
	_, ok := reduceTypes[abi.RT_DATA_TYPE_UINT8]
	assert.False(t, ok)
	th := core.NewThread()
	err := LaunchReduceAsyncTask(th, &ReduceInfo{Kind: abi.RT_MEMCPY_SDMA_AUTOMATIC_ADD, Type: abi.RT_DATA_TYPE_UINT32}, 0, 0)
	assert.Equal(t, abi.ACL_ERROR_RT_PARAM_INVALID, abi.CodeOf(err))
}

// rtMallocPhysical charges its prop's module_id (aclrtMallocPhysical,
// whose prop has none, charges APP): the driver's usage records list it.
func TestMallocPhysicalChargesModule(t *testing.T) {
	th := setup(t)
	require.NoError(t, SetDevice(th, 0))
	in := DrvMemProp{Side: abi.MEM_DEV_SIDE, Pg_type: abi.MEM_HUGE_PAGE_TYPE, Mem_type: abi.MEM_HBM_TYPE, Module_id: 3}
	var h uint64
	require.NoError(t, MallocPhysical(th, &h, 2<<20, &in, 0))
	usage := func() uint64 {
		out := make([]core.MemUsageInfo, 64)
		var n uint64
		require.NoError(t, GetMemUsageInfo(th, 0, out, &n))
		for _, r := range out[:n] {
			if string(bytes.TrimRight(r.Name[:], "\x00")) == hal.ModuleName(3) {
				return r.Cur
			}
		}
		return 0
	}
	assert.Equal(t, uint64(2<<20), usage())
	require.NoError(t, FreePhysical(th, h))
	assert.Zero(t, usage())
}
