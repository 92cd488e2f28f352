// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/vector.h: the vector instructions: element-wise binary (Add Sub
 * Mul Div Max Min And Or AddRelu SubRelu), unary (Exp Ln Abs Sqrt Rsqrt
 * Reciprocal Relu Not), scalar (Adds Muls Maxs Mins LeakyRelu ShiftLeft
 * ShiftRight Axpy), Duplicate, Copy, Cast, in their count form and their
 * mask / repeat / stride forms; Compare / Select are in ascendc/compare.h. */
#ifndef NPUEMU_ASCENDC_VECTOR_H
#define NPUEMU_ASCENDC_VECTOR_H

#include "ascendc/vec_impl.h"

namespace AscendC {

/* The mask argument of the isSetMask = false forms (the mask register
 * set by SetVectorMask is used instead). */
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

struct BinaryRepeatParams {
    uint32_t blockNumber = 8;
    uint8_t dstBlkStride = 1;
    uint8_t src0BlkStride = 1;
    uint8_t src1BlkStride = 1;
    uint8_t dstRepStride = 8;
    uint8_t src0RepStride = 8;
    uint8_t src1RepStride = 8;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    BinaryRepeatParams() = default;
    BinaryRepeatParams(uint8_t db, uint8_t s0b, uint8_t s1b, uint8_t dr, uint8_t s0r, uint8_t s1r)
        : dstBlkStride(db), src0BlkStride(s0b), src1BlkStride(s1b), dstRepStride(dr), src0RepStride(s0r), src1RepStride(s1r) {}
};

struct UnaryRepeatParams {
    uint32_t blockNumber = 8;
    uint16_t dstBlkStride = 1;
    uint16_t srcBlkStride = 1;
    uint8_t dstRepStride = 8;
    uint8_t srcRepStride = 8;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    bool halfBlock = false;
    UnaryRepeatParams() = default;
    UnaryRepeatParams(uint16_t db, uint16_t sb, uint8_t dr, uint8_t sr) : dstBlkStride(db), srcBlkStride(sb), dstRepStride(dr), srcRepStride(sr) {}
    UnaryRepeatParams(uint16_t db, uint16_t sb, uint8_t dr, uint8_t sr, bool hb)
        : dstBlkStride(db), srcBlkStride(sb), dstRepStride(dr), srcRepStride(sr), halfBlock(hb) {}
};

struct CopyRepeatParams {
    uint16_t dstStride = 1;
    uint16_t srcStride = 1;
    uint16_t dstRepeatSize = 8;
    uint16_t srcRepeatSize = 8;
    CopyRepeatParams() = default;
    CopyRepeatParams(uint16_t ds, uint16_t ss, uint16_t dr, uint16_t sr) : dstStride(ds), srcStride(ss), dstRepeatSize(dr), srcRepeatSize(sr) {}
};

namespace detail {

inline npuemu::asc::vec::Strides strides(const BinaryRepeatParams &p) {
    npuemu::asc::vec::Strides s;
    s.blk[0] = p.dstBlkStride;
    s.blk[1] = p.src0BlkStride;
    s.blk[2] = p.src1BlkStride;
    s.rep[0] = p.dstRepStride;
    s.rep[1] = p.src0RepStride;
    s.rep[2] = p.src1RepStride;
    return s;
}
inline npuemu::asc::vec::Strides strides(const UnaryRepeatParams &p) {
    npuemu::asc::vec::Strides s;
    s.blk[0] = p.dstBlkStride;
    s.blk[1] = p.srcBlkStride;
    s.rep[0] = p.dstRepStride;
    s.rep[1] = p.srcRepStride;
    return s;
}

template <typename T, typename F>
inline void binary(const char *api, const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, int32_t count, F f) {
    using namespace npuemu::asc::vec;
    if (count < 0) npuemu::asc::fault(api, "count %d is negative", count);
    uint64_t bytes = (uint64_t)count * sizeof(T);
    check_operand(d, bytes, api);
    check_operand(a, bytes, api);
    check_operand(b, bytes, api);
    binary_n(d.ptr_, a.ptr_, b.ptr_, (size_t)count, f);
    charge_v<T>((uint64_t)count);
}

/* The mask a mask form uses: its argument, or (isSetMask = false) the
 * vector mask register (SetVectorMask). In counter mode (SetMaskCount)
 * the register holds the element count over all repeats and the
 * repeatTimes argument is not used: the count sets the repeats. */
struct MaskUse {
    npuemu::asc::vec::Mask k;
    bool counter = false;
    uint64_t total = 0;
};
template <typename T, bool isSetMask>
inline MaskUse mask_use(const npuemu::asc::vec::Mask &given) {
    MaskUse u;
    if (isSetMask) {
        u.k = given;
        return u;
    }
    npuemu::asc::Block &b = npuemu::asc::blk();
    if (b.mask_counter) {
        u.counter = true;
        u.total = b.mask[0];
        return u;
    }
    constexpr uint32_t per = 256 / sizeof(T);
    uint64_t m[2] = {b.mask[0], per > 64 ? b.mask[1] : 0};
    if (per < 64) m[0] &= (1ull << per) - 1;
    u.k = npuemu::asc::vec::Mask::of(m);
    return u;
}
/* The mask of an instruction without a counter-mode form (the
 * reductions): the argument, or the mask register in normal mode; in
 * counter mode they fault (not modelled). */
template <typename T, bool isSetMask>
inline npuemu::asc::vec::Mask mask_plain(const npuemu::asc::vec::Mask &given, const char *api) {
    MaskUse u = mask_use<T, isSetMask>(given);
    if (u.counter) npuemu::asc::fault(api, "counter mask mode (SetMaskCount) is not supported by this instruction in npuemu; use SetMaskNorm");
    return u.k;
}
/* The repeats an instruction makes: repeatTimes, or in counter mode as
 * many as the count needs. */
template <typename T>
inline uint32_t repeats_of(const MaskUse &u, uint32_t repeat, const char *api) {
    constexpr uint32_t per = 256 / sizeof(T);
    if (!u.counter) {
        npuemu::asc::vec::check_mask<T>(u.k, api);
        return repeat;
    }
    uint64_t r = (u.total + per - 1) / per;
    if (r > 255) npuemu::asc::fault(api, "counter mask %llu needs %llu repeats, more than 255 (rule: vector mask range)", (unsigned long long)u.total, (unsigned long long)r);
    return (uint32_t)r;
}
/* Calls fn(first repeat, mask, repeats): once with every repeat, or in
 * counter mode once per repeat with the elements left. */
template <typename T, typename Fn>
inline void each_repeat(const MaskUse &u, uint32_t repeat, Fn fn) {
    if (!u.counter) {
        fn(0u, u.k, repeat);
        return;
    }
    constexpr uint32_t per = 256 / sizeof(T);
    for (uint32_t r = 0; r < repeat; r++) {
        uint64_t left = u.total - (uint64_t)r * per;
        fn(r, npuemu::asc::vec::Mask::count(left < per ? left : per), 1u);
    }
}
/* Element offset of repeat r of operand o. */
template <typename T>
inline size_t rep_off(const npuemu::asc::vec::Strides &s, int o, uint32_t r) {
    return (size_t)r * s.rep[o] * (32 / sizeof(T));
}

template <typename T, typename F>
inline void binary(const char *api, const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, const MaskUse &u, uint8_t repeatTimes,
                   const BinaryRepeatParams &p, F f) {
    using namespace npuemu::asc::vec;
    uint32_t repeat = repeats_of<T>(u, repeatTimes, api);
    Strides s = strides(p);
    check_operand(d, span_bytes<T>(s, 0, repeat), api);
    check_operand(a, span_bytes<T>(s, 1, repeat), api);
    check_operand(b, span_bytes<T>(s, 2, repeat), api);
    each_repeat<T>(u, repeat, [&](uint32_t r0, const Mask &k, uint32_t n) {
        binary_rep(d.ptr_ + rep_off<T>(s, 0, r0), a.ptr_ + rep_off<T>(s, 1, r0), b.ptr_ + rep_off<T>(s, 2, r0), k, n, s, f);
    });
    charge_v<T>((uint64_t)repeat * (256 / sizeof(T)));
}

template <typename T, typename F>
inline void unary(const char *api, const LocalTensor<T> &d, const LocalTensor<T> &a, int32_t count, F f) {
    using namespace npuemu::asc::vec;
    if (count < 0) npuemu::asc::fault(api, "count %d is negative", count);
    uint64_t bytes = (uint64_t)count * sizeof(T);
    check_operand(d, bytes, api);
    check_operand(a, bytes, api);
    unary_n(d.ptr_, a.ptr_, (size_t)count, f);
    charge_v<T>((uint64_t)count);
}

template <typename T, typename F>
inline void unary(const char *api, const LocalTensor<T> &d, const LocalTensor<T> &a, const MaskUse &u, uint8_t repeatTimes, const UnaryRepeatParams &p,
                  F f) {
    using namespace npuemu::asc::vec;
    uint32_t repeat = repeats_of<T>(u, repeatTimes, api);
    Strides s = strides(p);
    check_operand(d, span_bytes<T>(s, 0, repeat), api);
    check_operand(a, span_bytes<T>(s, 1, repeat), api);
    each_repeat<T>(u, repeat, [&](uint32_t r0, const Mask &k, uint32_t n) {
        unary_rep(d.ptr_ + rep_off<T>(s, 0, r0), a.ptr_ + rep_off<T>(s, 1, r0), k, n, s, f);
    });
    charge_v<T>((uint64_t)repeat * (256 / sizeof(T)));
}

/* Functors: always inlined into the -O3 loops. */
template <typename W>
struct OpAdd {
    NPUEMU_ASC_AI W operator()(W a, W b) const { return a + b; }
    /* The same on GCC vectors of W, by reference (vector_ok). */
    static constexpr bool vector_ok = true;
    template <typename V>
    NPUEMU_ASC_AI void vec(V &r, const V &a, const V &b) const {
        r = a + b;
    }
};
template <typename W>
struct OpSub {
    NPUEMU_ASC_AI W operator()(W a, W b) const { return a - b; }
    /* The same on GCC vectors of W, by reference (vector_ok). */
    static constexpr bool vector_ok = true;
    template <typename V>
    NPUEMU_ASC_AI void vec(V &r, const V &a, const V &b) const {
        r = a - b;
    }
};
template <typename W>
struct OpMul {
    NPUEMU_ASC_AI W operator()(W a, W b) const { return a * b; }
    /* The same on GCC vectors of W, by reference (vector_ok). */
    static constexpr bool vector_ok = true;
    template <typename V>
    NPUEMU_ASC_AI void vec(V &r, const V &a, const V &b) const {
        r = a * b;
    }
};
template <typename W>
struct OpDiv {
    NPUEMU_ASC_AI W operator()(W a, W b) const { return b == W(0) && std::is_integral<W>::value ? W(0) : a / b; }
};
template <typename W>
struct OpMax {
    NPUEMU_ASC_AI W operator()(W a, W b) const { return a > b ? a : b; }
    /* The same on GCC vectors of W, by reference (vector_ok). */
    static constexpr bool vector_ok = true;
    template <typename V>
    NPUEMU_ASC_AI void vec(V &r, const V &a, const V &b) const {
        r = a > b ? a : b;
    }
};
template <typename W>
struct OpMin {
    NPUEMU_ASC_AI W operator()(W a, W b) const { return a < b ? a : b; }
    /* The same on GCC vectors of W, by reference (vector_ok). */
    static constexpr bool vector_ok = true;
    template <typename V>
    NPUEMU_ASC_AI void vec(V &r, const V &a, const V &b) const {
        r = a < b ? a : b;
    }
};
template <typename W>
struct OpAnd {
    NPUEMU_ASC_AI W operator()(W a, W b) const { return a & b; }
};
template <typename W>
struct OpOr {
    NPUEMU_ASC_AI W operator()(W a, W b) const { return a | b; }
};
template <typename W>
struct OpAddRelu {
    NPUEMU_ASC_AI W operator()(W a, W b) const {
        W r = a + b;
        return r > W(0) ? r : W(0);
    }
};
template <typename W>
struct OpSubRelu {
    NPUEMU_ASC_AI W operator()(W a, W b) const {
        W r = a - b;
        return r > W(0) ? r : W(0);
    }
};

template <typename W>
struct OpExp {
    NPUEMU_ASC_AI W operator()(W a) const { return (W)std::exp((float)a); }
};
template <typename W>
struct OpLn {
    NPUEMU_ASC_AI W operator()(W a) const { return (W)std::log((float)a); }
};
template <typename W>
struct OpAbs {
    NPUEMU_ASC_AI W operator()(W a) const { return a < W(0) ? W(-a) : a; }
};
template <typename W>
struct OpSqrt {
    NPUEMU_ASC_AI W operator()(W a) const { return (W)std::sqrt((float)a); }
};
template <typename W>
struct OpRsqrt {
    NPUEMU_ASC_AI W operator()(W a) const { return (W)(1.0f / std::sqrt((float)a)); }
};
template <typename W>
struct OpRec {
    NPUEMU_ASC_AI W operator()(W a) const { return (W)(1.0f / (float)a); }
};
template <typename W>
struct OpRelu {
    NPUEMU_ASC_AI W operator()(W a) const { return a > W(0) ? a : W(0); }
};
template <typename W>
struct OpNot {
    NPUEMU_ASC_AI W operator()(W a) const { return ~a; }
};

template <typename W>
struct OpAdds {
    W s;
    NPUEMU_ASC_AI W operator()(W a) const { return a + s; }
};
template <typename W>
struct OpMuls {
    W s;
    NPUEMU_ASC_AI W operator()(W a) const { return a * s; }
};
template <typename W>
struct OpMaxs {
    W s;
    NPUEMU_ASC_AI W operator()(W a) const { return a > s ? a : s; }
};
template <typename W>
struct OpMins {
    W s;
    NPUEMU_ASC_AI W operator()(W a) const { return a < s ? a : s; }
};
template <typename W>
struct OpLeaky {
    W s;
    NPUEMU_ASC_AI W operator()(W a) const { return a >= W(0) ? a : a * s; }
};
template <typename W>
struct OpShl {
    W s;
    NPUEMU_ASC_AI W operator()(W a) const { return (W)(a << s); }
};
template <typename W>
struct OpShr {
    W s;
    NPUEMU_ASC_AI W operator()(W a) const { return (W)(a >> s); }
};
template <typename W>
struct OpDup {
    W s;
    NPUEMU_ASC_AI W operator()(W) const { return s; }
};

template <typename T>
using W = typename npuemu::asc::vec::Work<T>::type;

} // namespace detail

/* Binary instructions: count form, counter-mask form, bit-mask form. */
#define NPUEMU_ASC_BINARY(NAME, OP)                                                                                              \
    template <typename T>                                                                                                        \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, const int32_t &count) {  \
        detail::binary(#NAME, dst, src0, src1, count, detail::OP<detail::W<T>>{});                                               \
    }                                                                                                                            \
    template <typename T, bool isSetMask = true>                                                                                 \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, uint64_t mask,           \
                     const uint8_t repeatTimes, const BinaryRepeatParams &p) {                                                   \
        detail::binary(#NAME, dst, src0, src1, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::count(mask)), repeatTimes, p, detail::OP<detail::W<T>>{}); \
    }                                                                                                                            \
    template <typename T, bool isSetMask = true>                                                                                 \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, const uint64_t mask[],   \
                     const uint8_t repeatTimes, const BinaryRepeatParams &p) {                                                   \
        detail::binary(#NAME, dst, src0, src1, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::of(mask)), repeatTimes, p, detail::OP<detail::W<T>>{});    \
    }

NPUEMU_ASC_BINARY(Add, OpAdd)
NPUEMU_ASC_BINARY(Sub, OpSub)
NPUEMU_ASC_BINARY(Mul, OpMul)
NPUEMU_ASC_BINARY(Div, OpDiv)
NPUEMU_ASC_BINARY(Max, OpMax)
NPUEMU_ASC_BINARY(Min, OpMin)
NPUEMU_ASC_BINARY(And, OpAnd)
NPUEMU_ASC_BINARY(Or, OpOr)
NPUEMU_ASC_BINARY(AddRelu, OpAddRelu)
NPUEMU_ASC_BINARY(SubRelu, OpSubRelu)
#undef NPUEMU_ASC_BINARY

#define NPUEMU_ASC_UNARY(NAME, OP)                                                                                             \
    template <typename T>                                                                                                      \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count) {                             \
        detail::unary(#NAME, dst, src, count, detail::OP<detail::W<T>>{});                                                     \
    }                                                                                                                          \
    template <typename T, bool isSetMask = true>                                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask, const uint8_t repeatTimes,           \
                     const UnaryRepeatParams &p) {                                                                             \
        detail::unary(#NAME, dst, src, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::count(mask)), repeatTimes, p, detail::OP<detail::W<T>>{});     \
    }                                                                                                                          \
    template <typename T, bool isSetMask = true>                                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[], const uint8_t repeatTimes,   \
                     const UnaryRepeatParams &p) {                                                                             \
        detail::unary(#NAME, dst, src, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::of(mask)), repeatTimes, p, detail::OP<detail::W<T>>{});        \
    }

NPUEMU_ASC_UNARY(Exp, OpExp)
NPUEMU_ASC_UNARY(Ln, OpLn)
NPUEMU_ASC_UNARY(Abs, OpAbs)
NPUEMU_ASC_UNARY(Sqrt, OpSqrt)
NPUEMU_ASC_UNARY(Rsqrt, OpRsqrt)
NPUEMU_ASC_UNARY(Reciprocal, OpRec)
NPUEMU_ASC_UNARY(Relu, OpRelu)
NPUEMU_ASC_UNARY(Not, OpNot)
#undef NPUEMU_ASC_UNARY

/* Scalar instructions: dst = op(src, scalar). */
#define NPUEMU_ASC_SCALAR(NAME, OP)                                                                                            \
    template <typename T, typename U>                                                                                          \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &scalar, const int32_t &count) {            \
        detail::unary(#NAME, dst, src, count, detail::OP<detail::W<T>>{static_cast<detail::W<T>>(scalar)});                    \
    }                                                                                                                          \
    template <typename T, typename U, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &scalar, uint64_t mask,                     \
                     const uint8_t repeatTimes, const UnaryRepeatParams &p) {                                                  \
        detail::unary(#NAME, dst, src, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::count(mask)), repeatTimes, p,                                   \
                      detail::OP<detail::W<T>>{static_cast<detail::W<T>>(scalar)});                                            \
    }                                                                                                                          \
    template <typename T, typename U, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &scalar, const uint64_t mask[],             \
                     const uint8_t repeatTimes, const UnaryRepeatParams &p) {                                                  \
        detail::unary(#NAME, dst, src, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::of(mask)), repeatTimes, p,                                      \
                      detail::OP<detail::W<T>>{static_cast<detail::W<T>>(scalar)});                                            \
    }

