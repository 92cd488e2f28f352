/* init_basic: calls before aclInit, aclInit(NULL), repeated aclInit, aclFinalize
 * twice, and the state after aclFinalize.
 *
 * The specification gives no code for "not initialised" (ACL_ERROR_UNINITIALIZE
 * exists but no API is documented to return it), so calls that need an
 * initialised runtime are checked with CHECK_FAILS. */
#include "rt_util.h"

int main(void)
{
    int32_t dev = -1;
    void *p = NULL;
    aclrtStream s = NULL;

    /* Before aclInit. doc: semantics.md §2 — aclrtGetDevice without any
     * context → 107002. */
    CHECK_ERR(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
    /* doc: semantics.md §8 — aclrtMalloc without a current device fails. */
    CHECK_FAILS(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(p == NULL);
    /* Undocumented code: a stream needs a context. */
    CHECK_FAILS(aclrtCreateStream(&s));
    /* Undocumented code: the runtime is not initialised yet (the dev-guide
     * flow requires aclInit before any other runtime call). */
    CHECK_FAILS(aclrtSetDevice(0));
    /* doc: semantics.md §1 — finalizing with nothing initialised is a repeat
     * finalize, for both forms. */
    uint64_t rc = 12345;
    CHECK_ERR(aclFinalizeReference(&rc), ACL_ERROR_REPEAT_FINALIZE);
    CHECK_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);

    /* doc: semantics.md §1 — configPath may be NULL. */
    CHECK_OK(aclInit(NULL));

    /* doc: semantics.md §1 — a second aclInit returns ACL_ERROR_REPEAT_INITIALIZE. */
    CHECK_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    CHECK_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);

    /* The earlier failures left nothing behind; the runtime works. */
    uint32_t n = 0;
    CHECK_OK(aclrtGetDeviceCount(&n));
    CHECK(n >= 1);
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtGetDevice(&dev));
    CHECK_EQ(dev, 0);
    CHECK_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtFree(p));
    CHECK_OK(aclrtResetDevice(0));

    /* doc: semantics.md §1 — aclFinalize tears down whatever the init count
     * (3 here); a second call returns ACL_ERROR_REPEAT_FINALIZE, and so does
     * aclFinalizeReference at count 0. */
    CHECK_OK(aclFinalize());
    CHECK_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    CHECK_ERR(aclFinalizeReference(&rc), ACL_ERROR_REPEAT_FINALIZE);

    /* After aclFinalize the thread has no context any more.
     * doc: semantics.md §1 (aclFinalize tears everything down), §2 (107002). */
    CHECK_ERR(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
    p = NULL;
    CHECK_FAILS(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    return 0;
}
