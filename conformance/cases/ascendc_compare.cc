/* ascendc_compare: the mask / repeat forms of Compare, CompareScalar,
 * Compares and Select (bits one per element, repeat after repeat; bits
 * and elements outside the mask untouched; Select modes 0, 1, 2), the
 * register forms of Select (SetCmpMask with the bits, the address of
 * selMask as a pointer or in 32 bits, the scalar), the isSetMask = false
 * forms reading the vector mask register in normal and counter mode, on
 * float and half; Axpy's mask form; ListTensorDesc / TensorDesc reading
 * a descriptor the host wrote in the documented layout (docs/ascendc.md);
 * and GET_TILING_DATA (the three forms, TILING_KEY_IS) over a struct the host
 * wrote, with a bad tiling pointer an AI Core exception naming it.
 *
 * needs: emulator
 */
#include <math.h>

#include "ascendc_build.h"
#include "ascendc/types.h"

enum { N = 256 };

static float xs[N], ys[N];
static aclrtStream s;

static int bit(const uint8_t *b, int i) { return (b[i / 8] >> (i % 8)) & 1; }
static void setbit(uint8_t *b, int i, int v) {
    if (v) {
        b[i / 8] |= (uint8_t)(1u << (i % 8));
    } else {
        b[i / 8] &= (uint8_t)~(1u << (i % 8));
    }
}