NPUEMU_ASC_SCALAR(Adds, OpAdds)
NPUEMU_ASC_SCALAR(Muls, OpMuls)
NPUEMU_ASC_SCALAR(Maxs, OpMaxs)
NPUEMU_ASC_SCALAR(Mins, OpMins)
NPUEMU_ASC_SCALAR(LeakyRelu, OpLeaky)
NPUEMU_ASC_SCALAR(ShiftLeft, OpShl)
NPUEMU_ASC_SCALAR(ShiftRight, OpShr)
#undef NPUEMU_ASC_SCALAR

/* Axpy: dst = src * scalar + dst. */
template <typename T, typename U>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalar, const int32_t &count) {
    const char *api = "Axpy";
    npuemu::asc::vec::check_operand(dst, (uint64_t)count * sizeof(T), api);
    npuemu::asc::vec::check_operand(src, (uint64_t)count * sizeof(U), api);
    for (int32_t i = 0; i < count; i++) dst.ptr_[i] = static_cast<T>((float)dst.ptr_[i] + (float)src.ptr_[i] * (float)scalar);
    npuemu::asc::vec::charge_v<T>((uint64_t)count);
}

namespace detail {
template <typename T, typename U>
inline void axpy_rep(const LocalTensor<T> &dst, const LocalTensor<U> &src, U scalar, const MaskUse &u, uint8_t repeatTimes, const UnaryRepeatParams &p) {
    using namespace npuemu::asc::vec;
    const char *api = "Axpy";
    using B = typename std::conditional<(sizeof(T) > sizeof(U)), T, U>::type;
    constexpr uint32_t per = 256 / sizeof(B);
    uint32_t repeat = repeats_of<B>(u, repeatTimes, api);
    Strides s = strides(p);
    auto span = [&](int o, uint32_t esize) -> uint64_t {
        uint64_t nb = (uint64_t)per * esize / 32;
        return repeat == 0 ? 0 : ((uint64_t)(repeat - 1) * s.rep[o] + (nb - 1) * s.blk[o] + 1) * 32;
    };
    check_operand(dst, span(0, sizeof(T)), api);
    check_operand(src, span(1, sizeof(U)), api);
    each_repeat<B>(u, repeat, [&](uint32_t r0, const Mask &k, uint32_t n) {
        for (uint32_t r = r0; r < r0 + n; r++)
            for (uint32_t e = 0; e < per; e++) {
                if (!k.on(e)) continue;
                T &d = dst.ptr_[at<T>(s, 0, r, e)];
                d = static_cast<T>((float)d + (float)src.ptr_[at<U>(s, 1, r, e)] * (float)scalar);
            }
    });
    charge_v<B>((uint64_t)repeat * per);
}
} // namespace detail
/* Axpy, mask / repeat forms: in a repeat of a half src and float dst the
 * elements are those of the float (64). */
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalar, uint64_t mask, const uint8_t repeatTimes,
                 const UnaryRepeatParams &p) {
    using B = typename std::conditional<(sizeof(T) > sizeof(U)), T, U>::type;
    detail::axpy_rep(dst, src, scalar, detail::mask_use<B, isSetMask>(npuemu::asc::vec::Mask::count(mask)), repeatTimes, p);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalar, const uint64_t mask[], const uint8_t repeatTimes,
                 const UnaryRepeatParams &p) {
    using B = typename std::conditional<(sizeof(T) > sizeof(U)), T, U>::type;
    detail::axpy_rep(dst, src, scalar, detail::mask_use<B, isSetMask>(npuemu::asc::vec::Mask::of(mask)), repeatTimes, p);
}

