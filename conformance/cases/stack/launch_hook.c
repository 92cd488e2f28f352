/* launch_hook.c: a hook on the runtime's kernel launches, for
 * stack_rt_kernel_launch.c: the four HAMi's vNPU limiter interposes
 * (rtKernelLaunchWithFlagV2, rtKernelLaunchWithHandleV2,
 * rtAicpuKernelLaunchWithFlag, rtAicpuKernelLaunchExWithArgs). Loaded with
 * LD_PRELOAD, it counts them and forwards each to the next definition
 * (dlsym(RTLD_NEXT)); the program reads the counts through
 * launch_hook_count(name).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>

#include "runtime/rt.h"

enum { C_flagV2, C_handleV2, C_aicpu, C_aicpuEx, C_N };
static const char *const names[C_N] = {"rtKernelLaunchWithFlagV2", "rtKernelLaunchWithHandleV2", "rtAicpuKernelLaunchWithFlag",
                                       "rtAicpuKernelLaunchExWithArgs"};
#define HOOK_NAME "launch_hook"
#include "hook.h"

long launch_hook_count(const char *name) { return hook_count(name); }

rtError_t rtKernelLaunchWithFlagV2(const void *stubFunc, uint32_t numBlocks, rtArgsEx_t *argsInfo, rtSmDesc_t *smDesc, rtStream_t stm,
                                   uint32_t flags, const rtTaskCfgInfo_t *cfgInfo) {
    count(C_flagV2);
    return ((__typeof__(&rtKernelLaunchWithFlagV2))next("rtKernelLaunchWithFlagV2"))(stubFunc, numBlocks, argsInfo, smDesc, stm, flags, cfgInfo);
}

rtError_t rtKernelLaunchWithHandleV2(void *hdl, const uint64_t tilingKey, uint32_t numBlocks, rtArgsEx_t *argsInfo, rtSmDesc_t *smDesc,
                                     rtStream_t stm, const rtTaskCfgInfo_t *cfgInfo) {
    count(C_handleV2);
    return ((__typeof__(&rtKernelLaunchWithHandleV2))next("rtKernelLaunchWithHandleV2"))(hdl, tilingKey, numBlocks, argsInfo, smDesc, stm, cfgInfo);
}

rtError_t rtAicpuKernelLaunchWithFlag(const rtKernelLaunchNames_t *launchNames, uint32_t numBlocks, const rtArgsEx_t *argsInfo,
                                      rtSmDesc_t *smDesc, rtStream_t stm, uint32_t flags) {
    count(C_aicpu);
    return ((__typeof__(&rtAicpuKernelLaunchWithFlag))next("rtAicpuKernelLaunchWithFlag"))(launchNames, numBlocks, argsInfo, smDesc, stm, flags);
}

rtError_t rtAicpuKernelLaunchExWithArgs(const uint32_t kernelType, const char_t *const opName, const uint32_t numBlocks,
                                        const rtAicpuArgsEx_t *argsInfo, rtSmDesc_t *const smDesc, const rtStream_t stm, const uint32_t flags) {
    count(C_aicpuEx);
    return ((__typeof__(&rtAicpuKernelLaunchExWithArgs))next("rtAicpuKernelLaunchExWithArgs"))(kernelType, opName, numBlocks, argsInfo, smDesc, stm,
                                                                                              flags);
}
