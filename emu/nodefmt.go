package emu

// The layout of a node directory's node file: mirrors
// emu/include/npuemu/node_format.h (the source of truth; docs/node.md
// describes the rules). TestNodeFormatLayout checks every size and offset
// against the C compiler. Field comments are in the header.

// Constants of npuemu/node_format.h.
const (
	NodeMagic   = 0x45444f4e554d454e // NPUEMU_NODE_MAGIC
	NodeVersion = 2                  // NPUEMU_NODE_VERSION

	NodeMaxDevices  = 64   // NPUEMU_NODE_MAX_DEVICES
	NodeMaxProcs    = 256  // NPUEMU_NODE_MAX_PROCS
	NodeMaxIPC      = 4096 // NPUEMU_NODE_MAX_IPC
	NodeMaxEvents   = 4096 // NPUEMU_NODE_MAX_EVENTS
	NodeMaxNotifies = 4096 // NPUEMU_NODE_MAX_NOTIFIES
	NodeMaxImports  = 8192 // NPUEMU_NODE_MAX_IMPORTS
	NodeMaxVNPUs    = 16   // NPUEMU_NODE_MAX_VNPUS
	NodeMaxPids     = 64   // NPUEMU_NODE_MAX_PIDS
	NodeMaxErrors   = 16   // NPUEMU_NODE_MAX_ERRORS
	NodeEngines     = 8    // NPUEMU_NODE_ENGINES
	NodeChunks      = 4096 // NPUEMU_NODE_CHUNKS
	NodeNameLen     = 72   // NPUEMU_NODE_NAME_LEN

	NodeLockTables   = 0       // NPUEMU_NODE_LOCK_TABLES
	NodeLockSlotBase = 1 << 40 // NPUEMU_NODE_LOCK_SLOT_BASE

	NodeWindowBase = 0x200000000000 // NPUEMU_NODE_WINDOW_BASE
	NodeWindowSize = 32 << 40       // NPUEMU_NODE_WINDOW_SIZE

	NodeStateCreating = 0 // NPUEMU_NODE_STATE_CREATING
	NodeStateReady    = 1 // NPUEMU_NODE_STATE_READY

	NodeHealthOK        = 0 // NPUEMU_NODE_HEALTH_OK
	NodeHealthGeneral   = 1 // NPUEMU_NODE_HEALTH_GENERAL
	NodeHealthImportant = 2 // NPUEMU_NODE_HEALTH_IMPORTANT
	NodeHealthUrgent    = 3 // NPUEMU_NODE_HEALTH_URGENT

	NodeDevResetting = 0x1 // NPUEMU_NODE_DEV_RESETTING

	NodeEngineAICore = 0 // NPUEMU_NODE_ENGINE_AICORE
	NodeEngineVector = 1 // NPUEMU_NODE_ENGINE_VECTOR
	NodeEngineAICPU  = 2 // NPUEMU_NODE_ENGINE_AICPU
	NodeEngineSDMA   = 3 // NPUEMU_NODE_ENGINE_SDMA

	NodeProcFree = 0 // NPUEMU_NODE_PROC_FREE
	NodeProcLive = 1 // NPUEMU_NODE_PROC_LIVE
	NodeProcDead = 2 // NPUEMU_NODE_PROC_DEAD

	NodeEntryFree = 0 // NPUEMU_NODE_ENTRY_FREE
	NodeEntryLive = 1 // NPUEMU_NODE_ENTRY_LIVE

	NodeIPCMemKey    = 1 // NPUEMU_NODE_IPC_MEM_KEY
	NodeIPCShareable = 2 // NPUEMU_NODE_IPC_SHAREABLE

	NodeIPCNoPidCheck = 0x1 // NPUEMU_NODE_IPC_NO_PID_CHECK

	NodeImportIPC    = 1 // NPUEMU_NODE_IMPORT_IPC
	NodeImportEvent  = 2 // NPUEMU_NODE_IMPORT_EVENT
	NodeImportNotify = 3 // NPUEMU_NODE_IMPORT_NOTIFY

	NodeHoldUntilBits = 48 // NPUEMU_NODE_HOLD_UNTIL_BITS
)