/* Duplicate: dst = scalar. */
template <typename T>
inline void Duplicate(const LocalTensor<T> &dst, const T &scalar, const int32_t &count) {
    const char *api = "Duplicate";
    if (count < 0) npuemu::asc::fault(api, "count %d is negative", count);
    npuemu::asc::vec::check_operand(dst, (uint64_t)count * sizeof(T), api);
    for (int32_t i = 0; i < count; i++) dst.ptr_[i] = scalar;
    npuemu::asc::vec::charge_v<T>((uint64_t)count);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T> &dst, const T &scalar, uint64_t mask, const uint8_t repeatTimes, const uint16_t dstBlockStride,
                      const uint8_t dstRepeatStride) {
    UnaryRepeatParams p(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride);
    detail::unary("Duplicate", dst, dst, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::count(mask)), repeatTimes, p, detail::OpDup<detail::W<T>>{static_cast<detail::W<T>>(scalar)});
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T> &dst, const T &scalar, const uint64_t mask[], const uint8_t repeatTimes,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
    UnaryRepeatParams p(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride);
    detail::unary("Duplicate", dst, dst, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::of(mask)), repeatTimes, p, detail::OpDup<detail::W<T>>{static_cast<detail::W<T>>(scalar)});
}

/* Copy: UB -> UB on the vector pipe, with mask and repeat (strides in
 * 32-byte blocks). */
