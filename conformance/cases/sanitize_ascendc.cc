/* sanitize_ascendc: the sanitizer uses an Ascend C kernel's exact GM
 * footprint (the bytes each block read and wrote) instead of the whole
 * allocations its arguments point into (docs/sanitizer.md). Two kernels
 * on two streams writing disjoint halves of one allocation are no race;
 * overlapping halves with no ordering are one race report; a kernel
 * reading device memory never written is one initcheck report naming the
 * kernel and the block; a correctly ordered program reports nothing.
 *
 * needs: emulator
 * env: NPUEMU_SANITIZE=all NPUEMU_SANITIZE_TRACK_WAIT=10m
 */
#include "ascendc_build.h"
#include "sanitize_util.h"

#define N 1024

static float x[N], o[N];

static void launch(aclrtFuncHandle f, void *src, void *dst, uint64_t off, uint64_t n, aclrtStream s) {
    void *args[4] = {src, dst, (void *)(uintptr_t)off, (void *)(uintptr_t)n};
    CHECK_OK(aclrtLaunchKernelWithHostArgs(f, 2, s, NULL, args, sizeof args, NULL, 0));
}

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s1 = NULL, s2 = NULL;
    CHECK_OK(aclrtCreateStream(&s1));
    CHECK_OK(aclrtCreateStream(&s2));
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEvent(&e));
    aclrtFuncHandle f = asc_fn(asc_load(__FILE__, "sanitize.cpp"), "copy_part");
    for (int i = 0; i < N; i++) x[i] = (float)i;
    void *dx = NULL, *dy = NULL, *dz = NULL;
    CHECK_OK(aclrtMalloc(&dx, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dy, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dz, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(dx, sizeof x, x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE));

    /* Disjoint halves of dy from two streams: no report, and dy is
     * written whole (the copy back reads no unwritten byte). */
    san_begin();
    launch(f, dx, dy, 0, N / 2, s1);
    launch(f, dx, dy, N / 2, N / 2, s2);
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_OK(aclrtMemcpy(o, sizeof o, dy, sizeof o, ACL_MEMCPY_DEVICE_TO_HOST));
    const char *out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);
    for (int i = 0; i < N; i++)
        if (o[i] != x[i]) FAIL("o[%d] = %g, want %g", i, o[i], x[i]);

    /* Overlapping halves (64 floats in common), nothing ordering them:
     * one write-write race naming both kernels' tasks. */
    san_begin();
    launch(f, dx, dy, 0, N / 2 + 64, s1);
    launch(f, dx, dy, N / 2, N / 2, s2);
    CHECK_OK(aclrtSynchronizeDevice());
    out = san_end();
    CHECK_EQ(san_count(out, "racecheck"), 1);
    CHECK(san_has(out, "racecheck", "write-write race", "kernel \"copy_part\""));
    CHECK_EQ(san_count(out, NULL), 1);

    /* The same overlap ordered by an event: nothing. */
    san_begin();
    launch(f, dx, dy, 0, N / 2 + 64, s1);
    CHECK_OK(aclrtRecordEvent(e, s1));
    CHECK_OK(aclrtStreamWaitEvent(s2, e));
    launch(f, dx, dy, N / 2, N / 2, s2);
    CHECK_OK(aclrtSynchronizeDevice());
    out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);

    /* A kernel reading dz, never written: one initcheck report naming
     * the kernel and a block. */
    san_begin();
    launch(f, dz, dy, 0, N, s1);
    CHECK_OK(aclrtSynchronizeStream(s1));
    out = san_end();
    CHECK_EQ(san_count(out, "initcheck"), 1);
    CHECK(san_has(out, "initcheck", "kernel \"copy_part\" block", "was never written"));
    CHECK_EQ(san_count(out, NULL), 1);

    /* A correct pipeline: dz written by a kernel on s1, read by one on s2
     * after an event, copied back after a synchronisation: nothing. */
    san_begin();
    launch(f, dx, dz, 0, N, s1);
    CHECK_OK(aclrtRecordEvent(e, s1));
    CHECK_OK(aclrtStreamWaitEvent(s2, e));
    launch(f, dz, dy, 0, N, s2);
    CHECK_OK(aclrtSynchronizeStream(s2));
    CHECK_OK(aclrtMemcpy(o, sizeof o, dy, sizeof o, ACL_MEMCPY_DEVICE_TO_HOST));
    out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);
    for (int i = 0; i < N; i++)
        if (o[i] != x[i]) FAIL("pipeline o[%d] = %g, want %g", i, o[i], x[i]);

    CHECK_OK(aclrtFree(dx));
    CHECK_OK(aclrtFree(dy));
    CHECK_OK(aclrtFree(dz));
    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtDestroyStream(s1));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("sanitize_ascendc: ok\n");
    return 0;
}
