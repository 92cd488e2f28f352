// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/cube_gemm.h: the host GEMM engine behind Mmad and Matmul.
 *
 * C[M x N] (+)= A[M x K] * B[K x N] in fp32, with A and B read from any
 * strided source of float, half or bfloat16_t (converted exactly to float:
 * the cube multiplies fp16/bf16 exactly and accumulates in fp32). The
 * operands are packed into panels (A: MR rows, B: NR columns, K-major)
 * and a register-blocked micro-kernel runs over them: AVX2+FMA (8-wide)
 * when the host has it, else 4-wide GCC vector code. Packing converts
 * contiguous runs (F16C for half when available).
 *
 * Not a public Ascend C interface: included by ascendc/cube.h.
 */
#ifndef NPUEMU_ASCENDC_CUBE_GEMM_H
#define NPUEMU_ASCENDC_CUBE_GEMM_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ascendc/types.h"

/* No <immintrin.h>: it would double the parse time of every kernel
 * (kernel_operator.h includes this header); GCC vector extensions and two
 * builtins do the same. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NPUEMU_CUBE_X86 1
#endif

namespace npuemu {
namespace asc {
namespace cube {

constexpr int kMR = 4;   /* rows of an A panel */
constexpr int kNR = 16;  /* columns of a B panel */
constexpr int kKC = 256; /* K block of the micro-kernel loop */

/* Element types of a source matrix. */
enum class Elem : uint8_t { F32, F16, BF16 };

template <typename T>
constexpr Elem elem_of() {
    if constexpr (std::is_same<T, half>::value) {
        return Elem::F16;
    } else if constexpr (std::is_same<T, bfloat16_t>::value) {
        return Elem::BF16;
    } else {
        return Elem::F32;
    }
}

/* A strided matrix: element (i, j) at p + i*rs + j*cs (in elements). With
 * nzRows != 0 it is an NZ matrix instead: the stored matrix (i, j), or
 * (j, i) when nzTrans, is cut into columns of c0 elements (32 bytes),
 * each holding nzRows rows (16-aligned): (r, c) at
 * (c / c0) * nzRows * c0 + r * c0 + c % c0. */
struct Mat {
    const void *p;
    Elem e;
    size_t rs, cs;
    size_t nzRows = 0;
    bool nzTrans = false;
};

inline bool have_avx2() {
#ifdef NPUEMU_CUBE_X86
    static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return yes;
#else
    return false;
#endif
}

inline bool have_f16c() {
#ifdef NPUEMU_CUBE_X86
    static const bool yes = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
    return yes;
#else
    return false;
#endif
}

typedef float v8f __attribute__((vector_size(32), aligned(4)));
typedef float v4f __attribute__((vector_size(16), aligned(4)));
typedef short v8h __attribute__((vector_size(16), aligned(2)));

#ifdef NPUEMU_CUBE_X86
__attribute__((target("avx,f16c"))) inline void cvt_f16_run_f16c(const uint16_t *s, float *d, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v8h h;
        std::memcpy(&h, s + i, sizeof h);
        v8f f = __builtin_ia32_vcvtph2ps256(h);
        std::memcpy(d + i, &f, sizeof f);
    }
    for (; i < n; i++) d[i] = f16_to_f32(s[i]);
}
#endif

/* Converts n contiguous elements of a source to float. */
inline void cvt_run(const void *src, Elem e, float *d, size_t n) {
    switch (e) {
    case Elem::F32: std::memcpy(d, src, n * sizeof(float)); break;
    case Elem::F16: {
        const uint16_t *s = static_cast<const uint16_t *>(src);
#ifdef NPUEMU_CUBE_X86
        if (have_f16c()) {
            cvt_f16_run_f16c(s, d, n);
            break;
        }
#endif
        for (size_t i = 0; i < n; i++) d[i] = f16_to_f32(s[i]);
        break;
    }
    case Elem::BF16: {
        const uint16_t *s = static_cast<const uint16_t *>(src);
        for (size_t i = 0; i < n; i++) {
            uint32_t x = (uint32_t)s[i] << 16;
            std::memcpy(d + i, &x, 4);
        }
        break;
    }
    }
}

inline size_t elem_bytes(Elem e) { return e == Elem::F32 ? 4 : 2; }

