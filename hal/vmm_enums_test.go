package hal

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// TestVMMEnumDecoding: every driver value decodes to its emu kind and
// encodes back to itself; values the driver does not know reach the model
// as numbers outside its kinds.
func TestVMMEnumDecoding(t *testing.T) {
	for v, want := range map[uint32]emu.PageKind{
		abi.MEM_NORMAL_PAGE_TYPE: emu.PageNormal,
		abi.MEM_HUGE_PAGE_TYPE:   emu.PageHuge,
		abi.MEM_GIANT_PAGE_TYPE:  emu.PageGiant,
	} {
		assert.Equal(t, want, pageKind(v))
		assert.Equal(t, v, pgType(want))
	}
	assert.Equal(t, emu.PageKind(emu.PageKinds), pageKind(abi.MEM_MAX_PAGE_TYPE))

	for v, want := range map[uint32]emu.MemKind{
		abi.MEM_HBM_TYPE:     emu.MemHBM,
		abi.MEM_DDR_TYPE:     emu.MemDDR,
		abi.MEM_P2P_HBM_TYPE: emu.MemP2PHBM,
		abi.MEM_P2P_DDR_TYPE: emu.MemP2PDDR,
		abi.MEM_TS_DDR_TYPE:  emu.MemTSDDR,
	} {
		assert.Equal(t, want, memKind(v))
		assert.Equal(t, v, memType(want))
	}
	assert.Equal(t, emu.MemKind(emu.MemKinds), memKind(abi.MEM_MAX_TYPE))

	for v, want := range map[uint32]emu.Access{
		abi.MEM_ACCESS_TYPE_NONE:      emu.AccessNone,
		abi.MEM_ACCESS_TYPE_READ:      emu.AccessRead,
		abi.MEM_ACCESS_TYPE_READWRITE: emu.AccessReadWrite,
	} {
		assert.Equal(t, want, access(v))
		assert.Equal(t, uint64(v), accessType(want))
	}
	assert.Equal(t, emu.Access(2), access(2), "unknown: passed on for the model to refuse")
	assert.Equal(t, uint64(abi.MEM_ACCESS_TYPE_MAX), accessType(emu.AccessUnset))

	assert.Equal(t, emu.ShmemMapRoute, shmemAttr(abi.SHMEM_ATTR_TYPE_MEM_MAP))
	assert.Equal(t, emu.ShmemNoWhitelist, shmemAttr(abi.SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER))
	assert.Equal(t, emu.ShmemAttr(7), shmemAttr(7))
	for v, want := range map[uint64]uint64{abi.SHMEM_WLIST_ENABLE: emu.ShmemWhitelistOn, abi.SHMEM_NO_WLIST_ENABLE: emu.ShmemWhitelistOff} {
		assert.Equal(t, want, shmemValue(emu.ShmemNoWhitelist, v))
		assert.Equal(t, v, shmemValueOf(emu.ShmemNoWhitelist, want))
	}
	for v, want := range map[uint64]uint64{
		abi.MEM_MAP_DEFAULT_PATH:       emu.RouteDefault,
		abi.MEM_MAP_EXBUS:              emu.RouteExbus,
		abi.MEM_MAP_UB_ONE_PORT_PATH:   emu.RouteUBOnePort,
		abi.MEM_MAP_UB_MULTI_PORT_PATH: emu.RouteUBMultiPort,
	} {
		assert.Equal(t, want, shmemValue(emu.ShmemMapRoute, v))
		assert.Equal(t, v, shmemValueOf(emu.ShmemMapRoute, want))
	}
	assert.Equal(t, uint64(9), shmemValue(emu.ShmemMapRoute, 9))
	assert.Equal(t, uint64(9), shmemValue(emu.ShmemNoWhitelist, 9))
}
