package emu

// The VMM's own kinds: what a physical allocation is made of, what a
// location may do with a mapping, and the attributes of exported shared
// memory. The model knows no API enum (docs/internals.md, "Errors of the
// device model"): hal (hal/vmm_enums.go) and acl (acl/vmm_enums.go) decode
// their enums into these and encode them back where a value returns to the
// program.
//
// Decision: every value below equals the number the driver gives the same
// thing (drv_mem_pg_type, drv_mem_type, drv_mem_access_type, ShmemAttrType,
// the SHMEM_*WLIST_ENABLE values, the MEM_MAP_* routes). The node file
// stores page and memory kinds (NodeIPC.Attr, vmm_node.go) and the route
// (NodeIPC.Attr, nodeipc.go), so equal numbers keep the node format as it
// was; the numbers the model prints in its messages read as before.
// TestVMMKindsAreTheDriverNumbers pins them.

// PageKind is the size of the pages of a physical allocation.
type PageKind uint32

const (
	PageNormal PageKind = 0 // 4 KiB pages (host) / the 2 MiB granularity (device)
	PageHuge   PageKind = 1 // 2 MiB pages
	PageGiant  PageKind = 2 // 1 GiB pages (Atlas A2/A3)
	PageKinds           = 3 // the number of page kinds; a PageKind is below it
)

// MemKind is the memory a physical allocation is made of.
type MemKind uint32

const (
	MemHBM    MemKind = 0 // device HBM
	MemDDR    MemKind = 1 // device DDR
	MemP2PHBM MemKind = 2 // HBM reachable by peer devices
	MemP2PDDR MemKind = 3 // DDR reachable by peer devices
	MemTSDDR  MemKind = 4 // the task scheduler's DDR
	MemKinds          = 5 // the number of memory kinds; a MemKind is below it
)

// P2P reports whether memory of kind k is meant for peer access.
func (k MemKind) P2P() bool { return k == MemP2PHBM || k == MemP2PDDR }

// Access is what a location may do with a mapping (page protections).
type Access uint32

const (
	AccessNone      Access = 0
	AccessRead      Access = 1
	AccessReadWrite Access = 3
	AccessUnset     Access = 1<<31 - 1 // GetAccess of a location never given access
)

// valid reports whether a is an access a location can be given.
func (a Access) valid() bool {
	return a == AccessNone || a == AccessRead || a == AccessReadWrite
}

// ShmemAttr is an attribute of exported shared memory (ShmemSetAttr).
type ShmemAttr uint32

const (
	// ShmemMapRoute: the route importers map the memory by, a number
	// below MapRoutes; recorded, every route reaches the same memory here.
	ShmemMapRoute ShmemAttr = 0
	// ShmemNoWhitelist: ShmemWhitelistOn (importers are checked against
	// the pid whitelist) or ShmemWhitelistOff (any process may import).
	ShmemNoWhitelist ShmemAttr = 1
	ShmemAttrs                 = 2 // the number of attributes
)

// Values of ShmemNoWhitelist.
const (
	ShmemWhitelistOn  uint64 = 0
	ShmemWhitelistOff uint64 = 1
)

// Values of ShmemMapRoute: the memory-map routes.
const (
	RouteDefault     uint64 = 0 // the default path
	RouteExbus       uint64 = 1 // the external bus
	RouteUBOnePort   uint64 = 2 // one UB port
	RouteUBMultiPort uint64 = 3 // several UB ports
	MapRoutes               = 4 // the number of routes; a route is below it
)
