/* device_basic: device count, set/get/reset, invalid ids, no-context. */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));

    /* doc: semantics.md §2 — number of visible devices; §0 — NULL output. */
    uint32_t n = 0;
    CHECK_OK(aclrtGetDeviceCount(&n));
    CHECK(n >= 1);
    CHECK_ERR(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §2 — aclrtGetDevice with no context → 107002. */
    int32_t dev = 12345;
    CHECK_ERR(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);

    /* doc: semantics.md §2 — invalid id → ACL_ERROR_RT_INVALID_DEVICEID. */
    CHECK_ERR(aclrtSetDevice((int32_t)n), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ERR(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ERR(aclrtSetDevice(1 << 20), ACL_ERROR_RT_INVALID_DEVICEID);
    /* A failed SetDevice binds nothing. */
    CHECK_ERR(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);

    /* doc: semantics.md §2 — SetDevice binds the thread; GetDevice reports it. */
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtGetDevice(&dev));
    CHECK_EQ(dev, 0);
    /* doc: semantics.md §0 — NULL output pointer. */
    CHECK_ERR(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);

    /* The last device too (ids are 0..n-1). */
    CHECK_OK(aclrtSetDevice((int32_t)n - 1));
    CHECK_OK(aclrtGetDevice(&dev));
    CHECK_EQ(dev, (int32_t)n - 1);

    /* Invalid ids on reset (the spec gives no code for ResetDevice). */
    CHECK_FAILS(aclrtResetDevice((int32_t)n));
    CHECK_FAILS(aclrtResetDevice(-1));

    /* When n == 1 these are the two references of device 0. */
    CHECK_OK(aclrtResetDevice((int32_t)n - 1));
    CHECK_OK(aclrtResetDevice(0));

    CHECK_OK(aclFinalize());
    return 0;
}
