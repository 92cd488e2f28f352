// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/vec_impl.h: the engine under the vector API.
 *
 * Two paths:
 *  - count forms (Add(dst, a, b, count)): contiguous loops over the work
 *    type (float for half and bfloat16_t, the type itself otherwise) in
 *    chunks of 1024 elements; half <-> float conversion in bulk with F16C
 *    when the host has it (checked once at run time), the arithmetic in
 *    functions built at -O3 for AVX2 where available, so that they
 *    vectorise whatever -O level the kernel is compiled with;
 *  - mask/repeat forms: the hardware's iteration: repeatTimes repeats of
 *    256 bytes (8 datablocks of 32 bytes), each with its block and repeat
 *    strides, elements enabled by a counter mask (the first mask elements
 *    of each repeat) or a bit mask (uint64_t mask[2]). */
#ifndef NPUEMU_ASCENDC_VEC_IMPL_H
#define NPUEMU_ASCENDC_VEC_IMPL_H

#include <cmath>
#include <limits>

#include "ascendc/tensor.h"

#define NPUEMU_ASC_HOT __attribute__((optimize("O3", "tree-vectorize"), noinline))
#define NPUEMU_ASC_HOT_AVX2 __attribute__((optimize("O3", "tree-vectorize"), target("avx2,fma,f16c"), noinline))
#define NPUEMU_ASC_AI __attribute__((always_inline)) inline

namespace npuemu {
namespace asc {
namespace vec {

template <typename T>
struct Work {
    using type = T;
};
template <>
struct Work<half> {
    using type = float;
};
template <>
struct Work<bfloat16_t> {
    using type = float;
};

inline bool has_avx2() {
    static const bool v = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("fma");
    return v;
}

/* Bulk half <-> float with the F16C instructions, through the compiler's
 * builtins (no <immintrin.h>: it would double the parse time of every
 * kernel). */
typedef float v8sf_ __attribute__((vector_size(32)));
typedef short v8hi_ __attribute__((vector_size(16)));
__attribute__((target("avx2,f16c"))) inline void h2f_f16c(const uint16_t *s, float *d, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v8hi_ h;
        std::memcpy(&h, s + i, sizeof h);
        v8sf_ f = __builtin_ia32_vcvtph2ps256(h);
        std::memcpy(d + i, &f, sizeof f);
    }
    for (; i < n; i++) d[i] = f16_to_f32(s[i]);
}
__attribute__((target("avx2,f16c"))) inline void f2h_f16c(const float *s, uint16_t *d, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v8sf_ f;
        std::memcpy(&f, s + i, sizeof f);
        v8hi_ h = __builtin_ia32_vcvtps2ph256(f, 0 /* round to nearest even */);
        std::memcpy(d + i, &h, sizeof h);
    }
    for (; i < n; i++) d[i] = f32_to_f16(s[i]);
}

template <typename T>
inline void load(const T *s, typename Work<T>::type *d, size_t n) {
    if constexpr (std::is_same<T, half>::value) {
        if (has_avx2()) {
            h2f_f16c(reinterpret_cast<const uint16_t *>(s), d, n);
            return;
        }
        for (size_t i = 0; i < n; i++) d[i] = f16_to_f32(s[i].bits_);
    } else if constexpr (std::is_same<T, bfloat16_t>::value) {
        for (size_t i = 0; i < n; i++) d[i] = bf16_to_f32(s[i].bits_);
    } else {
        std::memcpy(d, s, n * sizeof(T));
    }
}
template <typename T>
inline void store(const typename Work<T>::type *s, T *d, size_t n) {
    if constexpr (std::is_same<T, half>::value) {
        if (has_avx2()) {
            f2h_f16c(s, reinterpret_cast<uint16_t *>(d), n);
            return;
        }
        for (size_t i = 0; i < n; i++) d[i].bits_ = f32_to_f16(s[i]);
    } else if constexpr (std::is_same<T, bfloat16_t>::value) {
        for (size_t i = 0; i < n; i++) d[i].bits_ = f32_to_bf16(s[i]);
    } else {
        std::memcpy(d, s, n * sizeof(T));
    }
}

/* The loops, generic and AVX2. */
template <typename W, typename F>
NPUEMU_ASC_HOT void loop2_g(W *__restrict d, const W *__restrict a, const W *__restrict b, size_t n, F f) {
    for (size_t i = 0; i < n; i++) d[i] = f(a[i], b[i]);
}
template <typename W, typename F>
NPUEMU_ASC_HOT_AVX2 void loop2_v(W *__restrict d, const W *__restrict a, const W *__restrict b, size_t n, F f) {
    for (size_t i = 0; i < n; i++) d[i] = f(a[i], b[i]);
}
template <typename W, typename F>
NPUEMU_ASC_HOT void loop1_g(W *__restrict d, const W *__restrict a, size_t n, F f) {
    for (size_t i = 0; i < n; i++) d[i] = f(a[i]);
}
template <typename W, typename F>
NPUEMU_ASC_HOT_AVX2 void loop1_v(W *__restrict d, const W *__restrict a, size_t n, F f) {
    for (size_t i = 0; i < n; i++) d[i] = f(a[i]);
}

template <typename W, typename F>
inline void loop2(W *d, const W *a, const W *b, size_t n, F f) {
    if (has_avx2()) {
        loop2_v(d, a, b, n, f);
    } else {
        loop2_g(d, a, b, n, f);
    }
}
template <typename W, typename F>
inline void loop1(W *d, const W *a, size_t n, F f) {
    if (has_avx2()) {
        loop1_v(d, a, n, f);
    } else {
        loop1_g(d, a, n, f);
    }
}

inline bool partial_overlap(const void *d, const void *s, size_t bytes) {
    uintptr_t x = (uintptr_t)d, y = (uintptr_t)s;
    return x != y && x < y + bytes && y < x + bytes;
}

constexpr size_t kChunk = 1024;

/* Does functor F take vectors (a static vector_ok member)? */
template <typename F, typename = void>
struct VectorOk : std::false_type {};
template <typename F>
struct VectorOk<F, std::void_t<decltype(F::vector_ok)>> : std::integral_constant<bool, F::vector_ok> {};

/* half: convert, compute and convert back 8 lanes at a time, in one pass. */
template <typename F>
__attribute__((target("avx2,f16c,fma"), optimize("O3"), noinline)) void half_binary_f16c(uint16_t *d, const uint16_t *a, const uint16_t *b, size_t n, F f) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v8hi_ ha, hb;
        std::memcpy(&ha, a + i, sizeof ha);
        std::memcpy(&hb, b + i, sizeof hb);
        v8sf_ fa = __builtin_ia32_vcvtph2ps256(ha), fb = __builtin_ia32_vcvtph2ps256(hb), r;
        f.vec(r, fa, fb);
        v8hi_ hr = __builtin_ia32_vcvtps2ph256(r, 0);
        std::memcpy(d + i, &hr, sizeof hr);
    }
    for (; i < n; i++) d[i] = f32_to_f16(f(f16_to_f32(a[i]), f16_to_f32(b[i])));
}