namespace detail {
template <typename T>
inline void copy_rep(const LocalTensor<T> &dst, const LocalTensor<T> &src, const MaskUse &u, uint8_t repeatTimes, const CopyRepeatParams &p) {
    using namespace npuemu::asc::vec;
    const char *api = "Copy";
    if (sizeof(T) != 2 && sizeof(T) != 4) npuemu::asc::fault(api, "Copy takes 16- or 32-bit elements");
    uint32_t repeat = repeats_of<T>(u, repeatTimes, api);
    Strides s;
    s.blk[0] = p.dstStride;
    s.blk[1] = p.srcStride;
    s.rep[0] = p.dstRepeatSize;
    s.rep[1] = p.srcRepeatSize;
    check_operand(dst, span_bytes<T>(s, 0, repeat), api);
    check_operand(src, span_bytes<T>(s, 1, repeat), api);
    constexpr uint32_t per = 256 / sizeof(T);
    each_repeat<T>(u, repeat, [&](uint32_t r0, const Mask &k, uint32_t n) {
        for (uint32_t r = r0; r < r0 + n; r++)
            for (uint32_t e = 0; e < per; e++)
                if (k.on(e)) dst.ptr_[at<T>(s, 0, r, e)] = src.ptr_[at<T>(s, 1, r, e)];
    });
    charge_v<T>((uint64_t)repeat * per);
}
} // namespace detail
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask, const uint8_t repeatTimes, const CopyRepeatParams &p) {
    detail::copy_rep(dst, src, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::count(mask)), repeatTimes, p);
}
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[], const uint8_t repeatTimes, const CopyRepeatParams &p) {
    detail::copy_rep(dst, src, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::of(mask)), repeatTimes, p);
}

