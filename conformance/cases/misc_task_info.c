/* misc_task_info: aclrtCacheLastTaskOpInfo / aclrtCacheLastTaskExtendInfo limits
 * and aclrtCheckMemType. */
#include "rt_util.h"

#include <stdlib.h>
#include <string.h>

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    /* doc: semantics.md §19 — op info size in (0, 64 KiB]; extend info
     * (0, 4 KiB], longer input truncated. */
    const char *info = "{\"op\":\"Add\"}";
    CHECK_OK(aclrtCacheLastTaskOpInfo(info, strlen(info)));
    CHECK_FAILS(aclrtCacheLastTaskOpInfo(info, 0));
    CHECK_FAILS(aclrtCacheLastTaskOpInfo(NULL, 4));
    char *big = calloc(1, 64 * 1024 + 1);
    CHECK(big != NULL);
    memset(big, ' ', 64 * 1024);
    CHECK_OK(aclrtCacheLastTaskOpInfo(big, 64 * 1024));
    CHECK_FAILS(aclrtCacheLastTaskOpInfo(big, 64 * 1024 + 1));
    CHECK_OK(aclrtCacheLastTaskExtendInfo(big, 64 * 1024));
    CHECK_FAILS(aclrtCacheLastTaskExtendInfo(big, 0));
    free(big);

    /* doc: semantics.md §11 — 1 when every address is of the given types. */
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    static char host[16];
    void *devs[2] = {d, (char *)d + 512};
    void *mixed[2] = {d, host};
    uint32_t res = 7;
    CHECK_OK(aclrtCheckMemType(devs, 2, ACL_RT_MEM_TYPE_DEV, &res, 0));
    CHECK_EQ(res, 1);
    CHECK_OK(aclrtCheckMemType(mixed, 2, ACL_RT_MEM_TYPE_DEV, &res, 0));
    CHECK_EQ(res, 0);
    CHECK_OK(aclrtCheckMemType(devs, 2, ACL_RT_MEM_TYPE_DVPP, &res, 0));
    CHECK_EQ(res, 0);
    CHECK_FAILS(aclrtCheckMemType(devs, 2, 0x1, &res, 0));
    CHECK_FAILS(aclrtCheckMemType(NULL, 2, ACL_RT_MEM_TYPE_DEV, &res, 0));
    CHECK_FAILS(aclrtCheckMemType(devs, 2, ACL_RT_MEM_TYPE_DEV, NULL, 0));

    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
