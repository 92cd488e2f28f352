// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/datacopy.h: data movement: DataCopy (GM <-> local, local <->
 * local, count and DataCopyParams forms), DataCopyPad, atomic modes.
 *
 * Rules (AI Core exceptions): the bytes DataCopy moves are a multiple of
 * 32 (DataCopyPad moves any length); the local address is aligned (32
 * bytes; 512 for L0A/L0B, 64 for L0C/BT); the local range stays inside its
 * memory; the GM range lies inside one device allocation.
 * Time: GM -> local on MTE2, local -> GM on MTE3, UB -> UB on V, L1 -> L0
 * on MTE1, at the SoC's bytes per cycle. */
#ifndef NPUEMU_ASCENDC_DATACOPY_H
#define NPUEMU_ASCENDC_DATACOPY_H

#include <mutex>

#include "ascendc/pipe.h"

namespace AscendC {

struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;  /* 32-byte blocks */
    uint16_t srcStride = 0; /* 32-byte blocks between blocks */
    uint16_t dstStride = 0;
    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t src, uint16_t dst) : blockCount(count), blockLen(len), srcStride(src), dstStride(dst) {}
};

struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;  /* bytes */
    uint32_t srcStride = 0; /* GM side: bytes; UB side: 32-byte blocks */
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() = default;
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src, uint32_t dst, uint32_t r) : blockCount(count), blockLen(len), srcStride(src), dstStride(dst), rsv(r) {}
};

template <typename T>
struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T(0);
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool pad, uint8_t l, uint8_t r, T v) : isPad(pad), leftPadding(l), rightPadding(r), paddingValue(v) {}
};

struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    DataCopyPadParams() = default;
    DataCopyPadParams(bool pad, uint8_t l, uint8_t r, uint64_t v) : isPad(pad), leftPadding(l), rightPadding(r), paddingValue(v) {}
};

struct DataCopyEnhancedParams {
    BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
    DeqScale deqScale = DeqScale::DEQ_NONE;
    uint64_t deqValue = 0;
    uint8_t sidStoreMode = 0;
    bool isRelu = false;
    pad_t padMode = pad_t::PAD_NONE;
    uint64_t padValue = 0;
    uint64_t deqTensorAddr = 0;
};

struct SliceInfo {
    uint32_t startIndex = 0;
    uint32_t endIndex = 0;
    uint32_t stride = 0;
    uint32_t burstLen = 0;
    uint32_t shapeValue = 0;
};

