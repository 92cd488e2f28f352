package rt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// The rt enums of the kernel registry are converted, never passed through:
// every rtLoadBinaryOption and rtFuncAttribute maps to the ACL value of the
// same meaning, anything else is the runtime's ACL_ERROR_RT_PARAM_INVALID.
func TestKernelRegistryEnums(t *testing.T) {
	in := []core.BinaryLoadOption{
		{Type: abi.RT_LOAD_BINARY_OPT_LAZY_LOAD, Value: 1},
		{Type: abi.RT_LOAD_BINARY_OPT_MAGIC, Value: abi.ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE},
		{Type: abi.RT_LOAD_BINARY_OPT_CPU_KERNEL_MODE, Value: 2},
	}
	out, err := loadOptions("f", in)
	require.NoError(t, err)
	assert.Equal(t, []core.BinaryLoadOption{
		{Type: abi.ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD, Value: 1},
		{Type: abi.ACL_RT_BINARY_LOAD_OPT_MAGIC, Value: abi.ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE},
		{Type: abi.ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE, Value: 2},
	}, out)
	for _, bad := range []int32{0, abi.RT_LOAD_BINARY_OPT_MAX, -1} {
		_, err := loadOptions("f", []core.BinaryLoadOption{{Type: bad}})
		assert.Equal(t, abi.Code(abi.ACL_ERROR_RT_PARAM_INVALID), abi.CodeOf(err), "optionId %d", bad)
	}
	for rtv, aclv := range map[int32]int32{
		abi.RT_FUNCTION_ATTR_KERNEL_TYPE:       abi.ACL_FUNC_ATTR_KERNEL_TYPE,
		abi.RT_FUNCTION_ATTR_KERNEL_RATIO:      abi.ACL_FUNC_ATTR_KERNEL_RATIO,
		abi.RT_FUNCTION_ATTR_KERNEL_SCHED_MODE: abi.ACL_FUNC_ATTR_KERNEL_SCHED_MODE,
	} {
		got, err := funcAttribute("f", rtv)
		require.NoError(t, err)
		assert.Equal(t, aclv, got)
	}
	_, err = funcAttribute("f", abi.RT_FUNCTION_ATTR_MAX)
	assert.Equal(t, abi.Code(abi.ACL_ERROR_RT_PARAM_INVALID), abi.CodeOf(err))
}

