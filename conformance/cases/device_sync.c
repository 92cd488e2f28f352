/* device_sync: stream priority range, aclrtSynchronizeDevice(WithTimeout)
 * with and without queued work, aclrtGetDeviceUtilizationRate. */
#include "rt_util.h"

#define N (1 << 20)

static int in_range(int32_t v) { return v == -1 || (v >= 0 && v <= 100); }

int main(void)
{
    CHECK_OK(aclInit(NULL));

    /* doc: semantics.md §0/§2 — no current device: synchronise fails. */
    CHECK_FAILS(aclrtSynchronizeDevice());

    CHECK_OK(aclrtSetDevice(0));

    /* doc: semantics.md §4 — least/greatest priority are 7/0. */
    int32_t least = -1, greatest = -1;
    CHECK_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
    CHECK_EQ(least, 7);
    CHECK_EQ(greatest, 0);
    CHECK_ERR(aclrtDeviceGetStreamPriorityRange(NULL, &greatest), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtDeviceGetStreamPriorityRange(&least, NULL), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §2 — nothing queued: returns at once. */
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_OK(aclrtSynchronizeDeviceWithTimeout(-1));
    CHECK_OK(aclrtSynchronizeDeviceWithTimeout(1000));

    /* Queue pinned async copies on two streams, then synchronise the device:
     * doc: semantics.md §2 — it waits for all tasks on all streams. */
    void *h1 = NULL, *h2 = NULL, *d1 = NULL, *d2 = NULL, *back = NULL;
    CHECK_OK(aclrtMallocHost(&h1, N));
    CHECK_OK(aclrtMallocHost(&h2, N));
    CHECK_OK(aclrtMallocHost(&back, N));
    CHECK_OK(aclrtMalloc(&d1, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&d2, N, ACL_MEM_MALLOC_HUGE_FIRST));
    rt_fill(h1, N, 1);
    rt_fill(h2, N, 2);
    memset(back, 0, N);
    aclrtStream s1 = NULL, s2 = NULL;
    CHECK_OK(aclrtCreateStream(&s1));
    CHECK_OK(aclrtCreateStream(&s2));
    CHECK_OK(aclrtMemcpyAsync(d1, N, h1, N, ACL_MEMCPY_HOST_TO_DEVICE, s1));
    CHECK_OK(aclrtMemcpyAsync(d2, N, h2, N, ACL_MEMCPY_HOST_TO_DEVICE, s2));
    CHECK_OK(aclrtMemcpyAsync(back, N, d1, N, ACL_MEMCPY_DEVICE_TO_HOST, s1));
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK(rt_check_fill(back, N, 1));

    /* Both streams are idle now. doc: semantics.md §4 — query status. */
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    CHECK_OK(aclrtStreamQuery(s1, &st));
    CHECK_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    CHECK_OK(aclrtStreamQuery(s2, &st));
    CHECK_EQ(st, ACL_STREAM_STATUS_COMPLETE);

    /* Same with the timeout form and a generous timeout. */
    CHECK_OK(aclrtMemcpyAsync(back, N, d2, N, ACL_MEMCPY_DEVICE_TO_HOST, s2));
    CHECK_OK(aclrtSynchronizeDeviceWithTimeout(60000));
    CHECK(rt_check_fill(back, N, 2));

    uint32_t n = rt_device_count();
    /* doc: semantics.md §2 — percentages, −1 where not available;
     * acl-types.md aclrtUtilizationInfo — 24 bytes, utilizationExtend reserved. */
    CHECK_EQ(sizeof(aclrtUtilizationInfo), 24);
    aclrtUtilizationInfo u;
    memset(&u, 0x55, sizeof u);
    u.utilizationExtend = NULL;
    CHECK_OK(aclrtGetDeviceUtilizationRate(0, &u));
    CHECK(in_range(u.cubeUtilization));
    CHECK(in_range(u.vectorUtilization));
    CHECK(in_range(u.aicpuUtilization));
    CHECK(in_range(u.memoryUtilization));

    /* doc: semantics.md §2 — utilizationExtend must be NULL (no code given). */
    aclrtUtilizationInfo bad;
    memset(&bad, 0, sizeof bad);
    bad.utilizationExtend = (aclrtUtilizationExtendInfo *)&bad;
    CHECK_FAILS(aclrtGetDeviceUtilizationRate(0, &bad));

    /* doc: semantics.md §0 — NULL output; invalid device id. */
    CHECK_ERR(aclrtGetDeviceUtilizationRate(0, NULL), ACL_ERROR_INVALID_PARAM);
    memset(&u, 0, sizeof u);
    CHECK_FAILS(aclrtGetDeviceUtilizationRate((int32_t)n, &u));
    CHECK_FAILS(aclrtGetDeviceUtilizationRate(-1, &u));

    CHECK_OK(aclrtDestroyStream(s1));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtFree(d1));
    CHECK_OK(aclrtFree(d2));
    CHECK_OK(aclrtFreeHost(h1));
    CHECK_OK(aclrtFreeHost(h2));
    CHECK_OK(aclrtFreeHost(back));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
