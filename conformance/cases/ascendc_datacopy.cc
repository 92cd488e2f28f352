/* ascendc_datacopy: DataCopy moves 32-byte blocks with the strides of
 * DataCopyParams (GM -> UB and UB -> GM) and UB -> UB; DataCopyPad moves
 * any byte length and fills the padding; with SetAtomicAdd the stores of
 * every block add into GM (16 blocks at once, exactly 16 x); a UB -> GM
 * copy into a 16 MiB allocation (streaming stores) at a 2-byte aligned
 * and at a 16-byte aligned address writes exactly its bytes.
 *
 * needs: emulator
 */
#include "ascendc_build.h"
#include "ascendc/types.h"

static float x[256], o[256];
static aclrtStream s;

static void run(aclrtFuncHandle f, uint32_t blocks) {
    void *dx = asc_dev(1024), *dout = asc_dev(1024);
    CHECK_OK(aclrtMemcpy(dx, 1024, x, 1024, ACL_MEMCPY_HOST_TO_DEVICE));
    void *args[2] = {dx, dout};
    CHECK_OK(asc_run(f, blocks, s, args, sizeof args));
    CHECK_OK(aclrtMemcpy(o, sizeof o, dout, sizeof o, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_OK(aclrtFree(dx));
    CHECK_OK(aclrtFree(dout));
}

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = asc_load(__FILE__, "datacopy.cpp");
    for (int i = 0; i < 256; i++) x[i] = (float)(i + 1);

    run(asc_fn(bin, "copy_params"), 1);
    for (int i = 0; i < 96; i++) {
        int blk = i / 8, e = i % 8;
        float want = 0;
        if (blk % 3 == 0 && blk / 3 < 4) want = x[(blk / 3) * 16 + e];
        if (o[i] != want) FAIL("copy_params o[%d] = %g, want %g", i, o[i], want);
    }

    run(asc_fn(bin, "copy_pad"), 1);
    const float want_pad[10] = {x[0], x[1], x[2], 9, 9, x[4], x[5], x[6], 9, 9};
    for (int i = 0; i < 10; i++)
        if (o[i] != want_pad[i]) FAIL("copy_pad o[%d] = %g, want %g", i, o[i], want_pad[i]);
    for (int i = 10; i < 16; i++)
        if (o[i] != 0) FAIL("copy_pad wrote past its 40 bytes: o[%d] = %g", i, o[i]);

    run(asc_fn(bin, "copy_atomic"), 16);
    for (int i = 0; i < 64; i++)
        if (o[i] != 16 * x[i]) FAIL("atomic add o[%d] = %g, want %g", i, o[i], 16 * x[i]);

    {
        size_t big = 16u << 20;
        void *dx = asc_dev(1024), *dout = asc_dev(big);
        void *args[2] = {dx, dout};
        CHECK_OK(asc_run(asc_fn(bin, "copy_stream"), 1, s, args, sizeof args));
        static uint16_t h[10000];
        CHECK_OK(aclrtMemcpy(h, sizeof h, dout, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int i = 0; i < 10000; i++) {
            float want = 0;
            if (i >= 1 && i < 1 + 4112) want = (float)((i - 1) % 2000);
            if (i >= 5000 && i < 5000 + 4112) want = (float)((i - 5000) % 2000);
            half got;
            memcpy(&got, &h[i], 2);
            if ((float)got != want) FAIL("copy_stream h[%d] = %g, want %g", i, (float)got, want);
        }
        CHECK_OK(aclrtFree(dx));
        CHECK_OK(aclrtFree(dout));
    }

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
