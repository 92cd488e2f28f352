package rt

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"unsafe"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// AI CPU kernels launched by name (rtAicpuKernelLaunchWithFlag,
// rtAicpuKernelLaunchExWithArgs; HAMi's vNPU limiter hooks both).
//
// Decision (docs/stack.md, "The rt layer"): on a device an AI CPU kernel is
// a C function `uint32_t kernel(void *args)` of a shared object that the
// device's AI CPUs load (soName) and call with the argument block; 0 is
// success. On the emulator the host's CPU is the AI CPU, as it runs the AI
// Core kernels: soName is opened with dlopen (so the dynamic loader's
// search path applies: LD_LIBRARY_PATH, or a path), kernelName is looked up
// in it, and the call is a task of the stream, made numBlocks times in
// order when the stream reaches it. An object or kernel that cannot be
// found fails the launch at the call with ACL_ERROR_RT_KERNEL_LOOKUP (the
// device would report it when the task runs); a kernel that returns
// non-zero fails its task with ACL_ERROR_RT_AICPU_EXCEPTION, reported by
// the stream's synchronisation. The argument block follows rtArgsEx_t /
// rtAicpuArgsEx_t as AI Core launches do (kernel_launch.go): host memory is
// copied at the call and its address slots (hostInputInfo,
// kernelOffsetInfo) receive addresses inside the copy; device memory is
// passed in place. An AI CPU kernel runs under the kernel host's fault
// guard: one that faults fails its task with ACL_ERROR_RT_AICPU_EXCEPTION.

// AicpuKernel calls one AI CPU kernel with its argument block: its result,
// or an error when it faulted.
type AicpuKernel func(args uintptr) (uint32, error)

// AicpuResolver finds kernel in the shared object so (libfake: dlopen and
// dlsym, cached).
type AicpuResolver func(so, kernel string) (AicpuKernel, error)

// AicpuLaunch is what an AI CPU launch names and passes.
type AicpuLaunch struct {
	So, Kernel string
	Args       ArgsEx
	Resolve    AicpuResolver
}

// kernelTypes are the rtKernelType_t values of AI CPU kernels
// rtAicpuKernelLaunchExWithArgs runs: KERNEL_TYPE_AICPU (2),
// KERNEL_TYPE_AICPU_CUSTOM (4), KERNEL_TYPE_AICPU_KFC (5),
// KERNEL_TYPE_CUSTOM_KFC (6). KERNEL_TYPE_FWK (1), TensorFlow framework
// kernels, take a framework operator description npuemu does not model.
const (
	kernelTypeFWK = 1
)

var aicpuKernelTypes = map[uint32]bool{2: true, 4: true, 5: true, 6: true}

// AicpuKernelLaunchWithFlag implements rtAicpuKernelLaunchWithFlag: the
// kernel kernelName of soName (rtKernelLaunchNames_t; opName is a label).
func AicpuKernelLaunchWithFlag(t *core.Thread, l *AicpuLaunch, blocks uint32, sh core.Handle, flags uint32) error {
	const fn = "rtAicpuKernelLaunchWithFlag"
	if l == nil {
		return invalid(fn, "launchNames and argsInfo must not be NULL")
	}
	if l.So == "" || l.Kernel == "" {
		return invalid(fn, "launchNames->soName and ->kernelName must not be NULL or empty")
	}
	return aicpuLaunch(t, fn, l, blocks, sh, flags)
}

