package core

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// KernelEntry and KernelHost are the node's kernel host (emu.Platform):
// libfake's dlopen and fault-guarded block runner, or a test's fake.
type (
	KernelEntry = emu.KernelEntry
	KernelHost  = emu.KernelHost
)

var (
	Binaries  = NewTable[Binary](KindBinary)
	functions = NewTable[Function](KindFunction)
)

// Binary is a loaded kernel binary (aclrtBinHandle).
type Binary struct {
	H     Handle
	Host  KernelHost
	Lib   uintptr
	path  string // "" when loaded from memory
	Funcs []*Function

	// Launches count themselves without a lock, in the shard of their
	// thread: the launching thread raises the shard's acquired count,
	// whoever completes the kernel its released count, each on lines of
	// its own (one count for every launch was ~8 % of the samples of four
	// threads launching on a 16-CPU host). Unload sets Unloaded;
	// after it every release, and unload itself, sum the shards
	// (MaybeClose), and the one that sees none left in flight wins the
	// closed flag and closes the object.
	inflight [binShards]binShard // launches queued or running
	Unloaded atomic.Bool
	closed   atomic.Bool

	mu          sync.Mutex // guards args
	ArgsHandles []*Args
}

// Function is one kernel of a binary (aclrtFuncHandle).
type Function struct {
	H     Handle
	Bin   *Binary
	Entry KernelEntry
	// Measured is the duration of the last completed launch of an Ascend
	// C kernel from its cycle record (ns, 0: none yet): the block cost of
	// its next launches (launch_ascendc.go).
	Measured atomic.Int64
}

func NewBinary(h KernelHost, lib uintptr, path string, entries []KernelEntry) *Binary {
	b := &Binary{Host: h, Lib: lib, path: path}
	b.H = Binaries.Add(b)
	for _, e := range entries {
		f := &Function{Bin: b, Entry: e}
		f.H = functions.Add(f)
		b.Funcs = append(b.Funcs, f)
	}
	return b
}

func ResolveBinary(fn string, h Handle) (*Binary, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: binHandle must not be NULL", fn)
	}
	b, err := Binaries.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return b, nil
}

func ResolveFunction(fn string, h Handle) (*Function, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: funcHandle must not be NULL", fn)
	}
	f, err := functions.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v (unloaded binary?)", fn, err)
	}
	return f, nil
}

// binShards is the number of shards of a binary's launch count; a
// thread counts its launches in shard ID % binShards (Thread.shard).
const binShards = 16

// binShard is one shard of a binary's launch count: launches acquired
// and released, each alone in 128 bytes (a pair of cache lines, which
// x86 processors fetch together).
type binShard struct {
	acq atomic.Int64
	_   [120]byte
	rel atomic.Int64
	_   [120]byte
}

// Acquire counts a launch of b in shard 0 (AcquireIn).
func (b *Binary) Acquire(fn string) error { return b.AcquireIn(fn, 0) }

// Release ends a launch counted in shard 0 (ReleaseIn).
func (b *Binary) Release() { b.ReleaseIn(0) }

// AcquireIn counts a launch of b in shard i; it fails once b is unloaded.
// The count is raised before unloaded is read, so an unload that does not
// see it is seen by it (MaybeClose reads every shard after Unloaded is set).
func (b *Binary) AcquireIn(fn string, i uint8) error { return b.acquireN(fn, i, 1) }

// acquireN counts n launches of b in shard i at once (a run's, binCredit).
func (b *Binary) acquireN(fn string, i uint8, n int64) error {
	b.inflight[i%binShards].acq.Add(n)
	if b.Unloaded.Load() {
		b.releaseN(i, n)
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: the function's binary was unloaded", fn)
	}
	return nil
}

// ReleaseIn ends a launch of b counted in shard i, closing an unloaded
// binary after its last launch.
func (b *Binary) ReleaseIn(i uint8) { b.releaseN(i, 1) }

// releaseN ends n launches of b counted in shard i.
func (b *Binary) releaseN(i uint8, n int64) {
	b.inflight[i%binShards].rel.Add(n)
	if b.Unloaded.Load() {
		b.MaybeClose()
	}
}

// inflightLaunches is the launches acquired and not released. The
// released counts are read first: a launch released while the shards are
// read is then counted as still in flight, never the other way round, and
// the release itself sums again. (Launches acquired after Unloaded was
// set back out and never run.)
func (b *Binary) inflightLaunches() int64 {
	var rel, acq int64
	for i := range b.inflight {
		rel += b.inflight[i].rel.Load()
	}
	for i := range b.inflight {
		acq += b.inflight[i].acq.Load()
	}
	return acq - rel
}

// MaybeClose closes b's object once it is unloaded and no launch is left.
func (b *Binary) MaybeClose() {
	if b.Unloaded.Load() && b.inflightLaunches() == 0 && b.closed.CompareAndSwap(false, true) {
		b.Host.Close(b.Lib)
	}
}

