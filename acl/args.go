package acl

import (
	"encoding/binary"
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Argument blobs (aclrtArgsHandle). Parameters are appended in declaration
// order, each at the next multiple of 8 bytes, so a kernel reads parameter
// i at a fixed offset (NPUEMU_ARG in npuemu/kernel.h). A placeholder
// parameter is an 8-byte slot; its data lives in a runtime-owned host
// buffer (aclrtKernelArgsGetPlaceHolderBuffer) and is laid out after every
// parameter by Finalize, each area at a multiple of 8; at launch the data
// is copied with the blob and the slot receives the address of the copy,
// the way the real runtime patches in a device address.
//
// Args handles live until the binary of their function is unloaded (the
// API has no call that releases one).

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
	h  core.Handle
	fn *Function

	mu     sync.Mutex // guards everything below
	blob   []byte     // parameter area; len = end of the last parameter
	user   bool       // blob is the caller's memory (InitByUserMem): cap is its size
	params []param
	final  bool // finalized and not changed since
	total  int  // finalized blob size, placeholder data included
}

// param is one appended parameter.
type param struct {
	off, size int
	ph        bool    // placeholder: an 8-byte address slot
	buf       []byte  // placeholder data (host memory outside the Go heap)
	bufAddr   uintptr // its address
	dataOff   int     // finalized offset of the data in the blob
}

var argsTable = core.NewTable[Args](core.KindArgs)

func align8(n int) int { return (n + 7) &^ 7 }

func paramHandle(i int) core.Handle { return core.MakeHandle(core.KindParam, 0, uint32(i+1)) }

// param resolves a parameter handle of a.
// Precondition: a.mu held.
func (a *Args) param(fn string, p core.Handle) (*param, error) {
	k, _, idx := p.Parts()
	if p == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: paramHandle must not be NULL", fn)
	}
	if k != core.KindParam || idx == 0 || int(idx) > len(a.params) {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %#x is not a parameter of args handle %#x", fn, uintptr(p), uintptr(a.h))
	}
	return &a.params[idx-1], nil
}

// appendSlot reserves size bytes at the next multiple of 8.
// Precondition: a.mu held.
func (a *Args) appendSlot(fn string, size int, ph bool) (int, error) {
	if len(a.params) >= MaxKernelParams {
		return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: an args handle takes at most %d parameters", fn, MaxKernelParams)
	}
	off := align8(len(a.blob))
	end := off + size
	if end > cap(a.blob) {
		if a.user {
			return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM,
				"%s: parameter of %d bytes at offset %d overflows the %d bytes of user memory (size it with aclrtKernelArgsGetMemSize)", fn, size, off, cap(a.blob))
		}
		nb := make([]byte, len(a.blob), max(2*cap(a.blob), end, 64))
		copy(nb, a.blob)
		a.blob = nb
	}
	clear(a.blob[len(a.blob):end])
	a.blob = a.blob[:end]
	a.params = append(a.params, param{off: off, size: size, ph: ph})
	a.final = false
	return len(a.params) - 1, nil
}

// KernelArgsAppend implements aclrtKernelArgsAppend: value is copied.
func KernelArgsAppend(t *core.Thread, h core.Handle, value []byte, out *core.Handle) error {
	const fn = "aclrtKernelArgsAppend"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: paramHandle must not be NULL", fn)
	}
	if len(value) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: param must not be NULL and paramSize must be > 0", fn)
	}
	a, err := resolveArgs(fn, h)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	i, err := a.appendSlot(fn, len(value), false)
	if err != nil {
		return err
	}
	copy(a.blob[a.params[i].off:], value)
	*out = paramHandle(i)
	return nil
}

// KernelArgsAppendPlaceHolder implements aclrtKernelArgsAppendPlaceHolder.
func KernelArgsAppendPlaceHolder(t *core.Thread, h core.Handle, out *core.Handle) error {
	const fn = "aclrtKernelArgsAppendPlaceHolder"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: paramHandle must not be NULL", fn)
	}
	a, err := resolveArgs(fn, h)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	i, err := a.appendSlot(fn, 8, true)
	if err != nil {
		return err
	}
	*out = paramHandle(i)
	return nil
}

// KernelArgsGetPlaceHolderBuffer implements
// aclrtKernelArgsGetPlaceHolderBuffer: a host buffer of size bytes whose
// content is copied into the blob at each launch.
func KernelArgsGetPlaceHolderBuffer(t *core.Thread, h, p core.Handle, size uint64, out *uintptr) error {
	const fn = "aclrtKernelArgsGetPlaceHolderBuffer"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: bufferAddr must not be NULL", fn)
	}
	if size == 0 || size > 1<<30 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dataSize %d: want 1..%d bytes", fn, size, 1<<30)
	}
	a, err := resolveArgs(fn, h)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	pp, err := a.param(fn, p)
	if err != nil {
		return err
	}
	if !pp.ph {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: parameter %#x was appended with aclrtKernelArgsAppend, not as a placeholder", fn, uintptr(p))
	}
	if len(pp.buf) != int(size) {
		host, err := kernelHost(fn)
		if err != nil {
			return err
		}
		if pp.buf != nil {
			host.Free(pp.buf)
		}
		pp.buf, pp.bufAddr = host.Alloc(int(size))
		a.final = false
	}
	*out = pp.bufAddr
	return nil
}

