/* sanitize_sync: synccheck (docs/sanitizer.md). The host must not read
 * memory that an unfinished async copy writes, nor free memory queued work
 * still uses, before it synchronises; waiting on, synchronising with or
 * querying an event that was never recorded orders nothing. A program
 * that synchronises first reports nothing. */
/* needs: emulator */
/* env: NPUEMU_SANITIZE=all NPUEMU_SANITIZE_TRACK_WAIT=10m */
#include "sanitize_util.h"

#define N 8192

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL, s2 = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&s2));
    aclrtEvent e = NULL, never = NULL;
    CHECK_OK(aclrtCreateEvent(&e));
    CHECK_OK(aclrtCreateEvent(&never));
    void *d = NULL, *d2 = NULL, *h = NULL;
    CHECK_OK(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&d2, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&h, N));

    /* True negative: D2H into pinned memory, then the host uses it after
     * a stream synchronisation, an event synchronisation, a completed
     * query; a free after synchronising. */
    san_begin();
    CHECK_OK(aclrtMemsetAsync(d, N, 1, N, s));
    CHECK_OK(aclrtMemcpyAsync(h, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(d2, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpyAsync(h, N, d2, N, ACL_MEMCPY_DEVICE_TO_HOST, s2));
    CHECK_OK(aclrtRecordEvent(e, s2));
    CHECK_OK(aclrtSynchronizeEvent(e));
    CHECK_OK(aclrtMemcpy(d, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpyAsync(h, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    for (int i = 0; i < 100000 && st != ACL_STREAM_STATUS_COMPLETE; i++) CHECK_OK(aclrtStreamQuery(s, &st));
    CHECK_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    CHECK_OK(aclrtMemcpy(d2, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE));
    void *tmp = NULL;
    CHECK_OK(aclrtMalloc(&tmp, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemsetAsync(tmp, N, 0, N, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtFree(tmp));
    const char *out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);

    /* True positives. */
    san_begin();
    /* 1: the host copies out of h while the D2H copy into h may run. */
    CHECK_OK(aclrtMemcpyAsync(h, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtMemcpy(d2, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE));
    /* 2: a stream waits for an event never recorded. */
    CHECK_OK(aclrtStreamWaitEvent(s2, never));
    /* 3: the host synchronises with it. */
    CHECK_OK(aclrtSynchronizeEvent(never));
    /* 4: free while a queued memset uses the memory. */
    CHECK_OK(aclrtMalloc(&tmp, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemsetAsync(tmp, N, 0, N, s2));
    CHECK_OK(aclrtFree(tmp));
    CHECK_OK(aclrtSynchronizeDevice());
    out = san_end();
    CHECK(san_has(out, "synccheck", "host/device race", "aclrtMemcpy (host thread"));
    CHECK(san_has(out, "synccheck", "aclrtStreamWaitEvent", "never recorded"));
    CHECK(san_has(out, "synccheck", "aclrtSynchronizeEvent", "never recorded"));
    CHECK(san_has(out, "synccheck", "aclrtFree frees", "aclrtMemsetAsync (task"));
    CHECK_EQ(san_count(out, "synccheck"), 4);
    CHECK_EQ(san_count(out, NULL), 4);

    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtFree(d2));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtDestroyEvent(never));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
