//go:build ignore

/* mstx.c: mstx marks and ranges of timeline_test.go. A range on the stream
 * around two copies, a range in domain "phase" without a stream around a
 * synchronize, and a mark; no profiling collection runs, so they reach
 * the timeline only (NPUEMU_TIMELINE). */
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "mstx/ms_tools_ext.h"

#define CHECK_OK(x)                                                        \
    do {                                                                   \
        aclError e_ = (x);                                                 \
        if (e_ != ACL_SUCCESS) {                                           \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_); \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    void *d, *h;
    CHECK_OK(aclrtMalloc(&d, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&h, 1 << 20));
    mstxDomainHandle_t phase = mstxDomainCreateA("phase");
    if (phase == NULL || mstxDomainCreateA("phase") != phase || mstxDomainCreateA("default") != NULL) return 1;

    mstxRangeId copies = mstxRangeStartA("copies", s);
    if (copies == 0) return 1;
    CHECK_OK(aclrtMemcpyAsync(d, 1 << 20, h, 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsync(h, 1 << 20, d, 1 << 20, ACL_MEMCPY_DEVICE_TO_HOST, s));
    mstxRangeEnd(copies);
    mstxRangeId sync = mstxDomainRangeStartA(phase, "sync", NULL);
    CHECK_OK(aclrtSynchronizeStream(s));
    mstxDomainRangeEnd(phase, sync);
    mstxDomainRangeEnd(phase, sync); /* ended already: ignored */
    mstxMarkA("done", s);
    mstxDomainDestroy(phase);

    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
