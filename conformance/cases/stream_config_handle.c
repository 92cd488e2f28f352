/* stream_config_handle: stream config handles. A handle carries a priority and
 * creation flags; aclrtCreateStreamV2 creates a stream with them, as
 * aclrtCreateStreamWithConfig does. The vendor documentation lists no
 * product for this API, so a real runtime may refuse it. */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
    CHECK(h != NULL);

    uint32_t prio = 3;
    CHECK_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio));
    size_t flag = ACL_STREAM_FAST_LAUNCH;
    CHECK_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag, sizeof flag));

    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStreamV2(&s, h));
    CHECK(s != NULL);
    uint32_t got = 99;
    CHECK_OK(aclrtStreamGetPriority(s, &got));
    CHECK_EQ(got, 3);
    CHECK_OK(aclrtStreamGetFlags(s, &got));
    CHECK_EQ(got, ACL_STREAM_FAST_LAUNCH);

    /* The stream is an ordinary stream. */
    void *dev = NULL;
    CHECK_OK(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemsetAsync(dev, 256, 1, 256, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtFree(dev));

    /* A second stream from the same handle, after changing it. */
    prio = 0;
    CHECK_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio));
    aclrtStream s2 = NULL;
    CHECK_OK(aclrtCreateStreamV2(&s2, h));
    CHECK(s2 != s);
    CHECK_OK(aclrtStreamGetPriority(s2, &got));
    CHECK_EQ(got, 0);

    /* Bad arguments. */
    prio = 8;
    CHECK_FAILS(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio));
    CHECK_FAILS(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, NULL, sizeof prio));
    CHECK_FAILS(aclrtSetStreamConfigOpt(NULL, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio));
    CHECK_FAILS(aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)99, &prio, sizeof prio));
    CHECK_FAILS(aclrtCreateStreamV2(NULL, h));
    CHECK_FAILS(aclrtCreateStreamV2(&s2, NULL));
    CHECK_FAILS(aclrtDestroyStreamConfigHandle(NULL));

    CHECK_OK(aclrtDestroyStreamConfigHandle(h));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
