/* sanitize_plain_kernel: racecheck and initcheck of plain npuemu/kernel.h
 * kernels (docs/sanitizer.md, "Kernel footprints"). Such a kernel records
 * nothing itself: the sanitizer learns what it touched from the pages it
 * faulted in (reads) and the bytes it changed (writes). Two streams whose
 * kernels write disjoint parts of one buffer without any ordering — split
 * on a page boundary or inside a page — race on nothing; overlapping
 * writes are one race naming both launches; a kernel reading device
 * memory nothing wrote is an initcheck report; a correctly synchronised
 * program reports nothing. */
/* needs: emulator */
/* env: NPUEMU_SANITIZE=all NPUEMU_SANITIZE_TRACK_WAIT=10m */
#include <stdint.h>

#include "sanitize_util.h"
#include "../../examples/kernels/build_kernel.h"

#define PAGE 4096
#define N (4 * PAGE)

static aclrtFuncHandle fill_fn, copy_fn;

static void fill(aclrtStream s, void *p, uint64_t off, uint64_t len, uint64_t val, uint32_t blocks)
{
    struct {
        void *p;
        uint64_t off, len, val;
    } a = {p, off, len, val};
    CHECK_OK(aclrtLaunchKernelWithHostArgs(fill_fn, blocks, s, NULL, &a, sizeof a, NULL, 0));
}

static void copy(aclrtStream s, void *dst, const void *src, uint64_t n)
{
    struct {
        void *dst;
        const void *src;
        uint64_t n;
    } a = {dst, src, n};
    CHECK_OK(aclrtLaunchKernelWithHostArgs(copy_fn, 2, s, NULL, &a, sizeof a, NULL, 0));
}

int main(void)
{
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "conformance/cases/sanitize_plain_kernels/bytes.c", so, sizeof so) != 0) FAIL("cannot build the kernels");
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtBinHandle bin = NULL;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    CHECK_OK(aclrtBinaryGetFunction(bin, "fill", &fill_fn));
    CHECK_OK(aclrtBinaryGetFunction(bin, "copy", &copy_fn));
    aclrtStream s1 = NULL, s2 = NULL;
    CHECK_OK(aclrtCreateStream(&s1));
    CHECK_OK(aclrtCreateStream(&s2));
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEvent(&e));
    uint8_t *buf = NULL, *other = NULL, *fresh = NULL, *h = NULL;
    CHECK_OK(aclrtMalloc((void **)&buf, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&other, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&fresh, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost((void **)&h, N));

    /* True negatives. Disjoint halves with no ordering: split on a page
     * boundary, then inside a page (each byte gets a new value, so every
     * write is seen). Then a correctly synchronised hand-off: a kernel
     * on s1 fills buf, s2 waits for its event and copies buf into other
     * with a kernel, and the host reads other back after synchronising. */
    san_begin();
    fill(s1, buf, 0, N / 2, 1, 2);
    fill(s2, buf, N / 2, N / 2, 2, 2);
    CHECK_OK(aclrtSynchronizeDevice());
    fill(s1, buf, 0, 6000, 3, 3);
    fill(s2, buf, 6000, N - 6000, 4, 3);
    CHECK_OK(aclrtSynchronizeDevice());
    fill(s1, buf, 0, N, 5, 4);
    CHECK_OK(aclrtRecordEvent(e, s1));
    CHECK_OK(aclrtStreamWaitEvent(s2, e));
    copy(s2, other, buf, N);
    CHECK_OK(aclrtMemcpyAsync(h, N, other, N, ACL_MEMCPY_DEVICE_TO_HOST, s2));
    CHECK_OK(aclrtSynchronizeStream(s2));
    const char *out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);
    for (int i = 0; i < N; i++) CHECK_EQ(h[i], 6);

    /* True positive: the two parts overlap by 4000 bytes (inside a
     * page): one write-write race naming both launches. */
    san_begin();
    fill(s1, buf, 0, 10000, 7, 2);
    fill(s2, buf, 6000, N - 6000, 8, 2);
    CHECK_OK(aclrtSynchronizeDevice());
    out = san_end();
    CHECK_EQ(san_count(out, "racecheck"), 1);
    CHECK(san_has(out, "racecheck", "write-write race", "aclrtLaunchKernelWithHostArgs of kernel \"fill\" (task"));
    {
        const char *l = strstr(out, "racecheck:");
        const char *k1 = l ? strstr(l, "of kernel \"fill\"") : NULL;
        CHECK(k1 != NULL && strstr(k1 + 1, "of kernel \"fill\"") != NULL); /* both tasks named */
    }
    CHECK_EQ(san_count(out, NULL), 1);

    /* initcheck: a kernel reading fresh, which nothing wrote, is
     * reported (naming the kernel); once fresh is written, it is not. */
    san_begin();
    copy(s1, other, fresh, N);
    CHECK_OK(aclrtSynchronizeStream(s1));
    out = san_end();
    CHECK_EQ(san_count(out, "initcheck"), 1);
    CHECK(san_has(out, "initcheck", "of kernel \"copy\"", "none of which was ever written"));
    CHECK_EQ(san_count(out, NULL), 1);
    san_begin();
    CHECK_OK(aclrtMemcpyAsync(fresh, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE, s1));
    copy(s1, other, fresh, N);
    CHECK_OK(aclrtMemcpyAsync(h, N, other, N, ACL_MEMCPY_DEVICE_TO_HOST, s1));
    CHECK_OK(aclrtSynchronizeStream(s1));
    out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);
    for (int i = 0; i < N; i++) CHECK_EQ(h[i], 7);

    /* Between launches the sanitizer keeps the pages a launch did not
     * touch closed: whatever touches them opens them — host code reading
     * device memory directly, a copy into a buffer allocated where a
     * freed one was — and a correct program sees nothing of it. */
    san_begin();
    copy(s1, fresh, other, N);
    CHECK_OK(aclrtSynchronizeStream(s1));
    CHECK_EQ(fresh[N - 1], 8);
    CHECK_EQ(other[PAGE + 5], 7);
    CHECK_OK(aclrtFree(fresh));
    CHECK_OK(aclrtMalloc((void **)&fresh, N, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(h, 9, N);
    CHECK_OK(aclrtMemcpy(fresh, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE));
    copy(s1, other, fresh, N);
    CHECK_OK(aclrtMemcpyAsync(h, N, other, N, ACL_MEMCPY_DEVICE_TO_HOST, s1));
    CHECK_OK(aclrtSynchronizeStream(s1));
    out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);
    for (int i = 0; i < N; i++) CHECK_EQ(h[i], 10);

    CHECK_OK(aclrtFree(buf));
    CHECK_OK(aclrtFree(other));
    CHECK_OK(aclrtFree(fresh));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtDestroyStream(s1));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
