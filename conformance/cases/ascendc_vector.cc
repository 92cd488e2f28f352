/* ascendc_vector: the Ascend C vector instructions compute what the
 * documentation says, on float and half: the binary, unary and scalar
 * instructions in their count form; the counter-mask, bit-mask and
 * block/repeat-stride forms (elements outside the mask untouched);
 * Duplicate and Copy with repeats; Cast with each round mode; Compare +
 * Select (mask tensor and CmpMask register, GetCmpMask); Brcb, Gather,
 * CreateVecIndex.
 *
 * needs: emulator
 */
#include <math.h>

#include "ascendc_build.h"
#include "ascendc/types.h"

enum { N = 256 };

static float xs[N], ys[N];
static aclrtStream s;

static void run(aclrtBinHandle bin, const char *k, const void *x, const void *y, size_t esize, void *out, size_t outs) {
    void *dx = asc_dev(N * esize), *dy = asc_dev(N * esize), *dout = asc_dev(N * esize * outs);
    CHECK_OK(aclrtMemcpy(dx, N * esize, x, N * esize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(dy, N * esize, y, N * esize, ACL_MEMCPY_HOST_TO_DEVICE));
    void *args[3] = {dx, dy, dout};
    CHECK_OK(asc_run(asc_fn(bin, k), 1, s, args, sizeof args));
    CHECK_OK(aclrtMemcpy(out, N * esize * outs, dout, N * esize * outs, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_OK(aclrtFree(dx));
    CHECK_OK(aclrtFree(dy));
    CHECK_OK(aclrtFree(dout));
}

static void near(const char *what, int i, float got, float want, float tol) {
    if (!(fabsf(got - want) <= tol * fmaxf(1.0f, fabsf(want)))) FAIL("%s[%d]: got %g, want %g", what, i, got, want);
}

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = asc_load(__FILE__, "vector.cpp");
    for (int i = 0; i < N; i++) {
        xs[i] = (float)((i * 37) % 101 - 50) * 0.125f; /* -6.25 .. 6.25, exact in half */
        ys[i] = (float)((i * 11) % 29 + 1) * 0.25f;    /* 0.25 .. 7.25 */
    }

    static float o[N * 12];
    run(bin, "binary_float", xs, ys, 4, o, 8);
    for (int i = 0; i < N; i++) {
        float x = xs[i], y = ys[i];
        float want[8] = {x + y, x - y, x * y, x / y, fmaxf(x, y), fminf(x, y), fmaxf(x + y, 0), fmaxf(x - y, 0)};
        for (int k = 0; k < 8; k++) near("binary_float", k * N + i, o[k * N + i], want[k], 1e-6f);
    }

    static half hx[N], hy[N], ho[N * 8];
    for (int i = 0; i < N; i++) {
        hx[i] = half(xs[i]);
        hy[i] = half(ys[i]);
    }
    run(bin, "binary_half", hx, hy, 2, ho, 8);
    for (int i = 0; i < N; i++) {
        float x = xs[i], y = ys[i];
        float want[8] = {x + y, x - y, x * y, x / y, fmaxf(x, y), fminf(x, y), fmaxf(x + y, 0), fmaxf(x - y, 0)};
        for (int k = 0; k < 8; k++) near("binary_half", k * N + i, (float)ho[k * N + i], (float)half(want[k]), 1e-3f);
    }

    run(bin, "unary_float", xs, ys, 4, o, 12);
    for (int i = 0; i < N; i++) {
        float x = xs[i], y = ys[i];
        float want[12] = {expf(x), logf(y), fabsf(x), sqrtf(y), 1.0f / sqrtf(y), fmaxf(x, 0), 1.0f / y, x + 2, x * 3, fmaxf(x, 0.5f), fminf(x, 0.5f), x >= 0 ? x : 0.1f * x};
        for (int k = 0; k < 12; k++) near("unary_float", k * N + i, o[k * N + i], want[k], 1e-5f);
    }

    run(bin, "mask_float", xs, ys, 4, o, 5);
    for (int i = 0; i < N; i++) {
        int r = i / 64, e = i % 64;
        float w0 = (r < 2 && e < 40) ? xs[i] + ys[i] : -1.0f;
        near("mask counter", i, o[i], w0, 0);
        float w1 = (i < 64 && i % 2 == 0) ? xs[i] * ys[i] : -1.0f;
        near("mask bits", i, o[N + i], w1, 0);
        /* dst repeat stride 16 blocks = 128 elements; src0 block stride 2 */
        int rr = i / 128, ee = i % 128;
        float w2 = -1.0f;
        if (rr < 2 && ee < 64) {
            int sx = rr * 64 + (ee / 8) * 16 + ee % 8, sy = rr * 64 + ee;
            w2 = xs[sx] + ys[sy];
        }
        near("block stride", i, o[2 * N + i], w2, 0);
        float w3 = (i / 64 < 3 && i % 64 < 10) ? 7.0f : -1.0f;
        near("duplicate mask", i, o[3 * N + i], w3, 0);
        float w4 = (i < 128) ? xs[(i / 64) * 128 + i % 64] : -1.0f;
        near("copy", i, o[4 * N + i], w4, 0);
    }

    /* Cast: values with fractions .5 and .25 to see the modes. */
    static float cx[N];
    for (int i = 0; i < N; i++) cx[i] = (float)(i - 128) * 0.25f;
    static int32_t oi[N * 8];
    run(bin, "cast_cmp", cx, ys, 4, oi, 8);
    float *of = (float *)oi;
    for (int i = 0; i < N; i++) {
        float v = cx[i];
        int32_t want[5] = {(int32_t)nearbyintf(v), (int32_t)floorf(v), (int32_t)ceilf(v), (int32_t)roundf(v), (int32_t)truncf(v)};
        for (int k = 0; k < 5; k++)
            if (oi[k * N + i] != want[k]) FAIL("cast mode %d of %g: got %d, want %d", k, v, oi[k * N + i], want[k]);
        near("cast half", i, of[5 * N + i], (float)half(v), 0);
        near("select", i, of[6 * N + i], fminf(v, ys[i]), 0);
        near("select scalar", i, of[7 * N + i], v < ys[i] ? v : 0.0f, 0);
    }
    run(bin, "extras_float", xs, ys, 4, o, 5);
    for (int i = 0; i < N; i++) {
        near("brcb", i, o[i], i < 128 ? xs[i / 8] : -1.0f, 0);
        near("gather", i, o[N + i], xs[N - 1 - i], 0);
        near("vec index", i, o[2 * N + i], 3.0f + (float)i, 0);
        int e = i % 64;
        near("select by CmpMask", i, o[3 * N + i], xs[e] > ys[e] ? xs[i] : ys[i], 0);
    }
    for (int b = 0; b < 8; b++) {
        int want = 0;
        for (int k = 0; k < 8; k++) want |= (xs[b * 8 + k] > ys[b * 8 + k]) << k;
        near("GetCmpMask", b, o[4 * N + b], (float)want, 0);
    }
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