static void run(aclrtBinHandle bin, const char *k, const void *x, const void *y, size_t esize, float *out, size_t outs) {
    void *dx = asc_dev(N * esize), *dy = asc_dev(N * esize), *dout = asc_dev(N * 4 * outs);
    CHECK_OK(aclrtMemcpy(dx, N * esize, x, N * esize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(dy, N * esize, y, N * esize, ACL_MEMCPY_HOST_TO_DEVICE));
    void *args[3] = {dx, dy, dout};
    aclError e = asc_run(asc_fn(bin, k), 1, s, args, sizeof args);
    if (e != ACL_SUCCESS) FAIL("%s: %d: %s", k, e, aclGetRecentErrMsg());
    CHECK_OK(aclrtMemcpy(out, N * 4 * outs, dout, N * 4 * outs, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_OK(aclrtFree(dx));
    CHECK_OK(aclrtFree(dy));
    CHECK_OK(aclrtFree(dout));
}

/* section k of out holds the 32 bytes want as floats, then -1s */
static void want_bytes(const char *what, const float *sec, const uint8_t *want) {
    for (int i = 0; i < N; i++) {
        float w = i < 32 ? (float)want[i] : -1.0f;
        if (sec[i] != w) FAIL("%s: byte %d: got %g, want %g", what, i, sec[i], w);
    }
}
static void want_val(const char *what, int i, float got, float want) {
    if (got != want) FAIL("%s[%d]: got %g, want %g", what, i, got, want);
}

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = asc_load(__FILE__, "compare.cpp");
    for (int i = 0; i < N; i++) {
        xs[i] = (float)((i * 37) % 101 - 50) * 0.125f; /* -6.25 .. 6.25, exact in half */
        ys[i] = (float)((i * 11) % 29) * 0.25f - 3.0f; /* -3 .. 4 */
    }
    uint8_t sel[32] = {0};
    for (int i = 0; i < N; i++) setbit(sel, i, xs[i] < ys[i]);

    static float o[N * 14];
    run(bin, "cmp_float", xs, ys, 4, o, 14);
    uint8_t b[32];
    memset(b, 0xAA, sizeof b);
    for (int r = 0; r < 3; r++)
        for (int e = 0; e < 40; e++) setbit(b, r * 64 + e, xs[r * 64 + e] < ys[r * 64 + e]);
    want_bytes("Compare counter mask", o, b);
    memset(b, 0, sizeof b);
    for (int r = 0; r < 2; r++)
        for (int e = 0; e < 64; e++)
            if (e % 8 >= 4) setbit(b, r * 64 + e, xs[r * 128 + e] > ys[r * 64 + e]);
    want_bytes("Compare bit mask, src0 repeat stride", o + N, b);
    memset(b, 0x5A, sizeof b);
    for (int i = 0; i < N; i++) setbit(b, i, xs[i] >= 0.5f);
    want_bytes("CompareScalar", o + 2 * N, b);
    memset(b, 0xFF, sizeof b);
    for (int r = 0; r < 4; r++)
        for (int e = 0; e < 32; e++) setbit(b, r * 64 + e, xs[r * 64 + e] < 0.0f);
    want_bytes("Compares bit mask", o + 3 * N, b);

    for (int i = 0; i < N; i++) {
        float x = xs[i], y = ys[i], mn = x < y ? x : y;
        int e = i % 64;
        want_val("Select mode 2, counter mask", i, o[4 * N + i], e < 48 ? mn : -1.0f);
        want_val("Select mode 1, bit mask", i, o[5 * N + i], i % 2 == 0 ? (x < y ? x : 9.0f) : -1.0f);
        want_val("Select mode 0", i, o[6 * N + i], bit(sel, e) ? x : y);
        want_val("Select register mode 0", i, o[7 * N + i], e < 32 ? (bit(sel, e) ? x : y) : -1.0f);
        want_val("Select register mode 2 (pointer)", i, o[8 * N + i], mn);
        want_val("Select register mode 2 (32 bits)", i, o[9 * N + i], e < 16 ? mn : -1.0f);
        want_val("Select register mode 1", i, o[10 * N + i], x < y ? x : 7.0f);
        want_val("Add, counter mode", i, o[11 * N + i], i < 100 ? x + y : -1.0f);
        want_val("Mul, mask register", i, o[12 * N + i], e < 8 ? x * y : -1.0f);
        want_val("Axpy, counter mask", i, o[13 * N + i], e < 16 ? y + x * 2.0f : y);
    }

    static half hx[N], hy[N];
    for (int i = 0; i < N; i++) {
        hx[i] = half(xs[i]);
        hy[i] = half(ys[i]);
    }
    run(bin, "cmp_half", hx, hy, 2, o, 2);
    memset(b, 0xAA, sizeof b);
    int eq = 0;
    for (int r = 0; r < 2; r++)
        for (int e = 0; e < 100; e++) {
            int i = r * 128 + e;
            setbit(b, i, xs[i] <= ys[i]);
            eq += xs[i] == ys[i];
        }
    if (eq == 0) FAIL("the inputs have no equal pair: LE is not told from LT");
    want_bytes("Compare half, counter mask", o, b);
    for (int i = 0; i < N; i++) want_val("Select half mode 2", i, o[N + i], i % 128 < 80 ? (xs[i] < ys[i] ? xs[i] : ys[i]) : -1.0f);

    /* ListTensorDesc: word 0 the byte offset of the pointer table, then
     * per tensor its dimension count and dimensions, then the pointers. */
    float a[12], c[5];
    for (int i = 0; i < 12; i++) a[i] = (float)(i + 1);
    for (int i = 0; i < 5; i++) c[i] = 0.5f * (float)(i + 1);
    void *da = asc_dev(sizeof a), *dc = asc_dev(sizeof c), *ddesc = asc_dev(64), *dout = asc_dev(32 * 4);
    CHECK_OK(aclrtMemcpy(da, sizeof a, a, sizeof a, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(dc, sizeof c, c, sizeof c, ACL_MEMCPY_HOST_TO_DEVICE));
    uint64_t desc[8] = {48, 2, 3, 4, 1, 5, (uint64_t)(uintptr_t)da, (uint64_t)(uintptr_t)dc};
    CHECK_OK(aclrtMemcpy(ddesc, sizeof desc, desc, sizeof desc, ACL_MEMCPY_HOST_TO_DEVICE));
    void *args[2] = {ddesc, dout};
    aclError e = asc_run(asc_fn(bin, "list_desc"), 1, s, args, sizeof args);
    if (e != ACL_SUCCESS) FAIL("list_desc: %d: %s", e, aclGetRecentErrMsg());
    float lo[32];
    CHECK_OK(aclrtMemcpy(lo, sizeof lo, dout, sizeof lo, ACL_MEMCPY_DEVICE_TO_HOST));
    const float want[17] = {2, 2, 3, 4, 0, 0, 78, 1, 0, 1, 5, 0, 0, 0, 7.5f, 1, 1};
    for (int i = 0; i < 17; i++) want_val("ListTensorDesc", i, lo[i], want[i]);
    CHECK_OK(aclrtFree(da));
    CHECK_OK(aclrtFree(dc));
    CHECK_OK(aclrtFree(ddesc));
    CHECK_OK(aclrtFree(dout));

    /* GET_TILING_DATA: {total 1000, scale 0.25, tiles {7, -3}} */
    struct {
        uint32_t total;
        float scale;
        int16_t tiles[2];
    } td = {1000, 0.25f, {7, -3}};
    void *dt = asc_dev(64), *dto = asc_dev(32);
    CHECK_OK(aclrtMemcpy(dt, sizeof td, &td, sizeof td, ACL_MEMCPY_HOST_TO_DEVICE));
    void *targs[2] = {dt, dto};
    e = asc_run(asc_fn(bin, "tiling"), 1, s, targs, sizeof targs);
    if (e != ACL_SUCCESS) FAIL("tiling: %d: %s", e, aclGetRecentErrMsg());
    float to[8];
    CHECK_OK(aclrtMemcpy(to, sizeof to, dto, sizeof to, ACL_MEMCPY_DEVICE_TO_HOST));
    const float want_t[7] = {1000, 0.25f, -3, 7, 1, 0, 1000};
    for (int i = 0; i < 7; i++) want_val("GET_TILING_DATA", i, to[i], want_t[i]);
    /* a tiling pointer outside every allocation is an AI Core exception */
    void *bad[2] = {(void *)(uintptr_t)0x10, dto};
    e = asc_run(asc_fn(bin, "tiling"), 1, s, bad, sizeof bad);
    if (e != ACL_ERROR_RT_AICORE_EXCEPTION) FAIL("tiling from a bad pointer: got %d, want ACL_ERROR_RT_AICORE_EXCEPTION", e);
    if (strstr(aclGetRecentErrMsg(), "GET_TILING_DATA") == NULL) FAIL("the message does not name GET_TILING_DATA: %s", aclGetRecentErrMsg());
    CHECK_OK(aclrtFree(dt));
    CHECK_OK(aclrtFree(dto));

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
