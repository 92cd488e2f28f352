// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/reduce.h: reductions (WholeReduceSum/Max/Min, ReduceSum/Max/Min,
 * BlockReduceSum/Max/Min), GatherMask and Sort32. */
#ifndef NPUEMU_ASCENDC_REDUCE_H
#define NPUEMU_ASCENDC_REDUCE_H

#include "ascendc/vector.h"

namespace AscendC {

struct GatherMaskParams {
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 8;
    GatherMaskParams() = default;
    GatherMaskParams(uint8_t bs, uint16_t rt, uint16_t s0r, uint8_t s1r) : src0BlockStride(bs), repeatTimes(rt), src0RepeatStride(s0r), src1RepeatStride(s1r) {}
};

namespace detail {

enum RedOp { RED_SUM, RED_MAX, RED_MIN };

template <typename T>
inline void put_index(T *slot, uint32_t idx) {
    /* The index is stored as an integer of the element's width. */
    if (sizeof(T) == 2) {
        uint16_t v = (uint16_t)idx;
        std::memcpy(slot, &v, 2);
    } else {
        std::memcpy(slot, &idx, sizeof(T) < 4 ? sizeof(T) : 4);
    }
}

/* One repeat: the reduction of its enabled elements; idx the position of
 * the extreme (first one). */
template <typename T>
inline detail::W<T> reduce_repeat(const T *src, const npuemu::asc::vec::Mask &k, uint32_t r, const npuemu::asc::vec::Strides &s, RedOp op,
                                  uint32_t *idx) {
    using Wt = detail::W<T>;
    constexpr uint32_t per = 256 / sizeof(T);
    Wt acc = 0;
    bool first = true;
    for (uint32_t e = 0; e < per; e++) {
        if (!k.on(e)) continue;
        Wt v = static_cast<Wt>(src[npuemu::asc::vec::at<T>(s, 1, r, e)]);
        if (first) {
            acc = v;
            if (idx) *idx = e;
            first = false;
        } else if (op == RED_SUM) {
            acc = acc + v;
        } else if ((op == RED_MAX && v > acc) || (op == RED_MIN && v < acc)) {
            acc = v;
            if (idx) *idx = e;
        }
    }
    return acc;
}

template <typename T>
inline void whole_reduce(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src, const npuemu::asc::vec::Mask &k, int32_t repeat,
                         int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, RedOp op, ReduceOrder order) {
    using namespace npuemu::asc::vec;
    check_mask<T>(k, api);
    Strides s;
    s.blk[1] = (uint32_t)srcBlkStride;
    s.rep[1] = (uint32_t)srcRepStride;
    check_operand(src, span_bytes<T>(s, 1, (uint32_t)repeat), api);
    bool pair = op != RED_SUM && order != ReduceOrder::ORDER_ONLY_VALUE && order != ReduceOrder::ORDER_ONLY_INDEX;
    for (int32_t r = 0; r < repeat; r++) {
        uint32_t idx = 0;
        W<T> v = reduce_repeat(src.ptr_, k, (uint32_t)r, s, op, &idx);
        T *out = dst.ptr_ + (size_t)r * dstRepStride * (pair ? 2 : 1);
        if (op == RED_SUM || order == ReduceOrder::ORDER_ONLY_VALUE) {
            out[0] = static_cast<T>(v);
        } else if (order == ReduceOrder::ORDER_ONLY_INDEX) {
            put_index(out, idx);
        } else if (order == ReduceOrder::ORDER_INDEX_VALUE) {
            put_index(out, idx);
            out[1] = static_cast<T>(v);
        } else {
            out[0] = static_cast<T>(v);
            put_index(out + 1, idx);
        }
    }
    charge_v<T>((uint64_t)repeat * (256 / sizeof(T)));
}

/* ReduceSum/Max/Min over repeats: the result (and, with calIndex, the
 * index) in dst[0] (dst[1]). */
template <typename T>
inline void reduce_all(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src, const npuemu::asc::vec::Mask &k, int32_t repeat,
                       int32_t srcRepStride, bool calIndex, RedOp op) {
    using namespace npuemu::asc::vec;
    check_mask<T>(k, api);
    Strides s;
    s.rep[1] = (uint32_t)srcRepStride;
    check_operand(src, span_bytes<T>(s, 1, (uint32_t)repeat), api);
    constexpr uint32_t per = 256 / sizeof(T);
    W<T> acc = 0;
    uint32_t best = 0;
    for (int32_t r = 0; r < repeat; r++) {
        uint32_t idx = 0;
        W<T> v = reduce_repeat(src.ptr_, k, (uint32_t)r, s, op, &idx);
        if (r == 0) {
            acc = v;
            best = idx;
        } else if (op == RED_SUM) {
            acc = acc + v;
        } else if ((op == RED_MAX && v > acc) || (op == RED_MIN && v < acc)) {
            acc = v;
            best = (uint32_t)r * per + idx;
        }
    }
    dst.ptr_[0] = static_cast<T>(acc);
    if (calIndex && op != RED_SUM) put_index(dst.ptr_ + 1, best);
    charge_v<T>((uint64_t)repeat * per + 8);
}

template <typename T>
inline void reduce_count(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t count, bool calIndex, RedOp op) {
    using namespace npuemu::asc::vec;
    if (count <= 0) npuemu::asc::fault(api, "count %d: want > 0", count);
    check_operand(src, (uint64_t)count * sizeof(T), api);
    W<T> acc = static_cast<W<T>>(src.ptr_[0]);
    uint32_t best = 0;
    for (int32_t i = 1; i < count; i++) {
        W<T> v = static_cast<W<T>>(src.ptr_[i]);
        if (op == RED_SUM) {
            acc = acc + v;
        } else if ((op == RED_MAX && v > acc) || (op == RED_MIN && v < acc)) {
            acc = v;
            best = (uint32_t)i;
        }
    }
    dst.ptr_[0] = static_cast<T>(acc);
    if (calIndex && op != RED_SUM) put_index(dst.ptr_ + 1, best);
    charge_v<T>((uint64_t)count + 8);
}

} // namespace detail

#define NPUEMU_ASC_WHOLE(NAME, OP, ORDERARG, ORDER)                                                                               \
    template <typename T, bool isSetMask = true>                                                                                  \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t mask, const int32_t repeatTimes,         \
                     const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride ORDERARG) {               \
        detail::whole_reduce(#NAME, dst, src, detail::mask_plain<T, isSetMask>(npuemu::asc::vec::Mask::count((uint64_t)mask), #NAME), repeatTimes, dstRepStride, srcBlkStride, \
                             srcRepStride, detail::OP, ORDER);                                                                    \
    }                                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                                  \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[], const int32_t repeatTimes,      \
                     const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride ORDERARG) {               \
        detail::whole_reduce(#NAME, dst, src, detail::mask_plain<T, isSetMask>(npuemu::asc::vec::Mask::of(mask), #NAME), repeatTimes, dstRepStride, srcBlkStride,         \
                             srcRepStride, detail::OP, ORDER);                                                                    \
    }

