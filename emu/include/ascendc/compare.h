// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/compare.h: Compare, CompareScalar (Compares), Select and the
 * CmpMask register, in their count form, their mask / repeat / stride
 * forms and their register forms.
 *
 * Bit layout of a compare result (documented for vcmpv / Compare): one bit
 * per element, element i at bit i % 8 of byte i / 8 of dst, whatever dst's
 * element type (uint8_t, uint16_t, ...). With repeats, repeat r writes its
 * 256 / sizeof(T) bits right after those of repeat r - 1 (16 bytes a
 * repeat for half, 8 for float): dst's block and repeat strides are not
 * used. Bits of elements the mask disables are left as they were (the
 * rule of every mask form here; the documentation does not say).
 *
 * Select picks src0 where the bit is 1, src1 (a tensor or a scalar) where
 * it is 0; in the mask forms only the enabled elements of dst are written.
 * Which bit: VSEL_CMPMASK_SPR (mode 0) takes the first 256 / sizeof(T)
 * bits of selMask for every repeat (in the count form: for every 256
 * bytes); VSEL_TENSOR_SCALAR_MODE (1) and VSEL_TENSOR_TENSOR_MODE (2) go
 * on through selMask, repeat after repeat. */
#ifndef NPUEMU_ASCENDC_COMPARE_H
#define NPUEMU_ASCENDC_COMPARE_H

#include "ascendc/vector.h"

