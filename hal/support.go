package hal

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
)

// The HAL support table: one entry per driver symbol of abi.Symbols (Lib
// "hal", and "dsmi" for libdrvdsmi_host.so, a plain-C library built from
// dcmi/ that reads the node directory, not this Go library), printed by `npuemu compat` and used by libfake's unsupported shims,
// whose calls return the entry's drvError_t. It is written as a
// default per area plus per-symbol overrides; when a libfake export lands,
// flip its symbol with one line in symbolRules, e.g.
//
//	"drvGetDevNum": supported("number of emulated devices"),

// rule is the status of a symbol or of an area's symbols.
type rule struct {
	status abi.Status
	note   string
}

func supported(note string) rule { return rule{status: abi.Supported, note: note} }
func partial(note string) rule   { return rule{status: abi.Partial, note: note} }

// notImplemented answers DRV_ERROR_NOT_SUPPORT, the driver's code for an
// operation it does not provide.
func notImplemented(note string) rule { return rule{status: abi.Unsupported, note: note} }

var (
	_ = supported
	_ = partial
)

// memoryWork and deviceWork are the defaults of two areas whose every
// symbol now has its own rule; a symbol new to the spec that falls back on
// them fails TestUnsupportedSaysWhatIsMissing until it gets one.
const (
	memoryWork = "no rule of its own yet (hal/support.go): a HAL memory symbol new to the spec"
	deviceWork = "no rule of its own yet (hal/support.go): a HAL device symbol new to the spec"
	dsmiWork   = "libdrvdsmi_host.so: plain C (dcmi/dsmi.c) over the node directory, the same answers as libdcmi.so (docs/dcmi.md)"
)

// areaRules is the default rule of every HAL area.
func areaRules() map[string]rule {
	return map[string]rule{
		"mem":    notImplemented(memoryWork),
		"device": notImplemented(deviceWork),
		"dsmi":   supported(dsmiWork),
		"mbuf":   supported("the driver's shared buffers (hal/mbuf.go, docs/hal.md \"Buffers and queues\"); aclrt*Buf and rtMbuf* rest on them"),
		"queue":  supported("FIFO queues of mbufs per device (hal/queue.go, docs/hal.md \"Buffers and queues\")"),
	}
}

