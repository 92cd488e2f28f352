package emu

import (
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// Sizes of the node file's records (checked against the C compiler by
// TestNodeFormatLayout).
const (
	sizeofNodeHeader = uint64(unsafe.Sizeof(NodeHeader{}))
	sizeofNodeDevice = uint64(unsafe.Sizeof(NodeDevice{}))
	sizeofNodeProc   = uint64(unsafe.Sizeof(NodeProc{}))
	sizeofNodeIPC    = uint64(unsafe.Sizeof(NodeIPC{}))
	sizeofNodeEvent  = uint64(unsafe.Sizeof(NodeEvent{}))
	sizeofNodeNotify = uint64(unsafe.Sizeof(NodeNotify{}))
	sizeofNodeImport = uint64(unsafe.Sizeof(NodeImport{}))
	sizeofNodeVNPU   = uint64(unsafe.Sizeof(NodeVNPU{}))
)

// rawPtr turns an address of the node file's mapping (never Go memory)
// into a pointer, read through memory as rawBytes does.
func rawPtr(addr uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&addr)) }

func nodeHeaderAt(addr uintptr) *NodeHeader { return (*NodeHeader)(rawPtr(addr)) }
func nodeDeviceAt(addr uintptr) *NodeDevice { return (*NodeDevice)(rawPtr(addr)) }
func nodeProcAt(addr uintptr) *NodeProc     { return (*NodeProc)(rawPtr(addr)) }
func nodeIPCAt(addr uintptr) *NodeIPC       { return (*NodeIPC)(rawPtr(addr)) }
func nodeImportAt(addr uintptr) *NodeImport { return (*NodeImport)(rawPtr(addr)) }
func nodeVNPUAt(addr uintptr) *NodeVNPU     { return (*NodeVNPU)(rawPtr(addr)) }

// headerBytes is the part of h that header_sum covers.
func headerBytes(h *NodeHeader) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(h)), unsafe.Offsetof(h.HeaderSum))
}

// deviceStaticBytes is the part of d that static_sum covers.
func deviceStaticBytes(d *NodeDevice) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(d)), unsafe.Offsetof(d.StaticSum))
}

// Chunks returns device dev's chunk owner words (slot+1, 0 = free).
func (d *NodeDir) Chunks(dev int) []uint32 {
	base := d.mem + uintptr(d.hdr.ChunksOff) + uintptr(dev)*NodeChunks*4
	return unsafe.Slice((*uint32)(rawPtr(base)), d.hdr.ChunkCount)
}

func atomicCAS32(p *uint32, old, new uint32) bool { return atomic.CompareAndSwapUint32(p, old, new) }

func nodeEventAt(addr uintptr) *NodeEvent { return (*NodeEvent)(rawPtr(addr)) }

// futexWait sleeps while the low 32 bits of *p equal val, at most d
// (FUTEX_WAIT on shared memory: woken by any process).
func futexWait(p *uint64, val uint32, d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	const futexWaitOp = 0
	_, _, _ = syscall.Syscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(p)), futexWaitOp, uintptr(val), uintptr(unsafe.Pointer(&ts)), 0, 0)
}

// futexWake wakes every waiter of futexWait on p, in any process.
func futexWake(p *uint64) {
	const futexWakeOp = 1
	_, _, _ = syscall.Syscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(p)), futexWakeOp, 1<<30, 0, 0, 0)
}

func nodeNotifyAt(addr uintptr) *NodeNotify { return (*NodeNotify)(rawPtr(addr)) }
