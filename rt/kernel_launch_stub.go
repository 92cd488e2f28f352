package rt

import (
	"strconv"
	"strings"
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Registered binaries, stub functions and tiling-key entries: the older
// kernel API that operator libraries and NPU-sharing layers use
// (rtDevBinaryRegister + rtFunctionRegister + rtKernelLaunch*, and
// rtRegisterAllKernel + rtKernelLaunchWithHandle*). HAMi's vNPU limiter
// hooks rtKernelLaunchWithFlagV2 and rtKernelLaunchWithHandleV2.
//
// Decisions (docs/stack.md, "The rt layer"):
//
//   - rtDevBinary_t.data holds what aclrtBinaryLoadFromData accepts: an
//     npuemu kernel binary (a host shared object exporting
//     npuemu_kernel_table, docs/kernels.md), length bytes of it. magic is
//     one of the AI Core kinds (RT_DEV_BINARY_MAGIC_ELF, _ELF_AIVEC,
//     _ELF_AICUBE, _PLAIN, _PLAIN_AIVEC); the AI CPU kinds are refused
//     with ACL_ERROR_RT_FEATURE_NOT_SUPPORT (AI CPU kernels are launched by
//     name from host shared objects, kernel_launch_aicpu.go). The handle
//     both calls return is the binary handle of aclrtBinaryLoadFromData:
//     aclrtBinaryGetFunction and the other binary calls take it.
//   - rtFunctionRegister binds stubFunc, any host address the caller uses
//     as the kernel's key, to the kernel of the binary named by
//     kernelInfoExt (a C string: the device function's name, as operator
//     libraries pass it), or by stubName when kernelInfoExt is NULL. An
//     unknown name is ACL_ERROR_RT_KERNEL_LOOKUP; registering a stub again
//     binds it anew (the latest registration wins).
//   - rtKernelLaunchWithHandle* picks the kernel of the binary whose name
//     ends in "_<tilingKey>" (decimal), the name Ascend C gives each
//     tiling-key variant of a kernel; none is ACL_ERROR_RT_KERNEL_LOOKUP.
//   - flags (RT_KERNEL_*) may be any of the bits the runtime defines
//     (0x1FF); RT_KERNEL_DUMPFLAG marks the task for data dump as the
//     ACL attribute does, the others have no effect on the emulator.
//     Other bits are ACL_ERROR_RT_PARAM_INVALID.

// stubs maps stub addresses to their registration.
var stubs struct {
	mu sync.Mutex
	m  map[uintptr]stub
}

type stub struct {
	bin core.Handle
	f   core.Handle
}

// DevBinary is an rtDevBinary_t read by libfake (Data: its length bytes,
// not copied; loading copies them).
type DevBinary struct {
	Magic, Version uint32
	Data           []byte
	HaveData       bool
}

func registerBinary(t *core.Thread, fn string, bin *DevBinary, out *core.Handle) error {
	if bin == nil {
		return invalid(fn, "bin must not be NULL")
	}
	if out == nil {
		return invalid(fn, "hdl must not be NULL")
	}
	switch bin.Magic {
	case abi.RT_DEV_BINARY_MAGIC_ELF, abi.RT_DEV_BINARY_MAGIC_ELF_AIVEC, abi.RT_DEV_BINARY_MAGIC_ELF_AICUBE,
		abi.RT_DEV_BINARY_MAGIC_PLAIN, abi.RT_DEV_BINARY_MAGIC_PLAIN_AIVEC:
	case abi.RT_DEV_BINARY_MAGIC_ELF_AICPU, abi.RT_DEV_BINARY_MAGIC_PLAIN_AICPU:
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: AI CPU binaries (magic %#x) are not registered on npuemu: AI CPU kernels are launched by so and kernel name (rtAicpuKernelLaunch*)", fn, bin.Magic)
	default:
		return invalid(fn, "bin->magic %#x is none of RT_DEV_BINARY_MAGIC_*", bin.Magic)
	}
	if !bin.HaveData || len(bin.Data) == 0 {
		return invalid(fn, "bin->data must not be NULL and bin->length must be > 0")
	}
	var h core.Handle
	if err := acl.BinaryLoadFromData(t, bin.Data, nil, &h); err != nil {
		return wrap(fn, err)
	}
	*out = h
	return nil
}

// DevBinaryRegister implements rtDevBinaryRegister: the binary is loaded as
// aclrtBinaryLoadFromData loads it; its kernels are launched through stubs
// (FunctionRegister).
func DevBinaryRegister(t *core.Thread, bin *DevBinary, out *core.Handle) error {
	return registerBinary(t, "rtDevBinaryRegister", bin, out)
}

// RegisterAllKernel implements rtRegisterAllKernel: the binary is loaded
// and every kernel of it is launchable by tiling key
// (KernelLaunchWithHandleV2).
func RegisterAllKernel(t *core.Thread, bin *DevBinary, out *core.Handle) error {
	return registerBinary(t, "rtRegisterAllKernel", bin, out)
}

// DevBinaryUnRegister implements rtDevBinaryUnRegister: the binary is
// unloaded (its queued launches finish first) and the stubs registered to
// it are forgotten.
func DevBinaryUnRegister(t *core.Thread, h core.Handle) error {
	const fn = "rtDevBinaryUnRegister"
	if h == 0 {
		return invalid(fn, "hdl must not be NULL")
	}
	if err := acl.BinaryUnLoad(t, h); err != nil {
		return wrap(fn, err)
	}
	stubs.mu.Lock()
	defer stubs.mu.Unlock()
	for k, s := range stubs.m {
		if s.bin == h {
			delete(stubs.m, k)
		}
	}
	return nil
}

// FunctionRegister implements rtFunctionRegister: stubFunc names the
// kernel called kernelName (kernelInfoExt, or stubName when that is NULL)
// of the binary from here on.
func FunctionRegister(t *core.Thread, bh core.Handle, stubFunc uintptr, stubName, kernelName string, haveName bool) error {
	const fn = "rtFunctionRegister"
	if stubFunc == 0 {
		return invalid(fn, "stubFunc must not be NULL")
	}
	if !haveName || kernelName == "" {
		return invalid(fn, "stubName (or kernelInfoExt) must name the kernel; got NULL or empty")
	}
	b, err := core.ResolveBinary(fn, bh)
	if err != nil {
		return recode(err)
	}
	names := make([]string, 0, len(b.Funcs))
	for _, f := range b.Funcs {
		if f.Entry.Name == kernelName {
			stubs.mu.Lock()
			defer stubs.mu.Unlock()
			if stubs.m == nil {
				stubs.m = map[uintptr]stub{}
			}
			stubs.m[stubFunc] = stub{bin: bh, f: f.H}
			return nil
		}
		names = append(names, f.Entry.Name)
	}
	return abi.Errorf(abi.ACL_ERROR_RT_KERNEL_LOOKUP, "%s: the binary has no kernel %q (stub %q; its table lists: %s)", fn, kernelName, stubName, strings.Join(names, ", "))
}

// stubFunction resolves a registered stub.
func stubFunction(fn string, stubFunc uintptr) (*core.Function, error) {
	if stubFunc == 0 {
		return nil, invalid(fn, "stubFunc must not be NULL")
	}
	stubs.mu.Lock()
	s, ok := stubs.m[stubFunc]
	stubs.mu.Unlock()
	if !ok {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_KERNEL_LOOKUP, "%s: stubFunc %#x is not registered (rtFunctionRegister)", fn, stubFunc)
	}
	f, err := core.ResolveFunction(fn, s.f)
	if err != nil {
		return nil, recode(err)
	}
	return f, nil
}

// tilingFunction resolves the kernel of binary bh for tilingKey.
func tilingFunction(fn string, bh core.Handle, key uint64) (*core.Function, error) {
	if bh == 0 {
		return nil, invalid(fn, "hdl must not be NULL")
	}
	b, err := core.ResolveBinary(fn, bh)
	if err != nil {
		return nil, recode(err)
	}
	sfx := "_" + strconv.FormatUint(key, 10)
	names := make([]string, 0, len(b.Funcs))
	for _, f := range b.Funcs {
		if strings.HasSuffix(f.Entry.Name, sfx) {
			return f, nil
		}
		names = append(names, f.Entry.Name)
	}
	return nil, abi.Errorf(abi.ACL_ERROR_RT_KERNEL_LOOKUP, "%s: the binary has no kernel for tiling key %d (a kernel named *%s; its table lists: %s)", fn, key, sfx, strings.Join(names, ", "))
}

// kernelFlags are the RT_KERNEL_* bits the runtime defines.
const kernelFlags = 0x1FF

func flagAttrs(fn string, flags uint32, attrs []core.LaunchAttr) ([]core.LaunchAttr, error) {
	if flags&^kernelFlags != 0 {
		return nil, invalid(fn, "flags %#x: unknown bits %#x (RT_KERNEL_* are 0..%#x)", flags, flags&^kernelFlags, kernelFlags)
	}
	if flags&abi.RT_KERNEL_DUMPFLAG != 0 {
		for i := range attrs {
			if attrs[i].ID == abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP {
				attrs[i].Value[0] = 1
				return attrs, nil
			}
		}
		attrs = append(attrs, u8Attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, 1))
	}
	return attrs, nil
}

