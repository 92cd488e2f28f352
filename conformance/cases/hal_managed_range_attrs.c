/* hal_managed_range_attrs: halMemManagedRangeGetAttributes answers every
 * DEVMM_MEM_RANGE_ATTRIBUTE of a managed range (hal-api.md §6: device ids,
 * -1 for the host, -2 when unset or mixed) after the advice and prefetches
 * that set them, several attributes in one call; bad input gets
 * DRV_ERROR_INVALID_VALUE.
 *
 * needs: emulator
 * link: -lascendcl -lascend_hal
 * env: NPUEMU_HBM_BYTES=33554432 NPUEMU_DEVICES=2
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "driver/ascend_hal.h"

#define PAGE (2ull << 20)
#define DRV_OK(call) CHECK_EQ((int)(call), (int)DRV_ERROR_NONE)
#define DRV_ERR(call, code) CHECK_EQ((int)(call), (int)(code))

/* one queries a single 32-bit attribute of [p, p+n). */
static int32_t one(void *p, size_t n, uint32_t attr)
{
    int32_t v = 12345;
    void *data[1] = {&v};
    size_t sizes[1] = {sizeof v};
    DRV_OK(halMemManagedRangeGetAttributes(data, sizes, &attr, 1, (DVdeviceptr)(uintptr_t)p, n));
    return v;
}

