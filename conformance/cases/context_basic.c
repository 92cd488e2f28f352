/* context_basic: explicit contexts — create makes current, default stream,
 * the default context cannot be destroyed, use after destroy fails. */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    uint32_t n = rt_device_count();

    /* doc: semantics.md §3 — no current context yet (aclrtGetCurrentContext
     * gives no code for this; aclrtGetDevice → 107002, §2). */
    aclrtContext cur = NULL;
    int32_t dev = -1;
    CHECK_ERR(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);

    /* doc: semantics.md §3 — CreateContext makes the new context current. */
    aclrtContext ctx = NULL;
    CHECK_OK(aclrtCreateContext(&ctx, 0));
    CHECK(ctx != NULL);
    CHECK_OK(aclrtGetCurrentContext(&cur));
    CHECK(cur == ctx);
    CHECK_OK(aclrtGetDevice(&dev));
    CHECK_EQ(dev, 0);

    /* doc: semantics.md §3 — it has its own default stream;
     * aclrtCtxGetCurrentDefaultStream returns it (§0 NULL output). */
    aclrtStream ds = (aclrtStream)&dev;
    CHECK_OK(aclrtCtxGetCurrentDefaultStream(&ds));
    CHECK_ERR(aclrtCtxGetCurrentDefaultStream(NULL), ACL_ERROR_INVALID_PARAM);
    /* The default stream works: synchronise it (NULL means default, §4). */
    CHECK_OK(aclrtSynchronizeStream(NULL));

    /* Resources can be created in it. */
    void *p = NULL;
    CHECK_OK(aclrtMalloc(&p, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFree(p));

    /* Bad input: doc: semantics.md §0 (NULL outputs / handles), §0 107001. */
    CHECK_ERR(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);
    aclrtContext junk = NULL;
    CHECK_ERR(aclrtCreateContext(&junk, (int32_t)n), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ERR(aclrtCreateContext(&junk, -1), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ERR(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §3 — the default context (from SetDevice) is not
     * destroyable with aclrtDestroyContext. */
    CHECK_OK(aclrtSetDevice(0));
    aclrtContext def = NULL;
    CHECK_OK(aclrtGetCurrentContext(&def));
    CHECK(def != NULL);
    CHECK(def != ctx);
    CHECK_FAILS(aclrtDestroyContext(def));
    /* It is still usable afterwards. */
    CHECK_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtFree(p));

    /* doc: semantics.md §3 — SetCurrentContext: last call wins. */
    CHECK_OK(aclrtSetCurrentContext(ctx));
    CHECK_OK(aclrtGetCurrentContext(&cur));
    CHECK(cur == ctx);
    CHECK_OK(aclrtSetCurrentContext(def));
    CHECK_OK(aclrtGetCurrentContext(&cur));
    CHECK(cur == def);

    /* doc: semantics.md §3 — DestroyContext for explicit contexts. */
    CHECK_OK(aclrtDestroyContext(ctx));
    /* Use after destroy fails (no code given). */
    CHECK_FAILS(aclrtSetCurrentContext(ctx));
    CHECK_FAILS(aclrtDestroyContext(ctx));
    /* The thread's current context (the default one) is unaffected. */
    CHECK_OK(aclrtGetCurrentContext(&cur));
    CHECK(cur == def);

    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
