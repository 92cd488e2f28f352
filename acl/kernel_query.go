package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Kernel queries and the remaining binary calls: parameter layout, code
// sizes, entry addresses, exported globals, binaries created from memory.

// resolveFuncOrSymbol resolves the `void *func` of the calls that accept a
// function handle or a kernel symbol (entry address).
func resolveFuncOrSymbol(fn string, p uintptr) (*core.Function, error) {
	if p == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: func must not be NULL", fn)
	}
	if k, _, _ := core.Handle(p).Parts(); k == core.KindFunction {
		return core.ResolveFunction(fn, core.Handle(p))
	}
	if f := core.FunctionByEntry(p); f != nil {
		return f, nil
	}
	return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %#x is neither a function handle nor the entry of a kernel of a loaded binary", fn, p)
}

// GetFuncBySymbol implements aclrtGetFuncBySymbol: the symbol of an npuemu
// kernel is its entry point (npuemu_kernel_entry.fn, as
// aclrtGetFunctionAddr reports it) in a loaded binary.
func GetFuncBySymbol(t *core.Thread, symbol uintptr, out *core.Handle) error {
	const fn = "aclrtGetFuncBySymbol"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: funcHandle must not be NULL", fn)
	}
	if symbol == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: symbol must not be NULL", fn)
	}
	f := core.FunctionByEntry(symbol)
	if f == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_KERNEL_LOOKUP, "%s: %#x is not the entry of a kernel of a loaded binary (npuemu kernels are found by their npuemu_kernel_entry.fn)", fn, symbol)
	}
	*out = f.H
	return nil
}

// paramSlot is where one parameter lies in the blob.
type paramSlot struct{ off, size int }

// params returns f's parameter layout, packed as aclrtKernelArgsAppend
// packs it: each parameter at the next multiple of 8 bytes.
func params(f *core.Function, fn string) ([]paramSlot, error) {
	n := int(f.Entry.NumParams)
	if n == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			"%s: kernel %s does not declare its parameters (set .num_params, and .param_sizes for parameters that are not 8 bytes, in its NPUEMU_KERNEL entry)", fn, f.Entry.Name)
	}
	out := make([]paramSlot, n)
	off := 0
	for i := range out {
		size := 8
		if f.Entry.ParamSizes != nil {
			size = int(f.Entry.ParamSizes[i])
		}
		off = core.Align8(off)
		out[i] = paramSlot{off, size}
		off += size
	}
	return out, nil
}

// FunctionGetParamCount implements aclrtFunctionGetParamCount from the
// kernel table's num_params.
func FunctionGetParamCount(t *core.Thread, fptr uintptr, count *uint64) error {
	const fn = "aclrtFunctionGetParamCount"
	if count == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: paramCount must not be NULL", fn)
	}
	f, err := resolveFuncOrSymbol(fn, fptr)
	if err != nil {
		return err
	}
	p, err := params(f, fn)
	if err != nil {
		return err
	}
	*count = uint64(len(p))
	return nil
}

// FunctionGetParamInfo implements aclrtFunctionGetParamInfo: the offset and
// size of parameter i in the blob.
func FunctionGetParamInfo(t *core.Thread, fptr uintptr, i uint64, off, size *uint64) error {
	const fn = "aclrtFunctionGetParamInfo"
	if off == nil || size == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: paramOffset and paramSize must not be NULL", fn)
	}
	f, err := resolveFuncOrSymbol(fn, fptr)
	if err != nil {
		return err
	}
	p, err := params(f, fn)
	if err != nil {
		return err
	}
	if i >= uint64(len(p)) {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: paramIndex %d: kernel %s has %d parameters", fn, i, f.Entry.Name, len(p))
	}
	*off, *size = uint64(p[i].off), uint64(p[i].size)
	return nil
}

// GetFunctionSize implements aclrtGetFunctionSize: the code size of the
// entry point (from the object's symbol table) for the part its kind
// declares, as aclrtGetFunctionAddr; an absent part is 0.
func GetFunctionSize(t *core.Thread, fh core.Handle, aic, aiv *uint64) error {
	const fn = "aclrtGetFunctionSize"
	if aic == nil || aiv == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: aicSize and aivSize must not be NULL", fn)
	}
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	*aic, *aiv = 0, 0
	switch f.Entry.Kind {
	case abi.ACL_KERNEL_TYPE_VECTOR:
		*aiv = f.Entry.CodeSize
	case abi.ACL_KERNEL_TYPE_MIX:
		*aic, *aiv = f.Entry.CodeSize, f.Entry.CodeSize
	default:
		*aic = f.Entry.CodeSize
	}
	return nil
}