// NodeHeader mirrors struct npuemu_node_header.
type NodeHeader struct {
	Magic        uint64     `c:"magic"`
	Version      uint32     `c:"version"`
	HeaderSize   uint32     `c:"header_size"`
	FileSize     uint64     `c:"file_size"`
	CreatedNS    uint64     `c:"created_ns"`
	SocName      [32]byte   `c:"soc_name"`
	DeviceCount  uint32     `c:"device_count"`
	MaxProcs     uint32     `c:"max_procs"`
	MaxIPC       uint32     `c:"max_ipc"`
	MaxEvents    uint32     `c:"max_events"`
	MaxNotifies  uint32     `c:"max_notifies"`
	MaxImports   uint32     `c:"max_imports"`
	MaxVNPUs     uint32     `c:"max_vnpus"`
	ChunkCount   uint32     `c:"chunk_count"`
	DevicesOff   uint64     `c:"devices_off"`
	ChunksOff    uint64     `c:"chunks_off"`
	ProcsOff     uint64     `c:"procs_off"`
	IPCOff       uint64     `c:"ipc_off"`
	EventsOff    uint64     `c:"events_off"`
	NotifiesOff  uint64     `c:"notifies_off"`
	ImportsOff   uint64     `c:"imports_off"`
	VNPUsOff     uint64     `c:"vnpus_off"`
	DeviceSize   uint32     `c:"device_size"`
	ProcSize     uint32     `c:"proc_size"`
	IPCSize      uint32     `c:"ipc_size"`
	EventSize    uint32     `c:"event_size"`
	NotifySize   uint32     `c:"notify_size"`
	ImportSize   uint32     `c:"import_size"`
	VNPUSize     uint32     `c:"vnpu_size"`
	Mode         uint32     `c:"mode"`
	WindowBase   uint64     `c:"window_base"`
	WindowStride uint64     `c:"window_stride"`
	HeaderSum    uint64     `c:"header_sum"`
	State        uint32     `c:"state"`
	Pad0         uint32     `c:"pad0"`
	TablesSeq    uint64     `c:"tables_seq"`
	NextKey      uint64     `c:"next_key"`
	Reserved     [3856]byte `c:"reserved"`
}

// NodeDevice mirrors struct npuemu_node_device.
type NodeDevice struct {
	ID             uint32                    `c:"id"`
	PhysID         uint32                    `c:"phys_id"`
	SocName        [32]byte                  `c:"soc_name"`
	AICoreCount    uint32                    `c:"aicore_count"`
	VectorCount    uint32                    `c:"vector_count"`
	AICPUCount     uint32                    `c:"aicpu_count"`
	CubeCount      uint32                    `c:"cube_count"`
	HBMTotal       uint64                    `c:"hbm_total"`
	HBMUsable      uint64                    `c:"hbm_usable"`
	HBMOSBytes     uint64                    `c:"hbm_os_bytes"`
	HBMSpan        uint64                    `c:"hbm_span"`
	ChunkBytes     uint64                    `c:"chunk_bytes"`
	ChunkCount     uint32                    `c:"chunk_count"`
	CubeMHz        uint32                    `c:"cube_mhz"`
	StaticSum      uint64                    `c:"static_sum"`
	HBMUsed        uint64                    `c:"hbm_used"`
	Health         uint32                    `c:"health"`
	Flags          uint32                    `c:"flags"`
	ErrorCount     uint32                    `c:"error_count"`
	Pad0           uint32                    `c:"pad0"`
	ErrorCodes     [NodeMaxErrors]uint32     `c:"error_codes"`
	ErrorSeq       uint64                    `c:"error_seq"`
	ClockNS        uint64                    `c:"clock_ns"`
	BusyNS         [NodeEngines]uint64       `c:"busy_ns"`
	HBMBWBytes     uint64                    `c:"hbm_bw_bytes"`
	VNPUCount      uint32                    `c:"vnpu_count"`
	AICoreFree     uint32                    `c:"aicore_free"`
	AICPUFree      uint32                    `c:"aicpu_free"`
	Pad1           uint32                    `c:"pad1"`
	HBMFreeVNPU    uint64                    `c:"hbm_free_vnpu"`
	AICoreOccupied uint64                    `c:"aicore_occupied"`
	CoreUsers      uint32                    `c:"core_users"`
	Pad2           uint32                    `c:"pad2"`
	CoreUserMask   [NodeMaxProcs / 64]uint64 `c:"core_user_mask"`
	CoreClockFloor uint64                    `c:"core_clock_floor_ns"`
	CoreHold       [NodeMaxProcs]uint64      `c:"core_hold"`
	Reserved       [1680]byte                `c:"reserved"`
}

