/* stack_hal_copy: the synchronous copies cross into the driver as on the
 * real stack (rt-to-hal.tsv, docs/stack.md "What binds where today"):
 * rtMemcpy (aclrtMemcpy above it) makes its copy with halMemcpy from
 * device to host, halSdmaCopy from device to device on one device (not on
 * Ascend 950, where it is drvMemcpy) and drvMemcpy otherwise; rtMemset
 * (aclrtMemset) fills with drvMemsetD8; rtMemcpy2d (aclrtMemcpy2d) copies
 * with halMemcpy2D. The rt → hal step crosses in both layouts, so an
 * LD_PRELOAD hook on the driver calls (stack/copy_hook.c) sees an
 * unmodified ACL program's synchronous copies, once each, in merged and
 * split; the aclrt* → rt* step crosses only in split. Under a forwarding
 * hook the copies behave as without it; under a hook that refuses copies
 * of one size, each refusal is what the rt* and aclrt* calls return,
 * converted by the runtime's driver-error table (rt-types.md §8.4), the
 * destination is left as it was and what was copied before is kept; a
 * halMemcpy2D that reports success without progress is an error, not a
 * loop.
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "stack/harness.h"
#include "../../examples/kernels/build_kernel.h"
#include "driver/ascend_hal.h"
#include "runtime/rt.h"

#define N 4096
#define REFUSED 3000 /* COPY_HOOK_REFUSED of stack/copy_hook.c */
#define STALLED 1536 /* COPY_HOOK_STALLED: 2-D width * height */
#define CHECK_RT(call, code) CHECK_EQ((int)(call), (int)(code))

static long count(const char *name) {
    long (*f)(const char *) = (long (*)(const char *))dlsym(RTLD_DEFAULT, "copy_hook_count");
    if (f == NULL) FAIL("the hook is not loaded (LD_PRELOAD)");
    return f(name);
}

/* expect checks every hooked count at once. */
static void expect(long sdma, long halMemcpy, long drvMemcpy, long memset, long m2d, long rtMemcpy_, long rtMemset_,
                   long rt2d) {
    CHECK_EQ(count("halSdmaCopy"), sdma);
    CHECK_EQ(count("halMemcpy"), halMemcpy);
    CHECK_EQ(count("drvMemcpy"), drvMemcpy);
    CHECK_EQ(count("drvMemsetD8"), memset);
    CHECK_EQ(count("halMemcpy2D"), m2d);
    CHECK_EQ(count("rtMemcpy"), rtMemcpy_);
    CHECK_EQ(count("rtMemset"), rtMemset_);
    CHECK_EQ(count("rtMemcpy2d"), rt2d);
}

static void checkBytes(const uint8_t *p, size_t n, uint8_t (*want)(size_t)) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != want(i)) FAIL("byte %zu is %#x, want %#x", i, p[i], want(i));
}
static uint8_t pattern(size_t i) { return (uint8_t)(i * 7 + 3); }
static uint8_t fill5a(size_t i) { (void)i; return 0x5a; }

