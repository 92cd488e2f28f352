/* ascendc_cube_mmad: the cube path of an Ascend C kernel computes what the
 * documentation says: ND data copied to L1 as NZ fractals (Nd2NzParams,
 * zero padding of a K that is not a whole fractal), loaded to L0A/L0B
 * (LoadData2DParams, transposed for B), multiplied by Mmad in fp32 with
 * the bias from the bias table (fp16 -> fp32 on the C1 -> C2 move), and
 * written back as ND by Fixpipe; Mmad accumulates when cmatrixInitVal is
 * false; Fixpipe applies relu and the F322F16 conversion; an ND matrix
 * survives ND -> NZ -> ND through UB (Nd2NzParams, Nz2NdParamsFull);
 * InitConstValue fills L0A per its two parameter forms; Fixpipe's
 * quantisation modes (DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8,
 * VREQ8: scale, round half to even, saturate) and ndNum > 1; int4b_t
 * Mmad (packed two a byte, k0 = 64) into int32. Inputs are
 * small integers, so every result is exact.
 *
 * needs: emulator
 */
#include <stdint.h>

#include "ascendc_cube_kernels/build.h"

static float h2f(uint16_t h) { return aclFloat16ToFloat(h); }

/* One product of m x k by k x n (+ bias) checked element by element. */
static void mmad_case(aclrtFuncHandle f, aclrtStream s, uint32_t m, uint32_t n, uint32_t k, uint32_t useBias, int identity) {
    size_t na = (size_t)m * k, nb = (size_t)k * n;
    uint16_t *a = malloc(na * 2), *b = malloc(nb * 2), *bias = malloc((n < 32 ? 32 : n) * 2);
    float *biasf = malloc((n < 32 ? 32 : n) * 4);
    float *c = malloc((size_t)m * n * 4);
    for (size_t i = 0; i < na; i++) a[i] = aclFloatToFloat16((float)((int)(i * 7 % 11) - 5));
    for (uint32_t i = 0; i < k; i++)
        for (uint32_t j = 0; j < n; j++)
            b[(size_t)i * n + j] = aclFloatToFloat16(identity ? (i == j ? 1.0f : 0.0f) : (float)((int)((i * 3 + j * 5) % 7) - 3));
    for (uint32_t j = 0; j < (n < 32 ? 32 : n); j++) {
        bias[j] = aclFloatToFloat16((float)(j % 13));
        biasf[j] = (float)(j % 13) + 0.25f; /* not a half value's neighbour: only an fp32 path keeps the .25 */
    }
    void *da, *db, *dbias, *dc;
    CHECK_OK(aclrtMalloc(&da, na * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&db, nb * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dbias, 128 + n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dc, (size_t)m * n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(da, na * 2, a, na * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(db, nb * 2, b, nb * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    if (useBias == 2) {
        CHECK_OK(aclrtMemcpy(dbias, (n < 32 ? 32 : n) * 4, biasf, (n < 32 ? 32 : n) * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    } else {
        CHECK_OK(aclrtMemcpy(dbias, (n < 32 ? 32 : n) * 2, bias, (n < 32 ? 32 : n) * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    CHECK_OK(aclrtMemset(dc, (size_t)m * n * 4, 0xff, (size_t)m * n * 4));
    asc_param ps[] = {{&da, 8}, {&db, 8}, {&dbias, 8}, {&dc, 8}, {&m, 4}, {&n, 4}, {&k, 4}, {&useBias, 4}};
    asc_launch(f, 1, s, ps, 8);
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(c, (size_t)m * n * 4, dc, (size_t)m * n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < m; i++)
        for (uint32_t j = 0; j < n; j++) {
            float want = useBias == 2 ? biasf[j] : useBias ? h2f(bias[j]) : 0.0f;
            for (uint32_t kk = 0; kk < k; kk++) want += h2f(a[(size_t)i * k + kk]) * h2f(b[(size_t)kk * n + j]);
            if (c[(size_t)i * n + j] != want) FAIL("m=%u n=%u k=%u bias=%u: C[%u][%u] = %g, want %g", m, n, k, useBias, i, j, c[(size_t)i * n + j], want);
        }
    CHECK_OK(aclrtFree(da));
    CHECK_OK(aclrtFree(db));
    CHECK_OK(aclrtFree(dbias));
    CHECK_OK(aclrtFree(dc));
    free(a);
    free(b);
    free(bias);
    free(biasf);
    free(c);
}

static uint64_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Round half to even (|x| < 2^22 here), then saturate to [lo, hi]. */
static float sat_round(float x, float lo, float hi) {
    long t = (long)x; /* toward zero */
    float frac = x - (float)t;
    if (frac > 0.5f || (frac == 0.5f && (t & 1))) t++;
    if (frac < -0.5f || (frac == -0.5f && (t & 1))) t--;
    x = (float)t;
    return x < lo ? lo : x > hi ? hi : x;
}

/* Fixpipe quantisation modes and ndNum (kernel cube_fixpipe_quant). The
 * accumulator holds v(i, j) = 16 i + j - 100 (int32) or v / 4 (float). */
static void fixpipe_quant(aclrtFuncHandle f, aclrtStream s) {
    void *dout, *dsc;
    float got[528];
    uint64_t sc[16];
    CHECK_OK(aclrtMalloc(&dout, sizeof got, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dsc, sizeof sc, ACL_MEM_MALLOC_HUGE_FIRST));
    for (uint32_t mode = 0; mode <= 7; mode++) {
        for (int j = 0; j < 16; j++) {
            float x = mode == 1 ? 1.0f / (float)(1 << (j % 4)) : mode == 3 ? (float)j / 4.0f : 1.0f / (float)(j + 1);
            sc[j] = fbits(x) | (mode == 3 ? 0xabcd000000000000ull : 0); /* the upper half is not a scale */
        }
        for (int i = 0; i < 528; i++) got[i] = -7.0f;
        CHECK_OK(aclrtMemcpy(dsc, sizeof sc, sc, sizeof sc, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_OK(aclrtMemcpy(dout, sizeof got, got, sizeof got, ACL_MEMCPY_HOST_TO_DEVICE));
        asc_param ps[] = {{&dout, 8}, {&dsc, 8}, {&mode, 4}};
        asc_launch(f, 1, s, ps, 3);
        CHECK_OK(aclrtSynchronizeStream(s));
        CHECK_OK(aclrtMemcpy(got, sizeof got, dout, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST));
        const uint16_t *h = (const uint16_t *)got;
        const int8_t *i8 = (const int8_t *)got;
        const uint8_t *u8 = (const uint8_t *)got;
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 16; j++) {
                int v = 16 * i + j - 100, e = i * 16 + j;
                float want = 0, have = 0;
                switch (mode) {
                case 0: want = (float)v * 0.5f; have = h2f(h[e]); break;
                case 1: want = (float)v / (float)(1 << (j % 4)); have = h2f(h[e]); break;
                case 2: want = sat_round((float)v / 4.0f * 5.0f, -128, 127); have = i8[e]; break;
                case 3: want = sat_round((float)v / 4.0f * ((float)j / 4.0f), 0, 255); have = u8[e]; break;
                case 4: want = sat_round((float)v * 1.5f, -128, 127); have = i8[e]; break;
                case 5: want = sat_round((float)v * (1.0f / (float)(j + 1)), 0, 255); have = u8[e]; break;
                case 6: want = (float)v / 4.0f; have = got[e]; break;
                case 7: want = sat_round(v < 0 ? 0.0f : (float)v, -128, 127); have = i8[e]; break;
                }
                if (have != want) FAIL("Fixpipe mode %u: out[%d][%d] = %g, want %g", mode, i, j, have, want);
                if (mode == 6 && got[272 + e] != (float)(v + 1000) / 4.0f) {
                    FAIL("Fixpipe ndNum 2: matrix 1 out[%d][%d] = %g, want %g", i, j, got[272 + e], (float)(v + 1000) / 4.0f);
                }
            }
        if (mode == 6) {
            for (int e = 256; e < 272; e++)
                if (got[e] != -7.0f) FAIL("Fixpipe ndNum 2: element %d between the matrices was written (%g)", e, got[e]);
        }
    }
    /* Hand-computed spot values (v(0,0) = -100, v(0,2) = -98, v(6,6) = 2, v(15,15) = 155). */
    uint32_t mode = 2;
    asc_param ps[] = {{&dout, 8}, {&dsc, 8}, {&mode, 4}};
    asc_launch(f, 1, s, ps, 3);
    CHECK_OK(aclrtSynchronizeStream(s));
    int8_t q[256];
    CHECK_OK(aclrtMemcpy(q, sizeof q, dout, sizeof q, ACL_MEMCPY_DEVICE_TO_HOST));
    /* -25 * 5 = -125; -24.5 * 5 = -122.5 -> -122 (half to even); 0.5 * 5 = 2.5 -> 2; 38.75 * 5 saturates at 127 */
    if (q[0] != -125 || q[2] != -122 || q[6 * 16 + 6] != 2 || q[255] != 127) {
        FAIL("QF322B8_PRE spot values %d %d %d %d, want -125 -122 2 127", q[0], q[2], q[6 * 16 + 6], q[255]);
    }
    mode = 8; /* VDEQF16 without cbufWorkspace */
    asc_launch(f, 1, s, ps, 3);
    asc_expect_fault(s, "VDEQF16", "cbufWorkspace");
    CHECK_OK(aclrtFree(dout));
    CHECK_OK(aclrtFree(dsc));
}

/* int4 Mmad: C = A (16 x 128) * B (128 x 32), int4 values packed two a
 * byte (element 2k in the low nibble), B given transposed (32 x 128). */
static void mmad_int4(aclrtFuncHandle f, aclrtStream s) {
    static int av[16][128], bv[128][32];
    static uint8_t ap[16 * 64], bp[32 * 64];
    int32_t c[16 * 32];
    memset(ap, 0, sizeof ap);
    memset(bp, 0, sizeof bp);
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 128; k++) {
            av[i][k] = (i * 7 + k * 3) % 16 - 8;
            ap[i * 64 + k / 2] |= (uint8_t)((av[i][k] & 15) << (k % 2 ? 4 : 0));
        }
    for (int k = 0; k < 128; k++)
        for (int j = 0; j < 32; j++) {
            bv[k][j] = (k * 5 + j * 11) % 16 - 8;
            bp[j * 64 + k / 2] |= (uint8_t)((bv[k][j] & 15) << (k % 2 ? 4 : 0));
        }
    void *da, *db, *dc;
    CHECK_OK(aclrtMalloc(&da, sizeof ap, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&db, sizeof bp, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dc, sizeof c, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(da, sizeof ap, ap, sizeof ap, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(db, sizeof bp, bp, sizeof bp, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemset(dc, sizeof c, 0xff, sizeof c));
    asc_param ps[] = {{&da, 8}, {&db, 8}, {&dc, 8}};
    asc_launch(f, 1, s, ps, 3);
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(c, sizeof c, dc, sizeof c, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 32; j++) {
            int32_t want = 0;
            for (int k = 0; k < 128; k++) want += av[i][k] * bv[k][j];
            if (c[i * 32 + j] != want) FAIL("int4 Mmad: C[%d][%d] = %d, want %d", i, j, c[i * 32 + j], want);
        }
    CHECK_OK(aclrtFree(da));
    CHECK_OK(aclrtFree(db));
    CHECK_OK(aclrtFree(dc));
}

int main(void) {
    char repo[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = asc_load(repo, "cube_kernels.cpp");
    aclrtFuncHandle mmad, accum;
    CHECK_OK(aclrtBinaryGetFunction(bin, "cube_mmad", &mmad));
    CHECK_OK(aclrtBinaryGetFunction(bin, "cube_accumulate", &accum));

    mmad_case(mmad, s, 32, 32, 32, 0, 1);  /* A * I = A: the layouts round-trip */
    mmad_case(mmad, s, 32, 32, 32, 1, 0);  /* the mmad_bias sample's shape, with bias */
    mmad_case(mmad, s, 48, 64, 80, 1, 0);  /* several fractals each way */
    mmad_case(mmad, s, 16, 32, 20, 0, 0);  /* K = 20: the ND2NZ copy pads the second fractal with zeros */
    mmad_case(mmad, s, 32, 64, 32, 2, 0);  /* fp32 bias: the same-type C1 -> C2 move counts 64-byte units */

    /* Accumulation and Fixpipe relu + F322F16: out = relu(2 * A * B). */
    uint16_t a[256], b[256], out[256];
    for (int i = 0; i < 256; i++) a[i] = aclFloatToFloat16((float)(i % 16 + 1));
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) b[i * 16 + j] = aclFloatToFloat16(i == j ? (i == 0 ? -1.0f : 1.0f) : 0.0f);
    void *da, *db, *dout;
    CHECK_OK(aclrtMalloc(&da, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&db, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dout, 512, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(da, 512, a, 512, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(db, 512, b, 512, ACL_MEMCPY_HOST_TO_DEVICE));
    asc_param ps[] = {{&da, 8}, {&db, 8}, {&dout, 8}};
    asc_launch(accum, 1, s, ps, 3);
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(out, 512, dout, 512, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            float want = j == 0 ? 0.0f : 2.0f * h2f(a[i * 16 + j]);
            if (h2f(out[i * 16 + j]) != want) FAIL("accumulate: out[%d][%d] = %g, want %g", i, j, h2f(out[i * 16 + j]), want);
        }
    CHECK_OK(aclrtFree(da));
    CHECK_OK(aclrtFree(db));
    CHECK_OK(aclrtFree(dout));

    /* ND -> NZ -> ND round trip through UB (Nd2NzParams, Nz2NdParamsFull). */
    aclrtFuncHandle rt;
    CHECK_OK(aclrtBinaryGetFunction(bin, "cube_nz_roundtrip", &rt));
    uint32_t rows = 20, cols = 48, padRows = 32;
    uint16_t nd[20 * 48], back[20 * 48];
    for (int i = 0; i < 20 * 48; i++) nd[i] = aclFloatToFloat16((float)(i % 1000));
    void *dsrc, *ddst;
    CHECK_OK(aclrtMalloc(&dsrc, sizeof nd, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&ddst, sizeof nd, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(dsrc, sizeof nd, nd, sizeof nd, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemset(ddst, sizeof nd, 0, sizeof nd));
    asc_param pr[] = {{&dsrc, 8}, {&ddst, 8}, {&rows, 4}, {&cols, 4}, {&padRows, 4}};
    asc_launch(rt, 1, s, pr, 5);
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(back, sizeof back, ddst, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(nd, back, sizeof nd) == 0);
    CHECK_OK(aclrtFree(dsrc));
    CHECK_OK(aclrtFree(ddst));

    /* InitConstValue in L0A, both parameter forms. */
    aclrtFuncHandle ic;
    CHECK_OK(aclrtBinaryGetFunction(bin, "cube_init_const", &ic));
    uint16_t ones[48 * 16];
    float c16[256];
    for (int i = 0; i < 48 * 16; i++) ones[i] = aclFloatToFloat16(1.0f);
    void *dones, *dc16;
    CHECK_OK(aclrtMalloc(&dones, sizeof ones, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dc16, sizeof c16, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(dones, sizeof ones, ones, sizeof ones, ACL_MEMCPY_HOST_TO_DEVICE));
    asc_param pi[] = {{&dones, 8}, {&dc16, 8}};
    asc_launch(ic, 1, s, pi, 2);
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(c16, sizeof c16, dc16, sizeof c16, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 256; i++)
        if (c16[i] != 80.0f) FAIL("InitConstValue: C[%d] = %g, want 80", i, c16[i]);
    CHECK_OK(aclrtFree(dones));
    CHECK_OK(aclrtFree(dc16));

    aclrtFuncHandle fq;
    CHECK_OK(aclrtBinaryGetFunction(bin, "cube_fixpipe_quant", &fq));
    fixpipe_quant(fq, s);

    aclrtFuncHandle m4;
    CHECK_OK(aclrtBinaryGetFunction(bin, "cube_mmad_int4", &m4));
    mmad_int4(m4, s);
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