/* Cast between element types with a rounding mode. */
namespace detail {
inline double round_by(double x, RoundMode m) {
    switch (m) {
    case RoundMode::CAST_FLOOR: return std::floor(x);
    case RoundMode::CAST_CEIL: return std::ceil(x);
    case RoundMode::CAST_ROUND: return std::round(x);
    case RoundMode::CAST_TRUNC: return std::trunc(x);
    default: return std::nearbyint(x);
    }
}
inline uint16_t half_step(uint16_t h, bool up) {
    /* the next half towards +inf (up) or -inf */
    bool neg = h & 0x8000u;
    if ((h & 0x7fffu) == 0) return up ? 1 : 0x8001u;
    return (up != neg) ? (uint16_t)(h + 1) : (uint16_t)(h - 1);
}
inline half to_half(double x, RoundMode m) {
    float f = (float)x;
    half h(f);
    if (m == RoundMode::CAST_FLOOR || m == RoundMode::CAST_CEIL || m == RoundMode::CAST_TRUNC) {
        float y = (float)h;
        bool up = m == RoundMode::CAST_CEIL || (m == RoundMode::CAST_TRUNC && f < 0);
        if (std::isfinite(y) && ((up && y < f) || (!up && y > f))) h.bits_ = half_step(h.bits_, up);
    }
    return h;
}
template <typename D>
inline D convert(double x, RoundMode m) {
    if constexpr (std::is_integral<D>::value) {
        double r = round_by(x, m == RoundMode::CAST_NONE ? RoundMode::CAST_RINT : m);
        double lo = (double)std::numeric_limits<D>::min(), hi = (double)std::numeric_limits<D>::max();
        if (std::isnan(r)) return 0;
        return (D)(r < lo ? lo : r > hi ? hi : r); /* saturate */
    } else if constexpr (std::is_same<D, half>::value) {
        return to_half(x, m);
    } else if constexpr (std::is_same<D, bfloat16_t>::value) {
        return bfloat16_t((float)x);
    } else {
        return (D)x;
    }
}
template <typename S>
inline double widen(const S &v) {
    if constexpr (std::is_same<S, half>::value || std::is_same<S, bfloat16_t>::value) {
        return (double)(float)v;
    } else {
        return (double)v;
    }
}
} // namespace detail

