/* capture_replay: tasks issued to a capturing stream are recorded, not
 * executed; aclmdlRIExecuteAsync replays them any number of times and
 * aclmdlRIExecute runs them synchronously. */
#include "rt_util.h"

#define N 4096

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    void *hin = NULL, *hout = NULL, *d1 = NULL, *d2 = NULL;
    CHECK_OK(aclrtMallocHost(&hin, N));
    CHECK_OK(aclrtMallocHost(&hout, N));
    CHECK_OK(aclrtMalloc(&d1, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&d2, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(d2, N, 0, N));

    /* doc: semantics.md §18 — before CaptureBegin tasks run normally. */
    rt_fill(hin, N, 1);
    CHECK_OK(aclrtMemcpyAsync(d1, N, hin, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtSynchronizeStream(s));

    /* doc: §18 — between Begin and End the tasks are recorded. The graph:
     * host → d1, memset of d1's first quarter, d1 → d2, d2 → host. */
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI during = NULL;
    CHECK_OK(aclmdlRICaptureGetInfo(s, &st, &during));
    CHECK_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    CHECK(during != NULL);
    CHECK_OK(aclrtMemcpyAsync(d1, N, hin, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtMemsetAsync(d1, N, 0x5A, N / 4, s));
    CHECK_OK(aclrtMemcpyAsync(d2, N, d1, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsync(hout, N, d2, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureEnd(s, &ri));
    CHECK(ri != NULL);
    CHECK(ri == during);
    CHECK_OK(aclmdlRICaptureGetInfo(s, &st, NULL));
    CHECK_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);

    /* Nothing ran: d2 is still zero. */
    memset(hout, 0xEE, N);
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(hout, N, d2, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_all_bytes(hout, N, 0));

    /* Each replay reads the host buffer as it is at run time. */
    for (unsigned round = 0; round < 3; round++) {
        rt_fill(hin, N, 10 + round);
        memset(hout, 0, N);
        CHECK_OK(aclmdlRIExecuteAsync(ri, s));
        CHECK_OK(aclrtSynchronizeStream(s));
        CHECK(rt_all_bytes(hout, N / 4, 0x5A));
        unsigned char *o = (unsigned char *)hout, *in = (unsigned char *)hin;
        CHECK(memcmp(o + N / 4, in + N / 4, N - N / 4) == 0);
    }

    /* doc: §18 — aclmdlRIExecute(ri, timeout ms, -1 = forever) is synchronous. */
    rt_fill(hin, N, 20);
    memset(hout, 0, N);
    CHECK_OK(aclmdlRIExecute(ri, -1));
    CHECK(memcmp((unsigned char *)hout + N / 4, (unsigned char *)hin + N / 4, N - N / 4) == 0);

    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclrtFree(d1));
    CHECK_OK(aclrtFree(d2));
    CHECK_OK(aclrtFreeHost(hin));
    CHECK_OK(aclrtFreeHost(hout));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