/* dst[i] = f(a[i], b[i]) for i < n. */
template <typename T, typename F>
inline void binary_n(T *d, const T *a, const T *b, size_t n, F f) {
    using W = typename Work<T>::type;
    if constexpr (std::is_same<W, T>::value) {
        if (!partial_overlap(d, a, n * sizeof(T)) && !partial_overlap(d, b, n * sizeof(T))) {
            loop2(d, a, b, n, f);
            return;
        }
        for (size_t i = 0; i < n; i++) d[i] = f(a[i], b[i]);
    } else {
        if constexpr (std::is_same<T, half>::value && VectorOk<F>::value) {
            if (has_avx2()) {
                half_binary_f16c(reinterpret_cast<uint16_t *>(d), reinterpret_cast<const uint16_t *>(a), reinterpret_cast<const uint16_t *>(b), n, f);
                return;
            }
        }
        alignas(64) W x[kChunk], y[kChunk];
        for (size_t i = 0; i < n; i += kChunk) {
            size_t m = n - i < kChunk ? n - i : kChunk;
            load(a + i, x, m);
            load(b + i, y, m);
            loop2(x, x, y, m, f);
            store(x, d + i, m);
        }
    }
}

template <typename T, typename F>
inline void unary_n(T *d, const T *a, size_t n, F f) {
    using W = typename Work<T>::type;
    if constexpr (std::is_same<W, T>::value) {
        if (!partial_overlap(d, a, n * sizeof(T))) {
            loop1(d, a, n, f);
            return;
        }
        for (size_t i = 0; i < n; i++) d[i] = f(a[i]);
    } else {
        alignas(64) W x[kChunk];
        for (size_t i = 0; i < n; i += kChunk) {
            size_t m = n - i < kChunk ? n - i : kChunk;
            load(a + i, x, m);
            loop1(x, x, m, f);
            store(x, d + i, m);
        }
    }
}