// KernelArgsParaUpdate implements aclrtKernelArgsParaUpdate: the new value
// must have the parameter's size; the blob must be finalized again.
func KernelArgsParaUpdate(t *core.Thread, h, p core.Handle, value []byte) error {
	const fn = "aclrtKernelArgsParaUpdate"
	if len(value) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: param must not be NULL and paramSize must be > 0", fn)
	}
	a, err := resolveArgs(fn, h)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	pp, err := a.param(fn, p)
	if err != nil {
		return err
	}
	if pp.ph {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: parameter %#x is a placeholder: write its buffer instead", fn, uintptr(p))
	}
	if len(value) != pp.size {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: paramSize %d differs from the %d bytes appended", fn, len(value), pp.size)
	}
	copy(a.blob[pp.off:], value)
	a.final = false
	return nil
}

// KernelArgsFinalize implements aclrtKernelArgsFinalize: it fixes the
// layout (placeholder data after the parameters) for the next launches.
func KernelArgsFinalize(t *core.Thread, h core.Handle) error {
	const fn = "aclrtKernelArgsFinalize"
	a, err := resolveArgs(fn, h)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	total := align8(len(a.blob))
	for i := range a.params {
		pp := &a.params[i]
		if !pp.ph {
			continue
		}
		if pp.buf == nil {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: placeholder parameter %d has no buffer: call aclrtKernelArgsGetPlaceHolderBuffer first", fn, i)
		}
		pp.dataOff = total
		total += align8(len(pp.buf))
	}
	a.total = total
	a.final = true
	return nil
}

// fill writes the launch image of a into dst (len ≥ a.total), whose first
// byte is at address base: parameters, placeholder data, patched slots.
// Precondition: a.mu held, a.final.
func (a *Args) fill(dst []byte, base uintptr) {
	n := copy(dst, a.blob)
	clear(dst[n:a.total])
	for i := range a.params {
		pp := &a.params[i]
		if pp.ph {
			copy(dst[pp.dataOff:], pp.buf)
			binary.LittleEndian.PutUint64(dst[pp.off:], uint64(base)+uint64(pp.dataOff))
		}
	}
}

// release frees the placeholder buffers.
func (a *Args) release(host KernelHost) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := range a.params {
		if b := a.params[i].buf; b != nil && host != nil {
			host.Free(b)
		}
		a.params[i].buf = nil
	}
}

func resolveArgs(fn string, h core.Handle) (*Args, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: argsHandle must not be NULL", fn)
	}
	a, err := argsTable.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return a, nil
}

// newArgs creates an args handle of f; user, when non-nil, is the caller's
// memory that holds the parameters.
func newArgs(fn string, f *Function, user []byte) (*Args, error) {
	b := f.bin
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.unloaded.Load() {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: the function's binary was unloaded", fn)
	}
	a := &Args{fn: f}
	if user != nil {
		a.blob, a.user = user[:0], true
	}
	a.h = argsTable.Add(a)
	b.args = append(b.args, a)
	return a, nil
}

// KernelArgsInit implements aclrtKernelArgsInit.
func KernelArgsInit(t *core.Thread, fh core.Handle, out *core.Handle) error {
	const fn = "aclrtKernelArgsInit"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: argsHandle must not be NULL", fn)
	}
	f, err := resolveFunction(fn, fh)
	if err != nil {
		return err
	}
	a, err := newArgs(fn, f, nil)
	if err != nil {
		return err
	}
	*out = a.h
	return nil
}

// KernelArgsInitByUserMem implements aclrtKernelArgsInitByUserMem: the
// parameters are stored in userMem (sized by aclrtKernelArgsGetMemSize).
// It returns the runtime handle, which libfake stores with ArgsUserMagic in
// the caller's handle memory.
func KernelArgsInitByUserMem(t *core.Thread, fh core.Handle, userMem []byte) (core.Handle, error) {
	const fn = "aclrtKernelArgsInitByUserMem"
	if len(userMem) == 0 {
		return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: userHostMem must not be NULL and actualArgsSize must be > 0", fn)
	}
	f, err := resolveFunction(fn, fh)
	if err != nil {
		return 0, err
	}
	a, err := newArgs(fn, f, userMem)
	if err != nil {
		return 0, err
	}
	return a.h, nil
}

// KernelArgsGetHandleMemSize implements aclrtKernelArgsGetHandleMemSize.
func KernelArgsGetHandleMemSize(t *core.Thread, fh core.Handle, size *uint64) error {
	const fn = "aclrtKernelArgsGetHandleMemSize"
	if size == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: memSize must not be NULL", fn)
	}
	if _, err := resolveFunction(fn, fh); err != nil {
		return err
	}
	*size = ArgsHandleMemSize
	return nil
}

// KernelArgsGetMemSize implements aclrtKernelArgsGetMemSize: the blob of
// npuemu needs nothing beyond the 8-byte-rounded parameters.
func KernelArgsGetMemSize(t *core.Thread, fh core.Handle, userArgsSize uint64, actual *uint64) error {
	const fn = "aclrtKernelArgsGetMemSize"
	if actual == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: actualArgsSize must not be NULL", fn)
	}
	if userArgsSize == 0 || userArgsSize > 1<<30 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: userArgsSize %d: want 1..%d", fn, userArgsSize, 1<<30)
	}
	if _, err := resolveFunction(fn, fh); err != nil {
		return err
	}
	*actual = uint64(align8(int(userArgsSize)))
	return nil
}
