/* memcpy_desc: descriptor copies (aclrtSetMemcpyDesc +
 * aclrtMemcpyAsyncWithDesc) and two-level copies
 * (aclrtMemcpyAsyncWithOffset), INNER_DEVICE_TO_DEVICE only. */
/* env: NPUEMU_SOC=Ascend910B3 */
#include "rt_util.h"

#include <string.h>

#define N 4096

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    /* doc: acl-functions.tsv — descriptor copies: not on 310P/A1;
     * WithOffset: not on 310B/310P. */
    int a1 = strcmp(soc, "Ascend910A") == 0 || strcmp(soc, "Ascend910B") == 0 || strncmp(soc, "Ascend910Pr", 11) == 0;
    if (a1 || strncmp(soc, "Ascend310", 9) == 0)
        SKIP("descriptor or two-level copies are not available on %s", soc);
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));

    size_t descSize = 0;
    /* doc: semantics.md §10 — only INNER_DEVICE_TO_DEVICE. */
    CHECK_FAILS(aclrtGetMemcpyDescSize(ACL_MEMCPY_HOST_TO_DEVICE, &descSize));
    CHECK_OK(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &descSize));
    CHECK(descSize > 0);

    void *desc = NULL, *src = NULL, *dst = NULL;
    CHECK_OK(aclrtMalloc(&desc, descSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&src, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dst, N, ACL_MEM_MALLOC_HUGE_FIRST));
    static unsigned char host[N], back[N];
    rt_fill(host, N, 9);
    CHECK_OK(aclrtMemcpy(src, N, host, N, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemset(dst, N, 0, N));

    /* doc: semantics.md §10 — config must be NULL; the descriptor lives in
     * device memory. */
    int cfg = 0;
    CHECK_FAILS(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src, dst, N, &cfg));
    CHECK_FAILS(aclrtSetMemcpyDesc(host, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src, dst, N, NULL));
    CHECK_FAILS(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_DEVICE_TO_HOST, src, host, N, NULL));
    CHECK_OK(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src, dst, N / 2, NULL));
    CHECK_FAILS(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(back, N, dst, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(back, host, N / 2) == 0);
    CHECK(rt_all_bytes(back + N / 2, N / 2, 0));

    /* doc: semantics.md §10 — WithOffset reads both base addresses through
     * the pointers. */
    void **cells = NULL;
    CHECK_OK(aclrtMalloc((void **)&cells, 2 * sizeof(void *), ACL_MEM_MALLOC_HUGE_FIRST));
    void *bases[2] = {dst, src};
    CHECK_OK(aclrtMemcpy(cells, sizeof bases, bases, sizeof bases, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemset(dst, N, 0, N));
    CHECK_FAILS(aclrtMemcpyAsyncWithOffset(&cells[0], N, 0, (const void **)&cells[1], 64, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsyncWithOffset(&cells[0], N - 100, 100, (const void **)&cells[1], 1000, 200,
                                        ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(back, N, dst, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_all_bytes(back, 100, 0));
    CHECK(memcmp(back + 100, host + 200, 1000) == 0);
    CHECK(rt_all_bytes(back + 1100, N - 1100, 0));

    CHECK_OK(aclrtFree(cells));
    CHECK_OK(aclrtFree(desc));
    CHECK_OK(aclrtFree(src));
    CHECK_OK(aclrtFree(dst));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
