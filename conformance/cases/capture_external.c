/* capture_external: a captured graph synchronised with work outside it
 * through external event records and waits (semantics.md §5 and §18:
 * ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL, only on a capturing
 * stream, with aclrtCreateEventExWithFlag(ACL_EVENT_SYNC) events). The
 * producer stream fills a buffer outside the graph and records `ready`;
 * the graph waits for it, transforms the buffer and records `done`, which
 * a consumer stream outside the graph waits for. */
#include "rt_util.h"

#define N 65536

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream producer = NULL, graph = NULL, consumer = NULL;
    CHECK_OK(aclrtCreateStream(&producer));
    CHECK_OK(aclrtCreateStream(&graph));
    CHECK_OK(aclrtCreateStream(&consumer));
    aclrtEvent ready = NULL, done = NULL;
    CHECK_OK(aclrtCreateEventExWithFlag(&ready, ACL_EVENT_SYNC));
    CHECK_OK(aclrtCreateEventExWithFlag(&done, ACL_EVENT_SYNC));
    void *hin = NULL, *hout = NULL, *a = NULL, *b = NULL;
    CHECK_OK(aclrtMallocHost(&hin, N));
    CHECK_OK(aclrtMallocHost(&hout, N));
    CHECK_OK(aclrtMalloc(&a, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&b, N, ACL_MEM_MALLOC_HUGE_FIRST));

    /* Outside a capture the EXTERNAL flags are refused. */
    CHECK_FAILS(aclrtRecordEventWithFlag(done, graph, ACL_EVENT_RECORD_EXTERNAL));
    CHECK_FAILS(aclrtStreamWaitEventWithFlag(graph, ready, 0, ACL_EVENT_WAIT_EXTERNAL));

    CHECK_OK(aclmdlRICaptureBegin(graph, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_OK(aclrtStreamWaitEventWithFlag(graph, ready, 0, ACL_EVENT_WAIT_EXTERNAL));
    CHECK_OK(aclrtMemcpyAsync(b, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, graph));
    CHECK_OK(aclrtMemsetAsync(b, N, 0x77, 64, graph));
    CHECK_OK(aclrtRecordEventWithFlag(done, graph, ACL_EVENT_RECORD_EXTERNAL));
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureEnd(graph, &ri));

    for (unsigned round = 0; round < 3; round++) {
        rt_fill(hin, N, 40 + round);
        memset(hout, 0, N);
        CHECK_OK(aclrtMemcpyAsync(a, N, hin, N, ACL_MEMCPY_HOST_TO_DEVICE, producer));
        CHECK_OK(aclrtRecordEvent(ready, producer));
        CHECK_OK(aclmdlRIExecuteAsync(ri, graph));
        CHECK_OK(aclrtStreamWaitEvent(consumer, done));
        CHECK_OK(aclrtMemcpyAsync(hout, N, b, N, ACL_MEMCPY_DEVICE_TO_HOST, consumer));
        CHECK_OK(aclrtSynchronizeStream(consumer));
        unsigned char *o = (unsigned char *)hout, *in = (unsigned char *)hin;
        CHECK(rt_all_bytes(o, 64, 0x77));
        CHECK(memcmp(o + 64, in + 64, N - 64) == 0);
    }

    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclrtDestroyEvent(ready));
    CHECK_OK(aclrtDestroyEvent(done));
    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFree(b));
    CHECK_OK(aclrtFreeHost(hin));
    CHECK_OK(aclrtFreeHost(hout));
    CHECK_OK(aclrtDestroyStream(producer));
    CHECK_OK(aclrtDestroyStream(graph));
    CHECK_OK(aclrtDestroyStream(consumer));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