namespace detail {

inline std::mutex &atomic_mutex() {
    static std::mutex m;
    return m;
}

/* Checks a local range [t, t+bytes) for a copy: alignment of the start
 * and the end of its memory. */
template <typename T>
inline void check_local(const LocalTensor<T> &t, uint64_t bytes, const char *api, bool need_align = true) {
    using namespace npuemu::asc;
    uint32_t off = 0;
    int h = mem_of(t.ptr_, &off);
    if (h < 0) fault(api, "the local tensor is not in a local memory of this core (rule: local tensor of another core or uninitialised)");
    uint32_t al = mem_align((Hardware)h);
    if (need_align && off % al != 0) {
        fault(api, "local address %u in the %s is not %u-byte aligned (rule: %u-byte alignment)", off, mem_name((Hardware)h), al, al);
    }
    if ((uint64_t)off + bytes > blk().mem_size[h]) {
        fault(api, "local range [%u, %llu) runs past the end of the %u-byte %s (rule: local memory capacity)", off,
              (unsigned long long)(off + bytes), blk().mem_size[h], mem_name((Hardware)h));
    }
}

inline void check_len32(uint64_t bytes, const char *api) {
    if (bytes % 32 != 0) {
        npuemu::asc::fault(api, "%llu bytes is not a multiple of 32 bytes (rule: DataCopy length 32-byte aligned; use DataCopyPad)",
                           (unsigned long long)bytes);
    }
}

/* Streaming stores into GM: a copy of at least kStreamMin bytes into an
 * allocation of at least kStreamAlloc bytes goes around the host caches
 * (non-temporal stores): such a buffer does not stay in cache anyway, and
 * a plain store would first read each destination line from memory. */
constexpr uint64_t kStreamMin = 4096;
constexpr uint64_t kStreamAlloc = 16ull << 20;
inline bool gm_streams(const void *dst, uint64_t bytes) {
    if (bytes < kStreamMin) return false;
    npuemu::asc::Block &b = npuemu::asc::blk();
    uintptr_t a = (uintptr_t)dst;
    for (uint32_t i = 0; i < b.gm_n; i++)
        if (a >= b.gm_lo[i] && a < b.gm_hi[i]) return b.gm_hi[i] - b.gm_lo[i] >= kStreamAlloc;
    return false;
}
typedef long long v2di_ __attribute__((vector_size(16)));
__attribute__((noinline)) inline void copy_stream(uint8_t *d, const uint8_t *s, uint64_t n) {
    uint64_t head = (16 - ((uintptr_t)d & 15)) & 15;
    if (head > n) head = n;
    std::memcpy(d, s, head);
    d += head, s += head, n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        v2di_ x0, x1, x2, x3;
        std::memcpy(&x0, s, 16);
        std::memcpy(&x1, s + 16, 16);
        std::memcpy(&x2, s + 32, 16);
        std::memcpy(&x3, s + 48, 16);
        __builtin_ia32_movntdq(reinterpret_cast<v2di_ *>(d), x0);
        __builtin_ia32_movntdq(reinterpret_cast<v2di_ *>(d + 16), x1);
        __builtin_ia32_movntdq(reinterpret_cast<v2di_ *>(d + 32), x2);
        __builtin_ia32_movntdq(reinterpret_cast<v2di_ *>(d + 48), x3);
    }
    __builtin_ia32_sfence();
    std::memcpy(d, s, n);
}

/* Stores n elements into GM, honouring the atomic mode. */
template <typename T>
inline void gm_store(T *dst, const T *src, uint64_t n) {
    uint8_t op = npuemu::asc::blk().atomic_op;
    if (op == ATOMIC_NONE) {
        if (gm_streams(dst, n * sizeof(T))) {
            copy_stream(reinterpret_cast<uint8_t *>(dst), reinterpret_cast<const uint8_t *>(src), n * sizeof(T));
        } else {
            std::memcpy(dst, src, n * sizeof(T));
        }
        return;
    }
    if constexpr (npuemu::asc::is_int4<T>()) {
        npuemu::asc::fault("DataCopy(local->GM)", "atomic accumulation of int4b_t is not emulated by npuemu (SetAtomicNone before the copy)");
    } else {
        std::lock_guard<std::mutex> g(atomic_mutex());
        for (uint64_t i = 0; i < n; i++) {
            if (op == ATOMIC_SUM) {
                dst[i] = static_cast<T>(dst[i] + src[i]);
            } else if (op == ATOMIC_MAX) {
                dst[i] = src[i] > dst[i] ? src[i] : dst[i];
            } else {
                dst[i] = src[i] < dst[i] ? src[i] : dst[i];
            }
        }
    }
}

inline pipe_t local_pipe(TPosition dst, TPosition src) {
    using npuemu::asc::hw_of;
    npuemu::asc::Hardware d = hw_of(dst), s = hw_of(src);
    if (s == npuemu::asc::Hardware::L1 && (d == npuemu::asc::Hardware::L0A || d == npuemu::asc::Hardware::L0B || d == npuemu::asc::Hardware::BIAS)) return PIPE_MTE1;
    if (s == npuemu::asc::Hardware::L0C) return PIPE_FIX;
    if (s == npuemu::asc::Hardware::UB && d == npuemu::asc::Hardware::L1) return PIPE_MTE3;
    return PIPE_V;
}

} // namespace detail

} // namespace AscendC

/* The L1 -> BT (bias table) move counts 64-byte units: the cube helpers
 * (ascendc/cube.h) implement it. */