/* The ACL program: synchronous copies under the hook. */
static int child(void) {
    const char *layout = getenv("NPUEMU_STACK");
    const char *v = getenv("COPY_HOOK_REFUSE");
    long acl = layout != NULL && strcmp(layout, "split") == 0; /* rt calls per ACL call the rt hooks see */
    int refuse = v != NULL && strcmp(v, "1") == 0;

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    /* Device to device on one device: halSdmaCopy, drvMemcpy on 950. */
    const char *soc = aclrtGetSocName();
    int is950 = soc != NULL && strncmp(soc, "Ascend950", 9) == 0;
    long sdma = 0, drv = 0, hal = 0, set = 0, m2d = 0, rtc = 0, rts = 0, rt2 = 0;

    static uint8_t src[N], out[N];
    for (size_t i = 0; i < N; i++) src[i] = pattern(i);
    void *d0 = NULL, *d1 = NULL;
    CHECK_OK(aclrtMalloc(&d0, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&d1, N, ACL_MEM_MALLOC_HUGE_FIRST));
    expect(0, 0, 0, 0, 0, 0, 0, 0);

    /* Host to device: drvMemcpy. */
    CHECK_OK(aclrtMemcpy(d0, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE));
    expect(sdma, hal, ++drv, set, m2d, rtc += acl, rts, rt2);
    /* Device to device. */
    CHECK_OK(aclrtMemcpy(d1, N, d0, N, ACL_MEMCPY_DEVICE_TO_DEVICE));
    if (is950) drv++; else sdma++;
    expect(sdma, hal, drv, set, m2d, rtc += acl, rts, rt2);
    /* Device to host: halMemcpy. */
    memset(out, 0, N);
    CHECK_OK(aclrtMemcpy(out, N, d1, N, ACL_MEMCPY_DEVICE_TO_HOST));
    expect(sdma, ++hal, drv, set, m2d, rtc += acl, rts, rt2);
    checkBytes(out, N, pattern);
    /* Host to host: drvMemcpy. */
    memset(out, 0, N);
    CHECK_OK(aclrtMemcpy(out, N, src, N, ACL_MEMCPY_HOST_TO_HOST));
    expect(sdma, hal, ++drv, set, m2d, rtc += acl, rts, rt2);
    checkBytes(out, N, pattern);
    /* ACL's own argument checks answer before the runtime is asked. */
    CHECK_ERR(aclrtMemcpy(NULL, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemset(NULL, N, 0, N), ACL_ERROR_INVALID_PARAM);
    expect(sdma, hal, drv, set, m2d, rtc, rts, rt2);

    /* The byte fill: drvMemsetD8, with the destination's size. */
    CHECK_OK(aclrtMemset(d1, N, 0x5a, N));
    expect(sdma, hal, drv, ++set, m2d, rtc, rts += acl, rt2);
    CHECK_OK(aclrtMemcpy(out, N, d1, N, ACL_MEMCPY_DEVICE_TO_HOST));
    expect(sdma, ++hal, drv, set, m2d, rtc += acl, rts, rt2);
    checkBytes(out, N, fill5a);

    /* The 2-D copy: one halMemcpy2D (64 rows of 32 bytes, pitches 64). */
    CHECK_OK(aclrtMemcpy2d(d1, 64, src, 64, 32, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    expect(sdma, hal, drv, set, ++m2d, rtc, rts, rt2 += acl);
    CHECK_OK(aclrtMemcpy(out, N, d1, N, ACL_MEMCPY_DEVICE_TO_HOST));
    expect(sdma, ++hal, drv, set, m2d, rtc += acl, rts, rt2);
    for (size_t i = 0; i < N; i++)
        if (out[i] != (i % 64 < 32 ? pattern(i) : 0x5a)) FAIL("2-D copy: byte %zu is %#x", i, out[i]);

    /* The runtime's own calls, made by this program: the rt hooks see them
     * in both layouts, and they cross into the driver the same way. */
    CHECK_RT(rtMemset(d1, N, 0x5a, N), ACL_RT_SUCCESS);
    expect(sdma, hal, drv, ++set, m2d, rtc, ++rts, rt2);
    CHECK_RT(rtMemcpy2d(out, 64, d0, 64, 64, 64, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    expect(sdma, hal, drv, set, ++m2d, rtc, rts, ++rt2);
    checkBytes(out, N, pattern);
    CHECK_RT(rtMemcpy(out, N, d1, N, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    expect(sdma, ++hal, drv, set, m2d, ++rtc, rts, rt2);
    checkBytes(out, N, fill5a);

    /* A copy of another size between the same buffers still goes through. */
    CHECK_OK(aclrtMemcpy(d1, N, src, REFUSED - 1, ACL_MEMCPY_HOST_TO_DEVICE));
    expect(sdma, hal, ++drv, set, m2d, rtc += acl, rts, rt2);
    CHECK_OK(aclrtMemset(d1, N, 0x5a, N));
    expect(sdma, hal, drv, ++set, m2d, rtc, rts += acl, rt2);

    if (refuse) {
        /* Each refusal is the program's answer, converted; the destination
         * keeps what it held (d0: the pattern, d1 and out: 0x5a). */
        memset(out, 0x5a, N);
        CHECK_ERR(aclrtMemcpy(d1, N, src, REFUSED, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_MEMORY_ALLOCATION);
        expect(sdma, hal, ++drv, set, m2d, rtc += acl, rts, rt2);
        CHECK_ERR(aclrtMemcpy(d1, N, d0, REFUSED, ACL_MEMCPY_DEVICE_TO_DEVICE),
                  is950 ? ACL_ERROR_RT_MEMORY_ALLOCATION : ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        if (is950) drv++; else sdma++;
        expect(sdma, hal, drv, set, m2d, rtc += acl, rts, rt2);
        CHECK_ERR(aclrtMemcpy(out, N, d0, REFUSED, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_NO_PERMISSION);
        expect(sdma, ++hal, drv, set, m2d, rtc += acl, rts, rt2);
        checkBytes(out, N, fill5a);
        CHECK_ERR(aclrtMemset(d0, N, 0, REFUSED), ACL_ERROR_RT_COPY_DATA);
        expect(sdma, hal, drv, ++set, m2d, rtc, rts += acl, rt2);
        CHECK_ERR(aclrtMemcpy2d(d1, 100, src, 100, 100, REFUSED / 100, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_ERROR_RT_OVER_LIMIT);
        expect(sdma, hal, drv, set, ++m2d, rtc, rts, rt2 += acl);
        /* A driver that reports success but copies nothing is an error. */
        CHECK_ERR(aclrtMemcpy2d(d1, 64, src, 64, 48, STALLED / 48, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_ERROR_RT_DRV_INTERNAL_ERROR);
        expect(sdma, hal, drv, set, ++m2d, rtc, rts, rt2 += acl);
        /* The runtime's own calls get the same answers. */
        CHECK_RT(rtMemcpy(out, N, d0, REFUSED, RT_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_NO_PERMISSION);
        expect(sdma, ++hal, drv, set, m2d, ++rtc, rts, rt2);
        CHECK_RT(rtMemset(d0, N, 0, REFUSED), ACL_ERROR_RT_COPY_DATA);
        expect(sdma, hal, drv, ++set, m2d, rtc, ++rts, rt2);
        CHECK_RT(rtMemcpy2d(d1, 100, src, 100, 100, REFUSED / 100, RT_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_OVER_LIMIT);
        expect(sdma, hal, drv, set, ++m2d, rtc, rts, ++rt2);
        /* Nothing already accepted was lost. */
        CHECK_OK(aclrtMemcpy(out, N, d0, N, ACL_MEMCPY_DEVICE_TO_HOST));
        expect(sdma, ++hal, drv, set, m2d, rtc += acl, rts, rt2);
        checkBytes(out, N, pattern);
        CHECK_OK(aclrtMemcpy(out, N, d1, N, ACL_MEMCPY_DEVICE_TO_HOST));
        expect(sdma, ++hal, drv, set, m2d, rtc += acl, rts, rt2);
        checkBytes(out, N, fill5a);
    }
    CHECK_OK(aclrtFree(d0));
    CHECK_OK(aclrtFree(d1));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("%s layout, COPY_HOOK_REFUSE=%s: the driver hooks see and decide the synchronous copies\n", layout, v);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    static const char *const runs[] = STACK_BOTH_LAYOUTS;
    stack_run_under(__FILE__, "conformance/cases/stack/copy_hook.c", "COPY_HOOK_REFUSE", runs);
    printf("a hook on the driver's synchronous copy calls sees and decides ACL copies in both layouts\n");
    return 0;
}
