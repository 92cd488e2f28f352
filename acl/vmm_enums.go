package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// The VMM enums of the ACL surface, decoded into emu's own kinds
// (emu/vmm_kinds.go; the model knows no API enum, docs/internals.md) and
// encoded back where a value returns to the program.

// pageKind decodes the page type of aclrtReserveMemAddress's flags (bits
// 0-1, the driver's drv_mem_pg_type), checked below MEM_MAX_PAGE_TYPE.
func pageKind(v uint32) emu.PageKind {
	switch v {
	case abi.MEM_HUGE_PAGE_TYPE:
		return emu.PageHuge
	case abi.MEM_GIANT_PAGE_TYPE:
		return emu.PageGiant
	}
	return emu.PageNormal
}

// memAttrInfo decodes an aclrtMemAttr into the model's page and memory
// kinds. auto attributes (ACL_MEM_*) choose HBM, or DDR on DDR-only SoCs.
func memAttrInfo(fn string, attr uint32, s emu.SoC) (pg emu.PageKind, mt emu.MemKind, err error) {
	ddrOnly := s.Family == emu.Family310P || s.Family == emu.Family310B
	const (
		ddr = iota
		hbm
		auto
	)
	var kind int
	p2p := false
	switch attr {
	case abi.ACL_DDR_MEM:
		kind, pg = ddr, emu.PageHuge
	case abi.ACL_HBM_MEM:
		kind, pg = hbm, emu.PageHuge
	case abi.ACL_DDR_MEM_HUGE:
		kind, pg = ddr, emu.PageHuge
	case abi.ACL_DDR_MEM_NORMAL:
		kind, pg = ddr, emu.PageNormal
	case abi.ACL_HBM_MEM_HUGE:
		kind, pg = hbm, emu.PageHuge
	case abi.ACL_HBM_MEM_NORMAL:
		kind, pg = hbm, emu.PageNormal
	case abi.ACL_DDR_MEM_P2P_HUGE:
		kind, pg, p2p = ddr, emu.PageHuge, true
	case abi.ACL_DDR_MEM_P2P_NORMAL:
		kind, pg, p2p = ddr, emu.PageNormal, true
	case abi.ACL_HBM_MEM_P2P_HUGE:
		kind, pg, p2p = hbm, emu.PageHuge, true
	case abi.ACL_HBM_MEM_P2P_NORMAL:
		kind, pg, p2p = hbm, emu.PageNormal, true
	case abi.ACL_HBM_MEM_HUGE1G:
		kind, pg = hbm, emu.PageGiant
	case abi.ACL_HBM_MEM_P2P_HUGE1G:
		kind, pg, p2p = hbm, emu.PageGiant, true
	case abi.ACL_MEM_NORMAL:
		kind, pg = auto, emu.PageNormal
	case abi.ACL_MEM_HUGE:
		kind, pg = auto, emu.PageHuge
	case abi.ACL_MEM_HUGE1G:
		kind, pg = auto, emu.PageGiant
	case abi.ACL_MEM_P2P_NORMAL:
		kind, pg, p2p = auto, emu.PageNormal, true
	case abi.ACL_MEM_P2P_HUGE:
		kind, pg, p2p = auto, emu.PageHuge, true
	case abi.ACL_MEM_P2P_HUGE1G:
		kind, pg, p2p = auto, emu.PageGiant, true
	default:
		return 0, 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: memAttr %d is not an aclrtMemAttr", fn, attr)
	}
	isDDR := kind == ddr || (kind == auto && ddrOnly) || (kind == hbm && ddrOnly) // HBM absent → DDR
	switch {
	case isDDR && p2p:
		mt = emu.MemP2PDDR
	case isDDR:
		mt = emu.MemDDR
	case p2p:
		mt = emu.MemP2PHBM
	default:
		mt = emu.MemHBM
	}
	return pg, mt, nil
}

// aclPropOf describes a handle made through the HAL or imported: the
// model's page and memory kinds encoded as an aclrtMemAttr.
func aclPropOf(p emu.PhysProp) PhysicalMemProp {
	out := PhysicalMemProp{AllocationType: abi.ACL_MEM_ALLOCATION_TYPE_PINNED}
	p2p := p.MemType.P2P()
	switch {
	case p.PageType == emu.PageGiant && p2p:
		out.MemAttr = abi.ACL_MEM_P2P_HUGE1G
	case p.PageType == emu.PageGiant:
		out.MemAttr = abi.ACL_MEM_HUGE1G
	case p.PageType == emu.PageNormal && p2p:
		out.MemAttr = abi.ACL_MEM_P2P_NORMAL
	case p.PageType == emu.PageNormal:
		out.MemAttr = abi.ACL_MEM_NORMAL
	case p2p:
		out.MemAttr = abi.ACL_MEM_P2P_HUGE
	default:
		out.MemAttr = abi.ACL_MEM_HUGE
	}
	switch {
	case p.NUMA:
		out.Location.Type = abi.ACL_MEM_LOCATION_TYPE_HOST_NUMA
	case p.Host:
		out.Location.Type = abi.ACL_MEM_LOCATION_TYPE_HOST
	default:
		out.Location = MemLocation{Id: uint32(p.Dev), Type: abi.ACL_MEM_LOCATION_TYPE_DEVICE}
	}
	return out
}

// accessFlags encodes an access as aclrtMemGetAccess reports it: the
// aclrtMemAccessFlags, and for a location never given access the driver's
// MEM_ACCESS_TYPE_MAX, as the driver reports it.
func accessFlags(a emu.Access) uint64 {
	switch a {
	case emu.AccessNone:
		return abi.ACL_RT_MEM_ACCESS_FLAGS_NONE
	case emu.AccessRead:
		return abi.ACL_RT_MEM_ACCESS_FLAGS_READ
	case emu.AccessReadWrite:
		return abi.ACL_RT_MEM_ACCESS_FLAGS_READWRITE
	}
	return abi.MEM_ACCESS_TYPE_MAX
}

// accessLinkMapPath converts an ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_* value
// (checked in range) into the driver's MEM_MAP_* path, the value of
// halShmemSetAttribute(SHMEM_ATTR_TYPE_MEM_MAP). Link n is path n, so a
// halShmemGetAttribute of MEM_MAP reads back the number the ACL call set.
func accessLinkMapPath(link uint64) uint64 {
	switch link {
	case abi.ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO:
		return abi.MEM_MAP_DEFAULT_PATH
	case abi.ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS:
		return abi.MEM_MAP_EXBUS
	case abi.ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH:
		return abi.MEM_MAP_UB_ONE_PORT_PATH
	}
	return abi.MEM_MAP_UB_MULTI_PORT_PATH
}