namespace npuemu {
namespace asc {
namespace cube {
template <typename T, typename U>
inline void copy_l1_to_bt(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &src, const AscendC::DataCopyParams &p);
} // namespace cube
} // namespace asc
} // namespace npuemu

namespace AscendC {

/* GM -> local, count elements. */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count) {
    const char *api = "DataCopy(GM->local)";
    uint64_t bytes = npuemu::asc::bytes_of<T>(count); /* int4b_t: two per byte */
    detail::check_len32(bytes, api);
    detail::check_local(dst, bytes, api);
    npuemu::asc::gm_check(src.ptr_, bytes, api, npuemu::asc::kGmRead);
    std::memcpy(dst.ptr_, src.ptr_, bytes);
    npuemu::asc::charge(PIPE_MTE2, npuemu::asc::copy_cycles(PIPE_MTE2, bytes));
}

/* local -> GM, count elements. */
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count) {
    const char *api = "DataCopy(local->GM)";
    uint64_t bytes = npuemu::asc::bytes_of<T>(count); /* int4b_t: two per byte */
    detail::check_len32(bytes, api);
    detail::check_local(src, bytes, api);
    npuemu::asc::gm_check(dst.ptr_, bytes, api, npuemu::asc::gm_store_mode());
    detail::gm_store(dst.ptr_, src.ptr_, npuemu::asc::is_int4<T>() ? bytes : count);
    npuemu::asc::charge(PIPE_MTE3, npuemu::asc::copy_cycles(PIPE_MTE3, bytes));
}

/* local -> local, count elements. */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count) {
    const char *api = "DataCopy(local->local)";
    uint64_t bytes = npuemu::asc::bytes_of<T>(count); /* int4b_t: two per byte */
    detail::check_len32(bytes, api);
    detail::check_local(dst, bytes, api);
    detail::check_local(src, bytes, api);
    std::memmove(dst.ptr_, src.ptr_, bytes);
    pipe_t p = detail::local_pipe(dst.pos_, src.pos_);
    npuemu::asc::charge(p, npuemu::asc::copy_cycles(p, bytes));
}

namespace detail {
/* The block form: blockCount blocks of blockLen 32-byte units, with gaps
 * of srcStride / dstStride units between them. */
inline void strided_copy(uint8_t *dst, const uint8_t *src, const DataCopyParams &p, uint32_t unit, bool to_gm, uint32_t esize,
                         void (*store)(uint8_t *, const uint8_t *, uint64_t)) {
    uint64_t len = (uint64_t)p.blockLen * unit;
    for (uint32_t i = 0; i < p.blockCount; i++) {
        const uint8_t *s = src + (uint64_t)i * (p.blockLen + p.srcStride) * unit;
        uint8_t *d = dst + (uint64_t)i * (p.blockLen + p.dstStride) * unit;
        if (to_gm && store) {
            store(d, s, len / esize);
        } else {
            std::memcpy(d, s, len);
        }
    }
}
template <typename T>
void store_fn(uint8_t *d, const uint8_t *s, uint64_t n) {
    gm_store(reinterpret_cast<T *>(d), reinterpret_cast<const T *>(s), n);
}
inline uint64_t span(const DataCopyParams &p, bool src, uint32_t unit) {
    if (p.blockCount == 0) return 0;
    uint32_t stride = src ? p.srcStride : p.dstStride;
    return ((uint64_t)(p.blockCount - 1) * (p.blockLen + stride) + p.blockLen) * unit;
}
} // namespace detail

template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p) {
    const char *api = "DataCopy(GM->local, DataCopyParams)";
    detail::check_local(dst, detail::span(p, false, 32), api);
    npuemu::asc::gm_check_rows(src.ptr_, (uint64_t)p.blockLen * 32, ((uint64_t)p.blockLen + p.srcStride) * 32, p.blockCount, api,
                               npuemu::asc::kGmRead);
    detail::strided_copy(reinterpret_cast<uint8_t *>(dst.ptr_), reinterpret_cast<const uint8_t *>(src.ptr_), p, 32, false, sizeof(T), nullptr);
    npuemu::asc::charge(PIPE_MTE2, npuemu::asc::copy_cycles(PIPE_MTE2, (uint64_t)p.blockCount * p.blockLen * 32));
}

