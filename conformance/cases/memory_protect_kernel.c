/* memory_protect_kernel: device memory no allocation covers is inaccessible
 * (issue #14 point 2; docs/hardening.md "Device memory is protected"). A
 * kernel that writes a few bytes past a page-sized buffer, 64 MiB past a
 * 4 KiB one, or into freed memory raises the AI Core exception of its
 * task: the launch succeeds, the next synchronisation returns
 * ACL_ERROR_RT_AICORE_EXCEPTION, the message names the kernel, the address
 * and the allocation it is nearest to, the exception callback sees the
 * code and the device; the neighbour is intact, the process and its other
 * streams go on.
 *
 * needs: emulator
 * env: NPUEMU_PROTECT=1
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

static int calls;
static uint32_t cb_code, cb_dev;

static void on_exception(aclrtExceptionInfo *info) {
    calls++;
    cb_code = aclrtGetErrorCodeFromExceptionInfo(info);
    cb_dev = aclrtGetDeviceIdFromExceptionInfo(info);
}

static aclrtFuncHandle oob;

static void launch(aclrtStream s, void *buf, int64_t off) {
    aclrtArgsHandle h;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(oob, &h));
    CHECK_OK(aclrtKernelArgsAppend(h, &buf, sizeof buf, &p));
    CHECK_OK(aclrtKernelArgsAppend(h, &off, sizeof off, &p));
    CHECK_OK(aclrtKernelArgsFinalize(h));
    CHECK_OK(aclrtLaunchKernelWithConfig(oob, 1, s, NULL, h, NULL));
}

/* expect: the sync fails with the AI Core exception once and the message
 * holds every one of the words; the failing launch's callback has run by
 * then (perhaps before the sync was called: failures counts the launches
 * expected to fail so far). */
static int failures;

static void expect(aclrtStream s, const char *what, const char *w1, const char *w2, const char *w3) {
    aclError e = aclrtSynchronizeStream(s);
    if (e != ACL_ERROR_RT_AICORE_EXCEPTION) FAIL("%s: sync returned %d, want ACL_ERROR_RT_AICORE_EXCEPTION", what, (int)e);
    const char *m = aclGetRecentErrMsg(); /* read once: the runtime clears it */
    if (m == NULL) FAIL("%s: no message", what);
    printf("%s: %s\n", what, m);
    const char *words[] = {"oob_write", "SIGSEGV", w1, w2, w3};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (words[i] != NULL && strstr(m, words[i]) == NULL) FAIL("%s: message lacks \"%s\": %s", what, words[i], m);
    CHECK_EQ(calls, ++failures);
    CHECK_EQ(cb_code, (uint32_t)ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK_EQ(cb_dev, 0u);
    CHECK_OK(aclrtSynchronizeStream(s)); /* reported once */
}

int main(void) {
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    CHECK_OK(aclrtSetExceptionInfoCallback(on_exception));
#pragma GCC diagnostic pop
    aclrtStream s, other;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&other));
    aclrtBinHandle bin = NULL;
    if (npuemu_build_kernel(repo, "examples/kernels/oob.c", so, sizeof so) != 0) FAIL("cannot build oob.c");
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    CHECK_OK(aclrtBinaryGetFunction(bin, "oob_write", &oob));

    /* A 4 KiB buffer without padding ends on a page: the next byte is a
     * guard page. Its neighbour holds a pattern. */
    void *a, *b;
    CHECK_OK(aclrtMallocAlign32(&a, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_OK(aclrtMallocAlign32(&b, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_OK(aclrtMemset(b, 4096, 0x5a, 4096));
    char base[32];
    snprintf(base, sizeof base, "%#" PRIxPTR, (uintptr_t)a);

    /* In bounds: the last word. */
    launch(s, a, 4092);
    CHECK_OK(aclrtSynchronizeStream(s));

    /* A few bytes past the end. */
    launch(s, a, 4096);
    expect(s, "4 bytes past", "4096-byte allocation", base, "0 bytes past its end");

    /* 64 MiB past a 4 KiB buffer: nothing is allocated there. */
    launch(s, a, (int64_t)64 << 20);
    expect(s, "64 MiB past", "device 0", NULL, NULL);

    /* Into freed memory. */
    void *f;
    CHECK_OK(aclrtMallocAlign32(&f, 8192, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_OK(aclrtFree(f));
    char fbase[32];
    snprintf(fbase, sizeof fbase, "%#" PRIxPTR, (uintptr_t)f);
    launch(s, f, 16);
    expect(s, "freed", "freed", fbase, "offset 16");

    /* The neighbour is intact; the other stream and this one go on. */
    unsigned char back[4096];
    CHECK_OK(aclrtMemcpyAsync(back, sizeof back, b, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST, other));
    CHECK_OK(aclrtSynchronizeStream(other));
    for (size_t i = 0; i < sizeof back; i++)
        if (back[i] != 0x5a) FAIL("neighbour byte %zu = %#x", i, back[i]);
    launch(s, a, 0);
    CHECK_OK(aclrtSynchronizeStream(s));
    uint32_t w;
    CHECK_OK(aclrtMemcpy(&w, sizeof w, a, sizeof w, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(w, 0xdeadbeefu);
    CHECK_EQ(calls, 3);

    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFree(b));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtDestroyStream(other));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
