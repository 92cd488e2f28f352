/* memory_info: aclrtGetMemInfo attributes and exact out-of-memory at the
 * device's free capacity. */
#include "rt_util.h"

#define MiB ((size_t)1 << 20)

int main(void)
{
    CHECK_OK(aclInit(NULL));
    size_t freeb = 0, total = 0;

    /* doc: semantics.md §8 — the current device is required (SetDevice). */
    CHECK_FAILS(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));

    CHECK_OK(aclrtSetDevice(0));

    /* doc: semantics.md §0 — NULL outputs. */
    CHECK_ERR(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &total), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, NULL), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §8 — HBM (normal + huge) and the ACL_MEM_* attributes
     * that pick DDR/HBM automatically; every partial view fits in the whole. */
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
    CHECK(total > 0);
    CHECK(freeb > 0);
    CHECK(freeb <= total);
    const aclrtMemAttr parts[] = {ACL_MEM_NORMAL, ACL_MEM_HUGE, ACL_HBM_MEM_NORMAL, ACL_HBM_MEM_HUGE};
    for (int i = 0; i < 4; i++) {
        size_t f = 0, t = 0;
        CHECK_OK(aclrtGetMemInfo(parts[i], &f, &t));
        CHECK(f <= t);
        CHECK(t <= total);
    }

    /* doc: semantics.md §8 — an allocation is accounted: free drops by at
     * least its size, and returns after aclrtFree. */
    size_t big = (freeb / 4) & ~(MiB - 1);
    void *p = NULL;
    size_t f1 = 0, t1 = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
    CHECK_OK(aclrtMalloc(&p, big, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f1, &t1));
    CHECK_EQ(t1, total);
    CHECK(f1 + big <= freeb);
    CHECK_OK(aclrtFree(p));
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f1, &t1));
    CHECK_EQ(f1, freeb);

    /* doc: semantics.md §8 — out of memory → ACL_ERROR_RT_MEMORY_ALLOCATION.
     * Asking for more than is free fails. */
    p = NULL;
    CHECK_ERR(aclrtMalloc(&p, freeb + 64 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    CHECK_ERR(aclrtMalloc(&p, total + 64 * MiB, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_ERROR_RT_MEMORY_ALLOCATION);

    /* Take most of the free memory, then the rest is what is left over: a
     * request just beyond it fails, and after freeing the large block the
     * same large request succeeds again. */
    if (freeb < 1024 * MiB) {
        (void)aclrtResetDevice(0);
        (void)aclFinalize();
        SKIP("device 0 has only %zu bytes free", freeb);
    }
    size_t most = (freeb - 256 * MiB) & ~(2 * MiB - 1);
    void *hold = NULL;
    CHECK_OK(aclrtMalloc(&hold, most, ACL_MEM_MALLOC_HUGE_FIRST));
    size_t rest = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &rest, &t1));
    CHECK(rest <= freeb - most);
    CHECK_ERR(aclrtMalloc(&p, rest + 64 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    /* A failed allocation changes nothing. */
    size_t rest2 = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &rest2, &t1));
    CHECK_EQ(rest2, rest);
    /* Small allocations still fit in what is left. */
    CHECK_OK(aclrtMalloc(&p, MiB, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtFree(p));

    /* The held memory is real: write and read back its two ends. */
    unsigned char in[256], out[256];
    rt_fill(in, sizeof in, 8);
    CHECK_OK(aclrtMemcpy((char *)hold + most - sizeof in, sizeof in, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE));
    memset(out, 0, sizeof out);
    CHECK_OK(aclrtMemcpy(out, sizeof out, (char *)hold + most - sizeof in, sizeof in, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_check_fill(out, sizeof out, 8));

    CHECK_OK(aclrtFree(hold));
    /* After freeing, the memory is usable again. */
    CHECK_OK(aclrtMalloc(&hold, most, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtFree(hold));
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f1, &t1));
    CHECK_EQ(f1, freeb);

    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
