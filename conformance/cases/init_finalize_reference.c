/* init_finalize_reference: aclFinalizeCallbackRegister callbacks run when
 * aclFinalizeReference drops the last aclInit reference, not before, and
 * the runtime is still usable inside them. */
#include "rt_util.h"

static int fin_calls, fin_saw_device;

static aclError on_fin(void *ud)
{
    fin_calls += *(int *)ud;
    uint32_t n = 0;
    fin_saw_device = aclrtGetDeviceCount(&n) == ACL_SUCCESS && n > 0;
    return ACL_SUCCESS;
}

int main(void)
{
    static int one = 1;
    CHECK_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, on_fin, &one));
    CHECK_OK(aclInit(NULL));
    /* doc: semantics.md §1 — a second aclInit takes a reference. */
    CHECK_ERR(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    CHECK_OK(aclrtSetDevice(0));

    uint64_t left = 99;
    CHECK_OK(aclFinalizeReference(&left));
    CHECK_EQ(left, 1);
    CHECK_EQ(fin_calls, 0);
    /* Still initialised: the device is usable. */
    int32_t dev = -1;
    CHECK_OK(aclrtGetDevice(&dev));
    CHECK_EQ(dev, 0);

    CHECK_OK(aclFinalizeReference(&left));
    CHECK_EQ(left, 0);
    CHECK_EQ(fin_calls, 1);
    CHECK(fin_saw_device);
    CHECK_ERR(aclFinalizeReference(NULL), ACL_ERROR_REPEAT_FINALIZE);
    CHECK_EQ(fin_calls, 1);

    /* A new init/finalize cycle runs it again, once. */
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclFinalizeReference(NULL));
    CHECK_EQ(fin_calls, 2);
    CHECK_OK(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, on_fin));
    return 0;
}
