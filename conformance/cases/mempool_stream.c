/* mempool_stream: stream-ordered memory pools (acl_rt_memory_soma.h):
 * reuse in stream order, reservation statistics, trimming. */
/* env: NPUEMU_SOC=Ascend910B3 */
#include "rt_util.h"

#include <string.h>

#include "acl/acl_rt_memory_soma.h"

static uint64_t attr64(aclrtMemPool p, aclrtMemPoolAttr a)
{
    uint64_t v = 0xdead;
    CHECK_OK(aclrtMemPoolGetAttr(p, a, &v));
    return v;
}

static void set32(aclrtMemPool p, aclrtMemPoolAttr a, uint32_t v) { CHECK_OK(aclrtMemPoolSetAttr(p, a, &v)); }

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    /* doc: acl-functions.tsv — Atlas A2 (Ascend910B1..B4-1) only. */
    if (strncmp(soc, "Ascend910B", 10) != 0 || strlen(soc) == 10)
        SKIP("memory pools exist only on Atlas A2, not on %s", soc);

    aclrtStream s1 = NULL, s2 = NULL;
    CHECK_OK(aclrtCreateStream(&s1));
    CHECK_OK(aclrtCreateStream(&s2));
    aclrtMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    props.maxSize = 64u << 20;
    aclrtMemPool pool = NULL;
    CHECK_ERR(aclrtMemPoolCreate(&pool, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtMemPoolCreate(&pool, &props));

    /* doc: semantics.md §14 — RELEASE_THRESHOLD defaults to 0. */
    CHECK_EQ(attr64(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD), 0);
    CHECK_EQ(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);

    size_t free0 = 0, total = 0, free1 = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
    void *a = NULL, *b = NULL, *c = NULL;
    CHECK_ERR(aclrtMemPoolMallocAsync(NULL, 4096, pool, s1), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemPoolMallocAsync(&a, 0, pool, s1), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtMemPoolMallocAsync(&a, 1 << 20, pool, s1));
    CHECK(a != NULL);
    uint64_t reserved = attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT);
    CHECK(reserved >= (1u << 20));
    CHECK(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT) >= (1u << 20));
    /* The pool's reservation is device memory in use. */
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    CHECK(free1 + (1u << 20) <= free0);

    /* The block is device memory in stream order. */
    static unsigned char host[4096];
    rt_fill(host, sizeof host, 3);
    CHECK_OK(aclrtMemcpyAsync(a, 1 << 20, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE, s1));

    /* doc: semantics.md §14 — a block freed on a stream is reused by that
     * stream. */
    CHECK_OK(aclrtMemPoolFreeAsync(a, s1));
    CHECK_OK(aclrtMemPoolMallocAsync(&b, 1 << 20, pool, s1));
    CHECK(b == a);
    static unsigned char back[4096];
    CHECK_OK(aclrtMemcpyAsync(back, sizeof back, b, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST, s1));
    CHECK_OK(aclrtSynchronizeStream(s1));
    CHECK(rt_check_fill(back, sizeof back, 3));

    /* Across streams only as the REUSE_* attributes allow. */
    set32(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 0);
    set32(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, 0);
    set32(pool, ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, 0);
    uint64_t keep = 1u << 30;
    CHECK_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
    CHECK_OK(aclrtMemPoolFreeAsync(b, s1));
    CHECK_OK(aclrtSynchronizeStream(s1));
    CHECK_OK(aclrtMemPoolMallocAsync(&c, 1 << 20, pool, s2));
    CHECK(c != b);
    CHECK_OK(aclrtMemPoolFreeAsync(c, s2));
    CHECK_OK(aclrtSynchronizeStream(s2));
    CHECK_EQ(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
    CHECK(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT) >= (2u << 20));
    CHECK(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH) >= (2u << 20));

    /* doc: semantics.md §14 — statistics are read-only, high watermarks
     * can only be reset with 0. */
    uint64_t v = 5;
    CHECK_FAILS(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &v));
    CHECK_FAILS(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v));
    v = 0;
    CHECK_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v));
    CHECK_EQ(attr64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 0);

    /* doc: semantics.md §14 — TrimTo releases idle memory at once. */
    CHECK_OK(aclrtMemPoolTrimTo(pool, 0));
    CHECK_EQ(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    CHECK_EQ(free1, free0);

    /* doc: semantics.md §14 — with RELEASE_THRESHOLD 0, idle memory goes
     * back at the next stream synchronise. */
    keep = 0;
    CHECK_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
    CHECK_OK(aclrtMemPoolMallocAsync(&a, 8192, pool, s1));
    CHECK_OK(aclrtMemPoolFreeAsync(a, s1));
    CHECK_OK(aclrtSynchronizeStream(s1));
    CHECK_EQ(attr64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);

    CHECK_FAILS(aclrtMemPoolFreeAsync(a, s1)); /* already freed */
    CHECK_OK(aclrtMemPoolDestroy(pool));
    CHECK_OK(aclrtDestroyStream(s1));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
