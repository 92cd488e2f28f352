/* capture_fork_join: a capture that forks into a second stream through
 * an event and joins back; the replay keeps the captured order across the
 * streams (semantics.md §18, cross-stream capture). */
#include "rt_util.h"

#define N (1 << 20)

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s1 = NULL, s2 = NULL, s3 = NULL;
    CHECK_OK(aclrtCreateStream(&s1));
    CHECK_OK(aclrtCreateStream(&s2));
    CHECK_OK(aclrtCreateStream(&s3));
    aclrtEvent fork = NULL, join2 = NULL, join3 = NULL;
    CHECK_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    CHECK_OK(aclrtCreateEventExWithFlag(&join2, ACL_EVENT_SYNC));
    CHECK_OK(aclrtCreateEventExWithFlag(&join3, ACL_EVENT_SYNC));
    void *hin = NULL, *hout = NULL, *a = NULL, *b = NULL, *c = NULL;
    CHECK_OK(aclrtMallocHost(&hin, N));
    CHECK_OK(aclrtMallocHost(&hout, 2 * N));
    CHECK_OK(aclrtMalloc(&a, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&b, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&c, N, ACL_MEM_MALLOC_HUGE_FIRST));

    /* s1: host → a, record fork. s2 (joins by waiting): a → b, record join2.
     * s3 (joins by waiting on fork too): a → c, record join3. s1 waits for
     * both joins and copies b and c back to the host. */
    CHECK_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_OK(aclrtMemcpyAsync(a, N, hin, N, ACL_MEMCPY_HOST_TO_DEVICE, s1));
    CHECK_OK(aclrtRecordEvent(fork, s1));
    CHECK_OK(aclrtStreamWaitEvent(s2, fork));
    CHECK_OK(aclrtStreamWaitEvent(s3, fork));
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    CHECK_OK(aclmdlRICaptureGetInfo(s2, &st, NULL));
    CHECK_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    CHECK_OK(aclrtMemcpyAsync(b, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    CHECK_OK(aclrtMemsetAsync(b, N, 0x11, 16, s2));
    CHECK_OK(aclrtRecordEvent(join2, s2));
    CHECK_OK(aclrtMemcpyAsync(c, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s3));
    CHECK_OK(aclrtMemsetAsync(c, N, 0x22, 16, s3));
    CHECK_OK(aclrtRecordEvent(join3, s3));
    CHECK_OK(aclrtStreamWaitEvent(s1, join2));
    CHECK_OK(aclrtStreamWaitEvent(s1, join3));
    CHECK_OK(aclrtMemcpyAsync(hout, N, b, N, ACL_MEMCPY_DEVICE_TO_HOST, s1));
    CHECK_OK(aclrtMemcpyAsync((char *)hout + N, N, c, N, ACL_MEMCPY_DEVICE_TO_HOST, s1));
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureEnd(s1, &ri));
    /* The joined streams left the capture with it. */
    CHECK_OK(aclmdlRICaptureGetInfo(s2, &st, NULL));
    CHECK_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);

    /* Replays on another stream than the one captured. */
    for (unsigned round = 0; round < 4; round++) {
        rt_fill(hin, N, 30 + round);
        memset(hout, 0, 2 * N);
        CHECK_OK(aclmdlRIExecuteAsync(ri, s3));
        CHECK_OK(aclrtSynchronizeStream(s3));
        unsigned char *o = (unsigned char *)hout, *in = (unsigned char *)hin;
        CHECK(rt_all_bytes(o, 16, 0x11));
        CHECK(rt_all_bytes(o + N, 16, 0x22));
        CHECK(memcmp(o + 16, in + 16, N - 16) == 0);
        CHECK(memcmp(o + N + 16, in + 16, N - 16) == 0);
    }

    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclrtDestroyEvent(fork));
    CHECK_OK(aclrtDestroyEvent(join2));
    CHECK_OK(aclrtDestroyEvent(join3));
    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFree(b));
    CHECK_OK(aclrtFree(c));
    CHECK_OK(aclrtFreeHost(hin));
    CHECK_OK(aclrtFreeHost(hout));
    CHECK_OK(aclrtDestroyStream(s1));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtDestroyStream(s3));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