// LiveKernelObjects reports the binaries, functions and args handles alive
// (for leak checks).
func LiveKernelObjects() (bins, funcs, args int) {
	return Binaries.Len(), functions.Len(), argsTable.Len()
}

func (b *Binary) String() string { return fmt.Sprintf("binary %#x (%s)", uintptr(b.H), b.path) }

// Unload kills b's handles, its functions' and its args handles' at once;
// false when b was already unloaded. The shared object stays open until
// its last launch (maybeClose).
func (b *Binary) Unload() bool {
	if !Binaries.Remove(b.H) {
		return false
	}
	for _, f := range b.Funcs {
		functions.Remove(f.H)
	}
	b.mu.Lock()
	b.Unloaded.Store(true)
	args := b.ArgsHandles
	b.ArgsHandles = nil
	b.mu.Unlock()
	for _, a := range args {
		argsTable.Remove(a.H)
		a.release(b.Host)
	}
	return true
}

// MaxKernelParams is the most parameters one args handle takes.
const MaxKernelParams = 128

// ArgsHandleMemSize is what aclrtKernelArgsGetHandleMemSize reports: the
// caller-provided memory of aclrtKernelArgsInitByUserMem holds a magic and
// the runtime's handle (libfake reads it back).
const ArgsHandleMemSize = 16

// ArgsUserMagic marks caller memory initialised by
// aclrtKernelArgsInitByUserMem: "NPUARGS1" as a little-endian uint64.
const ArgsUserMagic uint64 = 0x3153475241555054

// Args is one argument blob under construction.
type Args struct {
	H    Handle
	Func *Function
	view atomic.Pointer[argsView] // the finalized image; nil until Finalize and after any change

	Mu     sync.Mutex // guards everything below, and the writing of view
	Blob   []byte     // parameter area; len = end of the last parameter
	user   bool       // blob is the caller's memory (InitByUserMem): cap is its size
	Params []param
}

// argsView is a finalized args handle as launches read it: published by
// Finalize, withdrawn by every change before the change is made, and never
// written once published, so launches read it without the handle's lock.
// (Four threads launching with one handle on a 16-CPU host spent a sixth
// of their samples on that lock, parking and waking on it, and the
// throughput did not grow past two CPUs: docs/benchmarks.md, "Twelfth
// session".)
type argsView struct {
	blob  []byte // the parameters: a copy taken at Finalize; the caller's memory itself for InitByUserMem
	total int    // launch image size, placeholder data included
	ph    bool   // has placeholders: their data is copied at launch, under Mu
}

// Unfinalize withdraws a's finalized image: every change to the blob or
// the parameters calls it first. Precondition: a.Mu held.
func (a *Args) Unfinalize() { a.view.Store(nil) }

// Publish finalizes a with a launch image of total bytes (placeholder
// data laid out). Precondition: a.Mu held.
func (a *Args) Publish(total int) {
	v := &argsView{blob: a.Blob, total: total}
	if !a.user {
		v.blob = slices.Clone(a.Blob)
	}
	for i := range a.Params {
		v.ph = v.ph || a.Params[i].Ph
	}
	a.view.Store(v)
}

// launchImage takes a launch buffer of stream s for host and writes a's
// finalized image into it; ok is false when a is not finalized. Placeholder
// data is copied under a.Mu, the buffer taken before it (Mu is a leaf:
// docs/internals.md "Lock order").
func (a *Args) launchImage(s *Stream, host KernelHost, stash *launchStash) (l *Launch, img []byte, ok bool) {
	for {
		v := a.view.Load()
		if v == nil {
			return nil, nil, false
		}
		l = getLaunch(s, host, v.total, stash)
		img = l.Buf[LaunchHeader : LaunchHeader+v.total]
		n := copy(img, v.blob)
		clear(img[n:])
		if !v.ph {
			return l, img, true
		}
		a.Mu.Lock()
		same := a.view.Load() == v
		if same {
			a.fillPlaceholders(img, l.Addr+LaunchHeader)
		}
		a.Mu.Unlock()
		if same {
			return l, img, true
		}
		PutLaunch(l) // changed meanwhile: again with what it is now
	}
}

var argsTable = NewTable[Args](KindArgs)

func Align8(n int) int { return (n + 7) &^ 7 }

func ParamHandle(i int) Handle { return MakeHandle(KindParam, 0, uint32(i+1)) }

