/* vmm_hook.c: hooks on the driver's VMM queries, sharing, managed-memory
 * and host-pointer calls, for stack_hal_vmm.c. Loaded with LD_PRELOAD, it
 * counts halMemSetAccess, halMemGetAccess, halMemGetAllocationGranularity,
 * halMemRetainAllocationHandle, halMemGetAddressRange,
 * halMemGetAllocationPropertiesFromHandle, halMemExportToShareableHandle(V2),
 * halMemImportFromShareableHandle(V2), halMemSetPidToShareableHandle,
 * halMemManagedAdvise, halMemManagedRangeGetAttributes and
 * halMemHostGetDevPointer, and forwards them to the next definition
 * (dlsym(RTLD_NEXT)). VMM_HOOK_REFUSE=1 makes it a sharing layer with its
 * own policy: access grants and pid whitelists are not permitted
 * (DRV_ERROR_OPER_NOT_PERMITTED), the other calls are not supported
 * (DRV_ERROR_NOT_SUPPORT) — none of them reaches the next definition —
 * except two that change the driver's answer: the granularity is 64 MiB
 * and every access reads MEM_ACCESS_TYPE_READ. The program reads the
 * counts through vmm_hook_count(name).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/ascend_hal.h"

enum {
    C_setAccess,
    C_getAccess,
    C_granularity,
    C_retain,
    C_range,
    C_props,
    C_export,
    C_exportV2,
    C_import,
    C_importV2,
    C_setPid,
    C_advise,
    C_attrs,
    C_hostPtr,
    C_N
};
static const char *const names[C_N] = {"halMemSetAccess",
                                       "halMemGetAccess",
                                       "halMemGetAllocationGranularity",
                                       "halMemRetainAllocationHandle",
                                       "halMemGetAddressRange",
                                       "halMemGetAllocationPropertiesFromHandle",
                                       "halMemExportToShareableHandle",
                                       "halMemExportToShareableHandleV2",
                                       "halMemImportFromShareableHandle",
                                       "halMemImportFromShareableHandleV2",
                                       "halMemSetPidToShareableHandle",
                                       "halMemManagedAdvise",
                                       "halMemManagedRangeGetAttributes",
                                       "halMemHostGetDevPointer"};
#define HOOK_NAME "vmm_hook"
#include "hook.h"

long vmm_hook_count(const char *name) { return hook_count(name); }

static int refuse(void) {
    const char *v = getenv("VMM_HOOK_REFUSE");
    return v != NULL && strcmp(v, "1") == 0;
}

#define NEXT(fn) ((__typeof__(&fn))next(#fn))

drvError_t halMemSetAccess(void *ptr, size_t size, struct drv_mem_access_desc *desc, size_t count_) {
    count(C_setAccess);
    if (refuse()) return DRV_ERROR_OPER_NOT_PERMITTED;
    return NEXT(halMemSetAccess)(ptr, size, desc, count_);
}

drvError_t halMemGetAccess(void *ptr, struct drv_mem_location *location, uint64_t *flags) {
    count(C_getAccess);
    drvError_t r = NEXT(halMemGetAccess)(ptr, location, flags);
    if (r == DRV_ERROR_NONE && refuse()) *flags = MEM_ACCESS_TYPE_READ;
    return r;
}

drvError_t halMemGetAllocationGranularity(const struct drv_mem_prop *prop, drv_mem_granularity_options option,
                                          size_t *granularity) {
    count(C_granularity);
    drvError_t r = NEXT(halMemGetAllocationGranularity)(prop, option, granularity);
    if (r == DRV_ERROR_NONE && refuse()) *granularity = 64u << 20;
    return r;
}

drvError_t halMemRetainAllocationHandle(drv_mem_handle_t **handle, void *ptr) {
    count(C_retain);
    if (refuse()) return DRV_ERROR_NOT_SUPPORT;
    return NEXT(halMemRetainAllocationHandle)(handle, ptr);
}

drvError_t halMemGetAddressRange(DVdeviceptr ptr, DVdeviceptr *pbase, size_t *psize) {
    count(C_range);
    if (refuse()) return DRV_ERROR_NOT_SUPPORT;
    return NEXT(halMemGetAddressRange)(ptr, pbase, psize);
}

drvError_t halMemGetAllocationPropertiesFromHandle(struct drv_mem_prop *prop, drv_mem_handle_t *handle) {
    count(C_props);
    if (refuse()) return DRV_ERROR_NOT_SUPPORT;
    return NEXT(halMemGetAllocationPropertiesFromHandle)(prop, handle);
}

drvError_t halMemExportToShareableHandle(drv_mem_handle_t *handle, drv_mem_handle_type handle_type, uint64_t flags,
                                         uint64_t *shareable_handle) {
    count(C_export);
    if (refuse()) return DRV_ERROR_NOT_SUPPORT;
    return NEXT(halMemExportToShareableHandle)(handle, handle_type, flags, shareable_handle);
}

drvError_t halMemExportToShareableHandleV2(drv_mem_handle_t *handle, drv_mem_handle_type handle_type, uint64_t flags,
                                           struct MemShareHandle *share_handle) {
    count(C_exportV2);
    if (refuse()) return DRV_ERROR_NOT_SUPPORT;
    return NEXT(halMemExportToShareableHandleV2)(handle, handle_type, flags, share_handle);
}

drvError_t halMemImportFromShareableHandle(uint64_t shareable_handle, uint32_t devid, drv_mem_handle_t **handle) {
    count(C_import);
    if (refuse()) return DRV_ERROR_NOT_SUPPORT;
    return NEXT(halMemImportFromShareableHandle)(shareable_handle, devid, handle);
}

drvError_t halMemImportFromShareableHandleV2(drv_mem_handle_type handle_type, struct MemShareHandle *share_handle,
                                             uint32_t devid, drv_mem_handle_t **handle) {
    count(C_importV2);
    if (refuse()) return DRV_ERROR_NOT_SUPPORT;
    return NEXT(halMemImportFromShareableHandleV2)(handle_type, share_handle, devid, handle);
}

drvError_t halMemSetPidToShareableHandle(uint64_t shareable_handle, int pid[], uint32_t pid_num) {
    count(C_setPid);
    if (refuse()) return DRV_ERROR_OPER_NOT_PERMITTED;
    return NEXT(halMemSetPidToShareableHandle)(shareable_handle, pid, pid_num);
}

drvError_t halMemManagedAdvise(DVdeviceptr ptr, size_t size, uint32_t advise, struct drv_uvm_location location) {
    count(C_advise);
    if (refuse()) return DRV_ERROR_NOT_SUPPORT;
    return NEXT(halMemManagedAdvise)(ptr, size, advise, location);
}

DVresult halMemManagedRangeGetAttributes(void **data, size_t *dataSizes, uint32_t *attributes, size_t numAttributes,
                                         DVdeviceptr devPtr, size_t count_) {
    count(C_attrs);
    if (refuse()) return DRV_ERROR_NOT_SUPPORT;
    return NEXT(halMemManagedRangeGetAttributes)(data, dataSizes, attributes, numAttributes, devPtr, count_);
}

drvError_t halMemHostGetDevPointer(void *src_ptr, uint32_t devid, void **dst_ptr) {
    count(C_hostPtr);
    if (refuse()) return DRV_ERROR_NOT_SUPPORT;
    return NEXT(halMemHostGetDevPointer)(src_ptr, devid, dst_ptr);
}
