package acl

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

// handleKind is the tag byte of a Handle.
type handleKind uint8

const (
	kindContext handleKind = 0xC7
	kindStream  handleKind = 0x57
	kindEvent   handleKind = 0xE7
	// Notifies and labels (acl/notify.go, acl/cntnotify.go, acl/label.go).
	kindNotify    handleKind = 0x4E
	kindCntNotify handleKind = 0x4C
	kindLabel     handleKind = 0x1A
	kindLabelList handleKind = 0x1B
	// The other families' kinds: the tag byte is allocated here, in one
	// list, so no two families can take the same one.
	kindAllocDesc  handleKind = 0xAD // aclrtAllocatorDesc (acl/allocator.go)
	kindArgs       handleKind = 0xA7 // aclrtArgsHandle (acl/args.go)
	kindParam      handleKind = 0xA9 // aclrtParamHandle (acl/args.go)
	kindCondHandle handleKind = 0x5C // condition tasks (acl/cond.go)
	kindDataBuffer handleKind = 0xDB // aclDataBuffer (acl/databuffer.go)
	kindGroupInfo  handleKind = 0x6B // aclrtGroupInfo (acl/group.go)
	kindBinary     handleKind = 0xB1 // aclrtBinHandle (acl/kernel.go)
	kindFunction   handleKind = 0xF1 // aclrtFuncHandle (acl/kernel.go)
	kindRawBinary  handleKind = 0xB7 // aclrtBinaryCreate binaries (acl/kernel_query.go)
	kindMbuf       handleKind = 0x3B // aclrtMbuf: the driver's tag, hal.MbufTag (acl/mbuf.go)
	kindModelRI    handleKind = 0x3D // aclmdlRI (acl/mdlri.go)
	kindRITask     handleKind = 0x3E // aclmdlRITask (acl/mdlri.go)
	kindTaskGrp    handleKind = 0x3F // aclrtTaskGrp (acl/mdlri.go)
	kindMemPool    handleKind = 0x9B // aclrtMemPool (acl/mempool.go)
)

// handleKindNames names every kind of handle, as messages print it ("stream
// handle 0x57... is stale"). A new kind adds its line here; a test checks
// that every handleKind constant of the package has one.
var handleKindNames = map[handleKind]string{
	kindContext:    "context",
	kindStream:     "stream",
	kindEvent:      "event",
	kindNotify:     "notify",
	kindCntNotify:  "counting notify",
	kindLabel:      "label",
	kindLabelList:  "label list",
	kindAllocDesc:  "allocator descriptor",
	kindArgs:       "kernel arguments",
	kindParam:      "kernel argument",
	kindCondHandle: "condition",
	kindDataBuffer: "data buffer",
	kindBinary:     "binary",
	kindFunction:   "function",
	kindRawBinary:  "created binary",
	kindModelRI:    "model run instance",
	kindRITask:     "model run instance task",
	kindTaskGrp:    "task group",
	kindMemPool:    "memory pool",
	kindMbuf:       "shared buffer",
	kindGroupInfo:  "group information",
}

func (k handleKind) String() string {
	if name, ok := handleKindNames[k]; ok {
		return name
	}
	return fmt.Sprintf("tag-%#02x", uint8(k))
}

const genMask = 1<<24 - 1

func makeHandle(k handleKind, gen uint32, idx uint32) Handle {
	return Handle(uint64(k)<<56 | uint64(gen&genMask)<<32 | uint64(idx))
}

func (h Handle) parts() (handleKind, uint32, uint32) {
	v := uint64(h)
	return handleKind(v >> 56), uint32(v>>32) & genMask, uint32(v)
}

// table maps handles of one kind to objects in O(1): a slice of slots, each
// with the generation of its current (or last) occupant, and a free list.
type table[T any] struct {
	kind handleKind
	mu   sync.RWMutex // guards slots, free, live
	// slots[i].obj is nil when the slot is free.
	slots []slot[T]
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
	gen uint32
	obj *T
}

func newTable[T any](k handleKind) *table[T] { return &table[T]{kind: k} }

// add stores obj and returns its new handle.
func (t *table[T]) add(obj *T) Handle {
	t.mu.Lock()
	defer t.mu.Unlock()
	var idx uint32
	if n := len(t.free); n > 0 {
		idx = t.free[n-1]
		t.free = t.free[:n-1]
	} else {
		idx = uint32(len(t.slots))
		t.slots = append(t.slots, slot[T]{})
	}
	s := &t.slots[idx]
	s.gen = (s.gen + 1) & genMask
	if s.gen == 0 {
		s.gen = 1
	}
	s.obj = obj
	t.live++
	t.index.store(idx, &slotEntry[T]{gen: s.gen, obj: obj})
	return makeHandle(t.kind, s.gen, idx)
}

// get resolves h; the error says why it could not be resolved.
func (t *table[T]) get(h Handle) (*T, error) {
	k, gen, idx := h.parts()
	if k != t.kind {
		return nil, fmt.Errorf("%#x is not a %s handle", uintptr(h), t.kind)
	}
	e := t.index.load(idx)
	if e == nil || e.gen != gen {
		return nil, fmt.Errorf("%s handle %#x is stale (destroyed) or was never created", t.kind, uintptr(h))
	}
	return e.obj, nil
}

// remove frees h's slot; it reports whether h was live.
func (t *table[T]) remove(h Handle) bool {
	k, gen, idx := h.parts()
	if k != t.kind {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if int(idx) >= len(t.slots) || t.slots[idx].gen != gen || t.slots[idx].obj == nil {
		return false
	}
	t.slots[idx].obj = nil
	t.index.store(idx, nil)
	t.free = append(t.free, idx)
	t.live--
	return true
}

// len returns the number of live handles.
func (t *table[T]) len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.live
}

// byContext files objects under the context that owns them, so that
// destroying a context can release them. The caller's lock guards it.
type byContext[T comparable] map[*Context]map[T]struct{}

func (b byContext[T]) add(c *Context, x T) {
	m := b[c]
	if m == nil {
		m = map[T]struct{}{}
		b[c] = m
	}
	m[x] = struct{}{}
}

func (b byContext[T]) remove(c *Context, x T) {
	if m := b[c]; m != nil {
		delete(m, x)
		if len(m) == 0 {
			delete(b, c)
		}
	}
}
