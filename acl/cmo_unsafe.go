package acl

import "unsafe"

// cmoDesc is npuemu's layout of a CMO descriptor in device memory (cmo.go).
type cmoDesc struct {
	magic uint64
	src   uint64
	size  uint64
	_     uint64
}

var _ [cmoDescSize - unsafe.Sizeof(cmoDesc{})]byte // the layout fills cmoDescSize

// writeCmoDesc stores d at addr. Precondition: addr..+cmoDescSize lies in
// a live device allocation (cmoRange); device memory is mapped in this
// process.
func writeCmoDesc(addr uintptr, d cmoDesc) { *cmoDescAt(addr) = d }

// readCmoDesc loads the descriptor at addr (same precondition).
func readCmoDesc(addr uintptr) cmoDesc { return *cmoDescAt(addr) }

// cmoDescAt views device memory (outside the Go heap) as a descriptor.
func cmoDescAt(addr uintptr) *cmoDesc {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return (*cmoDesc)(p)
}