template <typename D, typename S>
inline void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src, const RoundMode &mode, const uint32_t count) {
    const char *api = "Cast";
    npuemu::asc::vec::check_operand(dst, npuemu::asc::bytes_of<D>(count), api);
    npuemu::asc::vec::check_operand(src, npuemu::asc::bytes_of<S>(count), api);
    if constexpr (npuemu::asc::is_int4<D>() || npuemu::asc::is_int4<S>()) {
        /* half <-> int4b_t (the documented A2 pair), two int4b_t a byte */
        static_assert(std::is_same<D, half>::value || std::is_same<S, half>::value, "Cast: int4b_t converts to and from half");
        if constexpr (npuemu::asc::is_int4<D>()) {
            for (uint32_t i = 0; i < count; i++) {
                double r = detail::round_by(detail::widen(src.ptr_[i]), mode == RoundMode::CAST_NONE ? RoundMode::CAST_RINT : mode);
                int v = std::isnan(r) ? 0 : r < -8 ? -8 : r > 7 ? 7 : (int)r; /* saturate to [-8, 7] */
                detail::int4_set(dst.ptr_, i, v);
            }
        } else {
            for (uint32_t i = 0; i < count; i++) dst.ptr_[i] = half((float)detail::int4_get(src.ptr_, i).value());
        }
        npuemu::asc::vec::charge_v<half>(count);
        return;
    } else if constexpr (std::is_same<D, float>::value && std::is_same<S, half>::value) {
        npuemu::asc::vec::load(src.ptr_, dst.ptr_, count);
    } else if constexpr (std::is_same<D, half>::value && std::is_same<S, float>::value) {
        if (mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT) {
            npuemu::asc::vec::store(src.ptr_, dst.ptr_, count);
        } else {
            for (uint32_t i = 0; i < count; i++) dst.ptr_[i] = detail::convert<D>(detail::widen(src.ptr_[i]), mode);
        }
    } else {
        for (uint32_t i = 0; i < count; i++) dst.ptr_[i] = detail::convert<D>(detail::widen(src.ptr_[i]), mode);
    }
    npuemu::asc::vec::charge_v<typename std::conditional<(sizeof(D) > sizeof(S)), D, S>::type>(count);
}
namespace detail {
template <typename D, typename S>
inline void cast_rep(const LocalTensor<D> &dst, const LocalTensor<S> &src, RoundMode mode, const MaskUse &u, uint8_t repeatTimes, const UnaryRepeatParams &p) {
    using namespace npuemu::asc::vec;
    const char *api = "Cast";
    using B = typename std::conditional<(sizeof(D) > sizeof(S)), D, S>::type;
    constexpr uint32_t per = 256 / sizeof(B);
    uint32_t repeat = repeats_of<B>(u, repeatTimes, api);
    Strides s = strides(p);
    /* the narrower operand covers fewer than 8 blocks a repeat */
    auto span = [&](int o, uint64_t bytes) -> uint64_t {
        uint64_t nb = (bytes + 31) / 32;
        return repeat == 0 ? 0 : ((uint64_t)(repeat - 1) * s.rep[o] + (nb - 1) * s.blk[o] + 1) * 32;
    };
    check_operand(dst, span(0, npuemu::asc::bytes_of<D>(per)), api);
    check_operand(src, span(1, npuemu::asc::bytes_of<S>(per)), api);
    each_repeat<B>(u, repeat, [&](uint32_t r0, const Mask &k, uint32_t n) {
        for (uint32_t r = r0; r < r0 + n; r++)
            for (uint32_t e = 0; e < per; e++) {
                if (!k.on(e)) continue;
                if constexpr (npuemu::asc::is_int4<D>()) {
                    double x = round_by(widen(src.ptr_[at<S>(s, 1, r, e)]), mode == RoundMode::CAST_NONE ? RoundMode::CAST_RINT : mode);
                    int4_set(dst.ptr_, at<D>(s, 0, r, e), std::isnan(x) ? 0 : x < -8 ? -8 : x > 7 ? 7 : (int)x);
                } else if constexpr (npuemu::asc::is_int4<S>()) {
                    dst.ptr_[at<D>(s, 0, r, e)] = D((float)int4_get(src.ptr_, at<S>(s, 1, r, e)).value());
                } else {
                    dst.ptr_[at<D>(s, 0, r, e)] = convert<D>(widen(src.ptr_[at<S>(s, 1, r, e)]), mode);
                }
            }
    });
    charge_v<B>((uint64_t)repeat * per);
}
} // namespace detail
template <typename D, typename S, bool isSetMask = true>
inline void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src, const RoundMode &mode, const uint64_t mask, const uint8_t repeatTimes,
                 const UnaryRepeatParams &p) {
    using B = typename std::conditional<(sizeof(D) > sizeof(S)), D, S>::type;
    detail::cast_rep(dst, src, mode, detail::mask_use<B, isSetMask>(npuemu::asc::vec::Mask::count(mask)), repeatTimes, p);
}
template <typename D, typename S, bool isSetMask = true>
inline void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src, const RoundMode &mode, const uint64_t mask[], const uint8_t repeatTimes,
                 const UnaryRepeatParams &p) {
    using B = typename std::conditional<(sizeof(D) > sizeof(S)), D, S>::type;
    detail::cast_rep(dst, src, mode, detail::mask_use<B, isSetMask>(npuemu::asc::vec::Mask::of(mask)), repeatTimes, p);
}

