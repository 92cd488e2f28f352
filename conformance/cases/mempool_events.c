/* mempool_events: stream-ordered pools follow the application's event
 * dependencies between streams (REUSE_FOLLOW_EVENT_DEPENDENCIES), and
 * RELEASE_THRESHOLD applies at event and device synchronisation too. */
/* env: NPUEMU_SOC=Ascend910B3 */
#include "rt_util.h"

#include <string.h>

#include "acl/acl_rt_memory_soma.h"

static uint64_t reserved(aclrtMemPool p)
{
    uint64_t v = 0xdead;
    CHECK_OK(aclrtMemPoolGetAttr(p, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, &v));
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
    aclrtEvent ev = NULL;
    CHECK_OK(aclrtCreateEvent(&ev));
    aclrtMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    props.maxSize = 64u << 20;
    aclrtMemPool pool = NULL;
    CHECK_OK(aclrtMemPoolCreate(&pool, &props));
    uint64_t keep = 1u << 30;
    CHECK_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));

    /* doc: semantics.md §14 — across streams only per the REUSE_*
     * attributes: here only event dependencies. */
    set32(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 0);
    set32(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, 0);
    void *a = NULL, *b = NULL;
    CHECK_OK(aclrtMemPoolMallocAsync(&a, 1 << 20, pool, s1));
    CHECK_OK(aclrtMemPoolFreeAsync(a, s1));
    /* s2 waits, through an event recorded on s1 after the free, for it:
     * the block may serve s2 without growing the pool. */
    CHECK_OK(aclrtRecordEvent(ev, s1));
    CHECK_OK(aclrtStreamWaitEvent(s2, ev));
    uint64_t before = reserved(pool);
    CHECK_OK(aclrtMemPoolMallocAsync(&b, 1 << 20, pool, s2));
    CHECK(b == a);
    CHECK_EQ(reserved(pool), before);
    CHECK_OK(aclrtMemPoolFreeAsync(b, s2));
    CHECK_OK(aclrtSynchronizeStream(s2));

    /* With the attribute off, the same dependency gives no reuse. */
    set32(pool, ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, 0);
    CHECK_OK(aclrtRecordEvent(ev, s2));
    CHECK_OK(aclrtStreamWaitEvent(s1, ev));
    void *c = NULL;
    CHECK_OK(aclrtMemPoolMallocAsync(&c, 1 << 20, pool, s1));
    CHECK(c != b);
    CHECK_OK(aclrtMemPoolFreeAsync(c, s1));

    /* doc: semantics.md §14 — idle memory above RELEASE_THRESHOLD is
     * returned at synchronisation: of an event ... */
    keep = 0;
    CHECK_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
    CHECK_OK(aclrtRecordEvent(ev, s1));
    CHECK_OK(aclrtSynchronizeEvent(ev));
    CHECK_EQ(reserved(pool), 0);
    /* ... and of the device. */
    CHECK_OK(aclrtMemPoolMallocAsync(&a, 8192, pool, s1));
    CHECK_OK(aclrtMemPoolFreeAsync(a, s1));
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_EQ(reserved(pool), 0);

    CHECK_OK(aclrtMemPoolDestroy(pool));
    CHECK_OK(aclrtDestroyEvent(ev));
    CHECK_OK(aclrtDestroyStream(s1));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
