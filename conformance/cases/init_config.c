/* init_config: aclInit with a JSON configuration file. Malformed or too
 * deeply nested files make aclInit fail without initialising; "{}" is valid;
 * the same file again is a repeat; a different content is rejected. */
#include "rt_util.h"

int main(void)
{
    char bad[32], deep[32], empty[32], other[32];
    rt_write_temp(bad, "{\"dump\": {\"dump_path\": ");
    /* 11 levels of nesting: one more than the documented maximum of 10. */
    rt_write_temp(deep, "{\"a\":[{\"b\":[{\"c\":[{\"d\":[{\"e\":[{\"f\":1}]}]}]}]}]}");
    rt_write_temp(empty, "{}");
    rt_write_temp(other, "{\"err_msg_mode\": \"0\"}");

    /* doc: semantics.md §1 — a malformed JSON file makes aclInit fail. */
    CHECK_FAILS(aclInit(bad));
    /* doc: semantics.md §1 — JSON nesting depth of {/[ must be ≤ 10. */
    CHECK_FAILS(aclInit(deep));

    /* A failed aclInit did not initialise.
     * doc: semantics.md §1 — aclFinalizeReference at count 0 → REPEAT_FINALIZE. */
    uint64_t rc = 99;
    CHECK_ERR(aclFinalizeReference(&rc), ACL_ERROR_REPEAT_FINALIZE);

    /* doc: semantics.md §1 — configPath may be a JSON file; {} is valid. */
    CHECK_OK(aclInit(empty));

    /* doc: semantics.md §1 — a second call increments the count and returns
     * ACL_ERROR_REPEAT_INITIALIZE; only the first configuration is effective. */
    CHECK_ERR(aclInit(empty), ACL_ERROR_REPEAT_INITIALIZE);

    /* doc: semantics.md §1 — a second call with a different JSON content
     * fails with ACL_ERROR_INVALID_PARAM. */
    CHECK_ERR(aclInit(other), ACL_ERROR_INVALID_PARAM);

    /* The first configuration stays in force: the runtime works. */
    CHECK_OK(aclrtSetDevice(0));
    void *p = NULL;
    CHECK_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(p != NULL);
    CHECK_OK(aclrtFree(p));
    CHECK_OK(aclrtResetDevice(0));

    CHECK_OK(aclFinalize());
    unlink(bad);
    unlink(deep);
    unlink(empty);
    unlink(other);
    return 0;
}
