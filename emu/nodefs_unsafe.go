package emu

import (
	"sync/atomic"
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
