package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// TestVMMEnumDecoding: aclrtMemAttr decodes into the model's kinds and a
// handle's kinds encode back into an attribute of the same kinds; access
// kinds encode as aclrtMemAccessFlags; access links are routes.
func TestVMMEnumDecoding(t *testing.T) {
	hbm, ok := emu.LookupSoC("Ascend910B4")
	require.True(t, ok)
	ddr, ok := emu.LookupSoC("Ascend310P3")
	require.True(t, ok)
	for _, c := range []struct {
		attr uint32
		soc  emu.SoC
		pg   emu.PageKind
		mt   emu.MemKind
		back uint32
	}{
		{abi.ACL_HBM_MEM_HUGE, hbm, emu.PageHuge, emu.MemHBM, abi.ACL_MEM_HUGE},
		{abi.ACL_HBM_MEM_HUGE, ddr, emu.PageHuge, emu.MemDDR, abi.ACL_MEM_HUGE},
		{abi.ACL_DDR_MEM_NORMAL, hbm, emu.PageNormal, emu.MemDDR, abi.ACL_MEM_NORMAL},
		{abi.ACL_HBM_MEM_P2P_HUGE1G, hbm, emu.PageGiant, emu.MemP2PHBM, abi.ACL_MEM_P2P_HUGE1G},
		{abi.ACL_MEM_P2P_NORMAL, ddr, emu.PageNormal, emu.MemP2PDDR, abi.ACL_MEM_P2P_NORMAL},
	} {
		pg, mt, err := memAttrInfo("f", c.attr, c.soc)
		require.NoError(t, err)
		assert.Equal(t, c.pg, pg, "attr %d on %s", c.attr, c.soc.Name)
		assert.Equal(t, c.mt, mt, "attr %d on %s", c.attr, c.soc.Name)
		assert.Equal(t, c.back, aclPropOf(emu.PhysProp{PageType: pg, MemType: mt}).MemAttr)
	}
	_, _, err := memAttrInfo("f", 99, hbm)
	requireCode(t, err, abi.ACL_ERROR_INVALID_PARAM)

	assert.Equal(t, emu.PageGiant, pageKind(abi.MEM_GIANT_PAGE_TYPE))
	assert.Equal(t, emu.PageHuge, pageKind(abi.MEM_HUGE_PAGE_TYPE))
	assert.Equal(t, emu.PageNormal, pageKind(abi.MEM_NORMAL_PAGE_TYPE))

	assert.Equal(t, uint64(abi.ACL_RT_MEM_ACCESS_FLAGS_READWRITE), accessFlags(emu.AccessReadWrite))
	assert.Equal(t, uint64(abi.ACL_RT_MEM_ACCESS_FLAGS_READ), accessFlags(emu.AccessRead))
	assert.Equal(t, uint64(abi.ACL_RT_MEM_ACCESS_FLAGS_NONE), accessFlags(emu.AccessNone))
	assert.Equal(t, uint64(abi.MEM_ACCESS_TYPE_MAX), accessFlags(emu.AccessUnset))

	for link, path := range map[uint64]uint64{
		abi.ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO:                abi.MEM_MAP_DEFAULT_PATH,
		abi.ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS:               abi.MEM_MAP_EXBUS,
		abi.ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH:   abi.MEM_MAP_UB_ONE_PORT_PATH,
		abi.ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH: abi.MEM_MAP_UB_MULTI_PORT_PATH,
	} {
		assert.Equal(t, path, accessLinkMapPath(link))
		assert.Equal(t, link, path, "link n is path n, as before")
	}
}
