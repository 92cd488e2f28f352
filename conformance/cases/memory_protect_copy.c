/* memory_protect_copy: copies and memsets whose device range leaves its
 * allocation (issue #14 point 2; docs/hardening.md "Device memory is
 * protected"). Asynchronous ones are checked against the allocation table
 * before the engine moves a byte: the call succeeds, the task raises the
 * SDMA exception, the next synchronisation returns ACL_ERROR_RT_SYS_DMA
 * with the address and the nearest allocation, and nothing is written.
 * Synchronous ones are refused by the call (ACL_ERROR_RT_PARAM_INVALID)
 * with the same report. The other stream goes on.
 *
 * needs: emulator
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static int calls;
static uint32_t cb_code;

static void on_exception(aclrtExceptionInfo *info) {
    calls++;
    cb_code = aclrtGetErrorCodeFromExceptionInfo(info);
}

/* expect: call returned code, and its message (read once: the runtime
 * clears it) holds the words. */
static void expect(const char *what, aclError got, aclError code, const char *w1, const char *w2, const char *w3) {
    if (got != code) FAIL("%s: returned %d, want %d", what, (int)got, (int)code);
    const char *m = aclGetRecentErrMsg();
    if (m == NULL) FAIL("%s: no message", what);
    printf("%s: %s\n", what, m);
    const char *words[] = {w1, w2, w3};
    for (int i = 0; i < 3; i++)
        if (words[i] != NULL && strstr(m, words[i]) == NULL) FAIL("%s: message lacks \"%s\": %s", what, words[i], m);
}

/* expect_sdma: the one failing task queued since the last expect_sdma is
 * reported by the synchronisation, and its exception callback has run by
 * then (it may have run before the synchronisation was even called: the
 * count is of failures queued, not read before the call). */
static int failures;

static void expect_sdma(aclrtStream s, const char *what, const char *w1, const char *w2) {
    expect(what, aclrtSynchronizeStream(s), ACL_ERROR_RT_SYS_DMA, "SDMA exception", w1, w2);
    CHECK_EQ(calls, ++failures);
    CHECK_EQ(cb_code, (uint32_t)ACL_ERROR_RT_SYS_DMA);
    CHECK_OK(aclrtSynchronizeStream(s)); /* reported once */
}

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtExceptionInfoCallbackRegister(on_exception));
    aclrtStream s, other;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&other));
    unsigned char *host;
    CHECK_OK(aclrtMallocHost((void **)&host, 1 << 20));
    memset(host, 0x11, 1 << 20);

    unsigned char *a;
    CHECK_OK(aclrtMallocAlign32((void **)&a, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_OK(aclrtMemset(a, 4096, 0x22, 4096));
    char base[32];
    snprintf(base, sizeof base, "%#" PRIxPTR, (uintptr_t)a);

    /* A copy 104 bytes too long. */
    CHECK_OK(aclrtMemcpyAsync(a + 4000, 200, host, 200, ACL_MEMCPY_HOST_TO_DEVICE, s));
    expect_sdma(s, "copy overrun", "past its end", base);

    /* A memset 64 MiB past the buffer. */
    CHECK_OK(aclrtMemsetAsync(a + (64u << 20), 16, 0, 16, s));
    expect_sdma(s, "memset far", "device 0", NULL);

    /* A 2-D copy whose last row leaves the buffer. */
    CHECK_OK(aclrtMemcpy2dAsync(a, 1024, host, 1024, 512, 5, ACL_MEMCPY_HOST_TO_DEVICE, s));
    expect_sdma(s, "2-D overrun", "past its end", base);

    /* A 32-bit fill into freed memory. */
    void *f;
    CHECK_OK(aclrtMallocAlign32(&f, 8192, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_OK(aclrtFree(f));
    CHECK_OK(aclrtMemsetD32Async(f, 64, 7, 16, s));
    expect_sdma(s, "D32 into freed", "freed", NULL);

    /* Device to host from past the end. */
    CHECK_OK(aclrtMemcpyAsync(host, 64, a + 4090, 64, ACL_MEMCPY_DEVICE_TO_HOST, s));
    expect_sdma(s, "read overrun", "past its end", NULL);

    /* Nothing was written: a still holds its pattern, host its own. */
    unsigned char back[4096];
    CHECK_OK(aclrtMemcpy(back, sizeof back, a, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < sizeof back; i++)
        if (back[i] != 0x22) FAIL("a[%zu] = %#x: a refused copy wrote", i, back[i]);
    CHECK_EQ(host[0], 0x11);

    /* Synchronous calls are refused with the same report. */
    expect("sync copy", aclrtMemcpy(a + 4000, 200, host, 200, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "past its end", base, NULL);
    expect("sync memset", aclrtMemset(f, 16, 0, 16), ACL_ERROR_RT_PARAM_INVALID, "freed", NULL, NULL);

    /* The other stream and this one go on. */
    CHECK_OK(aclrtMemcpyAsync(a, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, other));
    CHECK_OK(aclrtSynchronizeStream(other));
    CHECK_OK(aclrtMemsetAsync(a, 4096, 0x33, 4096, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(back, sizeof back, a, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(back[4095], 0x33);
    CHECK_EQ(calls, 5);

    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFreeHost(host));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtDestroyStream(other));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
