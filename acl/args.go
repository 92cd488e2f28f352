package acl

import (
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

// KernelArgsAppend implements aclrtKernelArgsAppend: value is copied.
func KernelArgsAppend(t *core.Thread, h core.Handle, value []byte, out *core.Handle) error {
	const fn = "aclrtKernelArgsAppend"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: paramHandle must not be NULL", fn)
	}
	if len(value) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: param must not be NULL and paramSize must be > 0", fn)
	}
	a, err := core.ResolveArgs(fn, h)
	if err != nil {
		return err
	}
	a.Mu.Lock()
	defer a.Mu.Unlock()
	i, err := a.AppendSlot(fn, len(value), false)
	if err != nil {
		return err
	}
	copy(a.Blob[a.Params[i].Off:], value)
	*out = core.ParamHandle(i)
	return nil
}

// KernelArgsAppendPlaceHolder implements aclrtKernelArgsAppendPlaceHolder.
func KernelArgsAppendPlaceHolder(t *core.Thread, h core.Handle, out *core.Handle) error {
	const fn = "aclrtKernelArgsAppendPlaceHolder"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: paramHandle must not be NULL", fn)
	}
	a, err := core.ResolveArgs(fn, h)
	if err != nil {
		return err
	}
	a.Mu.Lock()
	defer a.Mu.Unlock()
	i, err := a.AppendSlot(fn, 8, true)
	if err != nil {
		return err
	}
	*out = core.ParamHandle(i)
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
	a, err := core.ResolveArgs(fn, h)
	if err != nil {
		return err
	}
	a.Mu.Lock()
	defer a.Mu.Unlock()
	pp, err := a.Param(fn, p)
	if err != nil {
		return err
	}
	if !pp.Ph {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: parameter %#x was appended with aclrtKernelArgsAppend, not as a placeholder", fn, uintptr(p))
	}
	if len(pp.Buf) != int(size) {
		host, err := kernelHost(fn)
		if err != nil {
			return err
		}
		a.Unfinalize()
		if pp.Buf != nil {
			host.Free(pp.Buf)
		}
		pp.Buf, pp.BufAddr = host.Alloc(int(size))
	}
	*out = pp.BufAddr
	return nil
}

// KernelArgsParaUpdate implements aclrtKernelArgsParaUpdate: the new value
// must have the parameter's size; the blob must be finalized again.
func KernelArgsParaUpdate(t *core.Thread, h, p core.Handle, value []byte) error {
	const fn = "aclrtKernelArgsParaUpdate"
	if len(value) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: param must not be NULL and paramSize must be > 0", fn)
	}
	a, err := core.ResolveArgs(fn, h)
	if err != nil {
		return err
	}
	a.Mu.Lock()
	defer a.Mu.Unlock()
	pp, err := a.Param(fn, p)
	if err != nil {
		return err
	}
	if pp.Ph {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: parameter %#x is a placeholder: write its buffer instead", fn, uintptr(p))
	}
	if len(value) != pp.Size {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: paramSize %d differs from the %d bytes appended", fn, len(value), pp.Size)
	}
	a.Unfinalize()
	copy(a.Blob[pp.Off:], value)
	return nil
}

// KernelArgsFinalize implements aclrtKernelArgsFinalize: it fixes the
// layout (placeholder data after the parameters) for the next launches.
func KernelArgsFinalize(t *core.Thread, h core.Handle) error {
	const fn = "aclrtKernelArgsFinalize"
	a, err := core.ResolveArgs(fn, h)
	if err != nil {
		return err
	}
	a.Mu.Lock()
	defer a.Mu.Unlock()
	total := core.Align8(len(a.Blob))
	for i := range a.Params {
		pp := &a.Params[i]
		if !pp.Ph {
			continue
		}
		if pp.Buf == nil {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: placeholder parameter %d has no buffer: call aclrtKernelArgsGetPlaceHolderBuffer first", fn, i)
		}
		pp.DataOff = total
		total += core.Align8(len(pp.Buf))
	}
	a.Publish(total)
	return nil
}

// KernelArgsInit implements aclrtKernelArgsInit.
func KernelArgsInit(t *core.Thread, fh core.Handle, out *core.Handle) error {
	const fn = "aclrtKernelArgsInit"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: argsHandle must not be NULL", fn)
	}
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	a, err := core.NewArgs(fn, f, nil)
	if err != nil {
		return err
	}
	*out = a.H
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
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return 0, err
	}
	a, err := core.NewArgs(fn, f, userMem)
	if err != nil {
		return 0, err
	}
	return a.H, nil
}

// KernelArgsGetHandleMemSize implements aclrtKernelArgsGetHandleMemSize.
func KernelArgsGetHandleMemSize(t *core.Thread, fh core.Handle, size *uint64) error {
	const fn = "aclrtKernelArgsGetHandleMemSize"
	if size == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: memSize must not be NULL", fn)
	}
	if _, err := core.ResolveFunction(fn, fh); err != nil {
		return err
	}
	*size = core.ArgsHandleMemSize
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
	if _, err := core.ResolveFunction(fn, fh); err != nil {
		return err
	}
	*actual = uint64(core.Align8(int(userArgsSize)))
	return nil
}
