/* sanitize_ascendc_exact: the sanitizer's Ascend C footprints are exact
 * for strided copies (the bursts, not the gaps between them) and know
 * atomic stores (docs/sanitizer.md, Kernel footprints):
 *  - two kernels on unordered streams writing interleaved rows of one
 *    buffer (strided DataCopy / DataCopyPad): nothing;
 *  - rows that run into the next row: one race;
 *  - a strided read of written rows over never-written gaps: nothing;
 *    a strided read of the never-written rows: one initcheck;
 *  - two unordered streams atomic-adding into one buffer: nothing (and
 *    the sums are right); an atomic add against a plain write: one race;
 *  - an atomic add into memory never written: one initcheck (the atomic
 *    store reads it);
 *  - a notify wait queued before the record that releases it orders the
 *    waiting stream's later kernel after the recording stream's: nothing;
 *  - thousands of small copies of row halves stay exact (the core's
 *    records coalesce into strided ones): disjoint halves on two streams,
 *    nothing; overlapping, one race.
 *
 * needs: emulator
 * env: NPUEMU_SANITIZE=all NPUEMU_SANITIZE_TRACK_WAIT=10m
 */
#include "ascendc_build.h"
#include "sanitize_util.h"

#define ROWS 64
#define ROWF 64 /* floats per 256-byte row */
#define N (ROWS * ROWF)

static float x[N], o[N];

static aclrtBinHandle bin;
static aclrtFuncHandle f_rows, f_acc;

/* rows: every step-th row from first, nrows rows, bytes of each, x -> y,
 * over 2 blocks. */
static void rows(void *src, void *dst, uint32_t first, uint32_t step, uint32_t nrows, uint32_t bytes, aclrtStream s) {
    struct {
        void *x, *y;
        uint32_t first, step, nrows, bytes;
    } a = {src, dst, first, step, nrows, bytes};
    CHECK_OK(aclrtLaunchKernelWithHostArgs(f_rows, 2, s, NULL, &a, sizeof a, NULL, 0));
}

/* accumulate: 2 blocks each add x[0, n) into y[0, n). */
static void accumulate(void *src, void *dst, uint32_t n, aclrtStream s) {
    struct {
        void *x, *y;
        uint32_t n, pad;
    } a = {src, dst, n, 0};
    CHECK_OK(aclrtLaunchKernelWithHostArgs(f_acc, 2, s, NULL, &a, sizeof a, NULL, 0));
}

/* row_loop: bytes [col, col + bytes) of each of nrows 256-byte rows,
 * x -> y, 32 bytes at a time, one block. */
static void row_loop(void *src, void *dst, uint32_t col, uint32_t bytes, uint32_t nrows, aclrtStream s) {
    struct {
        void *x, *y;
        uint32_t col, bytes, nrows, pad;
    } a = {src, dst, col, bytes, nrows, 0};
    CHECK_OK(aclrtLaunchKernelWithHostArgs(asc_fn(bin, "row_loop"), 1, s, NULL, &a, sizeof a, NULL, 0));
}

