package acl

import (
	"os"
	"strings"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

// Kernels (docs/kernels.md). A kernel binary is a host shared object
// following emu/include/npuemu/kernel.h; the KernelHost (libfake, C) opens
// it, reads its kernel table and runs blocks under a fault guard. acl keeps
// the handles (binaries, functions, args), builds the launch image of the
// arguments and queues a tsfw kernel task whose blocks call the host.
//
// Launch hot path: three O(1) handle lookups, a launch object from a free
// list (its argument buffer is reused), one copy of the blob, one Submit;
// no memdb, no allocation in the steady state.

// platform is the process node's platform (emu.Platform): the zero value
// before the node exists.
func platform() emu.Platform {
	if n := core.Runtime.Node.Load(); n != nil {
		return n.Platform()
	}
	return emu.Platform{}
}

// kernelHost is the kernel host of the node's platform.
func kernelHost(fn string) (core.KernelHost, error) {
	h := platform().Kernels
	if h == nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: this build of npuemu has no kernel host (kernels run only through libnpuemu.so)", fn)
	}
	return h, nil
}

// notKernelBinary is the message for a file the loader refuses.
const notKernelBinary = "npuemu runs kernels built as host shared objects that export npuemu_kernel_table " +
	"(build with `cc -shared -fPIC -I emu/include kernel.c -o kernel.so`, see docs/kernels.md); real AI Core binaries cannot run on the emulator"

func checkLoadOptions(fn string, opts []core.BinaryLoadOption) error {
	for _, o := range opts {
		switch o.Type {
		case abi.ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
			if o.Value > 1 {
				return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: isLazyLoad %d: want 0 or 1", fn, o.Value)
			}
		case abi.ACL_RT_BINARY_LOAD_OPT_MAGIC:
			switch o.Value {
			case abi.ACL_RT_BINARY_MAGIC_ELF_AICORE, abi.ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE, abi.ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE:
			default:
				return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: magic %#x is none of ACL_RT_BINARY_MAGIC_ELF_*", fn, o.Value)
			}
		case abi.ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
			return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: AI CPU kernels (ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE) are not emulated", fn)
		default:
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtBinaryLoadOptionType %d", fn, o.Type)
		}
	}
	return nil
}

// BinaryLoadFromFile implements aclrtBinaryLoadFromFile.
func BinaryLoadFromFile(t *core.Thread, path string, opts []core.BinaryLoadOption, out *core.Handle) error {
	const fn = "aclrtBinaryLoadFromFile"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: binHandle must not be NULL", fn)
	}
	if path == "" {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: binPath must not be NULL or empty", fn)
	}
	if err := checkLoadOptions(fn, opts); err != nil {
		return err
	}
	if _, err := core.Current(t, fn); err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "%s: %v", fn, err)
	}
	if !st.Mode().IsRegular() {
		return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "%s: %s is not a regular file", fn, path)
	}
	h, err := kernelHost(fn)
	if err != nil {
		return err
	}
	lib, entries, err := h.Open(path)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "%s: %s is not an npuemu kernel binary (%v): %s", fn, path, err, notKernelBinary)
	}
	b := core.NewBinary(h, lib, path, entries)
	core.RegisterEntries(b) // kernel_query.go
	*out = b.H
	return nil
}

// BinaryLoadFromData implements aclrtBinaryLoadFromData.
func BinaryLoadFromData(t *core.Thread, data []byte, opts []core.BinaryLoadOption, out *core.Handle) error {
	const fn = "aclrtBinaryLoadFromData"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: binHandle must not be NULL", fn)
	}
	if len(data) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: data must not be NULL and length must be > 0", fn)
	}
	if err := checkLoadOptions(fn, opts); err != nil {
		return err
	}
	if _, err := core.Current(t, fn); err != nil {
		return err
	}
	h, err := kernelHost(fn)
	if err != nil {
		return err
	}
	lib, entries, err := h.Load(data)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "%s: the %d bytes are not an npuemu kernel binary (%v): %s", fn, len(data), err, notKernelBinary)
	}
	b := core.NewBinary(h, lib, "", entries)
	core.RegisterEntries(b) // kernel_query.go
	*out = b.H
	return nil
}

