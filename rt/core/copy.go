package core

// PtrClass is what an address is, as far as copies care.
type PtrClass int

const (
	Pageable   PtrClass = iota // host memory the runtime did not allocate
	Pinned                     // aclrtMallocHost memory
	Devmem                     // HBM of some device
	Managedmem                 // aclrtMemAllocManaged memory (managed.go): host-side for directions
)

func (c PtrClass) String() string {
	switch c {
	case Pinned:
		return "pinned host memory"
	case Devmem:
		return "device memory"
	case Managedmem:
		return "managed memory"
	}
	return "pageable host memory"
}

// BatchAttr is the part of an aclrtMemcpyBatchAttr the runtime reads: the
// location types (aclrtMemLocationType) and ids of the destination and
// source of a range of items.
type BatchAttr struct {
	DstType, DstID uint32
	SrcType, SrcID uint32
}

// BatchItem is one copy of a batch.
type BatchItem struct {
	Dst, Src       uintptr
	DestMax, Count uint64
}
