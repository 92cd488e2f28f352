package rt

import (
	"strings"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The kernel registry of the rt* API: binaries, the functions (kernels) of
// a binary, their queries, and exported variables. rtBinHandle and
// rtFuncHandle are the handles of aclrtBinHandle and aclrtFuncHandle, so a
// binary loaded here is used through ACL and the other way round;
// acl/kernel.go and acl/kernel_query.go do the work (docs/kernels.md: an
// npuemu kernel binary is a host shared object exporting
// npuemu_kernel_table). Each function checks its own pointers (a NULL is
// ACL_ERROR_RT_PARAM_INVALID) and converts the rt enums; what ACL refuses
// comes back with the runtime's code (abi.RTCodeOf).
//
// Decisions where the documentation is silent:
//   - rtLoadBinaryConfig_t has aclrtBinaryLoadOptions's layout (acl-to-rt.tsv:
//     aclrtBinaryLoadFromFile reinterpret-casts one to the other); its
//     RT_LOAD_BINARY_OPT_* ids are converted to ACL's and checked as ACL
//     checks them (CPU kernel mode refused: AI CPU kernels are not emulated).
//   - rtBinaryLoadWithoutTilingKey is what aclrtBinaryLoad calls with the
//     bytes given to aclrtCreateBinary: a load from data without options.
//   - rtFunctionGetAttribute answers RT_FUNCTION_ATTR_KERNEL_TYPE with the
//     ACL_KERNEL_TYPE_* value (rt has no kernel-type enum of its own).
//   - rtSymbolLookup reports both the address and the size of a device
//     variable (aclrtGetSymbolAddress and aclrtGetSymbolSize call it); both
//     out-pointers must be given.

// wrapACL is wrap for an error of the ACL entry point aclFn doing the
// work: the message, which starts with aclFn's name, names the rt function
// instead.
func wrapACL(fn, aclFn string, err error) error {
	if err == nil {
		return nil
	}
	return abi.Errorf(abi.RTCodeOf(err), "%s: %s", fn, strings.TrimPrefix(message(err), aclFn+": "))
}

// loadOptions converts the options of an rtLoadBinaryConfig_t (rt ids) to
// the ACL options the loader checks.
func loadOptions(fn string, opts []core.BinaryLoadOption) ([]core.BinaryLoadOption, error) {
	if len(opts) == 0 {
		return nil, nil
	}
	out := make([]core.BinaryLoadOption, len(opts))
	for i, o := range opts {
		switch o.Type {
		case abi.RT_LOAD_BINARY_OPT_LAZY_LOAD:
			o.Type = abi.ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD
		case abi.RT_LOAD_BINARY_OPT_MAGIC:
			o.Type = abi.ACL_RT_BINARY_LOAD_OPT_MAGIC
		case abi.RT_LOAD_BINARY_OPT_CPU_KERNEL_MODE:
			o.Type = abi.ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE
		default:
			return nil, invalid(fn, "options[%d]: optionId %d is no rtLoadBinaryOption (RT_LOAD_BINARY_OPT_LAZY_LOAD..CPU_KERNEL_MODE)", i, o.Type)
		}
		out[i] = o
	}
	return out, nil
}

// BinaryLoadFromFile implements rtsBinaryLoadFromFile: an npuemu kernel
// binary (host shared object) from a file, as aclrtBinaryLoadFromFile.
func BinaryLoadFromFile(t *core.Thread, path string, opts []core.BinaryLoadOption, out *core.Handle) error {
	const fn = "rtsBinaryLoadFromFile"
	if out == nil || path == "" {
		return invalid(fn, "binPath must not be NULL or empty and handle must not be NULL")
	}
	o, err := loadOptions(fn, opts)
	if err != nil {
		return err
	}
	return wrapACL(fn, "aclrtBinaryLoadFromFile", acl.BinaryLoadFromFile(t, path, o, out))
}

// BinaryLoadFromData implements rtsBinaryLoadFromData: the binary's bytes
// are copied (loaded through a memfd), as aclrtBinaryLoadFromData.
func BinaryLoadFromData(t *core.Thread, data []byte, opts []core.BinaryLoadOption, out *core.Handle) error {
	const fn = "rtsBinaryLoadFromData"
	if out == nil || len(data) == 0 {
		return invalid(fn, "data must not be NULL, length must be > 0 and handle must not be NULL")
	}
	o, err := loadOptions(fn, opts)
	if err != nil {
		return err
	}
	return wrapACL(fn, "aclrtBinaryLoadFromData", acl.BinaryLoadFromData(t, data, o, out))
}

// BinaryLoadWithoutTilingKey implements rtBinaryLoadWithoutTilingKey: a
// load from data without options (what aclrtBinaryLoad does with the
// bytes of aclrtCreateBinary).
func BinaryLoadWithoutTilingKey(t *core.Thread, data []byte, out *core.Handle) error {
	const fn = "rtBinaryLoadWithoutTilingKey"
	if out == nil || len(data) == 0 {
		return invalid(fn, "data must not be NULL, length must be > 0 and binHandle must not be NULL")
	}
	return wrapACL(fn, "aclrtBinaryLoadFromData", acl.BinaryLoadFromData(t, data, nil, out))
}

// BinaryUnLoad implements rtBinaryUnLoad: the binary's function and
// argument handles die at once; the object is closed after its last
// queued launch.
func BinaryUnLoad(t *core.Thread, h core.Handle) error {
	const fn = "rtBinaryUnLoad"
	if h == 0 {
		return invalid(fn, "binHandle must not be NULL")
	}
	return wrapACL(fn, "aclrtBinaryUnLoad", acl.BinaryUnLoad(t, h))
}

// BinaryGetGlobal implements rtBinaryGetGlobal: a variable the kernel
// object exports (host memory the kernels use in place); one of dptr and
// size may be NULL, as in aclrtBinaryGetGlobal.
func BinaryGetGlobal(t *core.Thread, bh core.Handle, name string, dptr *uintptr, size *uint64) error {
	const fn = "rtBinaryGetGlobal"
	if name == "" || (dptr == nil && size == nil) {
		return invalid(fn, "name must not be NULL or empty, and dptr and size must not both be NULL")
	}
	return wrapACL(fn, "aclrtBinaryGetGlobal", acl.BinaryGetGlobal(t, bh, name, dptr, size))
}

// GetFuncBySymbol implements rtGetFuncBySymbol: the symbol of an npuemu
// kernel is its entry point in a loaded binary (what rtsFuncGetAddr
// reports).
func GetFuncBySymbol(t *core.Thread, symbol uintptr, out *core.Handle) error {
	const fn = "rtGetFuncBySymbol"
	if symbol == 0 || out == nil {
		return invalid(fn, "symbol and funcHandle must not be NULL")
	}
	return wrapACL(fn, "aclrtGetFuncBySymbol", acl.GetFuncBySymbol(t, symbol, out))
}

// SymbolLookup implements rtSymbolLookup: the device address (the
// variable itself, used in place) and size of a variable a loaded kernel
// binary exports, from its address.
func SymbolLookup(t *core.Thread, hostVar uintptr, devPtr *uintptr, size *uint64) error {
	const fn = "rtSymbolLookup"
	if hostVar == 0 || devPtr == nil || size == nil {
		return invalid(fn, "hostVar, devPtr and size must not be NULL")
	}
	var p uintptr
	if err := acl.GetSymbolAddress(t, hostVar, &p); err != nil {
		return wrapACL(fn, "aclrtGetSymbolAddress", err)
	}
	var n uint64
	if err := acl.GetSymbolSize(t, hostVar, &n); err != nil {
		return wrapACL(fn, "aclrtGetSymbolSize", err)
	}
	*devPtr, *size = p, n
	return nil
}

// FuncGetByName implements rtsFuncGetByName: the kernel of the binary's
// table with that name.
func FuncGetByName(t *core.Thread, bh core.Handle, name string, out *core.Handle) error {
	const fn = "rtsFuncGetByName"
	if name == "" || out == nil {
		return invalid(fn, "kernelName must not be NULL or empty and funcHandle must not be NULL")
	}
	return wrapACL(fn, "aclrtBinaryGetFunction", acl.BinaryGetFunction(t, bh, name, out))
}

// FuncGetAddr implements rtsFuncGetAddr: the host entry point stands for
// the cube part of AI Core/cube/mix kernels and the vector part of vector
// and mix kernels; an absent part is NULL.
func FuncGetAddr(t *core.Thread, fh core.Handle, aic, aiv *uintptr) error {
	const fn = "rtsFuncGetAddr"
	if aic == nil || aiv == nil {
		return invalid(fn, "aicAddr and aivAddr must not be NULL")
	}
	return wrapACL(fn, "aclrtGetFunctionAddr", acl.GetFunctionAddr(t, fh, aic, aiv))
}

// FuncGetName implements rtsFuncGetName: the kernel's name and its NUL in
// buf, the caller's maxLen bytes (nil for a NULL name).
func FuncGetName(t *core.Thread, fh core.Handle, buf []byte) error {
	const fn = "rtsFuncGetName"
	if len(buf) == 0 {
		return invalid(fn, "name must not be NULL and maxLen must be > 0")
	}
	s, err := acl.FunctionName(t, fh)
	if err != nil {
		return wrapACL(fn, "aclrtGetFunctionName", err)
	}
	if len(s)+1 > len(buf) {
		return invalid(fn, "the name %q needs %d bytes, maxLen is %d", s, len(s)+1, len(buf))
	}
	copy(buf, s)
	buf[len(s)] = 0
	return nil
}

// FuncGetSize implements rtFuncGetSize: the code size of the entry point
// (the object's symbol table; 0 when stripped) for the parts its kind
// declares, as rtsFuncGetAddr.
func FuncGetSize(t *core.Thread, fh core.Handle, aic, aiv *uint64) error {
	const fn = "rtFuncGetSize"
	if aic == nil || aiv == nil {
		return invalid(fn, "aicSize and aivSize must not be NULL")
	}
	return wrapACL(fn, "aclrtGetFunctionSize", acl.GetFunctionSize(t, fh, aic, aiv))
}

// funcAttribute maps an rtFuncAttribute to the aclrtFuncAttribute with the
// same meaning.
func funcAttribute(fn string, attr int32) (int32, error) {
	switch attr {
	case abi.RT_FUNCTION_ATTR_KERNEL_TYPE:
		return abi.ACL_FUNC_ATTR_KERNEL_TYPE, nil
	case abi.RT_FUNCTION_ATTR_KERNEL_RATIO:
		return abi.ACL_FUNC_ATTR_KERNEL_RATIO, nil
	case abi.RT_FUNCTION_ATTR_KERNEL_SCHED_MODE:
		return abi.ACL_FUNC_ATTR_KERNEL_SCHED_MODE, nil
	}
	return 0, invalid(fn, "attrType %d is no rtFuncAttribute (RT_FUNCTION_ATTR_KERNEL_TYPE..KERNEL_SCHED_MODE)", attr)
}

// FunctionGetAttribute implements rtFunctionGetAttribute: the kernel type
// (an ACL_KERNEL_TYPE_* value), the cube:vector ratio (bits 16..31 cube,
// 0..15 vector) and the schedule mode (0, normal) from the kernel table.
func FunctionGetAttribute(t *core.Thread, fh core.Handle, attr int32, v *int64) error {
	const fn = "rtFunctionGetAttribute"
	if v == nil {
		return invalid(fn, "attrValue must not be NULL")
	}
	a, err := funcAttribute(fn, attr)
	if err != nil {
		return err
	}
	return wrapACL(fn, "aclrtGetFunctionAttribute", acl.GetFunctionAttribute(t, fh, a, v))
}

// FunctionGetBinary implements rtFunctionGetBinary.
func FunctionGetBinary(t *core.Thread, fh core.Handle, out *core.Handle) error {
	const fn = "rtFunctionGetBinary"
	if out == nil {
		return invalid(fn, "binHandle must not be NULL")
	}
	return wrapACL(fn, "aclrtFunctionGetBinary", acl.FunctionGetBinary(t, fh, out))
}

// FunctionGetParamCount implements rtFunctionGetParamCount: func is a
// function handle or a kernel's entry point; the count is the kernel
// table's num_params (a kernel that declares none is refused with
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT, as in ACL).
func FunctionGetParamCount(t *core.Thread, fptr uintptr, count *uint64) error {
	const fn = "rtFunctionGetParamCount"
	if fptr == 0 || count == nil {
		return invalid(fn, "func and paramCount must not be NULL")
	}
	return wrapACL(fn, "aclrtFunctionGetParamCount", acl.FunctionGetParamCount(t, fptr, count))
}