// KernelLaunchWithFlagV2 implements rtKernelLaunchWithFlagV2: the launch
// of a registered stub with an rtArgsEx_t, flags and an optional task
// config (kernel_launch.go).
func KernelLaunchWithFlagV2(t *core.Thread, stubFunc uintptr, blocks uint32, a *ArgsEx, sh core.Handle, flags uint32, c *TaskCfg) error {
	return stubLaunch(t, "rtKernelLaunchWithFlagV2", stubFunc, blocks, a, sh, flags, c)
}

// KernelLaunchWithFlag implements rtKernelLaunchWithFlag:
// rtKernelLaunchWithFlagV2 without a task config.
func KernelLaunchWithFlag(t *core.Thread, stubFunc uintptr, blocks uint32, a *ArgsEx, sh core.Handle, flags uint32) error {
	return stubLaunch(t, "rtKernelLaunchWithFlag", stubFunc, blocks, a, sh, flags, nil)
}

// KernelLaunch implements rtKernelLaunch: the launch of a registered stub
// with a host argument block, copied at the call.
func KernelLaunch(t *core.Thread, stubFunc uintptr, blocks uint32, args uintptr, size uint32, host func() []byte, sh core.Handle) error {
	return stubLaunch(t, "rtKernelLaunch", stubFunc, blocks, &ArgsEx{Args: args, Size: size, Host: host}, sh, 0, nil)
}

