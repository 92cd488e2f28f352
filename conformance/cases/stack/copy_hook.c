/* copy_hook.c: hooks on the synchronous copy family, for stack_hal_copy.c.
 * Loaded with LD_PRELOAD, it counts the driver's halSdmaCopy, halMemcpy,
 * drvMemcpy, drvMemsetD8 and halMemcpy2D and the runtime's rtMemcpy,
 * rtMemset and rtMemcpy2d, and forwards them to the next definition
 * (dlsym(RTLD_NEXT)). COPY_HOOK_REFUSE=1 makes it a sharing layer that
 * refuses copies of COPY_HOOK_REFUSED bytes (2-D: width * height) at the
 * driver, each call with its own drvError_t, without reaching the next
 * definition; and a 2-D copy of COPY_HOOK_STALLED bytes "succeeds"
 * without copying (fixed_size left as it was). The program reads the
 * counts through copy_hook_count(name).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/ascend_hal.h"
#include "runtime/rt.h"

/* The sizes the refusing layer singles out (stack_hal_copy.c uses them). */
#define COPY_HOOK_REFUSED 3000
#define COPY_HOOK_STALLED 1536

enum { C_sdma, C_halMemcpy, C_drvMemcpy, C_memset, C_2d, C_rtMemcpy, C_rtMemset, C_rt2d, C_N };
static const char *const names[C_N] = {"halSdmaCopy", "halMemcpy", "drvMemcpy", "drvMemsetD8", "halMemcpy2D",
                                       "rtMemcpy",    "rtMemset",  "rtMemcpy2d"};
#define HOOK_NAME "copy_hook"
#include "hook.h"

long copy_hook_count(const char *name) { return hook_count(name); }

/* refused says whether the layer refuses a copy of n bytes. */
static int refused(size_t n) {
    const char *v = getenv("COPY_HOOK_REFUSE");
    return v != NULL && strcmp(v, "1") == 0 && n == COPY_HOOK_REFUSED;
}

drvError_t halSdmaCopy(DVdeviceptr dst, size_t dst_size, DVdeviceptr src, size_t len) {
    count(C_sdma);
    if (refused(len)) return DRV_ERROR_NOT_SUPPORT;
    return ((__typeof__(&halSdmaCopy))next("halSdmaCopy"))(dst, dst_size, src, len);
}

drvError_t halMemcpy(void *dst, size_t dst_size, void *src, size_t count_, struct memcpy_info *info) {
    count(C_halMemcpy);
    if (refused(count_)) return DRV_ERROR_OPER_NOT_PERMITTED;
    return ((__typeof__(&halMemcpy))next("halMemcpy"))(dst, dst_size, src, count_, info);
}

DVresult drvMemcpy(DVdeviceptr dst, size_t dest_max, DVdeviceptr src, size_t byte_count) {
    count(C_drvMemcpy);
    if (refused(byte_count)) return DRV_ERROR_OUT_OF_MEMORY;
    return ((__typeof__(&drvMemcpy))next("drvMemcpy"))(dst, dest_max, src, byte_count);
}

DVresult drvMemsetD8(DVdeviceptr dst, size_t destMax, UINT8 value, size_t num) {
    count(C_memset);
    if (refused(num)) return DRV_ERROR_COPY_USER_FAIL;
    return ((__typeof__(&drvMemsetD8))next("drvMemsetD8"))(dst, destMax, value, num);
}

drvError_t halMemcpy2D(struct MEMCPY2D *p) {
    count(C_2d);
    const char *v = getenv("COPY_HOOK_REFUSE");
    size_t n = (size_t)(p->copy2d.width * p->copy2d.height);
    if (refused(n)) return DRV_ERROR_OVER_LIMIT;
    if (v != NULL && strcmp(v, "1") == 0 && n == COPY_HOOK_STALLED) return DRV_ERROR_NONE;
    return ((__typeof__(&halMemcpy2D))next("halMemcpy2D"))(p);
}

rtError_t rtMemcpy(void *dst, uint64_t destMax, const void *src, uint64_t cnt, rtMemcpyKind_t kind) {
    count(C_rtMemcpy);
    return ((__typeof__(&rtMemcpy))next("rtMemcpy"))(dst, destMax, src, cnt, kind);
}

rtError_t rtMemset(void *devPtr, uint64_t destMax, uint32_t val, uint64_t cnt) {
    count(C_rtMemset);
    return ((__typeof__(&rtMemset))next("rtMemset"))(devPtr, destMax, val, cnt);
}

rtError_t rtMemcpy2d(void *dst, uint64_t dstPitch, const void *src, uint64_t srcPitch, uint64_t width, uint64_t height,
                     rtMemcpyKind_t kind) {
    count(C_rt2d);
    return ((__typeof__(&rtMemcpy2d))next("rtMemcpy2d"))(dst, dstPitch, src, srcPitch, width, height, kind);
}