// NodeProc mirrors struct npuemu_node_proc.
type NodeProc struct {
	State        uint32                 `c:"state"`
	PID          int32                  `c:"pid"`
	StartTime    uint64                 `c:"start_time"`
	MntNS        uint64                 `c:"mnt_ns"`
	PIDNS        uint64                 `c:"pid_ns"`
	Generation   uint64                 `c:"generation"`
	AttachedNS   uint64                 `c:"attached_ns"`
	UID          uint32                 `c:"uid"`
	BareTGID     int32                  `c:"bare_tgid"`
	Comm         [16]byte               `c:"comm"`
	DevicesOpen  uint64                 `c:"devices_open"`
	VNPU         [NodeMaxDevices]int32  `c:"vnpu"`
	HBMBytes     [NodeMaxDevices]uint64 `c:"hbm_bytes"`
	AICoreBusyNS [NodeMaxDevices]uint64 `c:"aicore_busy_ns"`
	ClockBaseNS  [NodeMaxDevices]uint64 `c:"clock_base_ns"`
	Reserved     [176]byte              `c:"reserved"`
}

// NodeIPC mirrors struct npuemu_node_ipc.
type NodeIPC struct {
	State       uint32             `c:"state"`
	Kind        uint32             `c:"kind"`
	OwnerSlot   uint32             `c:"owner_slot"`
	OwnerPID    int32              `c:"owner_pid"`
	OwnerGen    uint64             `c:"owner_gen"`
	Generation  uint64             `c:"generation"`
	Device      uint32             `c:"device"`
	Flags       uint32             `c:"flags"`
	Addr        uint64             `c:"addr"`
	Size        uint64             `c:"size"`
	Handle      uint64             `c:"handle"`
	Attr        uint64             `c:"attr"`
	ImportCount uint32             `c:"import_count"`
	PIDCount    uint32             `c:"pid_count"`
	Name        [NodeNameLen]byte  `c:"name"`
	PIDs        [NodeMaxPids]int32 `c:"pids"`
	Reserved    [104]byte          `c:"reserved"`
}

// NodeEvent mirrors struct npuemu_node_event.
type NodeEvent struct {
	State       uint32    `c:"state"`
	OwnerSlot   uint32    `c:"owner_slot"`
	OwnerGen    uint64    `c:"owner_gen"`
	Generation  uint64    `c:"generation"`
	OwnerPID    int32     `c:"owner_pid"`
	Device      uint32    `c:"device"`
	Flags       uint32    `c:"flags"`
	ImportCount uint32    `c:"import_count"`
	RecordSeq   uint64    `c:"record_seq"`
	DoneSeq     uint64    `c:"done_seq"`
	DoneTimeNS  uint64    `c:"done_time_ns"`
	Reserved    [192]byte `c:"reserved"`
}

// NodeNotify mirrors struct npuemu_node_notify.
type NodeNotify struct {
	State       uint32            `c:"state"`
	OwnerSlot   uint32            `c:"owner_slot"`
	OwnerGen    uint64            `c:"owner_gen"`
	Generation  uint64            `c:"generation"`
	OwnerPID    int32             `c:"owner_pid"`
	Device      uint32            `c:"device"`
	Flags       uint32            `c:"flags"`
	ImportCount uint32            `c:"import_count"`
	PIDCount    uint32            `c:"pid_count"`
	Pad0        uint32            `c:"pad0"`
	Pending     uint64            `c:"pending"`
	Name        [NodeNameLen]byte `c:"name"`
	PIDs        [16]int32         `c:"pids"`
	Reserved    [64]byte          `c:"reserved"`
}

// NodeImport mirrors struct npuemu_node_import.
type NodeImport struct {
	State    uint32   `c:"state"`
	Kind     uint32   `c:"kind"`
	Slot     uint32   `c:"slot"`
	Index    uint32   `c:"index"`
	SlotGen  uint64   `c:"slot_gen"`
	EntryGen uint64   `c:"entry_gen"`
	Addr     uint64   `c:"addr"`
	Reserved [24]byte `c:"reserved"`
}

// NodeVNPU mirrors struct npuemu_node_vnpu.
type NodeVNPU struct {
	State        uint32   `c:"state"`
	VDevID       uint32   `c:"vdev_id"`
	VFGID        uint32   `c:"vfg_id"`
	Device       uint32   `c:"device"`
	TemplateName [32]byte `c:"template_name"`
	AICoreCount  uint32   `c:"aicore_count"`
	AICPUCount   uint32   `c:"aicpu_count"`
	HBMBytes     uint64   `c:"hbm_bytes"`
	HBMShown     uint64   `c:"hbm_shown"`
	HBMUsed      uint64   `c:"hbm_used"`
	ProcessCount uint32   `c:"process_count"`
	Reserved     [44]byte `c:"reserved"`
}

// nodeSum is npuemu_node_sum: 64-bit FNV-1a.
func nodeSum(b []byte) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, c := range b {
		h ^= uint64(c)
		h *= 0x100000001b3
	}
	return h
}