// Argument errors answer the runtime's codes, naming the rt function; a
// handle that is none answers ACL_ERROR_RT_INVALID_HANDLE; without a
// kernel host (this test binary is not libnpuemu.so) a load is refused
// with ACL_ERROR_RT_FEATURE_NOT_SUPPORT after the options are checked.
func TestKernelRegistryCodes(t *testing.T) {
	th := setup(t)
	var h core.Handle
	var p uintptr
	var n uint64
	var v int64
	bogus := core.Handle(0x7000_0000_1234)

	requireRT(t, BinaryLoadFromFile(th, "", nil, &h), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsBinaryLoadFromFile")
	requireRT(t, BinaryLoadFromFile(th, "/x.so", nil, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsBinaryLoadFromFile")
	requireRT(t, BinaryLoadFromFile(th, "/x.so", []core.BinaryLoadOption{{Type: 99}}, &h), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsBinaryLoadFromFile")
	requireRT(t, BinaryLoadFromData(th, []byte{1}, []core.BinaryLoadOption{{Type: abi.RT_LOAD_BINARY_OPT_CPU_KERNEL_MODE}}, &h),
		abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "rtsBinaryLoadFromData")
	requireRT(t, BinaryLoadFromData(th, []byte{1}, nil, &h), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "rtsBinaryLoadFromData")
	requireRT(t, BinaryLoadWithoutTilingKey(th, nil, &h), abi.ACL_ERROR_RT_PARAM_INVALID, "rtBinaryLoadWithoutTilingKey")
	assert.Zero(t, h, "no handle written on failure")

	requireRT(t, BinaryUnLoad(th, 0), abi.ACL_ERROR_RT_PARAM_INVALID, "rtBinaryUnLoad")
	requireRT(t, BinaryUnLoad(th, bogus), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtBinaryUnLoad")
	requireRT(t, FuncGetByName(th, bogus, "k", &h), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtsFuncGetByName")
	requireRT(t, FuncGetByName(th, bogus, "", &h), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsFuncGetByName")
	requireRT(t, BinaryGetGlobal(th, bogus, "g", nil, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtBinaryGetGlobal")
	requireRT(t, BinaryGetGlobal(th, bogus, "g", &p, nil), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtBinaryGetGlobal")
	requireRT(t, GetFuncBySymbol(th, 0, &h), abi.ACL_ERROR_RT_PARAM_INVALID, "rtGetFuncBySymbol")
	requireRT(t, GetFuncBySymbol(th, 0x1000, &h), abi.ACL_ERROR_RT_KERNEL_LOOKUP, "rtGetFuncBySymbol")
	requireRT(t, SymbolLookup(th, 0x1000, &p, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtSymbolLookup")
	requireRT(t, FuncGetAddr(th, bogus, &p, &p), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtsFuncGetAddr")
	requireRT(t, FuncGetName(th, bogus, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsFuncGetName")
	requireRT(t, FuncGetName(th, bogus, make([]byte, 8)), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtsFuncGetName")
	requireRT(t, FuncGetSize(th, bogus, &n, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtFuncGetSize")
	requireRT(t, FunctionGetAttribute(th, bogus, abi.RT_FUNCTION_ATTR_MAX, &v), abi.ACL_ERROR_RT_PARAM_INVALID, "rtFunctionGetAttribute")
	requireRT(t, FunctionGetAttribute(th, bogus, abi.RT_FUNCTION_ATTR_KERNEL_TYPE, &v), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtFunctionGetAttribute")
	requireRT(t, FunctionGetBinary(th, bogus, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtFunctionGetBinary")
	requireRT(t, FunctionGetParamCount(th, uintptr(bogus), &n), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtFunctionGetParamCount")
	requireRT(t, FunctionGetParamInfo(th, uintptr(bogus), 0, &n, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtFunctionGetParamInfo")
	requireRT(t, FunctionGetAvailDynUbufPerBlock(th, 0, 0, &n), abi.ACL_ERROR_RT_PARAM_INVALID, "rtFunctionGetAvailDynUbufPerBlock")
	requireRT(t, RegisterCpuFunc(th, bogus, "f", "k", &h), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtsRegisterCpuFunc")

	requireRT(t, KernelArgsInit(th, bogus, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsKernelArgsInit")
	requireRT(t, KernelArgsInit(th, bogus, &h), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtsKernelArgsInit")
	_, err := KernelArgsInitByUserMem(th, bogus, nil)
	requireRT(t, err, abi.ACL_ERROR_RT_PARAM_INVALID, "rtsKernelArgsInitByUserMem")
	requireRT(t, KernelArgsAppend(th, bogus, []byte{1}, &h), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtsKernelArgsAppend")
	requireRT(t, KernelArgsAppendPlaceHolder(th, bogus, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsKernelArgsAppendPlaceHolder")
	requireRT(t, KernelArgsGetPlaceHolderBuffer(th, bogus, 1, 0, &p), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsKernelArgsGetPlaceHolderBuffer")
	requireRT(t, KernelArgsFinalize(th, 0), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsKernelArgsFinalize")
	requireRT(t, KernelArgsParaUpdate(th, bogus, 1, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsKernelArgsParaUpdate")
	requireRT(t, KernelArgsGetMemSize(th, bogus, 8, &n), abi.ACL_ERROR_RT_INVALID_HANDLE, "rtsKernelArgsGetMemSize")
	requireRT(t, KernelArgsGetHandleMemSize(th, bogus, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtsKernelArgsGetHandleMemSize")
}