// AppendSlot reserves size bytes at the next multiple of 8; a must be
// finalized again. Precondition: a.Mu held.
func (a *Args) AppendSlot(fn string, size int, ph bool) (int, error) {
	if len(a.Params) >= MaxKernelParams {
		return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: an args handle takes at most %d parameters", fn, MaxKernelParams)
	}
	off := Align8(len(a.Blob))
	end := off + size
	if end > cap(a.Blob) {
		if a.user {
			return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM,
				"%s: parameter of %d bytes at offset %d overflows the %d bytes of user memory (size it with aclrtKernelArgsGetMemSize)", fn, size, off, cap(a.Blob))
		}
		nb := make([]byte, len(a.Blob), max(2*cap(a.Blob), end, 64))
		copy(nb, a.Blob)
		a.Blob = nb
	}
	a.Unfinalize()
	clear(a.Blob[len(a.Blob):end])
	a.Blob = a.Blob[:end]
	a.Params = append(a.Params, param{Off: off, Size: size, Ph: ph})
	return len(a.Params) - 1, nil
}

// fillPlaceholders copies the placeholder data into the launch image dst,
// whose first byte is at address base, and patches their slots.
// Precondition: a.Mu held, a finalized.
func (a *Args) fillPlaceholders(dst []byte, base uintptr) {
	for i := range a.Params {
		pp := &a.Params[i]
		if pp.Ph {
			copy(dst[pp.DataOff:], pp.Buf)
			binary.LittleEndian.PutUint64(dst[pp.Off:], uint64(base)+uint64(pp.DataOff))
		}
	}
}

// release frees the placeholder buffers.
func (a *Args) release(host KernelHost) {
	a.Mu.Lock()
	defer a.Mu.Unlock()
	a.Unfinalize()
	for i := range a.Params {
		if b := a.Params[i].Buf; b != nil && host != nil {
			host.Free(b)
		}
		a.Params[i].Buf = nil
	}
}

func ResolveArgs(fn string, h Handle) (*Args, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: argsHandle must not be NULL", fn)
	}
	a, err := argsTable.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return a, nil
}

// NewArgs creates an args handle of f; user, when non-nil, is the caller's
// memory that holds the parameters.
func NewArgs(fn string, f *Function, user []byte) (*Args, error) {
	b := f.Bin
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.Unloaded.Load() {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: the function's binary was unloaded", fn)
	}
	a := &Args{Func: f}
	if user != nil {
		a.Blob, a.user = user[:0], true
	}
	a.H = argsTable.Add(a)
	b.ArgsHandles = append(b.ArgsHandles, a)
	return a, nil
}

// param is one appended parameter.
type param struct {
	Off, Size int
	Ph        bool    // placeholder: an 8-byte address slot
	Buf       []byte  // placeholder data (host memory outside the Go heap)
	BufAddr   uintptr // its address
	DataOff   int     // finalized offset of the data in the blob
}

// Param resolves a parameter handle of a.
// Precondition: a.mu held.
func (a *Args) Param(fn string, p Handle) (*param, error) {
	k, _, idx := p.Parts()
	if p == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: paramHandle must not be NULL", fn)
	}
	if k != KindParam || idx == 0 || int(idx) > len(a.Params) {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %#x is not a parameter of args handle %#x", fn, uintptr(p), uintptr(a.H))
	}
	return &a.Params[idx-1], nil
}

// RawBinary is an aclrtBinary: the caller's bytes, not copied, until
// aclrtBinaryLoad copies them.
type RawBinary struct {
	H    Handle
	Data []byte
}

var RawBinaries = NewTable[RawBinary](KindRawBinary)

// LiveRawBinaries reports the aclrtBinary objects alive (for leak checks).
func LiveRawBinaries() int { return RawBinaries.Len() }

// SymbolResolver is the node's symbol lookup (emu.Platform.Symbols).
type SymbolResolver = emu.SymbolResolver

// Entries maps kernel entry addresses to their functions, for
// aclrtGetFuncBySymbol and the calls that take a kernel symbol. One shared
// object loaded twice is mapped once by the dynamic loader, so an address
// may belong to several live functions: the latest load wins.
var Entries struct {
	Mu sync.Mutex
	M  map[uintptr][]*Function
}

func RegisterEntries(b *Binary) {
	Entries.Mu.Lock()
	defer Entries.Mu.Unlock()
	if Entries.M == nil {
		Entries.M = map[uintptr][]*Function{}
	}
	for _, f := range b.Funcs {
		Entries.M[f.Entry.Fn] = append(Entries.M[f.Entry.Fn], f)
	}
}

func UnregisterEntries(b *Binary) {
	Entries.Mu.Lock()
	defer Entries.Mu.Unlock()
	for _, f := range b.Funcs {
		list := Entries.M[f.Entry.Fn]
		for i, g := range list {
			if g == f {
				list = append(list[:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(Entries.M, f.Entry.Fn)
		} else {
			Entries.M[f.Entry.Fn] = list
		}
	}
}

func FunctionByEntry(addr uintptr) *Function {
	Entries.Mu.Lock()
	defer Entries.Mu.Unlock()
	if list := Entries.M[addr]; len(list) > 0 {
		return list[len(list)-1]
	}
	return nil
}
