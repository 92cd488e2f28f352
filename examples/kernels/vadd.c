/* vadd.c: element-wise vector addition, c = a + b, in fp32 and fp16.
 *
 *   cc -shared -fPIC -O2 -I emu/include examples/kernels/vadd.c -o vadd.so
 *
 * Arguments (aclrtKernelArgsAppend order, each at a multiple of 8 bytes):
 *   0: a (device pointer)  8: b  16: c  24: n (uint64, elements)
 * Block i of numBlocks handles the i-th contiguous slice of the n elements.
 */
#include "npuemu/kernel.h"

/* slice returns [*lo, *hi) of the n elements for the calling block. */
static void slice(const npuemu_kernel_ctx *ctx, uint64_t n, uint64_t *lo, uint64_t *hi) {
    uint64_t per = (n + ctx->block_dim - 1) / ctx->block_dim;
    *lo = per * ctx->block_idx;
    *hi = *lo + per;
    if (*lo > n) *lo = n;
    if (*hi > n) *hi = n;
}

static void vadd_f32(const npuemu_kernel_ctx *ctx) {
    const float *a = NPUEMU_ARG(ctx, const float *, 0);
    const float *b = NPUEMU_ARG(ctx, const float *, 8);
    float *c = NPUEMU_ARG(ctx, float *, 16);
    uint64_t lo, hi;
    slice(ctx, NPUEMU_ARG(ctx, uint64_t, 24), &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) c[i] = a[i] + b[i];
}

/* IEEE half <-> single, written out so the kernel builds with any C
 * compiler (no _Float16 needed). Round to nearest even. */
static float h2f(uint16_t h) {
    uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, f;
    if (e == 0) {
        if (m == 0) {
            f = s;
        } else { /* subnormal: normalise */
            e = 127 - 15 + 1;
            while (!(m & 0x400)) { m <<= 1; e--; }
            f = s | (e << 23) | ((m & 0x3ff) << 13);
        }
    } else if (e == 31) {
        f = s | 0x7f800000 | (m << 13);
    } else {
        f = s | ((e + 127 - 15) << 23) | (m << 13);
    }
    float out;
    memcpy(&out, &f, 4);
    return out;
}

static uint16_t f2h(float v) {
    uint32_t f;
    memcpy(&f, &v, 4);
    uint32_t s = (f >> 16) & 0x8000, m = f & 0x7fffff;
    int e = (int)((f >> 23) & 0xff) - 127 + 15;
    if (((f >> 23) & 0xff) == 0xff) return (uint16_t)(s | 0x7c00 | (m ? 0x200 : 0));
    if (e >= 31) return (uint16_t)(s | 0x7c00);
    if (e <= 0) {
        if (e < -10) return (uint16_t)s;
        m |= 0x800000;
        uint32_t shift = (uint32_t)(14 - e), half = 1u << (shift - 1);
        uint32_t r = m >> shift, rest = m & ((1u << shift) - 1);
        if (rest > half || (rest == half && (r & 1))) r++;
        return (uint16_t)(s | r);
    }
    uint32_t r = ((uint32_t)e << 10) | (m >> 13), rest = m & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (r & 1))) r++; /* may carry into the exponent: correct */
    return (uint16_t)(s | r);
}

static void vadd_f16(const npuemu_kernel_ctx *ctx) {
    const uint16_t *a = NPUEMU_ARG(ctx, const uint16_t *, 0);
    const uint16_t *b = NPUEMU_ARG(ctx, const uint16_t *, 8);
    uint16_t *c = NPUEMU_ARG(ctx, uint16_t *, 16);
    uint64_t lo, hi;
    slice(ctx, NPUEMU_ARG(ctx, uint64_t, 24), &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) c[i] = f2h(h2f(a[i]) + h2f(b[i]));
}

/* Cost: a block streams its slice at its share of the HBM bandwidth
 * (~1.6 TB/s over 40 vector cores = 40 GB/s), 12 bytes per fp32 element
 * (6 per fp16): 0.3 / 0.15 ns per element, plus 2 us to start a block. */
NPUEMU_KERNEL_TABLE(
    NPUEMU_KERNEL(vadd_f32, NPUEMU_VECTOR, .ns_per_block = 2000, .ns_per_unit = 0.3, .size_offset = 24, .num_params = 4),
    NPUEMU_KERNEL(vadd_f16, NPUEMU_VECTOR, .ns_per_block = 2000, .ns_per_unit = 0.15, .size_offset = 24, .num_params = 4),
)