int main(void)
{
    void *u = NULL;
    DRV_OK(halMemAlloc(&u, 2 * PAGE, MEM_UVM | MEM_PAGE_HUGE | 0));
    DVdeviceptr d = (DVdeviceptr)(uintptr_t)u;

    /* Nothing set yet. */
    CHECK_EQ(one(u, 2 * PAGE, MEM_RANGE_ATTR_READ_MOSTLY), 0);
    CHECK_EQ(one(u, 2 * PAGE, MEM_RANGE_ATTR_PREFERRED_LOC), MEM_RANGE_INVALID_DEVICE_ID);
    CHECK_EQ(one(u, 2 * PAGE, MEM_RANGE_ATTR_PREFERRED_LOC_TYPE), DRV_UVM_LOCATION_TYPE_INVALID);
    CHECK_EQ(one(u, 2 * PAGE, MEM_RANGE_ATTR_LAST_PREFETCH_LOC), MEM_RANGE_INVALID_DEVICE_ID);

    /* Preferred location device 1 on the first page, host on the second. */
    struct drv_uvm_location host = {DRV_UVM_LOCATION_TYPE_HOST, 0}, dev1 = {DRV_UVM_LOCATION_TYPE_DEVICE, 1};
    DRV_OK(halMemManagedAdvise(d, PAGE, PREFER_LOCATION, dev1));
    DRV_OK(halMemManagedAdvise(d + PAGE, PAGE, PREFER_LOCATION, host));
    CHECK_EQ(one(u, PAGE, MEM_RANGE_ATTR_PREFERRED_LOC), 1);
    CHECK_EQ(one(u, PAGE, MEM_RANGE_ATTR_PREFERRED_LOC_TYPE), DRV_UVM_LOCATION_TYPE_DEVICE);
    CHECK_EQ(one(u, PAGE, MEM_RANGE_ATTR_PREFERRED_LOC_ID), 1);
    CHECK_EQ(one((char *)u + PAGE, PAGE, MEM_RANGE_ATTR_PREFERRED_LOC), MEM_RANGE_CPU_DEVICE_ID);
    CHECK_EQ(one((char *)u + PAGE, PAGE, MEM_RANGE_ATTR_PREFERRED_LOC_TYPE), DRV_UVM_LOCATION_TYPE_HOST);
    CHECK_EQ(one(u, 2 * PAGE, MEM_RANGE_ATTR_PREFERRED_LOC), MEM_RANGE_INVALID_DEVICE_ID); /* mixed */

    /* Read-mostly on both pages; accessed-by device 0 on both. */
    struct drv_uvm_location dev0 = {DRV_UVM_LOCATION_TYPE_DEVICE, 0};
    DRV_OK(halMemManagedAdvise(d, 2 * PAGE, READ_MOSTLY, host));
    DRV_OK(halMemManagedAdvise(d, 2 * PAGE, ACCESS_BY_LOCATION, dev0));
    CHECK_EQ(one(u, 2 * PAGE, MEM_RANGE_ATTR_READ_MOSTLY), 1);
    int32_t by[3] = {7, 7, 7};
    uint32_t accessBy = MEM_RANGE_ATTR_ACCESS_BY;
    void *byData[1] = {by};
    size_t bySize[1] = {sizeof by};
    DRV_OK(halMemManagedRangeGetAttributes(byData, bySize, &accessBy, 1, d, 2 * PAGE));
    CHECK_EQ(by[0], 0);
    CHECK_EQ(by[1], MEM_RANGE_INVALID_DEVICE_ID);
    CHECK_EQ(by[2], MEM_RANGE_INVALID_DEVICE_ID);

    /* Last prefetch: device 1 everywhere, then the host on page 2 only. */
    DRV_OK(halMemManagedPrefetch(d, 2 * PAGE, dev1, 0));
    DRV_OK(halMemManagedPrefetch(d + PAGE, PAGE, host, 0));

    /* Several attributes in one call. */
    uint32_t attrs[3] = {MEM_RANGE_ATTR_LAST_PREFETCH_LOC, MEM_RANGE_ATTR_LAST_PREFETCH_LOC_TYPE, MEM_RANGE_ATTR_LAST_PREFETCH_LOC_ID};
    int32_t res[3] = {9, 9, 9};
    void *data[3] = {&res[0], &res[1], &res[2]};
    size_t sizes[3] = {4, 4, 4};
    DRV_OK(halMemManagedRangeGetAttributes(data, sizes, attrs, 3, d, PAGE));
    CHECK_EQ(res[0], 1);
    CHECK_EQ(res[1], DRV_UVM_LOCATION_TYPE_DEVICE);
    CHECK_EQ(res[2], 1);
    DRV_OK(halMemManagedRangeGetAttributes(data, sizes, attrs, 3, d + PAGE, PAGE));
    CHECK_EQ(res[0], MEM_RANGE_CPU_DEVICE_ID);
    CHECK_EQ(res[1], DRV_UVM_LOCATION_TYPE_HOST);
    CHECK_EQ(one(u, 2 * PAGE, MEM_RANGE_ATTR_LAST_PREFETCH_LOC), MEM_RANGE_INVALID_DEVICE_ID); /* mixed */

    /* Bad input. */
    uint32_t bad = MEM_RANGE_ATTR_MAX;
    DRV_ERR(halMemManagedRangeGetAttributes(data, sizes, &bad, 1, d, PAGE), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMemManagedRangeGetAttributes(NULL, sizes, attrs, 1, d, PAGE), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMemManagedRangeGetAttributes(data, sizes, attrs, 0, d, PAGE), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMemManagedRangeGetAttributes(data, sizes, attrs, 1, d, 0), DRV_ERROR_INVALID_VALUE);
    size_t tiny[1] = {2};
    DRV_ERR(halMemManagedRangeGetAttributes(data, tiny, attrs, 1, d, PAGE), DRV_ERROR_INVALID_VALUE);
    size_t odd[1] = {6};
    DRV_ERR(halMemManagedRangeGetAttributes(byData, odd, &accessBy, 1, d, PAGE), DRV_ERROR_INVALID_VALUE);
    int local = 0;
    DRV_ERR(halMemManagedRangeGetAttributes(data, sizes, attrs, 1, (DVdeviceptr)(uintptr_t)&local, PAGE), DRV_ERROR_INVALID_VALUE);

    DRV_OK(halMemFree(u));
    return 0;
}
