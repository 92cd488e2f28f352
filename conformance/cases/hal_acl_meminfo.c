/* hal_acl_meminfo: ACL and the HAL see one device memory (hal-api.md §3.4:
 * the runtime derives aclrtGetMemInfo from halMemGetInfo). Device memory
 * from halMemAlloc lowers aclrtGetMemInfo's free by at least its size and
 * gives it back on halMemFree; aclrtMalloc memory lowers halMemGetInfo's
 * free the same way; the totals agree.
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

#define MiB ((size_t)1 << 20)

/* halFree returns the device's free bytes as the runtime computes them
 * from halMemGetInfo: free + huge_free of the HBM type, or of the DDR type
 * on parts without HBM. */
static size_t halFree(uint32_t dev, size_t *total)
{
    struct MemInfo hbm, ddr;
    memset(&hbm, 0, sizeof hbm);
    memset(&ddr, 0, sizeof ddr);
    CHECK_DRV(halMemGetInfo(dev, MEM_INFO_TYPE_HBM_SIZE, &hbm), DRV_ERROR_NONE);
    CHECK_DRV(halMemGetInfo(dev, MEM_INFO_TYPE_DDR_SIZE, &ddr), DRV_ERROR_NONE);
    struct MemPhyInfo *m = hbm.phy_info.total + hbm.phy_info.huge_total > 0 ? &hbm.phy_info : &ddr.phy_info;
    *total = m->total + m->huge_total;
    return m->free + m->huge_free;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(1));

    size_t aFree0 = 0, aTotal = 0, hTotal = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &aFree0, &aTotal));
    size_t hFree0 = halFree(1, &hTotal);
    CHECK_EQ(hTotal, aTotal);
    CHECK_EQ(hFree0, aFree0);

    /* HAL allocation, seen by ACL. */
    const size_t size = 5 * MiB + 123;
    void *p = NULL;
    CHECK_DRV(halMemAlloc(&p, size, MEM_DEV | MEM_TYPE_HBM | MEM_PAGE_HUGE | 1), DRV_ERROR_NONE);
    size_t aFree1 = 0, t = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &aFree1, &t));
    CHECK_EQ(t, aTotal);
    CHECK(aFree1 + size <= aFree0);
    CHECK(aFree1 + size + 2 * MiB > aFree0); /* at most one huge page of rounding */
    CHECK_EQ(halFree(1, &t), aFree1);

    /* The memory holds data at both ends. */
    unsigned char in[64], out[64];
    for (int i = 0; i < 64; i++)
        in[i] = (unsigned char)(i * 3 + 1);
    for (size_t off = 0; off <= size - 64; off += size - 64) {
        CHECK_DRV(drvMemcpy((DVdeviceptr)(uintptr_t)p + off, 64, (DVdeviceptr)(uintptr_t)in, 64), DRV_ERROR_NONE);
        memset(out, 0, sizeof out);
        CHECK_DRV(drvMemcpy((DVdeviceptr)(uintptr_t)out, 64, (DVdeviceptr)(uintptr_t)p + off, 64), DRV_ERROR_NONE);
        CHECK(memcmp(in, out, 64) == 0);
    }

    CHECK_DRV(halMemFree(p), DRV_ERROR_NONE);
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &aFree1, &t));
    CHECK_EQ(aFree1, aFree0);

    /* ACL allocation, seen by the HAL. */
    void *q = NULL;
    CHECK_OK(aclrtMalloc(&q, size, ACL_MEM_MALLOC_HUGE_FIRST));
    size_t hFree1 = halFree(1, &t);
    CHECK(hFree1 + size <= hFree0);
    DVdeviceptr base = 0;
    size_t range = 0;
    CHECK_DRV(halMemGetAddressRange((DVdeviceptr)(uintptr_t)q + 10, &base, &range), DRV_ERROR_NONE);
    CHECK_EQ(base, (DVdeviceptr)(uintptr_t)q);
    CHECK(range >= size);
    CHECK_OK(aclrtFree(q));
    CHECK_EQ(halFree(1, &t), hFree0);

    /* Beyond the device's real size: out of memory. */
    p = NULL;
    CHECK_DRV(halMemAlloc(&p, aTotal + 1, MEM_DEV | 1), DRV_ERROR_OUT_OF_MEMORY);

    CHECK_OK(aclrtResetDevice(1));
    CHECK_OK(aclFinalize());
    return 0;
}