inline const void *at(const Mat &m, size_t i, size_t j) {
    if (m.nzRows != 0) {
        const size_t c0 = 32 / elem_bytes(m.e);
        size_t r = m.nzTrans ? j : i, c = m.nzTrans ? i : j;
        return static_cast<const uint8_t *>(m.p) + ((c / c0) * m.nzRows * c0 + r * c0 + c % c0) * elem_bytes(m.e);
    }
    return static_cast<const uint8_t *>(m.p) + (i * m.rs + j * m.cs) * elem_bytes(m.e);
}

/* Packed A: ceil(M/MR) panels, each K x MR floats (rows past M are 0). */
struct PackedA {
    std::vector<float> buf;
    int M = 0, K = 0;
    const float *panel(int p) const { return buf.data() + (size_t)p * K * kMR; }
};

/* Packed B: ceil(N/NR) panels, each K x NR floats (columns past N are 0). */
struct PackedB {
    std::vector<float> buf;
    int N = 0, K = 0;
    const float *panel(int q) const { return buf.data() + (size_t)q * K * kNR; }
};

/* pack_a packs rows [0, M) and columns [0, K) of src. */
inline void pack_a(const Mat &src, int M, int K, PackedA &out) {
    int panels = (M + kMR - 1) / kMR;
    out.M = M;
    out.K = K;
    out.buf.assign((size_t)panels * K * kMR, 0.0f);
    std::vector<float> run((size_t)(K > M ? K : M));
    if (src.nzRows == 0 && (src.cs == 1 || K == 1)) { /* rows contiguous along K */
        for (int i = 0; i < M; i++) {
            cvt_run(at(src, i, 0), src.e, run.data(), K);
            float *dst = out.buf.data() + (size_t)(i / kMR) * K * kMR + i % kMR;
            for (int k = 0; k < K; k++) dst[(size_t)k * kMR] = run[k];
        }
    } else if (src.nzRows == 0 && src.rs == 1) { /* columns contiguous along M (transposed A) */
        for (int k = 0; k < K; k++) {
            cvt_run(at(src, 0, k), src.e, run.data(), M);
            for (int i = 0; i < M; i++) out.buf[(size_t)(i / kMR) * K * kMR + (size_t)k * kMR + i % kMR] = run[i];
        }
    } else {
        for (int i = 0; i < M; i++)
            for (int k = 0; k < K; k++) {
                float v;
                cvt_run(at(src, i, k), src.e, &v, 1);
                out.buf[(size_t)(i / kMR) * K * kMR + (size_t)k * kMR + i % kMR] = v;
            }
    }
}

/* pack_b packs rows [0, K) and columns [0, N) of src. */
inline void pack_b(const Mat &src, int K, int N, PackedB &out) {
    int panels = (N + kNR - 1) / kNR;
    out.N = N;
    out.K = K;
    out.buf.assign((size_t)panels * K * kNR, 0.0f);
    std::vector<float> run((size_t)(K > N ? K : N));
    if (src.nzRows == 0 && (src.cs == 1 || N == 1)) { /* rows contiguous along N */
        for (int k = 0; k < K; k++) {
            cvt_run(at(src, k, 0), src.e, run.data(), N);
            for (int q = 0; q < panels; q++) {
                int w = N - q * kNR < kNR ? N - q * kNR : kNR;
                std::memcpy(out.buf.data() + (size_t)q * K * kNR + (size_t)k * kNR, run.data() + q * kNR, w * sizeof(float));
            }
        }
    } else if (src.nzRows == 0 && src.rs == 1) { /* columns contiguous along K (transposed B) */
        for (int j = 0; j < N; j++) {
            cvt_run(at(src, 0, j), src.e, run.data(), K);
            float *dst = out.buf.data() + (size_t)(j / kNR) * K * kNR + j % kNR;
            for (int k = 0; k < K; k++) dst[(size_t)k * kNR] = run[k];
        }
    } else {
        for (int k = 0; k < K; k++)
            for (int j = 0; j < N; j++) {
                float v;
                cvt_run(at(src, k, j), src.e, &v, 1);
                out.buf[(size_t)(j / kNR) * K * kNR + (size_t)k * kNR + j % kNR] = v;
            }
    }
}

/* Micro-kernels: c[mr x nr] (ldc) (+)= a[kc x MR] * b[kc x NR]. */
#ifdef NPUEMU_CUBE_X86
/* 4 x 16 block in eight 8-wide accumulators; the multiply-adds contract to
 * FMA (GNU C++ -ffp-contract=fast). */
