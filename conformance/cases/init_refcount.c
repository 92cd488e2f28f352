/* init_refcount: aclFinalizeReference decrements the init count and
 * finalizes only at the last reference. */
#include "rt_util.h"

int main(void)
{
    /* doc: semantics.md §1 — each repeated aclInit increments the count. */
    CHECK_OK(aclInit(NULL));
    CHECK_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    CHECK_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);

    /* doc: semantics.md §1 — aclFinalizeReference decrements and reports the
     * remaining count. */
    uint64_t rc = 777;
    CHECK_OK(aclFinalizeReference(&rc));
    CHECK_EQ(rc, 2);

    /* Still initialised: the runtime works. */
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtResetDevice(0));

    /* doc: semantics.md §1 — refCount may be NULL. */
    CHECK_OK(aclFinalizeReference(NULL));

    rc = 777;
    CHECK_OK(aclFinalizeReference(&rc));
    CHECK_EQ(rc, 0);

    /* doc: semantics.md §1 — once the count is 0, both forms report
     * ACL_ERROR_REPEAT_FINALIZE. */
    CHECK_ERR(aclFinalizeReference(&rc), ACL_ERROR_REPEAT_FINALIZE);
    CHECK_ERR(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    return 0;
}