// symbolRules overrides areaRules for single symbols.
func symbolRules() map[string]rule {
	return map[string]rule{
		"drvGetDevNum":             supported("number of emulated devices (NPUEMU_DEVICES)"),
		"drvGetDevIDs":             supported("ids 0..n-1; physical ids equal logical ids"),
		"drvGetDeviceLocalIDs":     supported("ids 0..n-1; physical ids equal logical ids"),
		"drvDeviceGetPhyIdByIndex": supported("identity: physical ids equal logical ids"),
		"drvDeviceGetIndexByPhyId": supported("identity: physical ids equal logical ids"),
		"drvGetPlatformInfo":       supported("1: npuemu always runs on the host side"),
		"halGetAPIVersion":         supported("__HAL_API_VERSION of the headers"),
		"halGetDeviceInfo":         partial("core counts, frequency, VERSION, PHY_CHIP_ID, RUN_MACH, ADDR_MODE, PRODUCT_TYPE, HD_CONNECT_TYPE, ...; other documented pairs DRV_ERROR_NOT_SUPPORT (docs/hal.md)"),
		"halGetSocVersion":         supported("the SoC name, e.g. Ascend910B3"),
		"halGetChipInfo":           supported("type Ascend, name without the prefix, version V1"),
		"halGetDevNumEx":           supported("hw_type 0: NPUs; 1: Kunpeng (none)"),
		"halGetVdevNum":            supported("0: devices are never split"),
		"halSupportFeature":        supported("false for every feature npuemu does not provide (all, for now)"),
		"halResourceInfoQuery":     partial("stream/event/notify capacities of the SoC; usedNum counts events only"),
		"halGetDeviceSplitMode":    supported("VMNG_NORMAL_NONE_SPLIT_MODE"),
		"halMemAlloc":              partial("MEM_DEV, MEM_HOST, MEM_SVM and MEM_UVM (managed memory, hal/uvm.go); host-agent/DVPP/reserve kinds DRV_ERROR_NOT_SUPPORT"),
		"halMemFree":               supported("halMemAlloc memory only; ACL allocations are refused"),
		"halMemGetInfo":            partial("DDR/HBM size types; the pool is reported as normal pages; NUMA/address-check types DRV_ERROR_NOT_SUPPORT"),
		"halMemGetInfoEx":          partial("as halMemGetInfo"),
		"drvMemcpy":                supported("synchronous, direction from the addresses, on the device's SDMA model"),
		"halMemcpy":                partial("device-to-host only, as the header documents"),
		"halSdmaCopy":              supported("not on Ascend950, not between devices (as documented)"),
		"drvMemsetD8":              supported("synchronous byte memset"),
		"drvMemGetAttribute":       partial("DV_MEM_LOCK_DEV / DV_MEM_LOCK_HOST / DV_MEM_SVM / DV_MEM_UVM; no user-malloc attributes"),
		"halMemGetAddressRange":    supported("device, pinned host and mapped VMM allocations, managed (SVM/UVM) memory"),

		// Managed (SVM/UVM) memory: hal/uvm.go.
		"halMemAdvise":               supported("ADVISE_TYPE/PIN/UNPIN set the preferred location, ADVISE_PLE prefetches; EXE/THP accepted without effect"),
		"drvMemPrefetchToDevice":     supported("synchronous migration of the pages holding the range"),
		"halMemManagedAdvise":        supported("uvmMemAdviseType on 2 MiB-aligned managed ranges"),
		"halMemManagedPrefetch":      supported("synchronous migration; flags must be 0"),
		"halMemManagedPrefetchBatch": supported("synchronous; locations by index ranges"),

		// The remaining memory and device calls (issue #13 point 5):
		// hal/memcpy2d.go, hal/memagent.go, hal/memusage_info.go; docs/hal.md.
		"halMemcpy2D":        partial("DEVMM_MEMCPY2D_SYNC: a synchronous row-by-row copy over the memory drvMemcpy reaches; fixed_size is the progress (resumed from, left at width*height); direction must match the addresses; ASYNC_CONVERT/ASYNC_DESTROY (DMA descriptors) DRV_ERROR_NOT_SUPPORT"),
		"halMemAgentOpen":    supported("SVM_AGENT_DEVICE opens the device's memory, SVM_AGENT_HOST records the host agent; a repeated open succeeds"),
		"halMemAgentClose":   supported("pairs with halMemAgentOpen; an agent that is not open DRV_ERROR_INVALID_VALUE"),
		"halGetMemUsageInfo": supported("the device's per-module memory (the records aclrtGetMemUsageInfo reads): halMemAlloc, halMemCreate and the runtime's allocations by module id"),
		"halMemCtl":          notImplemented("the documentation gives the ctrlType values, struct supportFeaturePara and the CTRL_SUPPORT_* bits, but for no type which buffers param_value and out_value hold (whether CTRL_TYPE_SUPPORT_FEATURE answers in support_feature or in out_value, and no layout for ADDR_MAP, GET_ADDR_MODULE_ID, MEM_REPAIR, PROCESS_CP_MMAP, GET_DCACHE_ADDR, ...)"),
		"halSetMemSharing":   notImplemented("struct drvMemSharingPara has no documented layout (the header declares it incomplete) and the call no described behaviour"),

		"halGetDeviceInfoByBuff": notImplemented("the documentation names no (module, info) pair answered through a buffer nor any buffer content: INFO_TYPE_UUID (what rtGetDeviceUuid asks) comes with no module type or layout, the PCIe id is documented only as halGetDeviceInfo's MODULE_TYPE_PCIE/INFO_TYPE_ID integer, and the computing-token use is marked unconfirmed"),
		"halSetDeviceInfoByBuff": notImplemented("the documentation names no settable (module, info) pair: its one hint, MODULE_TYPE_COMPUTING/INFO_TYPE_COMPUTING_TOKEN with struct computing_token, is marked unconfirmed and gives the token no effect to emulate"),
		"halGetChipCapability":   notImplemented("struct halCapabilityInfo is laid out but its fields are not explained: no meaning for sdma_reduce_support or ts_group_number, no encoding for memory_support or sdma_reduce_kind"),

		// VMM, shared memory and host registration (issue #5 part 3): hal/vmm.go, hal/shmem.go, hal/hostreg.go; docs/vmm.md.
		"halMemAddressReserve":                    supported("its own PROT_NONE range; page type and share bits of the flag"),
		"halMemAddressFree":                       supported("every mapping must be unmapped first"),
		"halMemCreate":                            supported("a memory file per allocation, charged to the device's capacity"),
		"halMemRelease":                           supported("memory still mapped is released at its last unmap"),
		"halMemRetainAllocationHandle":            supported("each retain needs its own halMemRelease"),
		"halMemMap":                               supported("mappings of one handle alias (MAP_SHARED over the reservation)"),
		"halMemUnmap":                             supported("the reservation's placeholder comes back"),
		"halMemSetAccess":                         supported("NONE/READ/READWRITE per location; protection is the union; a changed location DRV_ERROR_BUSY"),
		"halMemGetAccess":                         supported("a location never set reads MEM_ACCESS_TYPE_MAX"),
		"halMemGetAllocationGranularity":          supported("2 MiB, 1 GiB for giant pages, 4 KiB for host normal pages with MINIMUM"),
		"halMemGetAllocationPropertiesFromHandle": supported("VMM (hal/vmm.go)"),
		"halMemExportToShareableHandle":           partial("MEM_HANDLE_TYPE_NONE, across the processes of the node (docs/node.md)"),
		"halMemExportToShareableHandleV2":         partial("MEM_HANDLE_TYPE_NONE, across the processes of the node; FABRIC DRV_ERROR_NOT_SUPPORT"),
		"halMemImportFromShareableHandle":         supported("any process of the node (whitelist checked against the importer's pid)"),
		"halMemImportFromShareableHandleV2":       partial("MEM_HANDLE_TYPE_NONE, any process of the node"),
		"halMemSetPidToShareableHandle":           supported("the whitelist importers are checked against"),
		"halShmemCreateHandle":                    supported("exact start of a device allocation; any process of the node opens it (docs/node.md)"),
		"halShmemDestroyHandle":                   supported("opened addresses stay valid until closed"),
		"halShmemSetPidHandle":                    supported("excludes SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER"),
		"halShmemOpenHandle":                      supported("any process of the node: the exporter's very pages mapped at a new address"),
		"halShmemOpenHandleByDevId":               supported("any process of the node: the exporter's very pages mapped at a new address"),
		"halShmemCloseHandle":                     supported("unmaps the opened address"),
		"halShmemSetAttribute":                    supported("NO_WLIST_IN_SERVER and MEM_MAP"),
		"halShmemGetAttribute":                    supported("NO_WLIST_IN_SERVER and MEM_MAP"),
		"halHostRegister":                         partial("HOST_MEM_MAP_DEV(_V2) and HOST_MEM_MAP_DMA; the device pointer is the host pointer; SVM/IO map types and MEM_REGISTER_READ_ONLY DRV_ERROR_NOT_SUPPORT"),
		"halHostUnregister":                       supported("host registration (hal/hostreg.go)"),
		"halHostUnregisterEx":                     supported("host registration (hal/hostreg.go)"),
		"halMemHostGetDevPointer":                 supported("the host pointer itself"),
		"halHostRegisterCapabilities":             supported("AI Core/Vector/AI CPU/STARS/SDMA/PCIe DMA: supported; RDMA, DVPP, UDMA, CCU not modelled"),

		// libdrvdsmi_host.so (dcmi/dsmi.c, docs/dcmi.md).
		"dsmi_get_device_info":    partial("MEMORY capacity (struct dsmi_memory_info, MB) and ECC enable; QOS, HOST_AICPU, SVM and the rest DRV_ERROR_NOT_SUPPORT (the spec gives no buffer layouts)"),
		"dsmi_get_memory_info_v2": partial("the DDR view: DRV_ERROR_NOT_SUPPORT on A2/A3, which have HBM only"),
		"dsmi_get_board_info":     notImplemented("struct dsmi_board_info_stru has no documented layout"),

		// Calls HAL programs make that hal-api.md does not tabulate
		// (cmd/specgen/hal_public.go): hal/p2p.go, hal/uvm_range.go.
		"halDeviceCanAccessPeer":          supported("1 for two distinct devices of the node, 0 on 310B (no P2P); peer_dev is a physical id, equal to the logical id here"),
		"halDeviceEnableP2P":              supported("a per-process record of the directed pair; enabling twice succeeds; 310B DRV_ERROR_NOT_SUPPORT; flag is not checked"),
		"halDeviceDisableP2P":             supported("a pair that is not enabled DRV_ERROR_INVALID_VALUE"),
		"drvMemDeviceOpen":                supported("opens the device's memory (as the first allocation would); a repeated open succeeds; devfd is not checked (no device file)"),
		"drvMemDeviceClose":               supported("pairs with drvMemDeviceOpen; the device's memory stays the process's until aclFinalize"),
		"halMemManagedRangeGetAttributes": supported("every DEVMM_MEM_RANGE_ATTRIBUTE of a managed range, LAST_PREFETCH_* included; -1 host, -2 unset or mixed"),
		"halMbufAlloc":                    supported("data area in the node's pinned host memory, of the size asked for; data length starts at the whole area; a 96-byte private area, zeroed"),
		"halMbufFree":                     supported("a chain's head frees the chain; a data area goes with its last head; an appended or queued mbuf alone is refused"),
		"halMbufGetBuffAddr":              supported("the data area (host-writable, reachable by device copies)"),
		"halMbufGetBuffSize":              supported("the data area's size"),
		"halMbufGetDataLen":               supported("the data length (0..size)"),
		"halMbufSetDataLen":               supported("0..size; more DRV_ERROR_INVALID_VALUE"),
		"halMbufGetPrivInfo":              supported("the 96-byte private area (ACL's user data)"),
		"halMbufCopyRef":                  supported("a new head over the same data area, data length and private area copied"),
		"halMbufChainAppend":              supported("appends an mbuf that is in no chain to the end of a head's chain"),
		"halMbufChainGetMbufNum":          supported("the chain's mbufs, head included"),
		"halMbufChainGetMbuf":             supported("index 0 is the head"),
		"halQueueInit":                    supported("once per device; again DRV_ERROR_QUEUE_REPEEATED_INIT"),
		"halQueueCreate":                  supported("ids 0..8191 per device; depth 2..65536; name unique on the device; flow control and work mode accepted, not modelled"),
		"halQueueDestroy":                 supported("frees the mbufs still queued"),
		"halQueueEnQueue":                 supported("a live mbuf that is no chain member and in no queue; full DRV_ERROR_QUEUE_FULL, or with overWriteFlag the oldest is dropped"),
		"halQueueDeQueue":                 supported("the front mbuf, owned by the caller again; empty DRV_ERROR_QUEUE_EMPTY"),
		"halQueuePeek":                    supported("the front mbuf's data length (its chain summed); timeout 0 at once, > 0 ms, < 0 until an mbuf comes or the queue is destroyed"),
	}
}

var support = sync.OnceValue(func() *abi.Table {
	symbols, areas := symbolRules(), areaRules()
	return abi.NewTable(func(s abi.Symbol) bool { return s.Lib == "hal" || s.Lib == "dsmi" }, func(s abi.Symbol) abi.Entry {
		r, ok := symbols[s.Name]
		if !ok {
			r, ok = areas[s.Area]
		}
		if !ok {
			// A new area in the spec without a rule: TestSupportRules fails.
			r = notImplemented("no support rule for area " + s.Area)
		}
		e := abi.Entry{Status: r.status, Note: r.note}
		if r.status == abi.Unsupported {
			e.Code = int32(abi.DRV_ERROR_NOT_SUPPORT)
		}
		return e
	})
})

// Support returns the driver support table: one entry per HAL and DSMI
// symbol, in the order of abi.Symbols. The caller must not modify it.
func Support() []abi.Entry { return support().Entries() }

// SupportOf returns the support entry of the HAL or DSMI symbol name.
func SupportOf(name string) (abi.Entry, bool) { return support().Of(name) }