#define NPUEMU_ASC_COMMA ,
NPUEMU_ASC_WHOLE(WholeReduceSum, RED_SUM, , ReduceOrder::ORDER_ONLY_VALUE)
NPUEMU_ASC_WHOLE(WholeReduceMax, RED_MAX, NPUEMU_ASC_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
NPUEMU_ASC_WHOLE(WholeReduceMin, RED_MIN, NPUEMU_ASC_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
#undef NPUEMU_ASC_WHOLE

#define NPUEMU_ASC_REDUCE(NAME, OP)                                                                                              \
    template <typename T>                                                                                                        \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, const int32_t count,      \
                     bool calIndex = false) {                                                                                    \
        (void)work;                                                                                                              \
        detail::reduce_count(#NAME, dst, src, count, calIndex, detail::OP);                                                      \
    }                                                                                                                            \
    template <typename T>                                                                                                        \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, const int32_t mask,       \
                     const int32_t repeatTimes, const int32_t srcRepStride, bool calIndex = false) {                             \
        (void)work;                                                                                                              \
        detail::reduce_all(#NAME, dst, src, npuemu::asc::vec::Mask::count((uint64_t)mask), repeatTimes, srcRepStride, calIndex,  \
                           detail::OP);                                                                                          \
    }                                                                                                                            \
    template <typename T>                                                                                                        \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, const uint64_t mask[],    \
                     const int32_t repeatTimes, const int32_t srcRepStride, bool calIndex = false) {                             \
        (void)work;                                                                                                              \
        detail::reduce_all(#NAME, dst, src, npuemu::asc::vec::Mask::of(mask), repeatTimes, srcRepStride, calIndex, detail::OP); \
    }

NPUEMU_ASC_REDUCE(ReduceSum, RED_SUM)
NPUEMU_ASC_REDUCE(ReduceMax, RED_MAX)
NPUEMU_ASC_REDUCE(ReduceMin, RED_MIN)
#undef NPUEMU_ASC_REDUCE

/* BlockReduce: each 32-byte block of each repeat reduced to one element;
 * repeat r writes 8 results at dst + r * dstRepStride * 8. */
#define NPUEMU_ASC_BLOCKRED(NAME, OP)                                                                                            \
    template <typename T, bool isSetMask = true>                                                                                 \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTimes, const int32_t mask,        \
                     const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride) {                       \
        uint64_t m[2] = {0, 0};                                                                                                  \
        for (int32_t e = 0; e < mask && e < 128; e++) m[e >> 6] |= 1ull << (e & 63);                                             \
        NAME<T, isSetMask>(dst, src, repeatTimes, m, dstRepStride, srcBlkStride, srcRepStride);                                  \
    }                                                                                                                            \
    template <typename T, bool isSetMask = true>                                                                                 \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTimes, const uint64_t mask[],     \
                     const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride) {                       \
        using namespace npuemu::asc::vec;                                                                                        \
        Mask k = detail::mask_plain<T, isSetMask>(Mask::of(mask), #NAME);                                                        \
        Strides s;                                                                                                               \
        s.blk[1] = (uint32_t)srcBlkStride;                                                                                       \
        s.rep[1] = (uint32_t)srcRepStride;                                                                                       \
        check_operand(src, span_bytes<T>(s, 1, (uint32_t)repeatTimes), #NAME);                                                   \
        constexpr uint32_t pb = 32 / sizeof(T);                                                                                  \
        for (int32_t r = 0; r < repeatTimes; r++)                                                                                \
            for (uint32_t b = 0; b < 8; b++) {                                                                                   \
                detail::W<T> acc = 0;                                                                                            \
                bool first = true;                                                                                               \
                for (uint32_t i = 0; i < pb; i++) {                                                                              \
                    uint32_t e = b * pb + i;                                                                                     \
                    if (!k.on(e)) continue;                                                                                      \
                    detail::W<T> v = static_cast<detail::W<T>>(src.ptr_[at<T>(s, 1, (uint32_t)r, e)]);                           \
                    if (first) {                                                                                                 \
                        acc = v;                                                                                                 \
                        first = false;                                                                                           \
                    } else if (detail::OP == detail::RED_SUM) {                                                                  \
                        acc = acc + v;                                                                                           \
                    } else if ((detail::OP == detail::RED_MAX && v > acc) || (detail::OP == detail::RED_MIN && v < acc)) {       \
                        acc = v;                                                                                                 \
                    }                                                                                                            \
                }                                                                                                                \
                dst.ptr_[(size_t)r * dstRepStride * 8 + b] = static_cast<T>(acc);                                                \
            }                                                                                                                    \
        charge_v<T>((uint64_t)repeatTimes * (256 / sizeof(T)));                                                                  \
    }

NPUEMU_ASC_BLOCKRED(BlockReduceSum, RED_SUM)
NPUEMU_ASC_BLOCKRED(BlockReduceMax, RED_MAX)
NPUEMU_ASC_BLOCKRED(BlockReduceMin, RED_MIN)
#undef NPUEMU_ASC_BLOCKRED

/* GatherMask: the elements of src0 whose pattern bit is set, packed into
 * dst; rsvdCnt receives how many. reduceMode true: the first mask elements
 * of each repeat are considered; false: the whole 256-byte repeat. The
 * pattern is a tensor (one bit per element, pattern words of the element's
 * width) or a built-in pattern 1..7. */
namespace detail {
inline bool builtin_pattern(uint8_t p, uint32_t e) {
    switch (p) {
    case 1: return e % 2 == 0;  /* 0101...: even elements */
    case 2: return e % 2 == 1;  /* odd elements */
    case 3: return e % 4 == 0;
    case 4: return e % 4 == 1;
    case 5: return e % 4 == 2;
    case 6: return e % 4 == 3;
    case 7: return true;
    default: return false;
    }
}
template <typename T, typename Pat>
inline void gather_mask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, Pat bit, bool reduceMode, uint32_t mask, const GatherMaskParams &p,
                        uint64_t &rsvdCnt) {
    using namespace npuemu::asc::vec;
    const char *api = "GatherMask";
    constexpr uint32_t per = 256 / sizeof(T);
    uint32_t n = reduceMode ? mask : per;
    if (reduceMode && (mask == 0 || mask > per * 255)) npuemu::asc::fault(api, "mask %u out of range (rule: vector mask range)", mask);
    Strides s;
    s.blk[1] = p.src0BlockStride;
    s.rep[1] = p.src0RepeatStride;
    uint32_t repeat = p.repeatTimes ? p.repeatTimes : 1;
    check_operand(src0, span_bytes<T>(s, 1, repeat), api);
    uint64_t out = 0;
    for (uint32_t r = 0; r < repeat; r++)
        for (uint32_t e = 0; e < n && e < per; e++)
            if (bit(r, e)) dst.ptr_[out++] = src0.ptr_[at<T>(s, 1, r, e)];
    rsvdCnt = out;
    charge_v<T>((uint64_t)repeat * per);
}
} // namespace detail

template <typename T, typename U, GatherMaskMode mode = GatherMaskMode::VERSION_V1>
inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<U> &src1Pattern, const bool reduceMode,
                       const uint32_t mask, const GatherMaskParams &p, uint64_t &rsvdCnt) {
    constexpr uint32_t wbits = sizeof(U) * 8;
    const U *pat = src1Pattern.ptr_;
    uint32_t rstride = (uint32_t)p.src1RepeatStride * 32 / sizeof(U);
    detail::gather_mask(dst, src0, [&](uint32_t r, uint32_t e) { return ((pat[r * rstride + e / wbits] >> (e % wbits)) & 1) != 0; }, reduceMode,
                        mask, p, rsvdCnt);
}
template <typename T, GatherMaskMode mode = GatherMaskMode::VERSION_V1>
inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const uint8_t src1Pattern, const bool reduceMode, const uint32_t mask,
                       const GatherMaskParams &p, uint64_t &rsvdCnt) {
    detail::gather_mask(dst, src0, [&](uint32_t, uint32_t e) { return detail::builtin_pattern(src1Pattern, e); }, reduceMode, mask, p, rsvdCnt);
}

