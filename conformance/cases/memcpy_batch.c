/* memcpy_batch: aclrtMemcpyBatch(V2) / aclrtMemcpyBatchAsync(V2) with attribute
 * ranges and failIndex. */
/* env: NPUEMU_SOC=Ascend910B3 */
#include "rt_util.h"

#include <stdint.h>
#include <string.h>

#define K 4
#define SZ 256

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, K * SZ, ACL_MEM_MALLOC_HUGE_FIRST));
    static unsigned char src[K * SZ], out[K * SZ];
    for (int i = 0; i < K * SZ; i++)
        src[i] = (unsigned char)(i * 7 + 1);

    void *dsts[K], *srcs[K], *hdst[K], *dsrc[K];
    size_t maxs[K], sizes[K];
    for (int i = 0; i < K; i++) {
        dsts[i] = (char *)d + i * SZ;
        srcs[i] = src + i * SZ;
        hdst[i] = out + i * SZ;
        dsrc[i] = dsts[i];
        maxs[i] = SZ;
        sizes[i] = SZ;
    }
    aclrtMemcpyBatchAttr h2d[2], d2h[1];
    memset(h2d, 0, sizeof h2d);
    memset(d2h, 0, sizeof d2h);
    for (int k = 0; k < 2; k++) {
        h2d[k].dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
        h2d[k].srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
    }
    d2h[0].dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
    d2h[0].srcLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    size_t idx[2] = {0, 2};
    size_t fail = 123;

    /* doc: semantics.md §11 — attrs[k] covers items idx[k]..idx[k+1]-1. */
    CHECK_OK(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, K, h2d, idx, 2, &fail));
    CHECK_EQ(fail, SIZE_MAX);
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtMemcpyBatchAsync(hdst, maxs, dsrc, sizes, K, d2h, idx, 1, &fail, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK(memcmp(src, out, sizeof out) == 0);
    memset(out, 0, sizeof out);
    CHECK_OK(aclrtMemcpyBatchAsyncV2(hdst, maxs, dsrc, sizes, K, d2h, idx, 1, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK(memcmp(src, out, sizeof out) == 0);
    CHECK_OK(aclrtMemcpyBatchV2(dsts, maxs, srcs, sizes, K, h2d, idx, 1));

    /* A batch mixing directions, or bad index ranges, is refused as a whole. */
    aclrtMemcpyBatchAttr mixed[2] = {h2d[0], d2h[0]};
    fail = 0;
    CHECK_FAILS(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, K, mixed, idx, 2, &fail));
    CHECK_EQ(fail, SIZE_MAX);
    size_t badidx[2] = {1, 2};
    CHECK_FAILS(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, K, h2d, badidx, 2, &fail));
    CHECK_FAILS(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 0, h2d, idx, 1, &fail));
    CHECK_FAILS(aclrtMemcpyBatch(NULL, maxs, srcs, sizes, K, h2d, idx, 1, &fail));
    /* An item over its destMax fails with its index. */
    maxs[2] = SZ / 2;
    CHECK_FAILS(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, K, h2d, idx, 1, &fail));
    CHECK_EQ(fail, 2);

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