namespace AscendC {

namespace detail {
template <typename W>
inline bool cmp(W a, W b, CMPMODE m) {
    switch (m) {
    case CMPMODE::LT: return a < b;
    case CMPMODE::GT: return a > b;
    case CMPMODE::EQ: return a == b;
    case CMPMODE::LE: return a <= b;
    case CMPMODE::GE: return a >= b;
    default: return a != b;
    }
}
inline void set_bit(uint8_t *bits, size_t i, bool v) {
    uint8_t b = (uint8_t)(1u << (i % 8));
    bits[i / 8] = v ? (uint8_t)(bits[i / 8] | b) : (uint8_t)(bits[i / 8] & ~b);
}
inline bool get_bit(const uint8_t *bits, size_t i) { return (bits[i / 8] >> (i % 8)) & 1; }

/* Compare with repeats into dst bits; rhs(r, e) gives the right operand
 * (a tensor element or the scalar). */
template <typename T, typename U, typename R>
inline void compare_rep(const char *api, const LocalTensor<U> &dst, const LocalTensor<T> &src0, CMPMODE m, const MaskUse &u, uint8_t repeatTimes,
                        const npuemu::asc::vec::Strides &s, R rhs) {
    using namespace npuemu::asc::vec;
    constexpr uint32_t per = 256 / sizeof(T);
    uint32_t repeat = repeats_of<T>(u, repeatTimes, api);
    check_operand(src0, span_bytes<T>(s, 1, repeat), api);
    check_operand(dst, (uint64_t)repeat * per / 8, api);
    uint8_t *bits = reinterpret_cast<uint8_t *>(dst.ptr_);
    each_repeat<T>(u, repeat, [&](uint32_t r0, const Mask &k, uint32_t n) {
        for (uint32_t r = r0; r < r0 + n; r++)
            for (uint32_t e = 0; e < per; e++)
                if (k.on(e)) set_bit(bits, (size_t)r * per + e, cmp<W<T>>(static_cast<W<T>>(src0.ptr_[at<T>(s, 1, r, e)]), rhs(r, e), m));
    });
    charge_v<T>((uint64_t)repeat * per);
}

/* The selMask bit of element e of repeat r. */
inline size_t sel_bit(SELMODE mode, uint32_t per, uint32_t r, uint32_t e) { return mode == SELMODE::VSEL_CMPMASK_SPR ? e : (size_t)r * per + e; }

/* Select with repeats; rhs(r, e) gives src1's element or the scalar. */
template <typename T, typename R>
inline void select_rep(const char *api, const LocalTensor<T> &dst, const uint8_t *sel, SELMODE mode, const LocalTensor<T> &src0, const MaskUse &u,
                       uint8_t repeatTimes, const npuemu::asc::vec::Strides &s, R rhs) {
    using namespace npuemu::asc::vec;
    constexpr uint32_t per = 256 / sizeof(T);
    uint32_t repeat = repeats_of<T>(u, repeatTimes, api);
    check_operand(dst, span_bytes<T>(s, 0, repeat), api);
    check_operand(src0, span_bytes<T>(s, 1, repeat), api);
    each_repeat<T>(u, repeat, [&](uint32_t r0, const Mask &k, uint32_t n) {
        for (uint32_t r = r0; r < r0 + n; r++)
            for (uint32_t e = 0; e < per; e++)
                if (k.on(e)) dst.ptr_[at<T>(s, 0, r, e)] = get_bit(sel, sel_bit(mode, per, r, e)) ? src0.ptr_[at<T>(s, 1, r, e)] : rhs(r, e);
    });
    charge_v<T>((uint64_t)repeat * per);
}

/* The selMask bytes a Select reads. */
template <typename T>
inline uint64_t sel_bytes(SELMODE mode, uint64_t elems) {
    constexpr uint32_t per = 256 / sizeof(T);
    if (mode == SELMODE::VSEL_CMPMASK_SPR) return per / 8;
    return (elems + 7) / 8;
}
} // namespace detail

/* Compare, count form: count bits into dst. */
template <typename T, typename U>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode, uint32_t count) {
    const char *api = "Compare";
    npuemu::asc::vec::check_operand(src0, (uint64_t)count * sizeof(T), api);
    npuemu::asc::vec::check_operand(src1, (uint64_t)count * sizeof(T), api);
    npuemu::asc::vec::check_operand(dst, (count + 7) / 8, api);
    uint8_t *bits = reinterpret_cast<uint8_t *>(dst.ptr_);
    std::memset(bits, 0, (count + 7) / 8);
    for (uint32_t i = 0; i < count; i++)
        if (detail::cmp<detail::W<T>>(src0.ptr_[i], src1.ptr_[i], mode)) bits[i / 8] |= (uint8_t)(1u << (i % 8));
    npuemu::asc::vec::charge_v<T>(count);
}
/* Compare, mask / repeat forms writing dst (layout: see the top). */
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode, const uint64_t mask[],
                    uint8_t repeatTimes, const BinaryRepeatParams &p) {
    using namespace npuemu::asc::vec;
    Strides s = detail::strides(p);
    detail::MaskUse u = detail::mask_use<T, isSetMask>(Mask::of(mask));
    check_operand(src1, span_bytes<T>(s, 2, detail::repeats_of<T>(u, repeatTimes, "Compare")), "Compare");
    detail::compare_rep("Compare", dst, src0, mode, u, repeatTimes, s, [&](uint32_t r, uint32_t e) { return static_cast<detail::W<T>>(src1.ptr_[at<T>(s, 2, r, e)]); });
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode, const uint64_t mask, uint8_t repeatTimes,
                    const BinaryRepeatParams &p) {
    using namespace npuemu::asc::vec;
    Strides s = detail::strides(p);
    detail::MaskUse u = detail::mask_use<T, isSetMask>(Mask::count(mask));
    check_operand(src1, span_bytes<T>(s, 2, detail::repeats_of<T>(u, repeatTimes, "Compare")), "Compare");
    detail::compare_rep("Compare", dst, src0, mode, u, repeatTimes, s, [&](uint32_t r, uint32_t e) { return static_cast<detail::W<T>>(src1.ptr_[at<T>(s, 2, r, e)]); });
}

