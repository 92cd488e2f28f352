package core

import (
	"sync"
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
