package core

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
)

// AllocatorParts are the parts of an allocator description. Callbacks are
// C function pointers, kept as integers and never called from Go.
type AllocatorParts struct {
	Desc             Handle // the description registered (GetByStream output)
	Obj              uintptr
	Alloc            uintptr
	Free             uintptr
	AllocAdvise      uintptr
	GetAddrFromBlock uintptr
}

// Parts an aclrtAllocatorSet*ToDesc call sets.
const (
	AllocatorObj = iota
	AllocatorAlloc
	AllocatorFree
	AllocatorAllocAdvise
	AllocatorGetAddrFromBlock
)

// AllocRegs maps a stream to its registered allocator: a snapshot of the
// description at registration, so later Set*ToDesc calls or destroying
// the description do not change what the stream has. allocRegs.mu is a
// leaf lock.
var AllocRegs struct {
	Mu sync.Mutex
	M  map[*Stream]AllocatorParts
}

// AllocatorRegistered returns how many streams have an allocator
// registered (tests).
func AllocatorRegistered() int {
	AllocRegs.Mu.Lock()
	defer AllocRegs.Mu.Unlock()
	return len(AllocRegs.M)
}

// streamGone drops the allocator registered for a destroyed stream; the
// runtime core calls it (stream.go) once the stream's
// queue is gone.
func streamGone(s *Stream) {
	AllocRegs.Mu.Lock()
	delete(AllocRegs.M, s)
	AllocRegs.Mu.Unlock()
}

// AllocatorDesc is one aclrtAllocatorDesc. mu guards parts.
type AllocatorDesc struct {
	Mu    sync.Mutex
	Parts AllocatorParts
}

var AllocDescs = NewTable[AllocatorDesc](KindAllocDesc)

func ResolveAllocDesc(fn string, h Handle) (*AllocatorDesc, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: allocatorDesc must not be NULL", fn)
	}
	d, err := AllocDescs.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %v", fn, err)
	}
	return d, nil
}

// AllocatorStream resolves the stream argument of Register/GetByStream:
// NULL is refused (a registration belongs to an explicit stream).
func AllocatorStream(t *Thread, fn string, sh Handle) (*Stream, error) {
	if sh == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL", fn)
	}
	s, err := ResolveStream(t, fn, sh)
	if err != nil {
		return nil, err
	}
	return s, nil
}
