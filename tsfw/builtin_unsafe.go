package tsfw

import (
	"sync/atomic"
	"unsafe"
)

// load64 and store64 access the 8-byte word at addr (8-byte aligned, outside
// the Go heap) atomically, as the value-wait/write hardware does: a reader
// never sees a torn word.
func load64(addr uintptr) uint64 {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return atomic.LoadUint64((*uint64)(p))
}

func store64(addr uintptr, v uint64) {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	atomic.StoreUint64((*uint64)(p), v)
}
