package rt

import (
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The rts* argument handles of a kernel launch (rtsLaunchKernelWithConfig):
// rtArgsHandle is aclrtArgsHandle and rtParaHandle aclrtParamHandle, so an
// argument handle built here launches through ACL and the other way round;
// acl/args.go does the work. The layout is npuemu's (acl/args.go):
// parameters in append order, each at the next multiple of 8 bytes;
// placeholder data after every parameter, its slot patched with the
// data's address at each launch. Argument handles live until the binary
// of their function is unloaded.

// KernelArgsInit implements rtsKernelArgsInit: an empty argument handle of
// the function.
func KernelArgsInit(t *core.Thread, fh core.Handle, out *core.Handle) error {
	const fn = "rtsKernelArgsInit"
	if out == nil {
		return invalid(fn, "argsHandle must not be NULL")
	}
	return wrapACL(fn, "aclrtKernelArgsInit", acl.KernelArgsInit(t, fh, out))
}

// KernelArgsInitByUserMem implements rtsKernelArgsInitByUserMem: the
// parameters are stored in userMem (the caller's actualArgsSize bytes,
// sized by rtsKernelArgsGetMemSize). It returns the runtime handle, which
// libfake stores in the caller's handle memory (rtsKernelArgsGetHandleMemSize
// bytes) as aclrtKernelArgsInitByUserMem does.
func KernelArgsInitByUserMem(t *core.Thread, fh core.Handle, userMem []byte) (core.Handle, error) {
	const fn = "rtsKernelArgsInitByUserMem"
	if len(userMem) == 0 {
		return 0, invalid(fn, "userHostMem must not be NULL and actualArgsSize must be > 0")
	}
	h, err := acl.KernelArgsInitByUserMem(t, fh, userMem)
	return h, wrapACL(fn, "aclrtKernelArgsInitByUserMem", err)
}

// KernelArgsAppend implements rtsKernelArgsAppend: para is copied at the
// next multiple of 8 bytes (at most 128 parameters).
func KernelArgsAppend(t *core.Thread, h core.Handle, para []byte, out *core.Handle) error {
	const fn = "rtsKernelArgsAppend"
	if len(para) == 0 || out == nil {
		return invalid(fn, "para must not be NULL, paraSize must be > 0 and paraHandle must not be NULL")
	}
	return wrapACL(fn, "aclrtKernelArgsAppend", acl.KernelArgsAppend(t, h, para, out))
}

// KernelArgsAppendPlaceHolder implements rtsKernelArgsAppendPlaceHolder:
// an 8-byte slot whose data lives in a runtime buffer
// (rtsKernelArgsGetPlaceHolderBuffer).
func KernelArgsAppendPlaceHolder(t *core.Thread, h core.Handle, out *core.Handle) error {
	const fn = "rtsKernelArgsAppendPlaceHolder"
	if out == nil {
		return invalid(fn, "paraHandle must not be NULL")
	}
	return wrapACL(fn, "aclrtKernelArgsAppendPlaceHolder", acl.KernelArgsAppendPlaceHolder(t, h, out))
}

// KernelArgsGetPlaceHolderBuffer implements
// rtsKernelArgsGetPlaceHolderBuffer: a host buffer of dataSize bytes
// (1 B..1 GiB) whose content is copied after the parameters at each launch.
func KernelArgsGetPlaceHolderBuffer(t *core.Thread, h, p core.Handle, size uint64, out *uintptr) error {
	const fn = "rtsKernelArgsGetPlaceHolderBuffer"
	if out == nil || size == 0 {
		return invalid(fn, "bufferAddr must not be NULL and dataSize must be > 0")
	}
	return wrapACL(fn, "aclrtKernelArgsGetPlaceHolderBuffer", acl.KernelArgsGetPlaceHolderBuffer(t, h, p, size, out))
}

// KernelArgsFinalize implements rtsKernelArgsFinalize: the layout is fixed
// for the next launches (every placeholder needs its buffer first).
func KernelArgsFinalize(t *core.Thread, h core.Handle) error {
	return wrapACL("rtsKernelArgsFinalize", "aclrtKernelArgsFinalize", acl.KernelArgsFinalize(t, h))
}

// KernelArgsParaUpdate implements rtsKernelArgsParaUpdate: a new value of
// the parameter's size; launches already queued keep the old one and the
// handle must be finalized again.
func KernelArgsParaUpdate(t *core.Thread, h, p core.Handle, para []byte) error {
	const fn = "rtsKernelArgsParaUpdate"
	if len(para) == 0 {
		return invalid(fn, "para must not be NULL and paraSize must be > 0")
	}
	return wrapACL(fn, "aclrtKernelArgsParaUpdate", acl.KernelArgsParaUpdate(t, h, p, para))
}

// KernelArgsGetMemSize implements rtsKernelArgsGetMemSize: the
// 8-byte-rounded user size (placeholder data lives in runtime buffers, so
// the parameters need nothing more).
func KernelArgsGetMemSize(t *core.Thread, fh core.Handle, userSize uint64, actual *uint64) error {
	const fn = "rtsKernelArgsGetMemSize"
	if actual == nil {
		return invalid(fn, "actualArgsSize must not be NULL")
	}
	return wrapACL(fn, "aclrtKernelArgsGetMemSize", acl.KernelArgsGetMemSize(t, fh, userSize, actual))
}

// KernelArgsGetHandleMemSize implements rtsKernelArgsGetHandleMemSize: the
// 16 bytes of caller memory rtsKernelArgsInitByUserMem makes a handle of.
func KernelArgsGetHandleMemSize(t *core.Thread, fh core.Handle, size *uint64) error {
	const fn = "rtsKernelArgsGetHandleMemSize"
	if size == nil {
		return invalid(fn, "memSize must not be NULL")
	}
	return wrapACL(fn, "aclrtKernelArgsGetHandleMemSize", acl.KernelArgsGetHandleMemSize(t, fh, size))
}
