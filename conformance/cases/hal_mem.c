/* hal_mem: plain memory through the driver HAL (hal-api.md §3): device
 * memory (MEM_DEV) and pinned host memory (MEM_HOST) from halMemAlloc, the
 * flag word's device id, copies in every direction with drvMemcpy, the
 * device-to-host halMemcpy, drvMemsetD8, halMemGetAddressRange,
 * drvMemGetAttribute, and the exact codes of bad input.
 *
 * link: -lascendcl -lascend_hal
 * env: NPUEMU_DEVICES=2
 * needs: devices=2
 */
#include <stdint.h>

#include "check.h"
#include "driver/ascend_hal.h"

#define CHECK_DRV(call, code)                                            \
    do {                                                                 \
        drvError_t check_d_ = (call);                                    \
        if (check_d_ != (code))                                          \
            FAIL("%s: got %d, want %s (%d)", #call, (int)check_d_, #code, (int)(code)); \
    } while (0)

/* The flag aclrtMallocHost passes: MEM_SET_ALIGN_SIZE(9) | MEM_HOST. */
#define ALIGN512 (9ULL << MEM_ALIGN_BIT)
#define APP_MODULE (33ULL << MEM_MODULE_ID_BIT)

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(seed + i * 7);
}

int main(void)
{
    const size_t n = 10000;

    /* doc: §3.2 — bits 0-9 are the device; MEM_HOST is host memory the
     * host can use directly. */
    void *h1 = NULL, *h2 = NULL, *d0 = NULL, *d1 = NULL;
    CHECK_DRV(halMemAlloc(&h1, n, ALIGN512 | MEM_HOST), DRV_ERROR_NONE);
    CHECK_DRV(halMemAlloc(&h2, n, ALIGN512 | MEM_HOST), DRV_ERROR_NONE);
    CHECK_DRV(halMemAlloc(&d0, n, MEM_DEV | MEM_TYPE_HBM | ALIGN512 | APP_MODULE | 0), DRV_ERROR_NONE);
    CHECK_DRV(halMemAlloc(&d1, n, MEM_DEV | MEM_TYPE_HBM | ALIGN512 | APP_MODULE | 1), DRV_ERROR_NONE);
    CHECK(h1 && h2 && d0 && d1);
    CHECK(((uintptr_t)d0 % 512) == 0);
    CHECK(((uintptr_t)d1 % 512) == 0);

    /* doc: §3.4 — drvMemcpy infers the direction: H2D, D2D across
     * devices, D2H; halMemcpy copies device to host. */
    fill(h1, n, 3);
    memset(h2, 0, n);
    CHECK_DRV(drvMemcpy((DVdeviceptr)(uintptr_t)d0, n, (DVdeviceptr)(uintptr_t)h1, n), DRV_ERROR_NONE);
    CHECK_DRV(drvMemcpy((DVdeviceptr)(uintptr_t)d1, n, (DVdeviceptr)(uintptr_t)d0, n), DRV_ERROR_NONE);
    struct memcpy_info info;
    memset(&info, 0, sizeof info);
    info.dir = DRV_MEMCPY_DEVICE_TO_HOST;
    info.devid = 1;
    CHECK_DRV(halMemcpy(h2, n, d1, n, &info), DRV_ERROR_NONE);
    CHECK(memcmp(h1, h2, n) == 0);

    /* doc: §3.4 — drvMemsetD8 on device memory. */
    CHECK_DRV(drvMemsetD8((DVdeviceptr)(uintptr_t)d1 + 16, n - 16, 0x5A, n - 16), DRV_ERROR_NONE);
    CHECK_DRV(drvMemcpy((DVdeviceptr)(uintptr_t)h2, n, (DVdeviceptr)(uintptr_t)d1, n), DRV_ERROR_NONE);
    CHECK(memcmp(h2, h1, 16) == 0);
    for (size_t i = 16; i < n; i++)
        CHECK_EQ(((unsigned char *)h2)[i], 0x5A);

    /* doc: §3.4 — the range of an interior pointer, size rounded up to
     * whole pages; both outputs optional. */
    DVdeviceptr base = 0;
    size_t size = 0;
    CHECK_DRV(halMemGetAddressRange((DVdeviceptr)(uintptr_t)d0 + 100, &base, &size), DRV_ERROR_NONE);
    CHECK_EQ(base, (DVdeviceptr)(uintptr_t)d0);
    CHECK(size >= n);
    CHECK_EQ(size % 4096, 0);
    CHECK_DRV(halMemGetAddressRange((DVdeviceptr)(uintptr_t)d0, NULL, NULL), DRV_ERROR_NONE);

    /* doc: §3.3 — memType bits: DV_MEM_LOCK_DEV with the device id. */
    struct DVattribute attr;
    memset(&attr, 0, sizeof attr);
    CHECK_DRV(drvMemGetAttribute((DVdeviceptr)(uintptr_t)d1, &attr), DRV_ERROR_NONE);
    CHECK(attr.memType & DV_MEM_LOCK_DEV);
    CHECK_EQ(attr.devId, 1);
    CHECK(attr.pageSize >= 4096);

    /* doc: §3.4 / §2 — bad input. */
    void *p = NULL;
    CHECK_DRV(halMemAlloc(&p, n, MEM_DEV | 2), DRV_ERROR_INVALID_DEVICE);
    CHECK_DRV(halMemcpy(h2, n, d1, n + 1, &info), DRV_ERROR_INVALID_VALUE);
    CHECK_DRV(drvMemsetD8((DVdeviceptr)(uintptr_t)d0, 8, 1, 9), DRV_ERROR_INVALID_VALUE);
    CHECK_DRV(drvMemsetD8(0, 8, 1, 8), DRV_ERROR_INVALID_VALUE);
    CHECK_DRV(drvMemsetD8((DVdeviceptr)(uintptr_t)d0, 8, 1, 0), DRV_ERROR_INVALID_VALUE);
    CHECK(drvMemcpy((DVdeviceptr)(uintptr_t)d0, 8, (DVdeviceptr)(uintptr_t)h1, 9) != DRV_ERROR_NONE);
    CHECK(halMemAlloc(NULL, n, MEM_DEV) != DRV_ERROR_NONE);
    CHECK(halMemFree(NULL) != DRV_ERROR_NONE);

    /* doc: §3.2 — the header documents halMemcpy for D2H only. */
    info.dir = DRV_MEMCPY_HOST_TO_DEVICE;
    info.devid = 0;
    CHECK(halMemcpy(d0, n, h1, n, &info) != DRV_ERROR_NONE);

    /* doc: hal-api.md §3.2 — managed (UVM) and SVM memory: where the target
     * has them they must work; where not, the answer is NOT_SUPPORT. */
    drvError_t e = halMemAlloc(&p, n, 0x920000ULL | APP_MODULE); /* aclrtMalloc's MEM_SVM_HUGE */
    if (e == DRV_ERROR_NONE)
        CHECK_DRV(halMemFree(p), DRV_ERROR_NONE);
    else
        CHECK_EQ(e, DRV_ERROR_NOT_SUPPORT);

    CHECK_DRV(halMemFree(h1), DRV_ERROR_NONE);
    CHECK_DRV(halMemFree(h2), DRV_ERROR_NONE);
    CHECK_DRV(halMemFree(d0), DRV_ERROR_NONE);
    CHECK_DRV(halMemFree(d1), DRV_ERROR_NONE);
    return 0;
}