/* Sort32: each repeat sorts 32 scores in descending order (ties: lower
 * index first) and writes (score, index) pairs of 8 bytes: float score +
 * uint32 index, or half score + 2 reserved bytes + uint32 index. */
template <typename T>
inline void Sort32(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<uint32_t> &src1, const int32_t repeatTimes) {
    const char *api = "Sort32";
    npuemu::asc::vec::check_operand(src0, (uint64_t)repeatTimes * 32 * sizeof(T), api);
    npuemu::asc::vec::check_operand(src1, (uint64_t)repeatTimes * 32 * 4, api);
    npuemu::asc::vec::check_operand(dst, (uint64_t)repeatTimes * 32 * 8, api);
    for (int32_t r = 0; r < repeatTimes; r++) {
        const T *sc = src0.ptr_ + r * 32;
        const uint32_t *ix = src1.ptr_ + r * 32;
        uint8_t order[32];
        for (int i = 0; i < 32; i++) order[i] = (uint8_t)i;
        for (int i = 1; i < 32; i++) { /* stable insertion sort, descending */
            uint8_t v = order[i];
            int j = i;
            while (j > 0 && (float)sc[order[j - 1]] < (float)sc[v]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = v;
        }
        uint8_t *out = reinterpret_cast<uint8_t *>(dst.ptr_) + (size_t)r * 32 * 8;
        for (int i = 0; i < 32; i++) {
            std::memset(out + i * 8, 0, 8);
            std::memcpy(out + i * 8, &sc[order[i]], sizeof(T));
            std::memcpy(out + i * 8 + 4, &ix[order[i]], 4);
        }
    }
    npuemu::asc::vec::charge_v<T>((uint64_t)repeatTimes * 32 * 8);
}

/* Brcb: each repeat broadcasts 8 elements of src, each into one 32-byte
 * datablock of dst (blocks dstBlkStride apart, repeats dstRepStride
 * blocks apart). */
struct BrcbRepeatParams {
    uint16_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;
    BrcbRepeatParams() = default;
    BrcbRepeatParams(uint16_t b, uint16_t r) : dstBlkStride(b), dstRepStride(r) {}
};
template <typename T>
inline void Brcb(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint8_t repeatTimes, const BrcbRepeatParams &p) {
    using namespace npuemu::asc::vec;
    const char *api = "Brcb";
    constexpr uint32_t pb = 32 / sizeof(T);
    check_operand(src, (uint64_t)repeatTimes * 8 * sizeof(T), api);
    if (repeatTimes > 0) check_operand(dst, ((uint64_t)(repeatTimes - 1) * p.dstRepStride + 7ull * p.dstBlkStride + 1) * 32, api);
    for (uint32_t r = 0; r < repeatTimes; r++)
        for (uint32_t i = 0; i < 8; i++)
            for (uint32_t k = 0; k < pb; k++) dst.ptr_[((size_t)r * p.dstRepStride + (size_t)i * p.dstBlkStride) * pb + k] = src.ptr_[r * 8 + i];
    charge_v<T>((uint64_t)repeatTimes * (256 / sizeof(T)));
}

/* Gather: dst[i] = the element at byte offset srcBaseAddr + srcOffset[i]
 * of src. */
template <typename T>
inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr,
                   const uint32_t count) {
    using namespace npuemu::asc::vec;
    const char *api = "Gather";
    check_operand(dst, (uint64_t)count * sizeof(T), api);
    check_operand(srcOffset, (uint64_t)count * 4, api);
    for (uint32_t i = 0; i < count; i++) {
        uint64_t off = (uint64_t)srcBaseAddr + srcOffset.ptr_[i];
        if (off % sizeof(T) != 0 || off + sizeof(T) > src.cap_) {
            npuemu::asc::fault(api, "offset %llu of element %u is unaligned or past the source's %u bytes (rule: local memory capacity)",
                               (unsigned long long)off, i, src.cap_);
        }
        std::memcpy(&dst.ptr_[i], reinterpret_cast<const uint8_t *>(src.ptr_) + off, sizeof(T));
    }
    charge_v<T>((uint64_t)count * 8); /* a gather reads one element per lane: ~8x a contiguous read */
}

