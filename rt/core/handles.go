package core

import (
	"fmt"
	"sync"
)

// Handle is what crosses the C boundary for an aclrtContext, aclrtStream or
// aclrtEvent: an opaque integer, never a Go pointer.
//
// Encoding (64 bits): kind tag in bits 56..63, generation in bits 32..55,
// slot index in bits 0..31. The tag makes every handle non-zero and a
// non-canonical address on x86-64/aarch64, so it can neither be NULL nor
// alias a real pointer; the generation makes a handle stale once its object
// is destroyed, even after the slot is reused. A garbage or stale handle
// resolves to the documented error instead of a crash.
type Handle uintptr

// HandleKind is the tag byte of a Handle.
type HandleKind uint8

const (
	KindContext HandleKind = 0xC7
	KindStream  HandleKind = 0x57
	KindEvent   HandleKind = 0xE7
	// Notifies and labels (acl/notify.go, acl/cntnotify.go, acl/label.go).
	KindNotify    HandleKind = 0x4E
	KindCntNotify HandleKind = 0x4C
	KindLabel     HandleKind = 0x1A
	KindLabelList HandleKind = 0x1B
	// The other families' kinds: the tag byte is allocated here, in one
	// list, so no two families can take the same one.
	KindAllocDesc  HandleKind = 0xAD // aclrtAllocatorDesc (acl/allocator.go)
	KindArgs       HandleKind = 0xA7 // aclrtArgsHandle (kernel.go)
	KindParam      HandleKind = 0xA9 // aclrtParamHandle (kernel.go)
	KindCondHandle HandleKind = 0x5C // condition tasks (acl/cond.go)
	KindDataBuffer HandleKind = 0xDB // aclDataBuffer (acl/databuffer.go)
	KindGroupInfo  HandleKind = 0x6B // aclrtGroupInfo (acl/group.go)
	KindBinary     HandleKind = 0xB1 // aclrtBinHandle (kernel.go)
	KindFunction   HandleKind = 0xF1 // aclrtFuncHandle (kernel.go)
	KindRawBinary  HandleKind = 0xB7 // aclrtBinaryCreate binaries (acl/kernel_query.go)
	KindMbuf       HandleKind = 0x3B // aclrtMbuf: the driver's tag, hal.MbufTag (acl/mbuf.go)
	KindModelRI    HandleKind = 0x3D // aclmdlRI (acl/mdlri.go)
	KindRITask     HandleKind = 0x3E // aclmdlRITask (acl/mdlri.go)
	KindTaskGrp    HandleKind = 0x3F // aclrtTaskGrp (acl/mdlri.go)
	KindMemPool    HandleKind = 0x9B // aclrtMemPool (mempool.go)
)

// HandleKindNames names every kind of handle, as messages print it ("stream
// handle 0x57... is stale"). A new kind adds its line here; a test checks
// that every handleKind constant of the package has one.
var HandleKindNames = map[HandleKind]string{
	KindContext:    "context",
	KindStream:     "stream",
	KindEvent:      "event",
	KindNotify:     "notify",
	KindCntNotify:  "counting notify",
	KindLabel:      "label",
	KindLabelList:  "label list",
	KindAllocDesc:  "allocator descriptor",
	KindArgs:       "kernel arguments",
	KindParam:      "kernel argument",
	KindCondHandle: "condition",
	KindDataBuffer: "data buffer",
	KindBinary:     "binary",
	KindFunction:   "function",
	KindRawBinary:  "created binary",
	KindModelRI:    "model run instance",
	KindRITask:     "model run instance task",
	KindTaskGrp:    "task group",
	KindMemPool:    "memory pool",
	KindMbuf:       "shared buffer",
	KindGroupInfo:  "group information",
}

func (k HandleKind) String() string {
	if name, ok := HandleKindNames[k]; ok {
		return name
	}
	return fmt.Sprintf("tag-%#02x", uint8(k))
}

const genMask = 1<<24 - 1

func MakeHandle(k HandleKind, gen uint32, idx uint32) Handle {
	return Handle(uint64(k)<<56 | uint64(gen&genMask)<<32 | uint64(idx))
}

func (h Handle) Parts() (HandleKind, uint32, uint32) {
	v := uint64(h)
	return HandleKind(v >> 56), uint32(v>>32) & genMask, uint32(v)
}

// table maps handles of one kind to objects in O(1): a slice of slots, each
// with the generation of its current (or last) occupant, and a free list.
type table[T any] struct {
	kind HandleKind
	Mu   sync.RWMutex // guards slots, free, live
	// Slots[i].obj is nil when the slot is free.
	Slots []slot[T]
	free  []uint32
	live  int
	// index mirrors slots for get, which takes no lock (readindex.go):
	// element i is slot i's occupant and generation, nil when free.
	index readIndex[slotEntry[T]]
}

// slotEntry is an occupant of a slot as get sees it (immutable).
type slotEntry[T any] struct {
	gen uint32
	obj *T
}

type slot[T any] struct {
	Gen uint32
	Obj *T
}

func NewTable[T any](k HandleKind) *table[T] { return &table[T]{kind: k} }

// Add stores obj and returns its new handle.
func (t *table[T]) Add(obj *T) Handle {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	var idx uint32
	if n := len(t.free); n > 0 {
		idx = t.free[n-1]
		t.free = t.free[:n-1]
	} else {
		idx = uint32(len(t.Slots))
		t.Slots = append(t.Slots, slot[T]{})
	}
	s := &t.Slots[idx]
	s.Gen = (s.Gen + 1) & genMask
	if s.Gen == 0 {
		s.Gen = 1
	}
	s.Obj = obj
	t.live++
	t.index.store(idx, &slotEntry[T]{gen: s.Gen, obj: obj})
	return MakeHandle(t.kind, s.Gen, idx)
}

// Get resolves h; the error says why it could not be resolved.
func (t *table[T]) Get(h Handle) (*T, error) {
	k, gen, idx := h.Parts()
	if k != t.kind {
		return nil, fmt.Errorf("%#x is not a %s handle", uintptr(h), t.kind)
	}
	e := t.index.load(idx)
	if e == nil || e.gen != gen {
		return nil, fmt.Errorf("%s handle %#x is stale (destroyed) or was never created", t.kind, uintptr(h))
	}
	return e.obj, nil
}

// Remove frees h's slot; it reports whether h was live.
func (t *table[T]) Remove(h Handle) bool {
	k, gen, idx := h.Parts()
	if k != t.kind {
		return false
	}
	t.Mu.Lock()
	defer t.Mu.Unlock()
	if int(idx) >= len(t.Slots) || t.Slots[idx].Gen != gen || t.Slots[idx].Obj == nil {
		return false
	}
	t.Slots[idx].Obj = nil
	t.index.store(idx, nil)
	t.free = append(t.free, idx)
	t.live--
	return true
}

// Len returns the number of live handles.
func (t *table[T]) Len() int {
	t.Mu.RLock()
	defer t.Mu.RUnlock()
	return t.live
}

// ByContext files objects under the context that owns them, so that
// destroying a context can release them. The caller's lock guards it.
type ByContext[T comparable] map[*Context]map[T]struct{}

func (b ByContext[T]) Add(c *Context, x T) {
	m := b[c]
	if m == nil {
		m = map[T]struct{}{}
		b[c] = m
	}
	m[x] = struct{}{}
}

func (b ByContext[T]) Remove(c *Context, x T) {
	if m := b[c]; m != nil {
		delete(m, x)
		if len(m) == 0 {
			delete(b, c)
		}
	}
}