template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p) {
    const char *api = "DataCopy(local->GM, DataCopyParams)";
    detail::check_local(src, detail::span(p, true, 32), api);
    npuemu::asc::gm_check_rows(dst.ptr_, (uint64_t)p.blockLen * 32, ((uint64_t)p.blockLen + p.dstStride) * 32, p.blockCount, api,
                               npuemu::asc::gm_store_mode());
    detail::strided_copy(reinterpret_cast<uint8_t *>(dst.ptr_), reinterpret_cast<const uint8_t *>(src.ptr_), p, 32, true, sizeof(T), detail::store_fn<T>);
    npuemu::asc::charge(PIPE_MTE3, npuemu::asc::copy_cycles(PIPE_MTE3, (uint64_t)p.blockCount * p.blockLen * 32));
}

template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p) {
    const char *api = "DataCopy(local->local, DataCopyParams)";
    if (npuemu::asc::hw_of(dst.pos_) == npuemu::asc::Hardware::BIAS) {
        npuemu::asc::cube::copy_l1_to_bt(dst, src, p);
        return;
    }
    detail::check_local(dst, detail::span(p, false, 32), api);
    detail::check_local(src, detail::span(p, true, 32), api);
    detail::strided_copy(reinterpret_cast<uint8_t *>(dst.ptr_), reinterpret_cast<const uint8_t *>(src.ptr_), p, 32, false, sizeof(T), nullptr);
    pipe_t pp = detail::local_pipe(dst.pos_, src.pos_);
    npuemu::asc::charge(pp, npuemu::asc::copy_cycles(pp, (uint64_t)p.blockCount * p.blockLen * 32));
}

/* DataCopy with DataCopyEnhancedParams. The documentation: the enhanced
 * parameters take effect only on the CO1 -> CO2 path of the Atlas
 * inference (310P) AI Core; on the other products and paths the call is
 * supported and equals the basic DataCopy. npuemu models the A2 family
 * and provides no CO1 -> CO2 path, so every block mode (and deqScale,
 * isRelu, padMode, ...) is accepted and the copy is the basic one. */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p, const DataCopyEnhancedParams &) {
    DataCopy(dst, src, p);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p, const DataCopyEnhancedParams &) {
    DataCopy(dst, src, p);
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p, const DataCopyEnhancedParams &) {
    DataCopy(dst, src, p);
}

/* DataCopyPad: any byte length. GM -> UB: blockCount blocks of blockLen
 * bytes, GM gaps srcStride bytes, each block padded in UB to 32 bytes
 * (dstStride 32-byte blocks between them), the padding filled with
 * paddingValue when isPad (left/right padding in elements). */
template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &p, const DataCopyPadExtParams<T> &pad) {
    const char *api = "DataCopyPad(GM->local)";
    uint64_t dblk = ((uint64_t)pad.leftPadding * sizeof(T) + p.blockLen + pad.rightPadding * sizeof(T) + 31) / 32 * 32;
    uint64_t dspan = p.blockCount ? (p.blockCount - 1) * (dblk + (uint64_t)p.dstStride * 32) + dblk : 0;
    detail::check_local(dst, dspan, api);
    npuemu::asc::gm_check_rows(src.ptr_, p.blockLen, (uint64_t)p.blockLen + p.srcStride, p.blockCount, api, npuemu::asc::kGmRead);
    const uint8_t *s = reinterpret_cast<const uint8_t *>(src.ptr_);
    uint8_t *d = reinterpret_cast<uint8_t *>(dst.ptr_);
    for (uint32_t i = 0; i < p.blockCount; i++) {
        uint8_t *db = d + i * (dblk + (uint64_t)p.dstStride * 32);
        T *dt = reinterpret_cast<T *>(db);
        if (pad.isPad)
            for (uint32_t k = 0; k < pad.leftPadding; k++) dt[k] = pad.paddingValue;
        std::memcpy(db + pad.leftPadding * sizeof(T), s + (uint64_t)i * (p.blockLen + p.srcStride), p.blockLen);
        if (pad.isPad) {
            uint64_t first = (pad.leftPadding * sizeof(T) + p.blockLen) / sizeof(T);
            for (uint64_t k = first; k < dblk / sizeof(T); k++) dt[k] = pad.paddingValue;
        }
    }
    npuemu::asc::charge(PIPE_MTE2, npuemu::asc::copy_cycles(PIPE_MTE2, (uint64_t)p.blockCount * p.blockLen));
}

