/* memory_usage_modules: aclrtGetMemUsageInfo reports device memory per
 * module, by current usage descending. */
/* env: NPUEMU_SOC=Ascend910B3 */
#include "rt_util.h"

#include <string.h>

static uint64_t usage_of(const aclrtMemUsageInfo *u, size_t n, const char *name, uint64_t *peak)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(u[i].name, name) == 0) {
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

    static aclrtMemUsageInfo u[64];
    size_t n = 0;
    CHECK_FAILS(aclrtGetMemUsageInfo(0, NULL, 8, &n));
    CHECK_FAILS(aclrtGetMemUsageInfo(0, u, 64, NULL));
    CHECK_OK(aclrtGetMemUsageInfo(0, u, 64, &n));
    uint64_t app0 = usage_of(u, n, "APP", NULL);

    /* doc: acl-types.md — moduleId 33 = APP is the default. */
    void *a = NULL, *b = NULL;
    CHECK_OK(aclrtMalloc(&a, 8u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtMallocAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.attr = ACL_RT_MEM_ATTR_MODULE_ID;
    attr.value.moduleId = 33;
    aclrtMallocConfig cfg = {&attr, 1};
    CHECK_OK(aclrtMallocWithCfg(&b, 2u << 20, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
    CHECK_OK(aclrtGetMemUsageInfo(0, u, 64, &n));
    CHECK(n >= 1);
    uint64_t app1 = usage_of(u, n, "APP", NULL);
    CHECK(app1 >= app0 + (10u << 20));
    /* Sorted by current usage, descending. */
    for (size_t i = 1; i < n; i++)
        CHECK(u[i - 1].curMemSize >= u[i].curMemSize);

    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFree(b));
    uint64_t peak = 0;
    CHECK_OK(aclrtGetMemUsageInfo(0, u, 64, &n));
    CHECK_EQ(usage_of(u, n, "APP", &peak), app0);
    CHECK(peak >= app1);

    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
