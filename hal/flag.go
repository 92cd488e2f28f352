package hal

import (
	"fmt"
	"strings"

	"github.com/npuemu/npuemu/abi"
)

// Field values of the halMemAlloc flag word (hal-api.md §3.2), unshifted.
const (
	virtSVM       = abi.MEM_SVM >> abi.MEM_VIRT_BIT
	virtDev       = abi.MEM_DEV >> abi.MEM_VIRT_BIT
	virtHost      = abi.MEM_HOST >> abi.MEM_VIRT_BIT
	virtDVPP      = abi.MEM_DVPP >> abi.MEM_VIRT_BIT
	virtHostAgent = abi.MEM_HOST_AGENT >> abi.MEM_VIRT_BIT
	virtReserve   = abi.MEM_RESERVE >> abi.MEM_VIRT_BIT
	virtHostUVA   = abi.MEM_HOST_UVA >> abi.MEM_VIRT_BIT
	virtUVM       = abi.MEM_UVM >> abi.MEM_VIRT_BIT

	phyDDR = abi.MEM_TYPE_DDR >> abi.MEM_PHY_BIT
	phyHBM = abi.MEM_TYPE_HBM >> abi.MEM_PHY_BIT

	pageNormal = abi.MEM_PAGE_NORMAL >> abi.MEM_PAGE_BIT
	pageHuge   = abi.MEM_PAGE_HUGE >> abi.MEM_PAGE_BIT

	// Field widths the header gives as bit ranges only.
	phyWidth   = 3 // bits 14–16
	pageWidth  = 2 // bits 17–18
	alignWidth = 5 // bits 20–24

	// reservedBits are bits 33–55, which no flag uses.
	reservedBits = uint64(1)<<abi.MEM_MODULE_ID_BIT - uint64(abi.MEM_DEV_CP_ONLY)<<1
)

var virtNames = map[uint32]string{
	virtSVM: "MEM_SVM", virtDev: "MEM_DEV", virtHost: "MEM_HOST", virtDVPP: "MEM_DVPP",
	virtHostAgent: "MEM_HOST_AGENT", virtReserve: "MEM_RESERVE", virtHostUVA: "MEM_HOST_UVA", virtUVM: "MEM_UVM",
}

// AllocFlag is a decoded halMemAlloc flag word.
type AllocFlag struct {
	Dev        uint32 // bits 0–9: logical device id
	Virt       uint32 // bits 10–13: virtual memory type (0 SVM, 1 DEV, 2 HOST, ...)
	Phy        uint32 // bits 14–16: physical type (0 DDR, 1 HBM)
	Page       uint32 // bits 17–18: 0 normal (4 KiB), 1 huge (2 MiB)
	Contiguous bool   // bit 19: physically contiguous
	AlignLog   uint32 // bits 20–24: alignment is 1 << AlignLog bytes
	P2P        bool   // bit 25: MEM_ADVISE_P2P
	Adv4G      bool   // bit 26: MEM_ADVISE_4G
	TS         bool   // bit 27: MEM_ADVISE_TS
	BAR        bool   // bit 28: MEM_ADVISE_BAR
	ReadOnly   bool   // bit 29: MEM_READONLY
	HostRWDevR bool   // bit 30: MEM_HOST_RW_DEV_RO
	Giant      bool   // bit 31: MEM_PAGE_GIANT (1 GiB pages)
	DevCPOnly  bool   // bit 32: MEM_DEV_CP_ONLY
	Reserved   uint64 // bits 33–55 as they are in the word (must be 0)
	Module     uint32 // bits 56–63: module id
}

func bit(flag, mask uint64) bool { return flag&mask != 0 }

// DecodeFlag splits a halMemAlloc flag word into its fields.
func DecodeFlag(flag uint64) AllocFlag {
	return AllocFlag{
		Dev:        uint32(flag & abi.MEM_DEVID_MASK),
		Virt:       uint32(flag>>abi.MEM_VIRT_BIT) & (1<<abi.MEM_VIRT_WIDTH - 1),
		Phy:        uint32(flag>>abi.MEM_PHY_BIT) & (1<<phyWidth - 1),
		Page:       uint32(flag>>abi.MEM_PAGE_BIT) & (1<<pageWidth - 1),
		Contiguous: bit(flag, abi.MEM_CONTIGUOUS_PHY),
		AlignLog:   uint32(flag>>abi.MEM_ALIGN_BIT) & (1<<alignWidth - 1),
		P2P:        bit(flag, abi.MEM_ADVISE_P2P),
		Adv4G:      bit(flag, abi.MEM_ADVISE_4G),
		TS:         bit(flag, abi.MEM_ADVISE_TS),
		BAR:        bit(flag, abi.MEM_ADVISE_BAR),
		ReadOnly:   bit(flag, abi.MEM_READONLY),
		HostRWDevR: bit(flag, abi.MEM_HOST_RW_DEV_RO),
		Giant:      bit(flag, abi.MEM_PAGE_GIANT),
		DevCPOnly:  bit(flag, abi.MEM_DEV_CP_ONLY),
		Reserved:   flag & reservedBits,
		Module:     uint32(flag>>abi.MEM_MODULE_ID_BIT) & abi.MEM_MODULE_ID_MASK,
	}
}

// Alignment returns the requested alignment in bytes.
func (f AllocFlag) Alignment() uint64 { return uint64(1) << f.AlignLog }

// VirtName returns the macro name of the virtual memory type.
func (f AllocFlag) VirtName() string {
	if n, ok := virtNames[f.Virt]; ok {
		return n
	}
	return fmt.Sprintf("virtual type %d", f.Virt)
}

// String shows the fields for messages: "MEM_DEV dev 0 HBM huge align 512 module 33".
func (f AllocFlag) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s dev %d", f.VirtName(), f.Dev)
	switch f.Phy {
	case phyDDR:
		b.WriteString(" DDR")
	case phyHBM:
		b.WriteString(" HBM")
	default:
		fmt.Fprintf(&b, " phy %d", f.Phy)
	}
	switch {
	case f.Giant:
		b.WriteString(" giant")
	case f.Page == pageHuge:
		b.WriteString(" huge")
	case f.Page != pageNormal:
		fmt.Fprintf(&b, " page %d", f.Page)
	}
	fmt.Fprintf(&b, " align %d", f.Alignment())
	for _, a := range []struct {
		on   bool
		name string
	}{{f.Contiguous, "contiguous"}, {f.P2P, "P2P"}, {f.Adv4G, "4G"}, {f.TS, "TS"}, {f.BAR, "BAR"},
		{f.ReadOnly, "readonly"}, {f.HostRWDevR, "host-rw-dev-ro"}, {f.DevCPOnly, "dev-cp-only"}} {
		if a.on {
			b.WriteString(" " + a.name)
		}
	}
	if f.Module != 0 {
		fmt.Fprintf(&b, " module %d", f.Module)
	}
	return b.String()
}