/* CompareScalar (the newer documentation calls it Compares). */
template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1, CMPMODE mode, uint32_t count) {
    const char *api = "CompareScalar";
    npuemu::asc::vec::check_operand(src0, (uint64_t)count * sizeof(T), api);
    npuemu::asc::vec::check_operand(dst, (count + 7) / 8, api);
    uint8_t *bits = reinterpret_cast<uint8_t *>(dst.ptr_);
    std::memset(bits, 0, (count + 7) / 8);
    for (uint32_t i = 0; i < count; i++)
        if (detail::cmp<detail::W<T>>(src0.ptr_[i], src1, mode)) bits[i / 8] |= (uint8_t)(1u << (i % 8));
    npuemu::asc::vec::charge_v<T>(count);
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1, CMPMODE mode, const uint64_t mask[], uint8_t repeatTimes,
                          const UnaryRepeatParams &p) {
    detail::W<T> v = static_cast<detail::W<T>>(src1);
    detail::compare_rep("CompareScalar", dst, src0, mode, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::of(mask)), repeatTimes, detail::strides(p),
                        [v](uint32_t, uint32_t) { return v; });
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1, CMPMODE mode, const uint64_t mask, uint8_t repeatTimes,
                          const UnaryRepeatParams &p) {
    detail::W<T> v = static_cast<detail::W<T>>(src1);
    detail::compare_rep("CompareScalar", dst, src0, mode, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::count(mask)), repeatTimes, detail::strides(p),
                        [v](uint32_t, uint32_t) { return v; });
}
template <typename T, typename U>
inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1, CMPMODE mode, uint32_t count) {
    CompareScalar(dst, src0, src1, mode, count);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1, CMPMODE mode, const uint64_t mask[], uint8_t repeatTimes,
                     const UnaryRepeatParams &p) {
    CompareScalar<T, U, isSetMask>(dst, src0, src1, mode, mask, repeatTimes, p);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1, CMPMODE mode, const uint64_t mask, uint8_t repeatTimes,
                     const UnaryRepeatParams &p) {
    CompareScalar<T, U, isSetMask>(dst, src0, src1, mode, mask, repeatTimes, p);
}

/* Compare, register form: one repeat (256 bytes) of src0 and src1, the
 * result bits of the enabled elements into the CmpMask register (the
 * others keep their bits). */
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode, const uint64_t mask[], const BinaryRepeatParams &p) {
    using namespace npuemu::asc::vec;
    const char *api = "Compare";
    detail::MaskUse u = detail::mask_use<T, isSetMask>(Mask::of(mask));
    if (u.counter) u = detail::MaskUse{Mask::count(u.total < 256 / sizeof(T) ? u.total : 256 / sizeof(T)), false, 0};
    const Mask &k = u.k;
    check_mask<T>(k, api);
    Strides s = detail::strides(p);
    check_operand(src0, span_bytes<T>(s, 1, 1), api);
    check_operand(src1, span_bytes<T>(s, 2, 1), api);
    uint8_t *reg = npuemu::asc::blk().cmpmask;
    constexpr uint32_t per = 256 / sizeof(T);
    for (uint32_t e = 0; e < per && e < 128; e++) {
        if (!k.on(e)) continue;
        detail::set_bit(reg, e, detail::cmp<detail::W<T>>(src0.ptr_[at<T>(s, 1, 0, e)], src1.ptr_[at<T>(s, 2, 0, e)], mode));
    }
    charge_v<T>(per);
}
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode, const uint64_t mask, const BinaryRepeatParams &p) {
    uint64_t bits[2] = {0, 0};
    if (isSetMask) {
        npuemu::asc::vec::check_mask<T>(npuemu::asc::vec::Mask::count(mask), "Compare");
        for (uint64_t e = 0; e < mask && e < 128; e++) bits[e >> 6] |= 1ull << (e & 63);
    }
    Compare<T, isSetMask>(src0, src1, mode, bits, p);
}
template <typename T>
inline void GetCmpMask(const LocalTensor<T> &dst) {
    npuemu::asc::vec::check_operand(dst, 16, "GetCmpMask");
    std::memcpy(dst.ptr_, npuemu::asc::blk().cmpmask, 16);
}
template <typename T>
inline void SetCmpMask(const LocalTensor<T> &src) {
    npuemu::asc::vec::check_operand(src, 16, "SetCmpMask");
    std::memcpy(npuemu::asc::blk().cmpmask, src.ptr_, 16);
}

