/* sanitize_race: racecheck (docs/sanitizer.md). Two streams that touch the
 * same device memory, one writing, need an event (or a notify, or a host
 * synchronisation) between them. A correctly synchronised program reports
 * nothing; the same program without its event reports the race once. */
/* needs: emulator */
/* env: NPUEMU_SANITIZE=all NPUEMU_SANITIZE_TRACK_WAIT=10m */
#include "sanitize_util.h"

#define N 65536

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s1 = NULL, s2 = NULL;
    CHECK_OK(aclrtCreateStream(&s1));
    CHECK_OK(aclrtCreateStream(&s2));
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEvent(&e));
    aclrtNotify nt = NULL;
    CHECK_OK(aclrtCreateNotify(&nt, ACL_NOTIFY_DEFAULT));
    void *a = NULL, *b = NULL, *h = NULL;
    CHECK_OK(aclrtMalloc(&a, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&b, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&h, N));

    /* True negative: producer on s1, consumer on s2 after an event; then
     * back to s1 after a notify; then the host synchronises both and s1
     * reuses the buffers; disjoint halves of one buffer need no order. */
    san_begin();
    CHECK_OK(aclrtMemsetAsync(a, N, 1, N, s1));
    CHECK_OK(aclrtRecordEvent(e, s1));
    CHECK_OK(aclrtStreamWaitEvent(s2, e));
    CHECK_OK(aclrtMemcpyAsync(b, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    CHECK_OK(aclrtRecordNotify(nt, s2));
    CHECK_OK(aclrtWaitAndResetNotify(nt, s1, 0));
    CHECK_OK(aclrtMemcpyAsync(h, N, b, N, ACL_MEMCPY_DEVICE_TO_HOST, s1));
    CHECK_OK(aclrtSynchronizeStream(s1));
    CHECK_OK(aclrtSynchronizeStream(s2));
    CHECK_OK(aclrtMemsetAsync(b, N, 2, N, s2));
    CHECK_OK(aclrtMemsetAsync(a, N / 2, 3, N / 2, s1));
    CHECK_OK(aclrtMemsetAsync((char *)a + N / 2, N / 2, 4, N / 2, s2));
    CHECK_OK(aclrtSynchronizeDevice());
    const char *out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);

    /* True positive: the same hand-off without the event. */
    san_begin();
    CHECK_OK(aclrtMemsetAsync(a, N, 5, N, s1));
    CHECK_OK(aclrtMemcpyAsync(b, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    CHECK_OK(aclrtSynchronizeDevice());
    out = san_end();
    CHECK_EQ(san_count(out, "racecheck"), 1);
    CHECK(san_has(out, "racecheck", "write-read race", "aclrtMemsetAsync (task"));
    CHECK(san_has(out, "racecheck", "aclrtMemcpyAsync (task", "stream"));
    CHECK_EQ(san_count(out, NULL), 1);

    /* An event recorded after the write does not order a wait queued
     * before the record: still a race (write-write this time). */
    san_begin();
    CHECK_OK(aclrtStreamWaitEvent(s2, e)); /* waits for the earlier record */
    CHECK_OK(aclrtMemsetAsync(b, N, 6, N, s1));
    CHECK_OK(aclrtRecordEvent(e, s1));
    CHECK_OK(aclrtMemsetAsync(b, N, 7, N, s2));
    CHECK_OK(aclrtSynchronizeDevice());
    out = san_end();
    CHECK_EQ(san_count(out, "racecheck"), 1);
    CHECK(san_has(out, "racecheck", "write-write race", NULL));

    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFree(b));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyNotify(nt));
    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtDestroyStream(s1));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