// FunctionGetAvailDynUbufPerBlock implements
// aclrtFunctionGetAvailDynUbufPerBlock: 0, as for every kernel that is not
// a SIMT kernel of the Ascend 950.
func FunctionGetAvailDynUbufPerBlock(t *core.Thread, fptr uintptr, flags uint32, size *uint64) error {
	const fn = "aclrtFunctionGetAvailDynUbufPerBlock"
	if size == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dynamicUbufSize must not be NULL", fn)
	}
	if _, err := resolveFuncOrSymbol(fn, fptr); err != nil {
		return err
	}
	*size = 0
	return nil
}

// BinaryGetGlobal implements aclrtBinaryGetGlobal: a global of a host
// kernel binary is a variable the object exports (default visibility); its
// address is host memory the kernels use directly, written and read with
// plain loads and stores or aclrtMemcpy.
func BinaryGetGlobal(t *core.Thread, bh core.Handle, name string, dptr *uintptr, size *uint64) error {
	const fn = "aclrtBinaryGetGlobal"
	if dptr == nil && size == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dptr and size must not both be NULL", fn)
	}
	if name == "" {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: name must not be NULL or empty", fn)
	}
	b, err := core.ResolveBinary(fn, bh)
	if err != nil {
		return err
	}
	addr, n, err := b.Host.Global(b.Lib, name)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_RT_KERNEL_LOOKUP, "%s: %s has no global %q: %v", fn, b, name, err)
	}
	if dptr != nil {
		*dptr = addr
	}
	if size != nil {
		*size = n
	}
	return nil
}

// RegisterCpuFunc implements aclrtRegisterCpuFunc. It registers AI CPU
// kernels of binaries loaded in CPU kernel mode 2; npuemu loads AI Core
// (host) kernels only, and for those the call fails as documented.
func RegisterCpuFunc(t *core.Thread, bh core.Handle, funcName, kernelName string, out *core.Handle) error {
	const fn = "aclrtRegisterCpuFunc"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: funcHandle must not be NULL", fn)
	}
	if funcName == "" || kernelName == "" {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: funcName and kernelName must not be NULL or empty", fn)
	}
	b, err := core.ResolveBinary(fn, bh)
	if err != nil {
		return err
	}
	return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %s is not an AI CPU binary (npuemu loads AI Core kernels as host objects; AI CPU kernels are not emulated)", fn, b)
}

// CreateBinary implements aclrtCreateBinary: data stays the caller's and
// must live until aclrtBinaryLoad.
func CreateBinary(t *core.Thread, data []byte) (core.Handle, error) {
	const fn = "aclrtCreateBinary"
	if len(data) == 0 {
		return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: data must not be NULL and dataLen must be > 0", fn)
	}
	r := &core.RawBinary{Data: data}
	r.H = core.RawBinaries.Add(r)
	return r.H, nil
}

func resolveRawBinary(fn string, h core.Handle) (*core.RawBinary, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: binary must not be NULL", fn)
	}
	r, err := core.RawBinaries.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return r, nil
}

// DestroyBinary implements aclrtDestroyBinary; binaries loaded from it stay
// loaded.
func DestroyBinary(t *core.Thread, h core.Handle) error {
	const fn = "aclrtDestroyBinary"
	if _, err := resolveRawBinary(fn, h); err != nil {
		return err
	}
	if !core.RawBinaries.Remove(h) {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: binary %#x was already destroyed", fn, uintptr(h))
	}
	return nil
}

// BinaryLoad implements aclrtBinaryLoad: aclrtBinaryLoadFromData of the
// bytes given to aclrtCreateBinary.
func BinaryLoad(t *core.Thread, h core.Handle, out *core.Handle) error {
	const fn = "aclrtBinaryLoad"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: binHandle must not be NULL", fn)
	}
	r, err := resolveRawBinary(fn, h)
	if err != nil {
		return err
	}
	if err := BinaryLoadFromData(t, r.Data, nil, out); err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	return nil
}