__attribute__((target("avx2,fma"))) inline void kernel_avx2(int kc, const float *a, const float *b, float *c, size_t ldc,
                                                             int mr, int nr, bool acc) {
    v8f c00 = {}, c01 = {}, c10 = {}, c11 = {}, c20 = {}, c21 = {}, c30 = {}, c31 = {};
    for (int k = 0; k < kc; k++) {
        v8f b0 = *reinterpret_cast<const v8f *>(b);
        v8f b1 = *reinterpret_cast<const v8f *>(b + 8);
        float a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
        c00 += a0 * b0;
        c01 += a0 * b1;
        c10 += a1 * b0;
        c11 += a1 * b1;
        c20 += a2 * b0;
        c21 += a2 * b1;
        c30 += a3 * b0;
        c31 += a3 * b1;
        a += kMR;
        b += kNR;
    }
    v8f r[8] = {c00, c01, c10, c11, c20, c21, c30, c31};
    if (mr == kMR && nr == kNR) {
        for (int i = 0; i < 4; i++) {
            v8f *row = reinterpret_cast<v8f *>(c + i * ldc);
            if (acc) {
                row[0] += r[2 * i];
                row[1] += r[2 * i + 1];
            } else {
                row[0] = r[2 * i];
                row[1] = r[2 * i + 1];
            }
        }
        return;
    }
    float t[kMR * kNR];
    std::memcpy(t, r, sizeof t);
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nr; j++) c[i * ldc + j] = acc ? c[i * ldc + j] + t[i * kNR + j] : t[i * kNR + j];
}
#endif

inline void kernel_generic(int kc, const float *a, const float *b, float *c, size_t ldc, int mr, int nr, bool acc) {
    v4f r[kMR][4] = {};
    for (int k = 0; k < kc; k++) {
        v4f bv[4];
        std::memcpy(bv, b, sizeof bv);
        for (int i = 0; i < kMR; i++) {
            v4f av = {a[i], a[i], a[i], a[i]};
            for (int j = 0; j < 4; j++) r[i][j] += av * bv[j];
        }
        a += kMR;
        b += kNR;
    }
    for (int i = 0; i < mr; i++) {
        float t[kNR];
        std::memcpy(t, r[i], sizeof t);
        for (int j = 0; j < nr; j++) c[i * ldc + j] = acc ? c[i * ldc + j] + t[j] : t[j];
    }
}

/* gemm_packed: C rows [m0, m0+m), columns [n0, n0+n) of A*B into c (ldc,
 * c points at C(m0, n0)); m0 must be a multiple of MR and n0 of NR.
 * acc adds to c, else overwrites. */
inline void gemm_packed(const PackedA &A, const PackedB &B, int m0, int m, int n0, int n, float *c, size_t ldc, bool acc) {
    const int K = A.K;
    const bool avx2 = have_avx2();
    for (int kk = 0; kk < K || (K == 0 && kk == 0); kk += kKC) {
        int kc = K - kk < kKC ? K - kk : kKC;
        bool a_acc = acc || kk > 0;
        for (int j = 0; j < n; j += kNR) {
            int q = (n0 + j) / kNR;
            int nr = n - j < kNR ? n - j : kNR;
            const float *bp = B.panel(q) + (size_t)kk * kNR;
            for (int i = 0; i < m; i += kMR) {
                int p = (m0 + i) / kMR;
                int mr = m - i < kMR ? m - i : kMR;
                const float *ap = A.panel(p) + (size_t)kk * kMR;
                float *cp = c + (size_t)i * ldc + j;
#ifdef NPUEMU_CUBE_X86
                if (avx2) {
                    kernel_avx2(kc, ap, bp, cp, ldc, mr, nr, a_acc);
                    continue;
                }
#endif
                kernel_generic(kc, ap, bp, cp, ldc, mr, nr, a_acc);
            }
        }
        if (K == 0) break;
    }
}

/* gemm: C[M x N] (ldc) (+)= A * B for strided sources. */
inline void gemm(const Mat &a, const Mat &b, int M, int N, int K, float *c, size_t ldc, bool acc) {
    PackedA pa;
    PackedB pb;
    pack_a(a, M, K, pa);
    pack_b(b, K, N, pb);
    gemm_packed(pa, pb, 0, M, 0, N, c, ldc, acc);
}

} // namespace cube
} // namespace asc
} // namespace npuemu

#endif
