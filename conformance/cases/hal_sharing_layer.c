/* hal_sharing_layer: what a device-sharing layer (a vNPU limiter, a
 * scheduler's device plugin) does with the driver alone, without ACL:
 * enumerate the devices, read their properties, and account device memory
 * per device with halMemAlloc(MEM_DEV) + halMemGetInfo. The numbers must be
 * consistent: the memory of one device moves by the page-rounded size of
 * each allocation and the others' does not move at all.
 *
 * link: -lascend_hal
 * env: NPUEMU_DEVICES=2
 * needs: devices=2
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/ascend_hal.h"

#define FAIL(...)                                                    \
    do {                                                             \
        fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);        \
        fprintf(stderr, __VA_ARGS__);                                \
        fprintf(stderr, "\n");                                       \
        exit(1);                                                     \
    } while (0)
#define CHECK(cond) do { if (!(cond)) FAIL("%s", #cond); } while (0)
#define CHECK_DRV(call, code)                                        \
    do {                                                             \
        drvError_t check_d_ = (call);                                \
        if (check_d_ != (code))                                      \
            FAIL("%s: got %d, want %s (%d)", #call, (int)check_d_, #code, (int)(code)); \
    } while (0)

#define MAXDEV 64

/* devMem is the device memory as the sharing layer sees it: the HBM type,
 * or DDR on parts without HBM; normal plus huge pages. */
static void devMem(uint32_t dev, unsigned long *total, unsigned long *freeb)
{
    struct MemInfo m;
    memset(&m, 0, sizeof m);
    CHECK_DRV(halMemGetInfo(dev, MEM_INFO_TYPE_HBM_SIZE, &m), DRV_ERROR_NONE);
    if (m.phy_info.total + m.phy_info.huge_total == 0) {
        memset(&m, 0, sizeof m);
        CHECK_DRV(halMemGetInfo(dev, MEM_INFO_TYPE_DDR_SIZE, &m), DRV_ERROR_NONE);
    }
    *total = m.phy_info.total + m.phy_info.huge_total;
    *freeb = m.phy_info.free + m.phy_info.huge_free;
}

int main(void)
{
    uint32_t num = 0;
    CHECK_DRV(drvGetDevNum(&num), DRV_ERROR_NONE);
    CHECK(num >= 2 && num <= MAXDEV);

    unsigned long total[MAXDEV], freeb[MAXDEV];
    for (uint32_t d = 0; d < num; d++) {
        int64_t cores = 0, version = 0;
        CHECK_DRV(halGetDeviceInfo(d, MODULE_TYPE_AICORE, INFO_TYPE_CORE_NUM, &cores), DRV_ERROR_NONE);
        CHECK(cores > 0);
        CHECK_DRV(halGetDeviceInfo(d, MODULE_TYPE_SYSTEM, INFO_TYPE_VERSION, &version), DRV_ERROR_NONE);
        devMem(d, &total[d], &freeb[d]);
        CHECK(total[d] > 0);
        CHECK(freeb[d] <= total[d]);
        if (d > 0)
            CHECK(total[d] == total[0]); /* one SoC per node */
        printf("device %u: %lld AI cores, chip %lld, %lu of %lu bytes free\n",
               d, (long long)cores, (long long)((version >> 8) & 0xFF), freeb[d], total[d]);
    }

    /* Allocate on the last device; only its free memory moves. */
    const uint32_t dev = num - 1;
    const size_t sizes[] = {1, 4096, 4097, (size_t)3 << 20};
    void *ptr[4];
    unsigned long before = freeb[dev];
    size_t charged = 0;
    for (int i = 0; i < 4; i++) {
        CHECK_DRV(halMemAlloc(&ptr[i], sizes[i], MEM_DEV | MEM_TYPE_HBM | dev), DRV_ERROR_NONE);
        DVdeviceptr base = 0;
        size_t size = 0;
        CHECK_DRV(halMemGetAddressRange((DVdeviceptr)(uintptr_t)ptr[i], &base, &size), DRV_ERROR_NONE);
        CHECK(size >= sizes[i]);
        charged += size;
        unsigned long t = 0, f = 0;
        devMem(dev, &t, &f);
        CHECK(t == total[dev]);
        CHECK(f == before - charged); /* exactly what the ranges say */
        for (uint32_t o = 0; o + 1 < num; o++) {
            devMem(o, &t, &f);
            CHECK(f == freeb[o]);
        }
    }
    for (int i = 0; i < 4; i++)
        CHECK_DRV(halMemFree(ptr[i]), DRV_ERROR_NONE);
    unsigned long t = 0, f = 0;
    devMem(dev, &t, &f);
    CHECK(f == before);

    /* A request beyond the device's memory fails without moving anything. */
    void *p = NULL;
    CHECK_DRV(halMemAlloc(&p, (unsigned long long)total[dev] + 1, MEM_DEV | dev), DRV_ERROR_OUT_OF_MEMORY);
    devMem(dev, &t, &f);
    CHECK(f == before);
    return 0;
}
