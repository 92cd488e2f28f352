package emu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// TestVMMKindsAreTheDriverNumbers pins emu's VMM kinds to the driver's
// numbers (emu/vmm_kinds.go): the node file stores page and memory kinds
// and routes, so other numbers would change the node format.
func TestVMMKindsAreTheDriverNumbers(t *testing.T) {
	for _, c := range []struct{ emu, drv uint64 }{
		{uint64(PageNormal), abi.MEM_NORMAL_PAGE_TYPE},
		{uint64(PageHuge), abi.MEM_HUGE_PAGE_TYPE},
		{uint64(PageGiant), abi.MEM_GIANT_PAGE_TYPE},
		{PageKinds, abi.MEM_MAX_PAGE_TYPE},
		{uint64(MemHBM), abi.MEM_HBM_TYPE},
		{uint64(MemDDR), abi.MEM_DDR_TYPE},
		{uint64(MemP2PHBM), abi.MEM_P2P_HBM_TYPE},
		{uint64(MemP2PDDR), abi.MEM_P2P_DDR_TYPE},
		{uint64(MemTSDDR), abi.MEM_TS_DDR_TYPE},
		{MemKinds, abi.MEM_MAX_TYPE},
		{uint64(AccessNone), abi.MEM_ACCESS_TYPE_NONE},
		{uint64(AccessRead), abi.MEM_ACCESS_TYPE_READ},
		{uint64(AccessReadWrite), abi.MEM_ACCESS_TYPE_READWRITE},
		{uint64(AccessUnset), abi.MEM_ACCESS_TYPE_MAX},
		{uint64(ShmemMapRoute), abi.SHMEM_ATTR_TYPE_MEM_MAP},
		{uint64(ShmemNoWhitelist), abi.SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER},
		{ShmemAttrs, abi.SHMEM_ATTR_TYPE_MAX},
		{ShmemWhitelistOn, abi.SHMEM_WLIST_ENABLE},
		{ShmemWhitelistOff, abi.SHMEM_NO_WLIST_ENABLE},
		{RouteDefault, abi.MEM_MAP_DEFAULT_PATH},
		{RouteExbus, abi.MEM_MAP_EXBUS},
		{RouteUBOnePort, abi.MEM_MAP_UB_ONE_PORT_PATH},
		{RouteUBMultiPort, abi.MEM_MAP_UB_MULTI_PORT_PATH},
		{MapRoutes - 1, abi.MEM_MAP_UB_MULTI_PORT_PATH},
	} {
		assert.Equal(t, c.drv, c.emu)
	}
	assert.True(t, MemP2PHBM.P2P())
	assert.True(t, MemP2PDDR.P2P())
	assert.False(t, MemHBM.P2P())
	assert.False(t, MemDDR.P2P())
}

// TestNodeStoresVMMKinds: a shareable handle exported into the node file
// stores its page and memory kinds as the driver's numbers, and another
// process's import (here: this one, its local table emptied) reads them
// back.
func TestNodeStoresVMMKinds(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory holds the node window's address (conformance cases vmm_* and ipc_* cover the node path)")
	}
	cfg, _ := nodeTestConfig(t)
	n := newTestNode(t, cfg)
	v := n.VMM()
	h, err := v.Create(VMMGranularity, PhysProp{Dev: 0, PageType: PageHuge, MemType: MemP2PDDR, Module: 3})
	require.NoError(t, err)
	sh, err := v.Export(h, true)
	require.NoError(t, err)
	require.NotZero(t, sh&nodeShareBit, "the handle is in the node file")

	dir := n.dir
	require.NoError(t, dir.lock())
	e := dir.shareEntryLocked(sh)
	require.NotNil(t, e)
	attr := e.Attr
	dir.unlock()
	assert.Equal(t, uint64(abi.MEM_HUGE_PAGE_TYPE)<<32|abi.MEM_P2P_DDR_TYPE, attr)

	v.mu.Lock()
	s := v.shares[sh]
	delete(v.shares, sh) // as another process sees it
	v.mu.Unlock()
	ih, err := v.Import(sh, 0, 4242)
	require.NoError(t, err)
	p, size, err := v.Prop(ih)
	require.NoError(t, err)
	assert.Equal(t, uint64(VMMGranularity), size)
	assert.Equal(t, PageHuge, p.PageType)
	assert.Equal(t, MemP2PDDR, p.MemType)
	require.NoError(t, v.Release(ih))
	v.mu.Lock()
	v.shares[sh] = s
	v.mu.Unlock()
	require.NoError(t, v.Release(h))
}

// TestShmemAttrKinds: the model refuses attributes and values outside its
// kinds, with the number it was given.
func TestShmemAttrKinds(t *testing.T) {
	n := newTestNode(t, Config{SoC: DefaultSoC, Devices: 1, HBMBytes: 64 << 20})
	d, err := n.Device(0)
	require.NoError(t, err)
	p, err := d.HBM.Alloc(8192, 0)
	require.NoError(t, err)
	v := n.VMM()
	name, err := v.ShmemCreate(p, 8192, false)
	require.NoError(t, err)
	require.NoError(t, v.ShmemSetAttr(name, ShmemMapRoute, RouteUBOnePort))
	got, err := v.ShmemGetAttr(name, ShmemMapRoute)
	require.NoError(t, err)
	assert.Equal(t, RouteUBOnePort, got)
	require.NoError(t, v.ShmemSetAttr(name, ShmemNoWhitelist, ShmemWhitelistOff))
	got, err = v.ShmemGetAttr(name, ShmemNoWhitelist)
	require.NoError(t, err)
	assert.Equal(t, ShmemWhitelistOff, got)

	err = v.ShmemSetAttr(name, ShmemMapRoute, MapRoutes)
	drvIs(t, err, abi.DRV_ERROR_INVALID_VALUE)
	assert.Contains(t, err.Error(), "route 4 out of range (0..3)")
	err = v.ShmemSetAttr(name, ShmemNoWhitelist, 2)
	drvIs(t, err, abi.DRV_ERROR_INVALID_VALUE)
	err = v.ShmemSetAttr(name, ShmemAttrs, 0)
	drvIs(t, err, abi.DRV_ERROR_INVALID_VALUE)
	assert.Contains(t, err.Error(), "attribute type 2 out of range (0..1)")
	_, err = v.ShmemGetAttr(name, ShmemAttrs)
	drvIs(t, err, abi.DRV_ERROR_INVALID_VALUE)
	require.NoError(t, v.ShmemDestroy(name))
}
