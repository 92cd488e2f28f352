package acl

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt/core"
)

// writeCmoDesc stores d at addr. Precondition: addr..+cmoDescSize lies in
// a live device allocation (cmoRange); device memory is mapped in this
// process.
func writeCmoDesc(addr uintptr, d core.CmoDesc) { *cmoDescAt(addr) = d }

// readCmoDesc loads the descriptor at addr (same precondition).
func readCmoDesc(addr uintptr) core.CmoDesc { return *cmoDescAt(addr) }

// cmoDescAt views device memory (outside the Go heap) as a descriptor.
func cmoDescAt(addr uintptr) *core.CmoDesc {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return (*core.CmoDesc)(p)
}