/* Select, count form. */
template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, const LocalTensor<T> &src1, SELMODE mode,
                   uint32_t count) {
    const char *api = "Select";
    if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) npuemu::asc::fault(api, "VSEL_TENSOR_SCALAR_MODE takes a scalar src1 (rule: Select mode)");
    npuemu::asc::vec::check_operand(dst, (uint64_t)count * sizeof(T), api);
    npuemu::asc::vec::check_operand(src0, (uint64_t)count * sizeof(T), api);
    npuemu::asc::vec::check_operand(src1, (uint64_t)count * sizeof(T), api);
    npuemu::asc::vec::check_operand(selMask, detail::sel_bytes<T>(mode, count), api);
    constexpr uint32_t per = 256 / sizeof(T);
    const uint8_t *bits = reinterpret_cast<const uint8_t *>(selMask.ptr_);
    for (uint32_t i = 0; i < count; i++) dst.ptr_[i] = detail::get_bit(bits, detail::sel_bit(mode, per, i / per, i % per)) ? src0.ptr_[i] : src1.ptr_[i];
    npuemu::asc::vec::charge_v<T>(count);
}
template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, T src1, SELMODE mode, uint32_t count) {
    const char *api = "Select";
    if (mode != SELMODE::VSEL_TENSOR_SCALAR_MODE) npuemu::asc::fault(api, "a scalar src1 takes VSEL_TENSOR_SCALAR_MODE (rule: Select mode)");
    npuemu::asc::vec::check_operand(dst, (uint64_t)count * sizeof(T), api);
    npuemu::asc::vec::check_operand(src0, (uint64_t)count * sizeof(T), api);
    npuemu::asc::vec::check_operand(selMask, (count + 7) / 8, api);
    const uint8_t *bits = reinterpret_cast<const uint8_t *>(selMask.ptr_);
    for (uint32_t i = 0; i < count; i++) dst.ptr_[i] = detail::get_bit(bits, i) ? src0.ptr_[i] : src1;
    npuemu::asc::vec::charge_v<T>(count);
}

/* Select, mask / repeat forms. */
namespace detail {
template <typename T, typename U>
inline void select_tt(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, const LocalTensor<T> &src1, SELMODE mode,
                      const MaskUse &u, uint8_t repeatTimes, const BinaryRepeatParams &p) {
    using namespace npuemu::asc::vec;
    const char *api = "Select";
    if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) npuemu::asc::fault(api, "VSEL_TENSOR_SCALAR_MODE takes a scalar src1 (rule: Select mode)");
    Strides s = strides(p);
    uint32_t repeat = repeats_of<T>(u, repeatTimes, api);
    check_operand(src1, span_bytes<T>(s, 2, repeat), api);
    check_operand(selMask, sel_bytes<T>(mode, (uint64_t)repeat * (256 / sizeof(T))), api);
    select_rep(api, dst, reinterpret_cast<const uint8_t *>(selMask.ptr_), mode, src0, u, repeatTimes, s,
               [&](uint32_t r, uint32_t e) { return src1.ptr_[at<T>(s, 2, r, e)]; });
}
template <typename T, typename U>
inline void select_ts(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, T src1, SELMODE mode, const MaskUse &u,
                      uint8_t repeatTimes, const BinaryRepeatParams &p) {
    using namespace npuemu::asc::vec;
    const char *api = "Select";
    if (mode != SELMODE::VSEL_TENSOR_SCALAR_MODE) npuemu::asc::fault(api, "a scalar src1 takes VSEL_TENSOR_SCALAR_MODE (rule: Select mode)");
    uint32_t repeat = repeats_of<T>(u, repeatTimes, api);
    check_operand(selMask, sel_bytes<T>(mode, (uint64_t)repeat * (256 / sizeof(T))), api);
    select_rep(api, dst, reinterpret_cast<const uint8_t *>(selMask.ptr_), mode, src0, u, repeatTimes, strides(p), [src1](uint32_t, uint32_t) { return src1; });
}
} // namespace detail
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, const LocalTensor<T> &src1, SELMODE mode,
                   const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams &p) {
    detail::select_tt(dst, selMask, src0, src1, mode, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::of(mask)), repeatTimes, p);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, const LocalTensor<T> &src1, SELMODE mode,
                   const uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams &p) {
    detail::select_tt(dst, selMask, src0, src1, mode, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::count(mask)), repeatTimes, p);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, T src1, SELMODE mode, const uint64_t mask[],
                   uint8_t repeatTimes, const BinaryRepeatParams &p) {
    detail::select_ts(dst, selMask, src0, src1, mode, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::of(mask)), repeatTimes, p);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, T src1, SELMODE mode, const uint64_t mask,
                   uint8_t repeatTimes, const BinaryRepeatParams &p) {
    detail::select_ts(dst, selMask, src0, src1, mode, detail::mask_use<T, isSetMask>(npuemu::asc::vec::Mask::count(mask)), repeatTimes, p);
}

