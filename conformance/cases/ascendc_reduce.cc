/* ascendc_reduce: ReduceSum/Max/Min (count and repeat forms, with the
 * index), WholeReduceSum/Max per repeat, BlockReduceSum per datablock,
 * GatherMask with a bit pattern (and the count it reports) and Sort32
 * (descending score, index pairs) compute what the documentation says.
 *
 * needs: emulator
 */
#include <math.h>

#include "ascendc_build.h"

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = asc_load(__FILE__, "reduce.cpp");
    static float x[256], o[320];
    for (int i = 0; i < 256; i++) x[i] = (float)((i * 53) % 251) - 100.0f; /* distinct */
    void *dx = asc_dev(1024), *dout = asc_dev(320 * 4);
    CHECK_OK(aclrtMemcpy(dx, 1024, x, 1024, ACL_MEMCPY_HOST_TO_DEVICE));
    void *args[2] = {dx, dout};
    CHECK_OK(asc_run(asc_fn(bin, "reduce_all"), 1, s, args, sizeof args));
    CHECK_OK(aclrtMemcpy(o, sizeof o, dout, sizeof o, ACL_MEMCPY_DEVICE_TO_HOST));

    float sum = 0, mx = x[0], mn = x[0];
    int imx = 0, imn = 0;
    for (int i = 0; i < 256; i++) {
        sum += x[i];
        if (x[i] > mx) mx = x[i], imx = i;
        if (x[i] < mn) mn = x[i], imn = i;
    }
    uint32_t u;
    if (fabsf(o[0] - sum) > 1e-3f) FAIL("ReduceSum %g, want %g", o[0], sum);
    if (o[1] != mx) FAIL("ReduceMax %g, want %g", o[1], mx);
    memcpy(&u, &o[2], 4);
    CHECK_EQ(u, imx);
    if (o[4] != mn) FAIL("ReduceMin %g, want %g", o[4], mn);
    memcpy(&u, &o[5], 4);
    CHECK_EQ(u, imn);
    for (int r = 0; r < 4; r++) {
        float rs = 0, rm = x[r * 64];
        int ri = 0;
        for (int e = 0; e < 64; e++) {
            rs += x[r * 64 + e];
            if (x[r * 64 + e] > rm) rm = x[r * 64 + e], ri = e;
        }
        if (fabsf(o[8 + r] - rs) > 1e-3f) FAIL("WholeReduceSum[%d] %g, want %g", r, o[8 + r], rs);
        if (o[16 + 2 * r] != rm) FAIL("WholeReduceMax[%d] %g, want %g", r, o[16 + 2 * r], rm);
        memcpy(&u, &o[17 + 2 * r], 4);
        CHECK_EQ(u, ri);
    }
    for (int b = 0; b < 32; b++) {
        float bs = 0;
        for (int e = 0; e < 8; e++) bs += x[b * 8 + e];
        if (fabsf(o[32 + b] - bs) > 1e-3f) FAIL("BlockReduceSum[%d] %g, want %g", b, o[32 + b], bs);
    }
    for (int i = 0; i < 32; i++)
        if (o[64 + i] != x[2 * i]) FAIL("GatherMask[%d] %g, want %g", i, o[64 + i], x[2 * i]);
    if (o[96] != 32.0f) FAIL("GatherMask count %g, want 32", o[96]);
    /* Sort32: descending, (score, index) */
    int prev = -1;
    float last = INFINITY;
    for (int i = 0; i < 32; i++) {
        float sc = o[128 + 2 * i];
        memcpy(&u, &o[129 + 2 * i], 4);
        if (u >= 32 || x[u] != sc) FAIL("Sort32 pair %d: score %g index %u", i, sc, u);
        if (sc > last) FAIL("Sort32 not descending at %d", i);
        last = sc;
        (void)prev;
    }
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