// BinaryUnLoad implements aclrtBinaryUnLoad. Its handles die at once; the
// shared object is closed when its last queued launch has finished.
func BinaryUnLoad(t *core.Thread, h core.Handle) error {
	const fn = "aclrtBinaryUnLoad"
	b, err := core.ResolveBinary(fn, h)
	if err != nil {
		return err
	}
	if !b.Unload() {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: binary %#x was already unloaded", fn, uintptr(h))
	}
	core.UnregisterEntries(b) // kernel_query.go
	b.MaybeClose()
	return nil
}

// BinaryGetFunction implements aclrtBinaryGetFunction.
func BinaryGetFunction(t *core.Thread, h core.Handle, name string, out *core.Handle) error {
	const fn = "aclrtBinaryGetFunction"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: funcHandle must not be NULL", fn)
	}
	if name == "" {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: kernelName must not be NULL or empty", fn)
	}
	b, err := core.ResolveBinary(fn, h)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(b.Funcs))
	for _, f := range b.Funcs {
		if f.Entry.Name == name {
			*out = f.H
			return nil
		}
		names = append(names, f.Entry.Name)
	}
	return abi.Errorf(abi.ACL_ERROR_RT_KERNEL_LOOKUP, "%s: the binary has no kernel %q (its table lists: %s)", fn, name, strings.Join(names, ", "))
}

// FunctionGetBinary implements aclrtFunctionGetBinary.
func FunctionGetBinary(t *core.Thread, fh core.Handle, out *core.Handle) error {
	const fn = "aclrtFunctionGetBinary"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: binHandle must not be NULL", fn)
	}
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	*out = f.Bin.H
	return nil
}

// FunctionName returns the kernel name (aclrtGetFunctionName; libfake
// copies it out).
func FunctionName(t *core.Thread, fh core.Handle) (string, error) {
	f, err := core.ResolveFunction("aclrtGetFunctionName", fh)
	if err != nil {
		return "", err
	}
	return f.Entry.Name, nil
}

// GetFunctionAddr implements aclrtGetFunctionAddr: the entry point is the
// cube part of cube/AI Core/mix kernels and the vector part of vector and
// mix kernels; an absent part is 0.
func GetFunctionAddr(t *core.Thread, fh core.Handle, aic, aiv *uintptr) error {
	const fn = "aclrtGetFunctionAddr"
	if aic == nil || aiv == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: aicAddr and aivAddr must not be NULL", fn)
	}
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	*aic, *aiv = 0, 0
	switch f.Entry.Kind {
	case abi.ACL_KERNEL_TYPE_VECTOR:
		*aiv = f.Entry.Fn
	case abi.ACL_KERNEL_TYPE_MIX:
		*aic, *aiv = f.Entry.Fn, f.Entry.Fn
	default:
		*aic = f.Entry.Fn
	}
	return nil
}

// GetFunctionAttribute implements aclrtGetFunctionAttribute.
func GetFunctionAttribute(t *core.Thread, fh core.Handle, attr int32, v *int64) error {
	const fn = "aclrtGetFunctionAttribute"
	if v == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attrValue must not be NULL", fn)
	}
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	switch attr {
	case abi.ACL_FUNC_ATTR_KERNEL_TYPE:
		*v = int64(f.Entry.Kind)
	case abi.ACL_FUNC_ATTR_KERNEL_RATIO:
		// uint16[1] is the cube part, uint16[0] the vector part.
		c, vec := int64(1), int64(0)
		switch f.Entry.Kind {
		case abi.ACL_KERNEL_TYPE_VECTOR:
			c, vec = 0, 1
		case abi.ACL_KERNEL_TYPE_MIX:
			c, vec = int64(max(f.Entry.MixCube, 1)), int64(f.Entry.MixVector)
			if vec == 0 {
				vec = 2
			}
		}
		*v = c<<16 | vec
	case abi.ACL_FUNC_ATTR_KERNEL_SCHED_MODE:
		*v = 0 // normal; a launch may ask for batch mode
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtFuncAttribute %d", fn, attr)
	}
	return nil
}