/* Select, register forms (no mask argument: the mask register set by
 * SetVectorMask is used). Modes 0 and 2: the CmpMask register holds the
 * selection bits (mode 0, SetCmpMask(selMask)) or the address of selMask
 * in its first 8 bytes (mode 2: a host pointer, as the CPU-debug idiom
 * stores it, or a UB byte offset, as the device idiom does). */
namespace detail {
inline const uint8_t *sel_of_register(SELMODE mode, uint64_t bytes) {
    const char *api = "Select";
    uint8_t *reg = npuemu::asc::blk().cmpmask;
    if (mode == SELMODE::VSEL_CMPMASK_SPR) return reg;
    uint64_t v;
    std::memcpy(&v, reg, sizeof v);
    uint32_t off = 0;
    const uint8_t *ub = npuemu::asc::mem_base(Hardware::UB);
    uint32_t size = npuemu::asc::mem_size(Hardware::UB);
    const uint8_t *p = reinterpret_cast<const uint8_t *>((uintptr_t)v);
    if (npuemu::asc::mem_of(p, &off) >= 0) return p;
    /* the device idiom keeps 32 bits of GetPhyAddr(): our UB address
     * truncated, or a UB offset */
    p = reinterpret_cast<const uint8_t *>(((uintptr_t)ub & ~(uintptr_t)0xffffffffu) | (uintptr_t)(uint32_t)v);
    if (p >= ub && p < ub + size) {
        off = (uint32_t)(p - ub);
    } else {
        off = (uint32_t)v;
    }
    if ((uint64_t)off + bytes > size) {
        npuemu::asc::fault(api, "the CmpMask register holds %#llx: not the address of a selMask in UB (rule: local memory capacity)", (unsigned long long)v);
    }
    return ub + off;
}
} // namespace detail
template <typename T, SELMODE selMode>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, uint8_t repeatTimes, const BinaryRepeatParams &p) {
    using namespace npuemu::asc::vec;
    const char *api = "Select";
    if (selMode == SELMODE::VSEL_TENSOR_SCALAR_MODE) npuemu::asc::fault(api, "VSEL_TENSOR_SCALAR_MODE takes selMask and no src1 (rule: Select mode)");
    Strides s = detail::strides(p);
    detail::MaskUse u = detail::mask_use<T, false>(Mask{});
    uint32_t repeat = detail::repeats_of<T>(u, repeatTimes, api);
    check_operand(src1, span_bytes<T>(s, 2, repeat), api);
    const uint8_t *sel = detail::sel_of_register(selMode, detail::sel_bytes<T>(selMode, (uint64_t)repeat * (256 / sizeof(T))));
    detail::select_rep(api, dst, sel, selMode, src0, u, repeatTimes, s, [&](uint32_t r, uint32_t e) { return src1.ptr_[at<T>(s, 2, r, e)]; });
}
/* Mode 1, register form: the scalar is the first element of the tensor
 * given to SetCmpMask. */
template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, uint8_t repeatTimes, const BinaryRepeatParams &p) {
    using namespace npuemu::asc::vec;
    const char *api = "Select";
    T scalar;
    std::memcpy(&scalar, npuemu::asc::blk().cmpmask, sizeof(T));
    detail::MaskUse u = detail::mask_use<T, false>(Mask{});
    uint32_t repeat = detail::repeats_of<T>(u, repeatTimes, api);
    check_operand(selMask, (uint64_t)repeat * (256 / sizeof(T)) / 8, api);
    detail::select_rep(api, dst, reinterpret_cast<const uint8_t *>(selMask.ptr_), SELMODE::VSEL_TENSOR_SCALAR_MODE, src0, u, repeatTimes, detail::strides(p),
                       [scalar](uint32_t, uint32_t) { return scalar; });
}

} // namespace AscendC

#endif
