package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// The VMM queries, sharing and managed-memory calls go through rt/stack:
// an interposed definition sees each once, its answer is the ACL caller's
// and its refusal comes back as its drvError_t converted.
func TestVMMQueriesThroughStack(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	calls := map[string]int{}
	stack.HAL.AllocationGranularity = func(prop *hal.MemProp, option uint32, g *uint64) error {
		calls["granularity"]++
		*g = 64 << 20
		return nil
	}
	stack.HAL.AddressRange = func(p uintptr, pbase *uintptr, psize *uint64) error {
		calls["range"]++
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "refused by the test hook")
	}
	stack.HAL.ExportToShareableHandle = func(h uint64, typ uint32, flags uint64, out *uint64) error {
		calls["export"]++
		return abi.DrvErrorf(abi.DRV_ERROR_OPER_NOT_PERMITTED, "refused by the test hook")
	}
	stack.HAL.ManagedRangeGetAttributes = func(data [][]byte, attrs []uint32, p uintptr, count uint64) error {
		calls["attrs"]++
		assert.Len(t, attrs, 2, "one driver call carries every attribute")
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "refused by the test hook")
	}
	t.Cleanup(func() {
		stack.HAL.AllocationGranularity, stack.HAL.AddressRange = nil, nil
		stack.HAL.ExportToShareableHandle, stack.HAL.ManagedRangeGetAttributes = nil, nil
	})

	prop := PhysicalMemProp{HandleType: abi.ACL_MEM_HANDLE_TYPE_NONE, AllocationType: abi.ACL_MEM_ALLOCATION_TYPE_PINNED, MemAttr: abi.ACL_HBM_MEM_HUGE}
	prop.Location.Type = abi.ACL_MEM_LOCATION_TYPE_DEVICE
	var g uint64
	require.NoError(t, MemGetAllocationGranularity(th, &prop, abi.ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g))
	assert.Equal(t, uint64(64<<20), g)
	requireCode(t, MemGetAllocationGranularity(th, &prop, 7, &g), abi.ACL_ERROR_INVALID_PARAM)
	assert.Equal(t, 1, calls["granularity"], "ACL's argument check answers before the driver")

	var p uintptr
	require.NoError(t, Malloc(th, &p, 4096, 0, core.MallocOpts{}))
	var base uintptr
	requireCode(t, MemGetAddressRange(th, p, &base, nil), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	assert.Equal(t, 1, calls["range"])

	var h, s uint64
	require.NoError(t, MallocPhysical(th, &h, 2<<20, &prop, 0))
	requireCode(t, MemExportToShareableHandle(th, "aclrtMemExportToShareableHandle", h, abi.ACL_MEM_HANDLE_TYPE_NONE, 0, &s), abi.ACL_ERROR_RT_NO_PERMISSION)
	assert.Equal(t, 1, calls["export"])
	// The V2 call makes the V2 driver call (not hooked here): it works.
	require.NoError(t, MemExportToShareableHandle(th, "aclrtMemExportToShareableHandleV2", h, abi.ACL_MEM_HANDLE_TYPE_NONE, 0, &s))
	assert.NotZero(t, s)
	assert.Equal(t, 1, calls["export"])
	require.NoError(t, FreePhysical(th, h))

	var m uintptr
	require.NoError(t, AllocManaged(th, &m, 2<<20, abi.ACL_RT_MEM_ATTACH_GLOBAL))
	a, b := make([]byte, 4), make([]byte, 4)
	requireCode(t, ManagedGetAttrs(th, []int32{abi.ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, abi.ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION}, m, 2<<20, [][]byte{a, b}),
		abi.ACL_ERROR_RT_PARAM_INVALID)
	assert.Equal(t, 1, calls["attrs"])
	require.NoError(t, core.ResetDevice(th, 0))
}