// FunctionGetParamInfo implements rtFunctionGetParamInfo: the offset and
// size of parameter i, packed as rtsKernelArgsAppend packs (each at the
// next multiple of 8 bytes).
func FunctionGetParamInfo(t *core.Thread, fptr uintptr, i uint64, off, size *uint64) error {
	const fn = "rtFunctionGetParamInfo"
	if fptr == 0 || off == nil || size == nil {
		return invalid(fn, "func, paramOffset and paramSize must not be NULL")
	}
	return wrapACL(fn, "aclrtFunctionGetParamInfo", acl.FunctionGetParamInfo(t, fptr, i, off, size))
}

// FunctionGetAvailDynUbufPerBlock implements
// rtFunctionGetAvailDynUbufPerBlock: 0, as for every kernel that is not a
// SIMT kernel of the Ascend 950 (npuemu kernels are not).
func FunctionGetAvailDynUbufPerBlock(t *core.Thread, fptr uintptr, flags uint32, size *uint64) error {
	const fn = "rtFunctionGetAvailDynUbufPerBlock"
	if fptr == 0 || size == nil {
		return invalid(fn, "func and dynamicUbufSize must not be NULL")
	}
	return wrapACL(fn, "aclrtFunctionGetAvailDynUbufPerBlock", acl.FunctionGetAvailDynUbufPerBlock(t, fptr, flags, size))
}

// RegisterCpuFunc implements rtsRegisterCpuFunc: it registers AI CPU
// kernels of binaries loaded in CPU kernel mode; npuemu's binaries are AI
// Core binaries, for which the call fails with ACL_ERROR_RT_PARAM_INVALID
// (as aclrtRegisterCpuFunc documents).
func RegisterCpuFunc(t *core.Thread, bh core.Handle, funcName, kernelName string, out *core.Handle) error {
	const fn = "rtsRegisterCpuFunc"
	if funcName == "" || kernelName == "" || out == nil {
		return invalid(fn, "funcName and kernelName must not be NULL or empty and funcHandle must not be NULL")
	}
	return wrapACL(fn, "aclrtRegisterCpuFunc", acl.RegisterCpuFunc(t, bh, funcName, kernelName, out))
}
