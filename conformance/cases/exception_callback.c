/* exception_callback: registration rules of the exception callbacks and the
 * accessors' answer for a NULL info (semantics.md §17). */
#include "rt_util.h"

static void cb_a(aclrtExceptionInfo *info) { (void)info; }
static void cb_b(aclrtExceptionInfo *info) { (void)info; }

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    /* doc: §17 — Register(NULL) is a parameter error; the same callback
     * twice is kept once; Unregister(NULL) fails, an unknown one succeeds. */
    CHECK_ERR(aclrtExceptionInfoCallbackRegister(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtExceptionInfoCallbackRegister(cb_a));
    CHECK_OK(aclrtExceptionInfoCallbackRegister(cb_a));
    CHECK_OK(aclrtExceptionInfoCallbackRegister(cb_b));
    CHECK_OK(aclrtExceptionInfoCallbackUnregister(cb_a));
    CHECK_OK(aclrtExceptionInfoCallbackUnregister(cb_a));
    CHECK_OK(aclrtExceptionInfoCallbackUnregister(cb_b));
    CHECK_FAILS(aclrtExceptionInfoCallbackUnregister(NULL));

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    /* doc: §17 — the deprecated single slot: last wins, NULL clears. */
    CHECK_OK(aclrtSetExceptionInfoCallback(cb_a));
    CHECK_OK(aclrtSetExceptionInfoCallback(cb_b));
    CHECK_OK(aclrtSetExceptionInfoCallback(NULL));
#pragma GCC diagnostic pop

    /* doc: §17 — accessors return 0xFFFFFFFF for a NULL info. */
    CHECK_EQ(aclrtGetTaskIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    CHECK_EQ(aclrtGetStreamIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    CHECK_EQ(aclrtGetThreadIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    CHECK_EQ(aclrtGetDeviceIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    CHECK_EQ(aclrtGetErrorCodeFromExceptionInfo(NULL), 0xFFFFFFFFu);

    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
