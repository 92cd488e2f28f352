/* hal_svm: a program that uses only the driver HAL for managed memory —
 * halMemAlloc(MEM_UVM / MEM_SVM), drvMemPrefetchToDevice, halMemAdvise,
 * halMemManaged*, halMemGetInfo — sees the device's free memory follow the
 * pages' residency; bad input gets the documented drvError_t codes.
 *
 * needs: emulator
 * link: -lascendcl -lascend_hal
 * env: NPUEMU_HBM_BYTES=33554432 NPUEMU_DEVICES=2
 */
#include <stdint.h>
#include <string.h>

#include "driver/ascend_hal.h"
#include "check.h"

#define HBM (32ull << 20)
#define PAGE (2ull << 20)

#define DRV_OK(call) CHECK_EQ((call), DRV_ERROR_NONE)
#define DRV_ERR(call, code) CHECK_EQ((call), (code))

static uint64_t hbm_free(DVdevice dev) {
    struct MemInfo info;
    memset(&info, 0, sizeof info);
    DRV_OK(halMemGetInfo(dev, MEM_INFO_TYPE_HBM_SIZE, &info));
    CHECK_EQ(info.phy_info.total + info.phy_info.huge_total, HBM);
    return info.phy_info.free + info.phy_info.huge_free;
}

int main(void) {
    void *u = NULL, *v = NULL, *dev = NULL;
    DRV_OK(halMemAlloc(&u, 3 * PAGE, MEM_UVM | MEM_PAGE_HUGE | 1));
    DRV_OK(halMemAlloc(&v, 100, MEM_SVM)); /* flag 0: SVM memory for device 0 */
    CHECK(u != NULL && v != NULL && u != v);
    memset(u, 1, 3 * PAGE); /* host-accessible */
    CHECK_EQ(hbm_free(1), HBM);

    /* drvMemPrefetchToDevice migrates whole pages: 3 of them. */
    DRV_OK(drvMemPrefetchToDevice((DVdeviceptr)(uintptr_t)u + 10, 2 * PAGE, 1));
    CHECK_EQ(hbm_free(1), HBM - 3 * PAGE);
    CHECK_EQ(hbm_free(0), HBM);

    /* ADVISE_PLE prefetches to the named device; ADVISE_TYPE prefers it. */
    DRV_OK(halMemAdvise((DVdeviceptr)(uintptr_t)v, 100, ADVISE_TYPE | ADVISE_PLE, 0));
    CHECK_EQ(hbm_free(0), HBM - PAGE);

    struct DVattribute attr;
    memset(&attr, 0, sizeof attr);
    DRV_OK(drvMemGetAttribute((DVdeviceptr)(uintptr_t)u, &attr));
    CHECK_EQ(attr.memType, DV_MEM_UVM);
    CHECK_EQ(attr.devId, 1);
    DRV_OK(drvMemGetAttribute((DVdeviceptr)(uintptr_t)v, &attr));
    CHECK_EQ(attr.memType, DV_MEM_SVM);

    /* Managed prefetch of u to the host gives device 1 its memory back. */
    struct drv_uvm_location host = {DRV_UVM_LOCATION_TYPE_HOST, 0}, dev1 = {DRV_UVM_LOCATION_TYPE_DEVICE, 1};
    DRV_OK(halMemManagedPrefetch((DVdeviceptr)(uintptr_t)u, 3 * PAGE, host, 0));
    CHECK_EQ(hbm_free(1), HBM);
    DVdeviceptr ptrs[2] = {(DVdeviceptr)(uintptr_t)u, (DVdeviceptr)(uintptr_t)u + PAGE};
    size_t sizes[2] = {PAGE, 2 * PAGE}, idx[1] = {0};
    DRV_OK(halMemManagedPrefetchBatch(ptrs, sizes, 2, &dev1, idx, 1, 0));
    CHECK_EQ(hbm_free(1), HBM - 3 * PAGE);
    DRV_OK(halMemManagedAdvise((DVdeviceptr)(uintptr_t)u, PAGE, READ_MOSTLY, host));
    CHECK(((volatile char *)u)[5] == 1);

    /* Bad input. */
    void *p = (void *)0x1;
    DRV_OK(halMemAlloc(&dev, 4096, MEM_DEV));
    DRV_ERR(halMemAlloc(&p, 4096, (8ull << MEM_VIRT_BIT)), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMemAlloc(&p, 4096, MEM_UVM | (1ull << 40)), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMemAlloc(&p, 4096, MEM_UVM | MEM_PAGE_GIANT), DRV_ERROR_NOT_SUPPORT);
    DRV_ERR(halMemAlloc(&p, 4096, MEM_UVM | 7), DRV_ERROR_INVALID_DEVICE);
    DRV_ERR(halMemAlloc(&p, 0, MEM_UVM), DRV_ERROR_INVALID_VALUE);
    CHECK(p == (void *)0x1);
    DRV_ERR(halMemAdvise((DVdeviceptr)(uintptr_t)dev, 4096, ADVISE_TYPE, 0), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMemAdvise((DVdeviceptr)(uintptr_t)u, PAGE, 0x40, 0), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMemAdvise((DVdeviceptr)(uintptr_t)u, PAGE, ADVISE_PIN | ADVISE_UNPIN, 0), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMemAdvise((DVdeviceptr)(uintptr_t)u + 4096, PAGE, ADVISE_TYPE, 0), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMemAdvise((DVdeviceptr)(uintptr_t)u, PAGE, ADVISE_TYPE, 5), DRV_ERROR_INVALID_DEVICE);
    DRV_ERR(drvMemPrefetchToDevice((DVdeviceptr)(uintptr_t)dev, 4096, 0), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(drvMemPrefetchToDevice((DVdeviceptr)(uintptr_t)u, 4 * PAGE, 0), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(drvMemPrefetchToDevice((DVdeviceptr)(uintptr_t)u, PAGE, 2), DRV_ERROR_INVALID_DEVICE);
    DRV_ERR(halMemManagedAdvise((DVdeviceptr)(uintptr_t)u, PAGE, 9, host), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMemManagedPrefetch((DVdeviceptr)(uintptr_t)u, PAGE, host, 1), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMemManagedPrefetch((DVdeviceptr)(uintptr_t)u, 4096, host, 0), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMemFree((char *)u + 4096), DRV_ERROR_INVALID_VALUE);
    DRV_OK(halMemFree(dev));

    DRV_OK(halMemFree(u));
    DRV_OK(halMemFree(v));
    DRV_ERR(halMemFree(u), DRV_ERROR_INVALID_VALUE);
    CHECK_EQ(hbm_free(0), HBM);
    CHECK_EQ(hbm_free(1), HBM);
    return 0;
}