// AicpuKernelLaunchExWithArgs implements rtAicpuKernelLaunchExWithArgs:
// the so and kernel names are C strings inside the argument block, at
// soNameAddrOffset and kernelNameAddrOffset, read once the block is known
// to be readable (l nil: argsInfo was NULL).
func AicpuKernelLaunchExWithArgs(t *core.Thread, kernelType uint32, l *AicpuLaunch, soOff, kernelOff uint32, blocks uint32, sh core.Handle, flags uint32) error {
	const fn = "rtAicpuKernelLaunchExWithArgs"
	if l == nil {
		return invalid(fn, "argsInfo must not be NULL")
	}
	switch {
	case kernelType == kernelTypeFWK:
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: KERNEL_TYPE_FWK (TensorFlow framework kernels) is not modelled by npuemu; AI CPU C kernels (KERNEL_TYPE_AICPU, _AICPU_CUSTOM, _AICPU_KFC, _CUSTOM_KFC) are", fn)
	case !aicpuKernelTypes[kernelType]:
		return invalid(fn, "kernelType %d is not an AI CPU kernel type (2, 4, 5 or 6)", kernelType)
	}
	a := &l.Args
	if a.Args == 0 || a.Size == 0 {
		return invalid(fn, "argsInfo->args must not be NULL and argsSize must be > 0 (the block holds the so and kernel names)")
	}
	if soOff >= a.Size || kernelOff >= a.Size {
		return invalid(fn, "soNameAddrOffset %d / kernelNameAddrOffset %d lie outside the %d-byte argument block", soOff, kernelOff, a.Size)
	}
	if a.NoCopy {
		s, err := core.ResolveStream(t, fn, sh)
		if err != nil {
			return recode(err)
		}
		if !inDevice(s, a.Args, a.Size) {
			return invalid(fn, "argsInfo->args %#x..+%d (isNoNeedH2DCopy = 1) is not inside one allocation of device %d's memory", a.Args, a.Size, s.Ctx.Dev.ID)
		}
	}
	blob := a.Host()
	l.So, l.Kernel = cString(blob[soOff:]), cString(blob[kernelOff:])
	if l.So == "" || l.Kernel == "" {
		return invalid(fn, "the so name (offset %d) and kernel name (offset %d) in the argument block must not be empty", soOff, kernelOff)
	}
	return aicpuLaunch(t, fn, l, blocks, sh, flags)
}

// cString is the NUL-terminated string at the start of b (all of b when it
// has no NUL).
func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

func inDevice(s *core.Stream, addr uintptr, n uint32) bool {
	base, size, ok := s.Ctx.Dev.Emu.HBM.Find(addr)
	return ok && uint64(addr-base)+uint64(n) <= size
}

func aicpuLaunch(t *core.Thread, fn string, l *AicpuLaunch, blocks uint32, sh core.Handle, flags uint32) error {
	a := &l.Args
	if flags&^kernelFlags != 0 {
		return invalid(fn, "flags %#x: unknown bits %#x (RT_KERNEL_* are 0..%#x)", flags, flags&^kernelFlags, kernelFlags)
	}
	if err := core.CheckBlocks(fn, blocks); err != nil {
		return recode(err)
	}
	if a.Size > 0 && a.Args == 0 {
		return invalid(fn, "argsInfo->args must not be NULL when argsSize is %d", a.Size)
	}
	phs := a.placeholders()
	if !a.NoCopy {
		for i, p := range phs {
			if uint64(p.AddrOffset)+8 > uint64(a.Size) || p.DataOffset >= a.Size {
				return invalid(fn, "address slot %d (addrOffset %d, dataOffset %d) lies outside the %d-byte argument block", i, p.AddrOffset, p.DataOffset, a.Size)
			}
		}
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return recode(err)
	}
	k, err := l.Resolve(l.So, l.Kernel)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_RT_KERNEL_LOOKUP, "%s: AI CPU kernel %q of %q: %v", fn, l.Kernel, l.So, err)
	}
	ptr, keep := a.Args, []byte(nil)
	switch {
	case a.Size == 0:
	case a.NoCopy:
		if !inDevice(s, a.Args, a.Size) {
			return invalid(fn, "argsInfo->args %#x..+%d (isNoNeedH2DCopy = 1) is not inside one allocation of device %d's memory", a.Args, a.Size, s.Ctx.Dev.ID)
		}
	default:
		// The copy is Go memory the task keeps alive; the kernel sees it
		// through its address (it holds no Go pointers).
		keep = make([]byte, a.Size)
		copy(keep, a.Host())
		ptr = uintptr(unsafe.Pointer(&keep[0]))
		for _, p := range phs {
			binary.LittleEndian.PutUint64(keep[p.AddrOffset:], uint64(ptr)+uint64(p.DataOffset))
		}
	}
	so, name := l.So, l.Kernel
	task := tsfw.HostTask(func() error {
		for b := uint32(0); b < blocks; b++ {
			r, err := k(ptr)
			if err != nil {
				return abi.Errorf(abi.ACL_ERROR_RT_AICPU_EXCEPTION, "AI CPU kernel %s of %s %v (block %d of %d)", name, so, err, b, blocks)
			}
			if r != 0 {
				return abi.Errorf(abi.ACL_ERROR_RT_AICPU_EXCEPTION, "AI CPU kernel %s of %s returned %d (block %d of %d)", name, so, r, b, blocks)
			}
		}
		runtime.KeepAlive(keep)
		return nil
	})
	return recode(s.SubmitTask(t, fn, task))
}
