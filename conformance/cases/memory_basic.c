/* memory_basic: aclrtMalloc family, aclrtFree, host memory, pointer attributes
 * and address ranges, with bad input. */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    void *p = NULL;

    /* doc: semantics.md §8 / §21.1 — size 0 or NULL out → INVALID_PARAM. */
    CHECK_ERR(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMallocAlign32(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMallocAlign32(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMallocCached(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMallocCached(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §8 — every base policy allocates; the address is at
     * least 64-byte aligned. */
    const aclrtMemMallocPolicy pol[] = {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_NORMAL_ONLY,
                                        ACL_MEM_MALLOC_HUGE_FIRST_P2P, ACL_MEM_MALLOC_NORMAL_ONLY_P2P};
    const size_t sizes[] = {1, 33, 4096, (size_t)3 << 20};
    void *blocks[4][4];
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) {
            blocks[i][j] = NULL;
            CHECK_OK(aclrtMalloc(&blocks[i][j], sizes[j], pol[i]));
            CHECK(blocks[i][j] != NULL);
            CHECK_EQ((uintptr_t)blocks[i][j] % 64, 0);
        }
    }
    /* Distinct, non-overlapping blocks. */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 4; k++)
                for (int l = 0; l < 4; l++) {
                    if (i == k && j == l) continue;
                    uintptr_t a = (uintptr_t)blocks[i][j], b = (uintptr_t)blocks[k][l];
                    CHECK(a + sizes[j] <= b || b + sizes[l] <= a);
                }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) CHECK_OK(aclrtFree(blocks[i][j]));

    /* Align32 and Cached variants allocate usable memory. */
    unsigned char in[100], out[100];
    rt_fill(in, sizeof in, 6);
    CHECK_OK(aclrtMallocAlign32(&p, sizeof in, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(p, sizeof in, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE));
    memset(out, 0, sizeof out);
    CHECK_OK(aclrtMemcpy(out, sizeof out, p, sizeof in, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_check_fill(out, sizeof out, 6));
    CHECK_OK(aclrtFree(p));
    CHECK_OK(aclrtMallocCached(&p, sizeof in, ACL_MEM_MALLOC_HUGE_FIRST));
    /* doc: semantics.md §8 — MemFlush/MemInvalidate with size ≠ 0. */
    CHECK_OK(aclrtMemFlush(p, sizeof in));
    CHECK_OK(aclrtMemInvalidate(p, sizeof in));
    CHECK_OK(aclrtFree(p));

    /* doc: semantics.md §8 — aclrtFree(NULL) is an error (§0: NULL → 100000);
     * a freed pointer is not freed twice (no code given). */
    CHECK_ERR(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtMalloc(&p, 128, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtFree(p));
    CHECK_FAILS(aclrtFree(p));
    /* A host pointer is not device memory. */
    unsigned char local[64];
    CHECK_FAILS(aclrtFree(local));

    /* Free then reuse: the device is not exhausted by repeated cycles. */
    for (int i = 0; i < 64; i++) {
        CHECK_OK(aclrtMalloc(&p, (size_t)8 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_OK(aclrtFree(p));
    }

    /* doc: semantics.md §9 — pinned host memory: size ≠ 0, ≥ 64-byte aligned. */
    void *hp = NULL;
    CHECK_ERR(aclrtMallocHost(&hp, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtMallocHost(&hp, 10000));
    CHECK(hp != NULL);
    CHECK_EQ((uintptr_t)hp % 64, 0);
    memset(hp, 0xA5, 10000); /* host-accessible */
    CHECK(rt_all_bytes(hp, 10000, 0xA5));

    /* doc: semantics.md §8 — pointer attributes: DEVICE 1 with the device
     * id, HOST 0 for ACL host memory, UNREGISTERED 2 for plain memory. */
    CHECK_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtPtrAttributes a;
    memset(&a, 0xff, sizeof a);
    CHECK_OK(aclrtPointerGetAttributes(p, &a));
    CHECK_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    CHECK_EQ(a.location.id, 0);
    CHECK(a.pageSize > 0);
    /* An interior pointer belongs to the same allocation. */
    memset(&a, 0xff, sizeof a);
    CHECK_OK(aclrtPointerGetAttributes((char *)p + 100, &a));
    CHECK_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    memset(&a, 0xff, sizeof a);
    CHECK_OK(aclrtPointerGetAttributes(hp, &a));
    CHECK_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
    static unsigned char plain[4096];
    memset(&a, 0xff, sizeof a);
    CHECK_OK(aclrtPointerGetAttributes(plain, &a));
    CHECK_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    /* doc: semantics.md §0 — NULL pointer arguments. */
    CHECK_ERR(aclrtPointerGetAttributes(p, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtPointerGetAttributes(NULL, &a), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §9 — FreeHost; NULL / double free rejected; device
     * memory is not host memory (no code given for the last two). */
    void *hp2 = NULL;
    CHECK_OK(aclrtMallocHost(&hp2, 4096));
    CHECK_OK(aclrtFreeHost(hp2));
    CHECK_ERR(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS(aclrtFreeHost(hp2));
    CHECK_FAILS(aclrtFreeHost(p));

    /* doc: semantics.md §8 — MemGetAddressRange works for aclrtMalloc and
     * aclrtMallocHost memory: base and page-rounded size of the real
     * allocation containing ptr. */
    void *base = NULL;
    size_t rsize = 0;
    CHECK_OK(aclrtMemGetAddressRange((char *)p + 100, &base, &rsize));
    CHECK((uintptr_t)base <= (uintptr_t)p);
    CHECK((uintptr_t)base + rsize >= (uintptr_t)p + 4096);
    CHECK_OK(aclrtMemGetAddressRange(hp, &base, &rsize));
    CHECK((uintptr_t)base <= (uintptr_t)hp);
    CHECK((uintptr_t)base + rsize >= (uintptr_t)hp + 10000);

    CHECK_OK(aclrtFreeHost(hp));
    CHECK_OK(aclrtFree(p));

    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
