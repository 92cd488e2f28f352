/* hello_npu: the first program of the README (`make demo`).
 *
 * It prints the emulated SoC, the device count and device 0's memory, copies
 * a buffer host -> device -> device -> host and checks it, then orders two
 * streams with an event (record on A, wait on B) and prints the time the
 * event pair measured. It exits non-zero on any failure, so it doubles as a
 * smoke test. Build: gcc -I emu/include hello_npu.c -L emu/lib -lascendcl
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK(call)                                                          \
    do {                                                                     \
        aclError e_ = (call);                                                \
        if (e_ != ACL_SUCCESS) {                                             \
            const char *m_ = aclGetRecentErrMsg();                           \
            fprintf(stderr, "hello_npu: %s failed: %d %s\n", #call, (int)e_, \
                    m_ ? m_ : "");                                           \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

#define SIZE (4u << 20) /* 4 MiB */

int main(void)
{
    CHECK(aclInit(NULL));
    uint32_t count = 0;
    CHECK(aclrtGetDeviceCount(&count));
    CHECK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    size_t freeb = 0, total = 0;
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
    printf("SoC %s, %u device(s); device 0 HBM: %.1f GiB free of %.1f GiB\n",
           soc ? soc : "?", count, freeb / 1073741824.0, total / 1073741824.0);

    /* host -> device -> device -> host, then compare. */
    unsigned char *in = NULL, *out = NULL;
    void *d1 = NULL, *d2 = NULL;
    CHECK(aclrtMallocHost((void **)&in, SIZE));
    CHECK(aclrtMallocHost((void **)&out, SIZE));
    CHECK(aclrtMalloc(&d1, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&d2, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
    for (size_t i = 0; i < SIZE; i++) in[i] = (unsigned char)(i * 31 + 7);
    memset(out, 0, SIZE);
    CHECK(aclrtMemcpy(d1, SIZE, in, SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(d2, SIZE, d1, SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE));
    CHECK(aclrtMemcpy(out, SIZE, d2, SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
    if (memcmp(in, out, SIZE) != 0) {
        fprintf(stderr, "hello_npu: the buffer came back different\n");
        return 1;
    }
    printf("copied %u bytes host -> device -> device -> host: identical\n", SIZE);

    /* Stream A copies in and records; stream B waits, then copies out. */
    aclrtStream a = NULL, b = NULL;
    aclrtEvent start = NULL, ready = NULL;
    CHECK(aclrtCreateStream(&a));
    CHECK(aclrtCreateStream(&b));
    CHECK(aclrtCreateEvent(&start));
    CHECK(aclrtCreateEvent(&ready));
    for (size_t i = 0; i < SIZE; i++) in[i] = (unsigned char)(i * 13 + 1);
    memset(out, 0, SIZE);
    CHECK(aclrtRecordEvent(start, a));
    CHECK(aclrtMemcpyAsync(d1, SIZE, in, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, a));
    CHECK(aclrtRecordEvent(ready, a));
    CHECK(aclrtStreamWaitEvent(b, ready));
    CHECK(aclrtMemcpyAsync(out, SIZE, d1, SIZE, ACL_MEMCPY_DEVICE_TO_HOST, b));
    CHECK(aclrtSynchronizeStream(b));
    if (memcmp(in, out, SIZE) != 0) {
        fprintf(stderr, "hello_npu: stream B did not see stream A's copy\n");
        return 1;
    }
    float ms = 0;
    CHECK(aclrtEventElapsedTime(&ms, start, ready));
    printf("stream B waited for stream A's event; the 4 MiB copy took %.3f ms of device time\n", ms);

    CHECK(aclrtDestroyEvent(start));
    CHECK(aclrtDestroyEvent(ready));
    CHECK(aclrtDestroyStream(a));
    CHECK(aclrtDestroyStream(b));
    CHECK(aclrtFree(d1));
    CHECK(aclrtFree(d2));
    CHECK(aclrtFreeHost(in));
    CHECK(aclrtFreeHost(out));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("hello_npu: OK\n");
    return 0;
}
