package core

import "unsafe"

// CmoDesc is npuemu's layout of a CMO descriptor in device memory (cmo.go).
type CmoDesc struct {
	Magic uint64
	Src   uint64
	Size  uint64
	_     uint64
}

var _ [CmoDescSize - unsafe.Sizeof(CmoDesc{})]byte // the layout fills cmoDescSize