/* Transpose (basic form): one 16 x 16 matrix of 2-byte elements. */
template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src) {
    static_assert(sizeof(T) == 2, "the basic Transpose takes 16 x 16 two-byte elements");
    using namespace npuemu::asc::vec;
    check_operand(dst, 512, "Transpose");
    check_operand(src, 512, "Transpose");
    T tmp[256];
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) tmp[j * 16 + i] = src.ptr_[i * 16 + j];
    std::memcpy(dst.ptr_, tmp, sizeof tmp);
    charge_v<T>(256);
}

/* CreateVecIndex: dst[i] = firstValue + i. */
template <typename T>
inline void CreateVecIndex(const LocalTensor<T> &dst, const T &firstValue, uint32_t count) {
    npuemu::asc::vec::check_operand(dst, (uint64_t)count * sizeof(T), "CreateVecIndex");
    for (uint32_t i = 0; i < count; i++) dst.ptr_[i] = static_cast<T>((float)firstValue + (float)i);
    npuemu::asc::vec::charge_v<T>(count);
}

/* The data cache between the scalar unit and GM does not exist here: the
 * calls are accepted and do nothing. */
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <typename T, CacheLine entire = CacheLine::SINGLE_CACHE_LINE, DcciDst dst = DcciDst::CACHELINE_OUT>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &) {}
template <typename T, CacheLine entire = CacheLine::SINGLE_CACHE_LINE, DcciDst dst = DcciDst::CACHELINE_OUT>
inline void DataCacheCleanAndInvalid(const LocalTensor<T> &) {}

} // namespace AscendC

#endif
