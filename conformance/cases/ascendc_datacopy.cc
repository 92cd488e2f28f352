/* ascendc_datacopy: DataCopy moves 32-byte blocks with the strides of
 * DataCopyParams (GM -> UB and UB -> GM) and UB -> UB; DataCopyPad moves
 * any byte length and fills the padding; with SetAtomicAdd the stores of
 * every block add into GM (16 blocks at once, exactly 16 x); a UB -> GM
 * copy into a 16 MiB allocation (streaming stores) at a 2-byte aligned
 * and at a 16-byte aligned address writes exactly its bytes; int4b_t
 * tensors hold two elements a byte (sizes, DataCopy lengths, GetValue,
 * SetValue, Cast half <-> int4b_t in count and mask/repeat forms); DataCopy with DataCopyEnhancedParams
 * (any block mode) is the basic copy.
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

    /* the same copy through DataCopyEnhancedParams (matrix block mode,
     * isRelu, DEQ): identical, negative values included (no relu on A2) */
    for (int i = 0; i < 256; i++) x[i] = (float)(i % 2 ? -(i + 1) : i + 1);
    run(asc_fn(bin, "copy_enhanced"), 1);
    for (int i = 0; i < 96; i++) {
        int blk = i / 8, e = i % 8;
        float want = 0;
        if (blk % 3 == 0 && blk / 3 < 4) want = x[(blk / 3) * 16 + e];
        if (o[i] != want) FAIL("copy_enhanced o[%d] = %g, want %g", i, o[i], want);
    }
    if (o[1] != -2.0f || o[24] != 17.0f) FAIL("copy_enhanced spot values o[1] = %g (want -2), o[24] = %g (want 17)", o[1], o[24]);
    for (int i = 0; i < 256; i++) x[i] = (float)(i + 1);

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


    {
        /* int4b_t: x[i] = (i - 32) / 2, cast with round-half-to-even and
         * saturation to [-8, 7], two per byte, element 2k in the low nibble. */
        half hx[64];
        for (int i = 0; i < 64; i++) hx[i] = half((float)(i - 32) * 0.5f);
        void *dx = asc_dev(1024), *dout = asc_dev(1024);
        CHECK_OK(aclrtMemcpy(dx, sizeof hx, hx, sizeof hx, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_OK(aclrtMemset(dout, 1024, 0, 1024));
        void *args[2] = {dx, dout};
        CHECK_OK(asc_run(asc_fn(bin, "copy_int4"), 1, s, args, sizeof args));
        uint8_t out[208];
        CHECK_OK(aclrtMemcpy(out, sizeof out, dout, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
        int q[64];
        for (int i = 0; i < 64; i++) {
            float v = (float)(i - 32) * 0.5f, r = (float)(long)v;
            float frac = v - r;
            if (frac == 0.5f && ((long)r & 1)) r += 1; /* half to even */
            if (frac == -0.5f && ((long)r & 1)) r -= 1;
            q[i] = r < -8 ? -8 : r > 7 ? 7 : (int)r;
        }
        q[1] = -3;
        for (int k = 0; k < 32; k++) {
            uint8_t want = (uint8_t)((q[2 * k] & 15) | ((q[2 * k + 1] & 15) << 4));
            if (out[k] != want) FAIL("int4 byte %d = 0x%02x, want 0x%02x", k, out[k], want);
        }
        /* hand-computed: -16 -> -8 and SetValue(1, -3): 0xd8; 0.5 -> 0, 0 -> 0: 0x00;
         * 1 -> 1, 1.5 -> 2: 0x21; 2 -> 2, 2.5 -> 2: 0x22; 15, 15.5 -> 7: 0x77 */
        if (out[0] != 0xd8 || out[16] != 0x00 || out[17] != 0x21 || out[18] != 0x22 || out[31] != 0x77) {
            FAIL("int4 spot bytes %02x %02x %02x %02x %02x, want d8 00 21 22 77", out[0], out[16], out[17], out[18], out[31]);
        }
        for (int i = 32; i < 64; i++)
            if (out[i] != 0) FAIL("DataCopy of 64 int4b_t wrote past its 32 bytes: byte %d = 0x%02x", i, out[i]);
        for (int i = 0; i < 64; i++) {
            half got;
            memcpy(&got, out + 64 + 2 * i, 2);
            if ((float)got != (float)q[i]) FAIL("int4 -> half [%d] = %g, want %d", i, (float)got, q[i]);
        }
        int32_t meta[4];
        memcpy(meta, out + 192, sizeof meta);
        if (meta[0] != 64 || meta[1] != 32 || meta[2] != -8 || meta[3] != 32) {
            FAIL("int4b_t tensor of 32 bytes: GetSize %d GetLength %d GetValue(0) %d int8 size %d, want 64 32 -8 32", meta[0], meta[1], meta[2],
                 meta[3]);
        }
        CHECK_OK(aclrtFree(dx));
        CHECK_OK(aclrtFree(dout));
    }

    {
        /* Cast half <-> int4b_t, mask/repeat form: x[i] = (i - 128) / 4,
         * mask 100 of 128 per repeat, int4b_t repeat stride 2 blocks. */
        half hx[256];
        for (int i = 0; i < 256; i++) hx[i] = half((float)(i - 128) * 0.25f);
        void *dx = asc_dev(1024), *dout = asc_dev(1024);
        CHECK_OK(aclrtMemcpy(dx, sizeof hx, hx, sizeof hx, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_OK(aclrtMemset(dout, 1024, 0, 1024));
        void *args[2] = {dx, dout};
        CHECK_OK(asc_run(asc_fn(bin, "cast_int4_rep"), 1, s, args, sizeof args));
        uint8_t out[640];
        CHECK_OK(aclrtMemcpy(out, sizeof out, dout, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int i = 0; i < 256; i++) {
            int want = 0;
            if (i % 128 < 100) {
                float v = (float)(i - 128) * 0.25f, r = (float)(long)v, frac = v - r;
                if (frac > 0.5f || (frac == 0.5f && ((long)r & 1))) r += 1;
                if (frac < -0.5f || (frac == -0.5f && ((long)r & 1))) r -= 1;
                want = r < -8 ? -8 : r > 7 ? 7 : (int)r;
            }
            int nib = (out[i / 2] >> (i % 2 ? 4 : 0)) & 15, got = nib >= 8 ? nib - 16 : nib;
            if (got != want) FAIL("Cast repeat half -> int4b_t [%d] = %d, want %d", i, got, want);
            half back;
            memcpy(&back, out + 128 + 2 * i, 2);
            if ((float)back != (float)want) FAIL("Cast repeat int4b_t -> half [%d] = %g, want %d", i, (float)back, want);
        }
        /* hand-computed: x[0] = -32 -> -8, x[130] = 0.5 -> 0, x[134] = 1.5 -> 2, x[138] = 2.5 -> 2, x[228] (mask off) -> 0 */
        if (out[0] != 0x88 || (out[65] & 15) != 0 || (out[67] & 15) != 2 || (out[69] & 15) != 2 || out[114] != 0) {
            FAIL("Cast repeat int4b_t spot bytes %02x %02x %02x %02x %02x", out[0], out[65], out[67], out[69], out[114]);
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