/* Mask registers: the isSetMask = false forms (mask argument
 * MASK_PLACEHOLDER) and the register forms of Select read them. */
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
    npuemu::asc::blk().mask[0] = maskLow;
    npuemu::asc::blk().mask[1] = maskHigh;
}
/* In normal mode a length sets the bits of the first len elements; in
 * counter mode it is the element count over all repeats. */
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len) {
    npuemu::asc::Block &b = npuemu::asc::blk();
    if (b.mask_counter || mode == MaskMode::COUNTER) {
        b.mask[0] = (uint64_t)(uint32_t)len;
        b.mask[1] = 0;
        return;
    }
    uint32_t n = len < 0 ? 0 : len > 128 ? 128 : (uint32_t)len;
    b.mask[0] = n >= 64 ? ~0ull : ((1ull << n) - 1);
    b.mask[1] = n <= 64 ? 0 : n >= 128 ? ~0ull : ((1ull << (n - 64)) - 1);
}
inline void ResetMask() { npuemu::asc::blk().mask[0] = npuemu::asc::blk().mask[1] = ~0ull; }
inline void SetMaskCount() { npuemu::asc::blk().mask_counter = true; }
inline void SetMaskNorm() { npuemu::asc::blk().mask_counter = false; }

} // namespace AscendC

#include "ascendc/compare.h"

#endif
