package emu

import (
	"fmt"
	"sort"
	"strings"
)

// SoC describes one Ascend chip as the runtime sees it. Values come from the
// vendor platform configuration files (semantics.md §20) and the per-family
// runtime limits (§2, §4, §5, §6); the few that the files leave empty are
// npuemu's documented choices (docs/configuration.md).
type SoC struct {
	Name   string // SoC_version, what aclrtGetSocName returns: "Ascend910B3"
	Family string // "950", "A3", "A2", "310B", "310P", "A1"

	NpuArch  int // ACL_DEV_ATTR_NPU_ARCH
	ChipType int // the ini's Chip_type

	AICores     int // ACL_DEV_ATTR_AICORE_CORE_NUM
	CubeCores   int // ACL_DEV_ATTR_CUBE_CORE_NUM
	VectorCores int // ACL_DEV_ATTR_VECTOR_CORE_NUM
	AICPUs      int // ACL_DEV_ATTR_AICPU_CORE_NUM

	HBMBytes       uint64 // nominal device memory (the ini's memory_size)
	UsableHBMBytes uint64 // HBMBytes less the system reservation: aclrtGetMemInfo's total
	L2Bytes        uint64
	CubeMHz        int

	MaxStreams  int // per device, default streams included
	MaxEvents   int // per device, events that need a hardware id
	MaxNotifies int // per device

	PriorityLeast    int // 7: lowest stream priority
	PriorityGreatest int // 0: highest stream priority

	// MallocPadding: aclrtMalloc allocates ALIGN_UP(size,32)+32 bytes (the
	// ini's padding_size 32); false on 950 (padding 0).
	MallocPadding bool

	SDMAEngines int // copy/memset engines that run concurrently (npuemu's choice)

	// The AI Core kernel execution timeout (semantics.md §15), in seconds:
	// the default a kernel is held to, and the most aclrtSetOpExecuteTimeOut
	// may set (0 and larger values set the maximum).
	OpExecTimeoutDefaultSec, OpExecTimeoutMaxSec uint32
}

// Family names as used throughout the spec.
const (
	Family950  = "950"
	FamilyA3   = "A3"
	FamilyA2   = "A2"
	Family310B = "310B"
	Family310P = "310P"
	FamilyA1   = "A1"
)

const (
	kib = uint64(1) << 10
	mib = uint64(1) << 20
	gib = uint64(1) << 30
)

// family holds what is common to every SoC of one family: the runtime limits
// of semantics.md §20 and npuemu's choices (reservation, SDMA engines).
type family struct {
	npuArch, chipType               int
	maxStreams, maxEvents, maxNotif int
	reserved                        uint64 // HBM kept by the system, not reported by aclrtGetMemInfo
	padding                         bool
	sdma                            int
	execDefault, execMax            uint32 // AI Core execution timeout, seconds
}

var families = map[string]family{
	Family950:  {npuArch: 3510, chipType: 15, maxStreams: 1984, maxEvents: 65536, maxNotif: 65535, reserved: 4 * gib, padding: false, sdma: 8, execDefault: 1091, execMax: 1091},
	FamilyA3:   {npuArch: 2201, chipType: 5, maxStreams: 1984, maxEvents: 65536, maxNotif: 8192, reserved: 3 * gib, padding: true, sdma: 4, execDefault: 1091, execMax: 1091},
	FamilyA2:   {npuArch: 2201, chipType: 5, maxStreams: 1984, maxEvents: 65536, maxNotif: 8192, reserved: 3 * gib, padding: true, sdma: 4, execDefault: 1091, execMax: 1091},
	Family310B: {npuArch: 3002, chipType: 7, maxStreams: 512, maxEvents: 65536, maxNotif: 2048, reserved: 1 * gib, padding: true, sdma: 1, execDefault: 1091, execMax: 1091},
	Family310P: {npuArch: 2002, chipType: 4, maxStreams: 1024, maxEvents: 1023, maxNotif: 1024, reserved: 300 * mib, padding: true, sdma: 2, execDefault: 547, execMax: 547},
	FamilyA1:   {npuArch: 1001, chipType: 1, maxStreams: 2048, maxEvents: 65535, maxNotif: 1024, reserved: 2 * gib, padding: true, sdma: 4, execDefault: 68, execMax: 2176},
}

// part is one row of the catalogue before the family is applied.
type part struct {
	name, family                string
	aiCores, cube, vector, aicp int
	hbm, l2                     uint64
	mhz                         int
}