static void *dev(void) {
    void *p = NULL;
    CHECK_OK(aclrtMalloc(&p, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST));
    return p;
}

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s1 = NULL, s2 = NULL;
    CHECK_OK(aclrtCreateStream(&s1));
    CHECK_OK(aclrtCreateStream(&s2));
    bin = asc_load(__FILE__, "sanitize_exact.cpp");
    f_rows = asc_fn(bin, "rows");
    f_acc = asc_fn(bin, "accumulate");
    for (int i = 0; i < N; i++) x[i] = (float)(i % 97);
    void *dx = dev(), *dy = dev();
    CHECK_OK(aclrtMemcpy(dx, sizeof x, x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE));

    /* Even rows of dy on s1, odd rows on s2: no byte in common, nothing
     * reported; dy is written whole. */
    san_begin();
    rows(dx, dy, 0, 2, ROWS / 2, 256, s1);
    rows(dx, dy, 1, 2, ROWS / 2, 256, s2);
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_OK(aclrtMemcpy(o, sizeof o, dy, sizeof o, ACL_MEMCPY_DEVICE_TO_HOST));
    const char *out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);
    for (int i = 0; i < N; i++)
        if (o[i] != x[i]) FAIL("interleaved rows: o[%d] = %g, want %g", i, o[i], x[i]);

    /* Even rows of 288 bytes run 32 bytes into the odd rows: one
     * write-write race naming both kernels. */
    san_begin();
    rows(dx, dy, 0, 2, ROWS / 2, 288, s1);
    rows(dx, dy, 1, 2, ROWS / 2, 256, s2);
    CHECK_OK(aclrtSynchronizeDevice());
    out = san_end();
    CHECK_EQ(san_count(out, "racecheck"), 1);
    CHECK(san_has(out, "racecheck", "write-write race", "kernel \"rows\""));
    CHECK_EQ(san_count(out, NULL), 1);

    /* dz: only its even rows written. A strided read of those rows does
     * not read the gaps: nothing. A strided read of the odd rows reads
     * bytes never written: one initcheck naming the kernel. */
    void *dz = dev();
    san_begin();
    rows(dx, dz, 0, 2, ROWS / 2, 256, s1);
    CHECK_OK(aclrtSynchronizeStream(s1));
    rows(dz, dy, 0, 2, ROWS / 2, 256, s1);
    CHECK_OK(aclrtSynchronizeStream(s1));
    out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);
    san_begin();
    rows(dz, dy, 1, 2, ROWS / 2, 256, s1);
    CHECK_OK(aclrtSynchronizeStream(s1));
    out = san_end();
    CHECK_EQ(san_count(out, "initcheck"), 1);
    CHECK(san_has(out, "initcheck", "kernel \"rows\" block", "rows of 256 bytes 512 bytes apart"));
    CHECK_EQ(san_count(out, NULL), 1);

    /* Two streams atomic-adding into one zeroed buffer: reductions,
     * nothing reported; each launch's 2 blocks add x once each. */
    void *da = dev();
    CHECK_OK(aclrtMemset(da, sizeof x, 0, sizeof x));
    san_begin();
    accumulate(dx, da, N, s1);
    accumulate(dx, da, N, s2);
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_OK(aclrtMemcpy(o, sizeof o, da, sizeof o, ACL_MEMCPY_DEVICE_TO_HOST));
    out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);
    for (int i = 0; i < N; i++)
        if (o[i] != 4 * x[i]) FAIL("atomic adds: o[%d] = %g, want %g", i, o[i], 4 * x[i]);

    /* An atomic add against a plain write of some of its rows on another
     * stream, unordered: one race. */
    san_begin();
    accumulate(dx, da, N, s1);
    rows(dx, da, 3, 4, 8, 256, s2);
    CHECK_OK(aclrtSynchronizeDevice());
    out = san_end();
    CHECK_EQ(san_count(out, "racecheck"), 1);
    /* "atomic add-write" or "write-atomic add": the launch that completes
     * first is named first. */
    CHECK(san_has(out, "racecheck", "atomic add", "kernel \"accumulate\""));
    CHECK(san_has(out, "racecheck", "write", "kernel \"rows\""));
    CHECK_EQ(san_count(out, NULL), 1);

    /* An atomic add into memory never written: the atomic store reads
     * it, one initcheck. */
    void *dn = dev();
    san_begin();
    accumulate(dx, dn, N, s1);
    CHECK_OK(aclrtSynchronizeStream(s1));
    out = san_end();
    CHECK_EQ(san_count(out, "initcheck"), 1);
    CHECK(san_has(out, "initcheck", "atomically adds into", "was never written"));
    CHECK_EQ(san_count(out, NULL), 1);

    /* A notify wait queued before the record that releases it: s2's
     * kernel reads dz's odd rows behind the wait; s1 writes them, then
     * records the notify. The release orders the read after the write:
     * nothing. */
    aclrtNotify n = NULL;
    CHECK_OK(aclrtCreateNotify(&n, 0));
    san_begin();
    CHECK_OK(aclrtWaitAndResetNotify(n, s2, 0));
    rows(dz, dy, 1, 2, ROWS / 2, 256, s2);
    rows(dx, dz, 1, 2, ROWS / 2, 256, s1);
    CHECK_OK(aclrtRecordNotify(n, s1));
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_OK(aclrtMemcpy(o, sizeof o, dy, sizeof o, ACL_MEMCPY_DEVICE_TO_HOST));
    out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);
    for (int i = ROWF; i < N; i += 2 * ROWF)
        if (o[i] != x[i]) FAIL("released rows: o[%d] = %g, want %g", i, o[i], x[i]);
    CHECK_OK(aclrtDestroyNotify(n));

    /* 2048 rows copied a 32-byte chunk at a time (16384 copies a
     * launch), left halves on s1, right halves on s2: the footprints stay
     * exact (the core's records coalesce into strided ones instead of
     * overflowing into the whole allocation): nothing. Then the left
     * halves again on s2 against s1's: one race. */
    size_t big = 2048 * 256;
    void *bx = NULL, *by = NULL;
    CHECK_OK(aclrtMalloc(&bx, big, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&by, big, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(bx, big, 1, big));
    san_begin();
    row_loop(bx, by, 0, 128, 2048, s1);
    row_loop(bx, by, 128, 128, 2048, s2);
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_OK(aclrtMemcpy(o, sizeof o, by, sizeof o, ACL_MEMCPY_DEVICE_TO_HOST));
    out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);
    san_begin();
    row_loop(bx, by, 0, 128, 2048, s1);
    row_loop(bx, by, 64, 32, 2048, s2);
    CHECK_OK(aclrtSynchronizeDevice());
    out = san_end();
    CHECK_EQ(san_count(out, "racecheck"), 1);
    CHECK(san_has(out, "racecheck", "write-write race", "kernel \"row_loop\""));
    CHECK_EQ(san_count(out, NULL), 1);
    CHECK_OK(aclrtFree(bx));
    CHECK_OK(aclrtFree(by));

    CHECK_OK(aclrtFree(dx));
    CHECK_OK(aclrtFree(dy));
    CHECK_OK(aclrtFree(dz));
    CHECK_OK(aclrtFree(da));
    CHECK_OK(aclrtFree(dn));
    CHECK_OK(aclrtDestroyStream(s1));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("sanitize_ascendc_exact: ok\n");
    return 0;
}
