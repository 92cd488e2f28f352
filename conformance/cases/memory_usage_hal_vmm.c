/* memory_usage_hal_vmm: aclrtGetMemUsageInfo counts device memory allocated
 * through the driver (halMemAlloc, under the module id of bits 56-63 of
 * its flag word) and VMM physical memory (aclrtMallocPhysical) too.
 *
 * link: -lascendcl -lascend_hal
 * env: NPUEMU_SOC=Ascend910B3
 */
#include <string.h>

#include "check.h"
#include "driver/ascend_hal.h"

#define MiB ((uint64_t)1 << 20)
#define APP 33 /* hal-api.md: the APP module id */

static uint64_t app_usage(uint64_t *peak)
{
    static aclrtMemUsageInfo u[64];
    size_t n = 0;
    CHECK_OK(aclrtGetMemUsageInfo(0, u, 64, &n));
    for (size_t i = 0; i < n; i++)
        if (strcmp(u[i].name, "APP") == 0) {
            if (peak) *peak = u[i].memPeakSize;
            return u[i].curMemSize;
        }
    return 0;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    if (strncmp(soc, "Ascend950", 9) == 0)
        SKIP("aclrtGetMemUsageInfo is not available on %s", soc);
    uint64_t app0 = app_usage(NULL);

    /* hal-api.md §3: the runtime passes flag | moduleId << 56. */
    void *p = NULL;
    if (halMemAlloc(&p, 3 * MiB, MEM_DEV | MEM_TYPE_HBM | MEM_PAGE_HUGE | 0 | ((uint64_t)APP << MEM_MODULE_ID_BIT)) != DRV_ERROR_NONE)
        FAIL("halMemAlloc of device memory failed");
    uint64_t app1 = app_usage(NULL);
    CHECK(app1 >= app0 + 3 * MiB);

    /* VMM physical memory of the device: the ACL prop has no module. */
    aclrtPhysicalMemProp prop;
    memset(&prop, 0, sizeof prop);
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    aclrtDrvMemHandle h = NULL;
    CHECK_OK(aclrtMallocPhysical(&h, 4 * MiB, &prop, 0));
    uint64_t app2 = app_usage(NULL);
    CHECK(app2 >= app1 + 4 * MiB);

    CHECK_OK(aclrtFreePhysical(h));
    if (halMemFree(p) != DRV_ERROR_NONE) FAIL("halMemFree failed");
    uint64_t peak = 0;
    CHECK_EQ(app_usage(&peak), app0);
    CHECK(peak >= app2);

    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