/* UB -> GM: blockCount blocks of blockLen bytes; UB blocks start at 32-byte
 * boundaries (srcStride 32-byte blocks between them), GM gaps dstStride
 * bytes. */
template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &p) {
    const char *api = "DataCopyPad(local->GM)";
    uint64_t sblk = ((uint64_t)p.blockLen + 31) / 32 * 32;
    uint64_t sspan = p.blockCount ? (p.blockCount - 1) * (sblk + (uint64_t)p.srcStride * 32) + p.blockLen : 0;
    detail::check_local(src, sspan, api);
    npuemu::asc::gm_check_rows(dst.ptr_, p.blockLen, (uint64_t)p.blockLen + p.dstStride, p.blockCount, api, npuemu::asc::gm_store_mode());
    const uint8_t *s = reinterpret_cast<const uint8_t *>(src.ptr_);
    uint8_t *d = reinterpret_cast<uint8_t *>(dst.ptr_);
    for (uint32_t i = 0; i < p.blockCount; i++) {
        detail::gm_store(reinterpret_cast<T *>(d + (uint64_t)i * (p.blockLen + p.dstStride)),
                         reinterpret_cast<const T *>(s + i * (sblk + (uint64_t)p.srcStride * 32)), p.blockLen / sizeof(T));
    }
    npuemu::asc::charge(PIPE_MTE3, npuemu::asc::copy_cycles(PIPE_MTE3, (uint64_t)p.blockCount * p.blockLen));
}

template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p, const DataCopyPadParams &pad) {
    T v;
    std::memcpy(&v, &pad.paddingValue, sizeof(T) < 8 ? sizeof(T) : 8);
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0),
                DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, v));
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p) {
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0));
}

/* Atomic modes of the stores into GM. */
template <typename T>
inline void SetAtomicAdd() {
    npuemu::asc::blk().atomic_op = ATOMIC_SUM;
}
template <typename T>
inline void SetAtomicMax() {
    npuemu::asc::blk().atomic_op = ATOMIC_MAX;
}
template <typename T>
inline void SetAtomicMin() {
    npuemu::asc::blk().atomic_op = ATOMIC_MIN;
}
inline void SetAtomicNone() { npuemu::asc::blk().atomic_op = ATOMIC_NONE; }
template <typename T>
inline void SetAtomicType() {}

/* Fill(gm, count, value): fills GM (the scalar/MTE3 path of the samples
 * that clear an output before atomics). */
template <typename T>
inline void Fill(const GlobalTensor<T> &gm, uint64_t count, const T &value) {
    const char *api = "Fill";
    npuemu::asc::gm_check(gm.ptr_, count * sizeof(T), api);
    for (uint64_t i = 0; i < count; i++) gm.ptr_[i] = value;
    npuemu::asc::charge(PIPE_MTE3, npuemu::asc::copy_cycles(PIPE_MTE3, count * sizeof(T)));
}
template <typename T, typename V>
inline void Fill(const GlobalTensor<T> &gm, uint64_t count, const V &value) {
    Fill<T>(gm, count, static_cast<T>(value));
}
template <typename T>
inline void InitGlobalMemory(const GlobalTensor<T> &gm, uint64_t count, const T &value) {
    Fill(gm, count, value);
}

} // namespace AscendC

#endif