/* Mask of a repeat: counter (first n elements) or bits. */
struct Mask {
    bool bits = false;
    uint64_t m[2] = {0, 0};
    static Mask count(uint64_t n) {
        Mask k;
        k.m[0] = n;
        return k;
    }
    static Mask of(const uint64_t mk[2]) {
        Mask k;
        k.bits = true;
        k.m[0] = mk[0];
        k.m[1] = mk[1];
        return k;
    }
    bool on(uint32_t e) const {
        if (!bits) return e < m[0];
        return e < 128 && ((m[e >> 6] >> (e & 63)) & 1);
    }
};

/* Checks a mask against the element count of a repeat. */
template <typename T>
inline void check_mask(const Mask &k, const char *api) {
    constexpr uint32_t per = 256 / sizeof(T);
    if (!k.bits && (k.m[0] == 0 || k.m[0] > per)) {
        fault(api, "mask %llu: want 1..%u for %u-byte elements (rule: vector mask range)", (unsigned long long)k.m[0], per, (unsigned)sizeof(T));
    }
    if (k.bits && sizeof(T) >= 4 && k.m[1] != 0) {
        fault(api, "mask[1] must be 0 for %u-byte elements (rule: vector mask range)", (unsigned)sizeof(T));
    }
}

/* Strides of a repeated instruction, in 32-byte blocks: block stride and
 * repeat stride per operand (0: dst, 1: src0, 2: src1). */
struct Strides {
    uint32_t blk[3] = {1, 1, 1};
    uint32_t rep[3] = {8, 8, 8};
};

/* Element offset of element e of repeat r for operand o. */
template <typename T>
inline size_t at(const Strides &s, int o, uint32_t r, uint32_t e) {
    constexpr uint32_t pb = (uint32_t)elems_of<T>(32); /* int4b_t: 64 a block */
    return (size_t)r * s.rep[o] * pb + (size_t)(e / pb) * s.blk[o] * pb + e % pb;
}

/* The span in bytes an operand covers. */
template <typename T>
inline uint64_t span_bytes(const Strides &s, int o, uint32_t repeat) {
    if (repeat == 0) return 0;
    return ((uint64_t)(repeat - 1) * s.rep[o] + (uint64_t)7 * s.blk[o] + 1) * 32;
}

template <typename T, typename F>
inline void binary_rep(T *d, const T *a, const T *b, const Mask &k, uint32_t repeat, const Strides &s, F f) {
    using W = typename Work<T>::type;
    constexpr uint32_t per = 256 / sizeof(T);
    for (uint32_t r = 0; r < repeat; r++)
        for (uint32_t e = 0; e < per; e++)
            if (k.on(e)) d[at<T>(s, 0, r, e)] = static_cast<T>(f(static_cast<W>(a[at<T>(s, 1, r, e)]), static_cast<W>(b[at<T>(s, 2, r, e)])));
}
template <typename T, typename F>
inline void unary_rep(T *d, const T *a, const Mask &k, uint32_t repeat, const Strides &s, F f) {
    using W = typename Work<T>::type;
    constexpr uint32_t per = 256 / sizeof(T);
    for (uint32_t r = 0; r < repeat; r++)
        for (uint32_t e = 0; e < per; e++)
            if (k.on(e)) d[at<T>(s, 0, r, e)] = static_cast<T>(f(static_cast<W>(a[at<T>(s, 1, r, e)])));
}

/* Operand checks: inside a local memory of this core. */
template <typename T>
inline void check_operand(const AscendC::LocalTensor<T> &t, uint64_t bytes, const char *api) {
    uint32_t off = 0;
    int h = mem_of(t.ptr_, &off);
    if (h < 0) fault(api, "an operand is not in a local memory of this core (rule: vector operands in local memory)");
    if ((uint64_t)off + bytes > blk().mem_size[h]) {
        fault(api, "operand range [%u, %llu) runs past the end of the %u-byte %s (rule: local memory capacity)", off,
              (unsigned long long)(off + bytes), blk().mem_size[h], mem_name((Hardware)h));
    }
    if (off % 32 != 0) fault(api, "operand address %u is not 32-byte aligned (rule: 32-byte alignment)", off);
}

/* Charges a vector instruction over n elements of T (wider work costs as
 * its bytes). */
template <typename T>
inline void charge_v(uint64_t n) {
    charge(PIPE_V, vec_cycles(n * sizeof(T)));
}

} // namespace vec
} // namespace asc
} // namespace npuemu

#endif