// parts is semantics.md §20. Where the ini leaves memory_size empty the value
// is npuemu's choice: 910B2C as its sibling B2 (64 GiB), 310B2..B4 8 GiB (the
// common Atlas 200I A2 configuration), the first-generation 910 parts 32 GiB
// (their HBM2 stacks). Where the ini has no cube count ("-": 310P, A1) every
// AI core carries one cube unit, so cube = AI cores.
var parts = []part{
	{"Ascend910B1", FamilyA2, 24, 24, 48, 6, 64 * gib, 192 * mib, 1850},
	{"Ascend910B2", FamilyA2, 24, 24, 48, 6, 64 * gib, 192 * mib, 1800},
	{"Ascend910B2C", FamilyA2, 24, 24, 48, 6, 64 * gib, 192 * mib, 1800},
	{"Ascend910B3", FamilyA2, 20, 20, 40, 6, 64 * gib, 192 * mib, 1800},
	{"Ascend910B4", FamilyA2, 20, 20, 40, 6, 32 * gib, 96 * mib, 1500},
	{"Ascend910B4-1", FamilyA2, 20, 20, 40, 6, 32 * gib, 168 * mib, 1500},

	{"Ascend910_9362", FamilyA3, 20, 20, 40, 6, 64 * gib, 168 * mib, 1500},
	{"Ascend910_9363", FamilyA3, 20, 20, 40, 6, 32 * gib, 168 * mib, 1500},
	{"Ascend910_9372", FamilyA3, 20, 20, 40, 6, 64 * gib, 192 * mib, 1800},
	{"Ascend910_9381", FamilyA3, 24, 24, 48, 6, 64 * gib, 192 * mib, 1800},
	{"Ascend910_9382", FamilyA3, 24, 24, 48, 6, 64 * gib, 192 * mib, 1800},
	{"Ascend910_9391", FamilyA3, 24, 24, 48, 6, 64 * gib, 192 * mib, 1850},
	{"Ascend910_9392", FamilyA3, 24, 24, 48, 6, 64 * gib, 192 * mib, 1850},

	{"Ascend310P1", Family310P, 10, 10, 8, 8, 24000000000, 16 * mib, 1060},
	{"Ascend310P3", Family310P, 8, 8, 7, 7, 24000000000, 16 * mib, 1060},
	{"Ascend310P5", Family310P, 8, 8, 7, 8, 24000000000, 16 * mib, 800},
	{"Ascend310P7", Family310P, 8, 8, 7, 8, 24000000000, 16 * mib, 550},

	{"Ascend310B1", Family310B, 1, 1, 1, 4, 32 * gib, 4 * mib, 1224},
	{"Ascend310B2", Family310B, 1, 1, 1, 4, 8 * gib, 4 * mib, 1224},
	{"Ascend310B3", Family310B, 1, 1, 1, 4, 8 * gib, 4 * mib, 1224},
	{"Ascend310B4", Family310B, 1, 1, 1, 4, 8 * gib, 4 * mib, 500},

	{"Ascend910A", FamilyA1, 32, 32, 0, 4, 32 * gib, 32 * mib, 1000},
	{"Ascend910ProA", FamilyA1, 32, 32, 0, 4, 32 * gib, 32 * mib, 1100},
	{"Ascend910PremiumA", FamilyA1, 32, 32, 0, 4, 32 * gib, 32 * mib, 1220},
	{"Ascend910B", FamilyA1, 30, 30, 0, 6, 32 * gib, 32 * mib, 900},
	{"Ascend910ProB", FamilyA1, 30, 30, 0, 4, 32 * gib, 32 * mib, 1150},

	{"Ascend950DT_9591", Family950, 36, 36, 72, 6, 144 * gib, 128 * mib, 1800},
	{"Ascend950PR_9599", Family950, 36, 36, 72, 6, 128 * gib, 128 * mib, 1800},
}

// DefaultSoC is the SoC of a node without configuration: an Atlas A2 server.
const DefaultSoC = "Ascend910B3"

var catalogue = func() map[string]SoC {
	m := make(map[string]SoC, len(parts))
	for _, p := range parts {
		f := families[p.family]
		m[p.name] = SoC{
			Name: p.name, Family: p.family,
			NpuArch: f.npuArch, ChipType: f.chipType,
			AICores: p.aiCores, CubeCores: p.cube, VectorCores: p.vector, AICPUs: p.aicp,
			HBMBytes: p.hbm, UsableHBMBytes: p.hbm - f.reserved, L2Bytes: p.l2,
			CubeMHz:    p.mhz,
			MaxStreams: f.maxStreams, MaxEvents: f.maxEvents, MaxNotifies: f.maxNotif,
			PriorityLeast: 7, PriorityGreatest: 0,
			MallocPadding: f.padding,
			SDMAEngines:   f.sdma,

			OpExecTimeoutDefaultSec: f.execDefault, OpExecTimeoutMaxSec: f.execMax,
		}
	}
	return m
}()

// LookupSoC returns the catalogue entry named exactly name (the SoC_version
// string, e.g. "Ascend910B3").
func LookupSoC(name string) (SoC, bool) {
	s, ok := catalogue[name]
	return s, ok
}

// familyOrder sorts the catalogue newest family first, as the spec lists them.
var familyOrder = map[string]int{Family950: 0, FamilyA3: 1, FamilyA2: 2, Family310B: 3, Family310P: 4, FamilyA1: 5}

// Catalogue returns every known SoC, grouped by family (newest first) and by
// name within a family. The slice is a fresh copy.
func Catalogue() []SoC {
	out := make([]SoC, 0, len(catalogue))
	for _, s := range catalogue {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		fi, fj := familyOrder[out[i].Family], familyOrder[out[j].Family]
		if fi != fj {
			return fi < fj
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// SoCNames returns the names of Catalogue() in the same order, for messages.
func SoCNames() []string {
	c := Catalogue()
	names := make([]string, len(c))
	for i, s := range c {
		names[i] = s.Name
	}
	return names
}

// CatalogueMarkdown renders the catalogue as the Markdown table of
// docs/configuration.md (a test keeps the two equal).
func CatalogueMarkdown() string {
	var b strings.Builder
	b.WriteString("| SoC | family | NPU arch | chip type | AI cores | cube | vector | AI CPUs | HBM (bytes) | usable HBM (bytes) | L2 (MiB) | cube MHz | streams | events | notifies | malloc padding | SDMA |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range Catalogue() {
		pad := "+32"
		if !s.MallocPadding {
			pad = "none"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s | %d |\n",
			s.Name, s.Family, s.NpuArch, s.ChipType, s.AICores, s.CubeCores, s.VectorCores, s.AICPUs,
			s.HBMBytes, s.UsableHBMBytes, s.L2Bytes/mib, s.CubeMHz, s.MaxStreams, s.MaxEvents, s.MaxNotifies, pad, s.SDMAEngines)
	}
	return b.String()
}
