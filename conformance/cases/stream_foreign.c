/* stream_foreign: a stream or event of another device than the current
 * one is refused with ACL_ERROR_RT_STREAM_CONTEXT (107003). */
/* needs: devices=2 */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    rt_need_devices(2);

    /* Device 0: a stream, an event, device memory and pinned host memory. */
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s0 = NULL;
    aclrtEvent e0 = NULL;
    void *d0 = NULL, *h = NULL;
    CHECK_OK(aclrtCreateStream(&s0));
    CHECK_OK(aclrtCreateEventWithFlag(&e0, ACL_EVENT_SYNC));
    CHECK_OK(aclrtMalloc(&d0, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&h, 4096));
    rt_fill(h, 4096, 4);

    /* Device 1 becomes current. */
    CHECK_OK(aclrtSetDevice(1));
    aclrtStream s1 = NULL;
    aclrtEvent e1 = NULL;
    void *d1 = NULL;
    CHECK_OK(aclrtCreateStream(&s1));
    CHECK_OK(aclrtCreateEventWithFlag(&e1, ACL_EVENT_SYNC));
    CHECK_OK(aclrtMalloc(&d1, 4096, ACL_MEM_MALLOC_HUGE_FIRST));

    /* doc: semantics.md §4 / §21.12 — MemcpyAsync / Memset / RecordEvent on a
     * stream of another device → 107003. */
    CHECK_ERR(aclrtMemcpyAsync(d1, 4096, h, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s0),
              ACL_ERROR_RT_STREAM_CONTEXT);
    CHECK_ERR(aclrtMemsetAsync(d1, 4096, 0, 4096, s0), ACL_ERROR_RT_STREAM_CONTEXT);
    CHECK_ERR(aclrtRecordEvent(e1, s0), ACL_ERROR_RT_STREAM_CONTEXT);
    /* doc: semantics.md §4 — RecordEvent needs event and stream on the same
     * device (no separate code given). */
    CHECK_FAILS(aclrtRecordEvent(e0, s1));

    /* doc: semantics.md §4 — StreamWaitEvent may cross devices: record e0 on
     * device 0, make device 1's stream wait on it. */
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtMemcpyAsync(d0, 4096, h, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s0));
    CHECK_OK(aclrtRecordEvent(e0, s0));
    CHECK_OK(aclrtSetDevice(1));
    CHECK_OK(aclrtStreamWaitEvent(s1, e0));
    CHECK_OK(aclrtMemsetAsync(d1, 4096, 0x3C, 4096, s1));
    CHECK_OK(aclrtSynchronizeStream(s1));
    unsigned char back[4096];
    CHECK_OK(aclrtMemcpy(back, sizeof back, d1, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_all_bytes(back, sizeof back, 0x3C));

    /* Clean up each device's objects with that device current
     * (doc: semantics.md §4 — DestroyStream with the stream's context current). */
    CHECK_OK(aclrtDestroyEvent(e1));
    CHECK_OK(aclrtDestroyStream(s1));
    CHECK_OK(aclrtFree(d1));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtSynchronizeStream(s0));
    CHECK_OK(aclrtDestroyEvent(e0));
    CHECK_OK(aclrtDestroyStream(s0));
    CHECK_OK(aclrtFree(d0));
    CHECK_OK(aclrtFreeHost(h));
    /* Three SetDevice(0) and two SetDevice(1) were made. */
    CHECK_OK(aclrtResetDevice(1));
    CHECK_OK(aclrtResetDevice(1));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
