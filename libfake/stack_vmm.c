/* stack_vmm.c: the trampolines of the VMM, sharing, managed-memory and
 * host-pointer driver calls (stack.h, "VMM queries, sharing, managed
 * memory"): each calls the definition another library interposed, recorded
 * in npu_cross by npu_stack_resolve. Handles travel as uint64_t, pointers
 * as uintptr_t. */
#include <stdlib.h>
#include <string.h>

#include "stack.h"

int32_t npu_x_halMemSetAccess(uintptr_t ptr, size_t size, void *desc, size_t count) {
    return ((__typeof__(&halMemSetAccess))npu_cross[NPU_X_halMemSetAccess])((void *)ptr, size,
                                                                            (struct drv_mem_access_desc *)desc, count);
}

int32_t npu_x_halMemGetAccess(uintptr_t ptr, void *location, uint64_t *flags) {
    return ((__typeof__(&halMemGetAccess))npu_cross[NPU_X_halMemGetAccess])((void *)ptr,
                                                                            (struct drv_mem_location *)location, flags);
}

int32_t npu_x_halMemGetAllocationGranularity(const void *prop, uint32_t option, uint64_t *granularity) {
    size_t g = 0;
    int32_t r = ((__typeof__(&halMemGetAllocationGranularity))npu_cross[NPU_X_halMemGetAllocationGranularity])(
        (const struct drv_mem_prop *)prop, (drv_mem_granularity_options)option, &g);
    *granularity = g;
    return r;
}

int32_t npu_x_halMemRetainAllocationHandle(uint64_t *handle, uintptr_t ptr) {
    drv_mem_handle_t *h = NULL;
    int32_t r = ((__typeof__(&halMemRetainAllocationHandle))npu_cross[NPU_X_halMemRetainAllocationHandle])(&h, (void *)ptr);
    *handle = (uint64_t)(uintptr_t)h;
    return r;
}

int32_t npu_x_halMemGetAddressRange(uintptr_t ptr, uintptr_t *base, uint64_t *size, int want_base, int want_size) {
    DVdeviceptr b = 0;
    size_t s = 0;
    int32_t r = ((__typeof__(&halMemGetAddressRange))npu_cross[NPU_X_halMemGetAddressRange])(
        (DVdeviceptr)ptr, want_base ? &b : NULL, want_size ? &s : NULL);
    *base = (uintptr_t)b;
    *size = s;
    return r;
}

int32_t npu_x_halMemGetAllocationPropertiesFromHandle(void *prop, uint64_t handle) {
    return ((__typeof__(&halMemGetAllocationPropertiesFromHandle))
                npu_cross[NPU_X_halMemGetAllocationPropertiesFromHandle])((struct drv_mem_prop *)prop,
                                                                          (drv_mem_handle_t *)(uintptr_t)handle);
}

int32_t npu_x_halMemExportToShareableHandle(uint64_t handle, uint32_t type, uint64_t flags, uint64_t *share) {
    return ((__typeof__(&halMemExportToShareableHandle))npu_cross[NPU_X_halMemExportToShareableHandle])(
        (drv_mem_handle_t *)(uintptr_t)handle, (drv_mem_handle_type)type, flags, share);
}

int32_t npu_x_halMemExportToShareableHandleV2(uint64_t handle, uint32_t type, uint64_t flags, void *share) {
    return ((__typeof__(&halMemExportToShareableHandleV2))npu_cross[NPU_X_halMemExportToShareableHandleV2])(
        (drv_mem_handle_t *)(uintptr_t)handle, (drv_mem_handle_type)type, flags, (struct MemShareHandle *)share);
}

int32_t npu_x_halMemImportFromShareableHandle(uint64_t share, uint32_t devid, uint64_t *handle) {
    drv_mem_handle_t *h = NULL;
    int32_t r = ((__typeof__(&halMemImportFromShareableHandle))npu_cross[NPU_X_halMemImportFromShareableHandle])(
        share, devid, &h);
    *handle = (uint64_t)(uintptr_t)h;
    return r;
}

int32_t npu_x_halMemImportFromShareableHandleV2(uint32_t type, void *share, uint32_t devid, uint64_t *handle) {
    drv_mem_handle_t *h = NULL;
    int32_t r = ((__typeof__(&halMemImportFromShareableHandleV2))npu_cross[NPU_X_halMemImportFromShareableHandleV2])(
        (drv_mem_handle_type)type, (struct MemShareHandle *)share, devid, &h);
    *handle = (uint64_t)(uintptr_t)h;
    return r;
}

int32_t npu_x_halMemSetPidToShareableHandle(uint64_t share, int32_t *pids, uint32_t n) {
    return ((__typeof__(&halMemSetPidToShareableHandle))npu_cross[NPU_X_halMemSetPidToShareableHandle])(share, (int *)pids,
                                                                                                        n);
}

int32_t npu_x_halMemManagedAdvise(uintptr_t ptr, size_t size, uint32_t advise, uint32_t loc_type, int32_t loc_id) {
    struct drv_uvm_location l;
    memset(&l, 0, sizeof l);
    l.type = (drv_uvm_location_type)loc_type;
    l.id = loc_id;
    return ((__typeof__(&halMemManagedAdvise))npu_cross[NPU_X_halMemManagedAdvise])((DVdeviceptr)ptr, size, advise, l);
}

/* data: n buffers of C memory (the Go side copies in and out), sizes[i]
 * bytes each. */
int32_t npu_x_halMemManagedRangeGetAttributes(void **data, size_t *sizes, uint32_t *attrs, size_t n, uintptr_t ptr,
                                              size_t count) {
    return ((__typeof__(&halMemManagedRangeGetAttributes))npu_cross[NPU_X_halMemManagedRangeGetAttributes])(
        data, sizes, attrs, n, (DVdeviceptr)ptr, count);
}

int32_t npu_x_halMemHostGetDevPointer(uintptr_t src, uint32_t devid, uintptr_t *dst) {
    void *d = NULL;
    int32_t r = ((__typeof__(&halMemHostGetDevPointer))npu_cross[NPU_X_halMemHostGetDevPointer])((void *)src, devid, &d);
    *dst = (uintptr_t)d;
    return r;
}
