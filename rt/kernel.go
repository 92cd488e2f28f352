package rt

import (
	"github.com/npuemu/npuemu/rt/core"
)

// LaunchKernelByFuncHandleV3 implements rtLaunchKernelByFuncHandleV3 for
// argument blocks in device memory (rtArgsEx_t.isNoNeedH2DCopy = 1, what
// aclrtLaunchKernel passes): the kernel reads them in place. Host argument
// blocks and a task config are refused (libfake checks them: they are
// fields of C structs).
func LaunchKernelByFuncHandleV3(t *core.Thread, f core.Handle, blocks uint32, args uintptr, size uint32, s core.Handle) error {
	return wrap("rtLaunchKernelByFuncHandleV3", core.LaunchKernel(t, f, blocks, args, uint64(size), s))
}

// LaunchKernelWithConfig implements rtsLaunchKernelWithConfig: the
// function's launch with an argument handle and launch attributes
// (rtKernelLaunchCfg_t has aclrtLaunchKernelCfg's layout).
func LaunchKernelWithConfig(t *core.Thread, f core.Handle, blocks uint32, s core.Handle, attrs []core.LaunchAttr, args core.Handle) error {
	return wrap("rtsLaunchKernelWithConfig", core.LaunchKernelWithConfig(t, f, blocks, s, attrs, args))
}