func stubLaunch(t *core.Thread, fn string, stubFunc uintptr, blocks uint32, a *ArgsEx, sh core.Handle, flags uint32, c *TaskCfg) error {
	f, err := stubFunction(fn, stubFunc)
	if err != nil {
		return err
	}
	attrs, err := taskCfgAttrs(fn, c)
	if err != nil {
		return err
	}
	if attrs, err = flagAttrs(fn, flags, attrs); err != nil {
		return err
	}
	return launchArgsEx(t, fn, f, blocks, a, attrs, sh)
}

// KernelLaunchWithHandleV2 implements rtKernelLaunchWithHandleV2: the
// launch of the tiling-key entry of a binary registered with
// rtRegisterAllKernel (or loaded any other way).
func KernelLaunchWithHandleV2(t *core.Thread, bh core.Handle, key uint64, blocks uint32, a *ArgsEx, sh core.Handle, c *TaskCfg) error {
	return handleLaunch(t, "rtKernelLaunchWithHandleV2", bh, key, blocks, a, sh, c)
}

// KernelLaunchWithHandle implements rtKernelLaunchWithHandle:
// rtKernelLaunchWithHandleV2 without a task config (kernelInfo, profiling
// information, is not read).
func KernelLaunchWithHandle(t *core.Thread, bh core.Handle, key uint64, blocks uint32, a *ArgsEx, sh core.Handle) error {
	return handleLaunch(t, "rtKernelLaunchWithHandle", bh, key, blocks, a, sh, nil)
}

func handleLaunch(t *core.Thread, fn string, bh core.Handle, key uint64, blocks uint32, a *ArgsEx, sh core.Handle, c *TaskCfg) error {
	f, err := tilingFunction(fn, bh, key)
	if err != nil {
		return err
	}
	attrs, err := taskCfgAttrs(fn, c)
	if err != nil {
		return err
	}
	return launchArgsEx(t, fn, f, blocks, a, attrs, sh)
}
