/* stack.h: which of our own calls between the emulated libraries cross a
 * library boundary, and where they go when another library interposed the
 * symbol (not installed; internal). docs/stack.md explains the layouts.
 *
 * npu_stack_resolve (once, at the first call into npuemu) reads
 * NPUEMU_STACK and, for every boundary symbol that crosses in that layout,
 * looks the name up in the global scope. A definition outside this
 * library (an LD_PRELOADed hook, or a library linked before ours) is
 * recorded in npu_cross; our own is not, so that the call stays a direct
 * Go call. The npu_x_* trampolines call the recorded definition.
 */
#ifndef NPUEMU_LIBFAKE_STACK_H
#define NPUEMU_LIBFAKE_STACK_H

#include <stdint.h>

#include "acl/acl.h"
#include "ascend_hal.h"
#include "runtime/rt.h"

/* Boundary symbols. ACL→rt calls cross only in the split layout; rt→HAL
 * calls cross in both. */
enum {
    NPU_X_rtMalloc,
    NPU_X_rtFree,
    NPU_X_rtMemGetInfoEx,
    NPU_X_rtStreamCreate,
    NPU_X_rtLaunchKernelByFuncHandleV3,
    NPU_X_rtsLaunchKernelWithConfig,
    NPU_X_FIRST_HAL,
    NPU_X_halMemAlloc = NPU_X_FIRST_HAL,
    NPU_X_halMemFree,
    NPU_X_halMemGetInfo,
    NPU_X_COUNT
};

/* Filled by npu_stack_resolve; NULL: the call stays inside npuemu. */
extern void *npu_cross[NPU_X_COUNT];

/* npu_stack_resolve decides once (pthread_once); it returns 1 for the split
 * layout, 0 for merged. An unknown NPUEMU_STACK value is reported on stderr
 * and the default (merged) is used. */
int npu_stack_resolve(void);

/* npu_stack_name is the symbol name of boundary index i. */
const char *npu_stack_name(int i);

int32_t npu_x_rtMalloc(void **devPtr, uint64_t size, uint32_t type, uint16_t moduleId);
int32_t npu_x_rtFree(uintptr_t devPtr);
int32_t npu_x_rtMemGetInfoEx(uint32_t type, size_t *freeSize, size_t *totalSize);
int32_t npu_x_rtStreamCreate(void **stm, int32_t priority);
int32_t npu_x_rtLaunchKernelByFuncHandleV3(void *funcHandle, uint32_t numBlocks, void *args, uint32_t argsSize, void *stm);
int32_t npu_x_rtsLaunchKernelWithConfig(void *funcHandle, uint32_t numBlocks, void *stm, void *cfg, void *argsHandle, void *reserve);
int32_t npu_x_halMemAlloc(void **pp, uint64_t size, uint64_t flag);
int32_t npu_x_halMemFree(uintptr_t pp);
/* The size fields of struct MemPhyInfo: total, free, huge_total,
 * huge_free, giant_total, giant_free. */
int32_t npu_x_halMemGetInfo(uint32_t devId, uint32_t type, uint64_t phy[6]);

#endif
