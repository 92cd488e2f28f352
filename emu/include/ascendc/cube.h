// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/cube.h: the cube data path of the AI Core (Atlas A2, dav-2201):
 *
 *   GM --DataCopy(Nd2NzParams)--> L1 (A1/B1)  ND -> NZ fractals   [MTE2]
 *   L1 --LoadData(LoadData2DParams)--> L0A (A2) / L0B (B2)        [MTE1]
 *   L1 (C1) --DataCopy--> BT (C2): the bias table, fp16 -> fp32   [MTE1]
 *   Mmad(L0C <- L0A x L0B [+ bias]) over 16 x 16 fractals         [M]
 *   L0C (CO1) --Fixpipe(FixpipeParamsV220)--> GM or L1, NZ -> ND  [FIX]
 *
 * Layouts (the Mmad documentation's): A in L0A is "ZZ" (16 x k0 fractals,
 * rows inside, fractals row by row), B in L0B "ZN" (k0 x 16 fractals,
 * columns inside, fractals row by row), C in L0C "NZ" (16 x 16 fractals,
 * rows inside, fractals column by column); k0 = 32 bytes of the input
 * type (16 half/bf16, 8 float, 32 int8). A fractal is 512 bytes.
 *
 * Rules (AI Core exception 507015 through npuemu::asc::fault): operands in
 * the documented positions; L0A/L0B addresses 512-byte aligned, L0C
 * addresses 64-byte aligned (Fixpipe) and 256-element aligned (Mmad), L1
 * 32-byte aligned, BT 64-byte aligned; every range inside its memory;
 * GM ranges inside one allocation; parameter ranges as documented.
 * docs/ascendc-cube.md has the details and the cost entries.
 */
#ifndef NPUEMU_ASCENDC_CUBE_H
#define NPUEMU_ASCENDC_CUBE_H

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "ascendc/cube_gemm.h"
#include "ascendc/datacopy.h"
#include "ascendc/tensor.h"

namespace AscendC {

/* GM ND -> L1 NZ (DataCopy). Units: srcNdMatrixStride, srcDValue and
 * dstNzMatrixStride in elements; dstNzC0Stride and dstNzNStride in 32-byte
 * blocks (C0). */
struct Nd2NzParams {
    uint16_t ndNum = 0;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
    Nd2NzParams() = default;
    Nd2NzParams(uint16_t nd, uint16_t n, uint16_t d, uint16_t srcMat, uint16_t srcD, uint16_t c0, uint16_t nStride,
                uint16_t dstMat)
        : ndNum(nd), nValue(n), dValue(d), srcNdMatrixStride(srcMat), srcDValue(srcD), dstNzC0Stride(c0),
          dstNzNStride(nStride), dstNzMatrixStride(dstMat) {}
};

/* Local NZ -> GM ND (DataCopy, Nz2NdParamsFull). Units: srcNdMatrixStride
 * in 256-element fractals, srcNStride in 16-element rows (the rows of the
 * NZ matrix between its column blocks), dstDStride and dstNdMatrixStride
 * in elements; dValue is a multiple of 16. */
struct Nz2NdParamsFull {
    uint16_t ndNum = 1;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 1;
    uint16_t srcNStride = 0;
    uint16_t dstDStride = 0;
    uint16_t dstNdMatrixStride = 1;
    Nz2NdParamsFull() = default;
    Nz2NdParamsFull(uint16_t nd, uint16_t n, uint16_t d, uint16_t srcMat, uint16_t srcN, uint16_t dstD, uint16_t dstMat)
        : ndNum(nd), nValue(n), dValue(d), srcNdMatrixStride(srcMat), srcNStride(srcN), dstDStride(dstD), dstNdMatrixStride(dstMat) {}
};

/* L1 -> L0A/L0B (LoadData): repeatTimes fractals of 512 bytes; source
 * fractal r at startIndex + r*srcStride, destination at r*(dstGap+1)
 * (fractal units); ifTranspose transposes each 16 x 16 fractal (b16). */
struct LoadData2DParams {
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint8_t sid = 0;
    uint16_t dstGap = 0;
    bool ifTranspose = false;
    uint8_t addrMode = 0;
    LoadData2DParams() = default;
    LoadData2DParams(uint16_t start, uint8_t repeat, uint16_t srcS, uint8_t s, uint16_t gap, bool trans, uint8_t mode)
        : startIndex(start), repeatTimes(repeat), srcStride(srcS), sid(s), dstGap(gap), ifTranspose(trans), addrMode(mode) {}
};

/* InitConstValue: repeatTimes iterations, each filling blockNum blocks
 * (32 bytes in A1/B1, 512 bytes in A2/B2) with initValue and then skipping
 * dstGap blocks. The two-field form (repeatTimes, initValue; blockNum and
 * dstGap 0) fills 512 bytes per iteration. */
template <typename T>
struct InitConstValueParams {
    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;
    uint16_t dstGap = 0;
    T initValue = T(0);
    InitConstValueParams() = default;
    InitConstValueParams(uint16_t repeat, T value) : repeatTimes(repeat), initValue(value) {}
    InitConstValueParams(uint16_t repeat, uint16_t blocks, uint16_t gap, T value)
        : repeatTimes(repeat), blockNum(blocks), dstGap(gap), initValue(value) {}
};

/* Mmad: C (m x n) = A (m x k) * B (k x n) [+ C or bias]. */
struct MmadParams {
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false; /* deprecated: true accumulates onto C */
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false; /* with cmatrixInitVal false: initial C from the bias table (C2) */
    bool cmatrixInitVal = true; /* true: C starts at 0 */
    MmadParams() = default;
    MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, bool bias, int32_t off, bool sparse, bool wa, bool wb)
        : m(m_), n(n_), k(k_), isBias(bias), fmOffset(off), enSsparse(sparse), enWinogradA(wa), enWinogradB(wb) {
        cmatrixInitVal = !bias;
    }
    MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, uint8_t unit, bool source, bool init)
        : m(m_), n(n_), k(k_), unitFlag(unit), cmatrixSource(source), cmatrixInitVal(init) {}
};

/* Fixpipe quantisation modes (documented names). */
enum QuantMode_t {
    NoQuant = 0,
    F322F16,
    F322BF16,
    DEQF16,
    VDEQF16,
    QF322B8_PRE,
    VQF322B8_PRE,
    REQ8,
    VREQ8,
};

/* L0C -> GM/L1 (Fixpipe). srcStride: rows of the source NZ matrix between
 * its column blocks (C0 = 16 elements each); dstStride: elements between
 * destination rows (ND) or rows between destination column blocks (NZ). */
struct FixpipeParamsV220 {
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
    FixpipeParamsV220() = default;
    FixpipeParamsV220(uint16_t n, uint16_t m, uint16_t srcS, uint32_t dstS, bool relu)
        : nSize(n), mSize(m), srcStride(srcS), dstStride(dstS), reluEn(relu) {}
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
    CO2Layout format;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

} // namespace AscendC

namespace npuemu {
namespace asc {
namespace cube {

using AscendC::TPosition;

/* Cycle cost of the FIX pipe: the copy engine's bytes per cycle. */
inline uint64_t fix_cycles(uint64_t bytes) {
    uint32_t per = blk().soc->mte3_bytes ? blk().soc->mte3_bytes : 64;
    return (bytes + per - 1) / per;
}

/* Checks a local operand: its memory (by position), alignment of its
 * start, and that bytes from its start stay inside its buffer. */
template <typename T>
inline void check_operand(const AscendC::LocalTensor<T> &t, Hardware want, uint32_t align, uint64_t bytes, const char *api,
                          const char *what) {
    if (t.ptr_ == nullptr) fault(api, "%s is an empty LocalTensor (rule: operand allocated)", what);
    Hardware h = hw_of(t.pos_);
    if (h != want) {
        fault(api, "%s is in %s (%s); it must be in the %s (rule: operand position)", what, pos_name(t.pos_), mem_name(h),
              mem_name(want));
    }
    uint32_t off = 0;
    int real = mem_of(t.ptr_, &off);
    if (real != (int)want) {
        fault(api, "%s does not point into this core's %s (rule: operand position)", what, mem_name(want));
    }
    if (off % align != 0) {
        fault(api, "%s starts at byte %u of the %s, not %u-byte aligned (rule: %u-byte alignment of %s addresses)", what, off,
              mem_name(want), align, align, mem_name(want));
    }
    uint64_t cap = t.cap_ ? t.cap_ : (uint64_t)mem_size(want) - off;
    if (bytes > cap || (uint64_t)off + bytes > mem_size(want)) {
        fault(api, "%s needs %llu bytes from byte %u of the %s but its buffer has %llu (rule: local memory capacity)", what,
              (unsigned long long)bytes, off, mem_name(want), (unsigned long long)cap);
    }
}

template <typename T, typename U>
inline void copy_l1_to_bt(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &src, const AscendC::DataCopyParams &p);

/* k0: the K of one fractal, 32 bytes of the input type. */
template <typename U>
constexpr uint32_t k0_of() {
    return is_int4<U>() ? 64 : 32 / sizeof(U); /* int4b_t: 64 a 32-byte row */
}

template <typename T>
inline float to_f(T v) {
    return static_cast<float>(v);
}

} // namespace cube
} // namespace asc
} // namespace npuemu

namespace AscendC {

/* GM (ND) -> L1 (NZ). */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const Nd2NzParams &p) {
    if constexpr (npuemu::asc::is_int4<T>()) {
        /* int4b_t: the same move of the packed bytes (a 32-byte block holds
         * 64 elements); the element counts and strides must be even. */
        if ((p.dValue | p.srcDValue | p.srcNdMatrixStride | p.dstNzMatrixStride) & 1) {
            npuemu::asc::fault("DataCopy(GM->L1, Nd2NzParams)",
                               "int4b_t dValue %u / srcDValue %u / srcNdMatrixStride %u / dstNzMatrixStride %u: an odd count splits a byte "
                               "(rule: int4b_t counts even)",
                               p.dValue, p.srcDValue, p.srcNdMatrixStride, p.dstNzMatrixStride);
        }
        GlobalTensor<int8_t> s8;
        s8.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(src.ptr_));
        Nd2NzParams q = p;
        q.dValue /= 2;
        q.srcDValue /= 2;
        q.srcNdMatrixStride /= 2;
        q.dstNzMatrixStride /= 2;
        DataCopy(dst.template ReinterpretCast<int8_t>(), s8, q);
        return;
    }
    using namespace npuemu::asc;
    const char *api = "DataCopy(GM->L1, Nd2NzParams)";
    const uint32_t c0 = 32 / sizeof(T); /* elements per 32-byte block */
    if (hw_of(dst.pos_) != Hardware::L1 && hw_of(dst.pos_) != Hardware::UB) {
        fault(api, "destination is in %s; ND2NZ copies go to A1/B1/C1 (L1) or VECIN (rule: operand position)", pos_name(dst.pos_));
    }
    if (p.ndNum > 4095 || p.nValue > 16384 || p.dValue > 65535) {
        fault(api, "ndNum %u / nValue %u / dValue %u out of range (rule: ndNum <= 4095, nValue <= 16384)", p.ndNum, p.nValue, p.dValue);
    }
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    if (p.srcDValue < p.dValue) {
        fault(api, "srcDValue %u is less than dValue %u (rule: a source row holds dValue elements)", p.srcDValue, p.dValue);
    }
    const uint32_t blocks = (p.dValue + c0 - 1) / c0;
    /* Destination extent: the last matrix's last row's last block. */
    uint64_t lastBlock = (uint64_t)(p.ndNum - 1) * p.dstNzMatrixStride +
                         ((uint64_t)(p.nValue - 1) * p.dstNzNStride + (uint64_t)(blocks - 1) * p.dstNzC0Stride) * c0 + c0;
    cube::check_operand(dst, hw_of(dst.pos_), 32, lastBlock * sizeof(T), api, "destination");
    gm_check_mats(src.ptr_, p.ndNum, (uint64_t)p.srcNdMatrixStride * sizeof(T), p.nValue, (uint64_t)p.srcDValue * sizeof(T),
                  (uint64_t)p.dValue * sizeof(T), api, kGmRead);
    for (uint32_t i = 0; i < p.ndNum; i++) {
        const T *s0 = src.ptr_ + (uint64_t)i * p.srcNdMatrixStride;
        T *d0 = dst.ptr_ + (uint64_t)i * p.dstNzMatrixStride;
        for (uint32_t r = 0; r < p.nValue; r++) {
            const T *s = s0 + (uint64_t)r * p.srcDValue;
            T *d = d0 + (uint64_t)r * p.dstNzNStride * c0;
            for (uint32_t b = 0; b < blocks; b++) {
                uint32_t w = p.dValue - b * c0 < c0 ? p.dValue - b * c0 : c0;
                T *db = d + (uint64_t)b * p.dstNzC0Stride * c0;
                std::memcpy(db, s + (uint64_t)b * c0, w * sizeof(T));
                if (w < c0) std::memset(static_cast<void *>(db + w), 0, (c0 - w) * sizeof(T)); /* pad the block with zeros */
            }
        }
    }
    charge(PIPE_MTE2, copy_cycles(PIPE_MTE2, (uint64_t)p.ndNum * p.nValue * blocks * 32));
}

template <typename T, typename U>
inline std::enable_if_t<std::is_same<T, U>::value> InitConstValue(const LocalTensor<T> &dst, const InitConstValueParams<U> &p) {
    using namespace npuemu::asc;
    const char *api = "InitConstValue";
    Hardware h = hw_of(dst.pos_);
    if (h != Hardware::L1 && h != Hardware::L0A && h != Hardware::L0B) {
        fault(api, "destination is in %s; InitConstValue fills A1/B1 (L1) or A2/B2 (L0A/L0B) (rule: operand position)", pos_name(dst.pos_));
    }
    const uint64_t block = h == Hardware::L1 ? 32 : 512;
    const bool simple = p.blockNum == 0 && p.dstGap == 0;
    const uint64_t per = simple ? 512 : p.blockNum * block, gap = simple ? 0 : p.dstGap * block;
    if (p.repeatTimes == 0 || per == 0) return;
    uint64_t span = (uint64_t)(p.repeatTimes - 1) * (per + gap) + per;
    cube::check_operand(dst, h, (uint32_t)block == 32 ? 32 : 512, span, api, "destination");
    uint8_t *d = reinterpret_cast<uint8_t *>(dst.ptr_);
    for (uint32_t r = 0; r < p.repeatTimes; r++) {
        T *row = reinterpret_cast<T *>(d + r * (per + gap));
        for (uint64_t i = 0; i < per / sizeof(T); i++) row[i] = p.initValue;
    }
    charge(PIPE_MTE1, copy_cycles(PIPE_MTE1, (uint64_t)p.repeatTimes * per));
}

/* Local (VECOUT, NZ) -> GM (ND). */
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const Nz2NdParamsFull &p) {
    static_assert(!npuemu::asc::is_int4<T>(), "npuemu: DataCopy with Nz2NdParamsFull of int4b_t is not emulated (docs/ascendc.md, int4b_t)");
    using namespace npuemu::asc;
    const char *api = "DataCopy(local->GM, Nz2NdParamsFull)";
    if (p.ndNum > 4095 || p.nValue == 0 || p.nValue > 8192 || p.dValue == 0 || p.dValue > 8192 || p.dValue % 16 != 0) {
        if (p.ndNum == 0) return;
        fault(api, "ndNum %u / nValue %u / dValue %u out of range (rule: ndNum <= 4095, nValue and dValue in [1, 8192], dValue a multiple of 16)",
              p.ndNum, p.nValue, p.dValue);
    }
    if (p.ndNum == 0) return;
    if (p.srcNStride < p.nValue) fault(api, "srcNStride %u is less than nValue %u (rule: a column block holds nValue rows)", p.srcNStride, p.nValue);
    if (p.dstDStride < p.dValue) fault(api, "dstDStride %u is less than dValue %u (rule: ND rows do not overlap)", p.dstDStride, p.dValue);
    const uint32_t cb = p.dValue / 16;
    uint64_t srcLast = (uint64_t)(p.ndNum - 1) * p.srcNdMatrixStride * 256 + ((uint64_t)(cb - 1) * p.srcNStride + p.nValue) * 16;
    cube::check_operand(src, hw_of(src.pos_), 32, srcLast * sizeof(T), api, "source");
    gm_check_mats(dst.ptr_, p.ndNum, (uint64_t)p.dstNdMatrixStride * sizeof(T), p.nValue, (uint64_t)p.dstDStride * sizeof(T),
                  (uint64_t)p.dValue * sizeof(T), api, gm_store_mode());
    for (uint32_t i = 0; i < p.ndNum; i++) {
        const T *s0 = src.ptr_ + (uint64_t)i * p.srcNdMatrixStride * 256;
        T *d0 = dst.ptr_ + (uint64_t)i * p.dstNdMatrixStride;
        for (uint32_t r = 0; r < p.nValue; r++)
            for (uint32_t b = 0; b < cb; b++)
                AscendC::detail::gm_store(d0 + (uint64_t)r * p.dstDStride + b * 16, s0 + ((uint64_t)b * p.srcNStride + r) * 16, 16);
    }
    charge(PIPE_MTE3, copy_cycles(PIPE_MTE3, (uint64_t)p.ndNum * p.nValue * p.dValue * sizeof(T)));
}

/* L1 -> L0A / L0B, 512-byte fractals. */
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2DParams &p) {
    using namespace npuemu::asc;
    const char *api = "LoadData(LoadData2DParams)";
    Hardware dh = hw_of(dst.pos_);
    if (dh != Hardware::L0A && dh != Hardware::L0B) {
        fault(api, "destination is in %s; LoadData loads A2 (L0A) or B2 (L0B) (rule: operand position)", pos_name(dst.pos_));
    }
    if (hw_of(src.pos_) != Hardware::L1) {
        fault(api, "source is in %s; LoadData reads A1/B1 (L1) (rule: operand position)", pos_name(src.pos_));
    }
    if (p.ifTranspose && sizeof(T) != 2) {
        fault(api, "ifTranspose on %zu-byte elements: the 2D transpose is for 16-bit types (rule: ifTranspose needs b16)", sizeof(T));
    }
    if (p.repeatTimes == 0) return;
    const uint32_t fr = 512 / sizeof(T); /* elements per fractal */
    uint64_t srcLast = ((uint64_t)p.startIndex + (uint64_t)(p.repeatTimes - 1) * p.srcStride + 1) * 512;
    uint64_t dstLast = ((uint64_t)(p.repeatTimes - 1) * (p.dstGap + 1u) + 1) * 512;
    cube::check_operand(dst, dh, 512, dstLast, api, "destination");
    cube::check_operand(src, Hardware::L1, 32, srcLast, api, "source");
    for (uint32_t r = 0; r < p.repeatTimes; r++) {
        const T *s = src.ptr_ + ((uint64_t)p.startIndex + (uint64_t)r * p.srcStride) * fr;
        T *d = dst.ptr_ + (uint64_t)r * (p.dstGap + 1u) * fr;
        if (!p.ifTranspose) {
            std::memmove(static_cast<void *>(d), s, 512);
        } else {
            /* 16x16 of 2-byte elements (checked above), moved as bytes so
             * that instantiations for other sizes stay well-formed. */
            unsigned char tmp[512];
            const unsigned char *sb = reinterpret_cast<const unsigned char *>(s);
            for (int i = 0; i < 16; i++)
                for (int j = 0; j < 16; j++) std::memcpy(tmp + (j * 16 + i) * 2, sb + (i * 16 + j) * 2, 2);
            std::memcpy(static_cast<void *>(d), tmp, 512);
        }
    }
    charge(PIPE_MTE1, copy_cycles(PIPE_MTE1, (uint64_t)p.repeatTimes * 512));
}

/* L1 (C1) -> bias table (C2), converting fp16 to fp32 when the types say
 * so. blockLen counts 64-byte units of the source, srcStride 32-byte
 * units, dstStride 64-byte units (the bias-table move's units). */
template <typename T, typename U>
inline std::enable_if_t<!std::is_same<T, U>::value> DataCopy(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                                                             const DataCopyParams &p) {
    npuemu::asc::cube::copy_l1_to_bt(dst, src, p);
}

} // namespace AscendC

namespace npuemu {
namespace asc {
namespace cube {

/* The L1 -> BT move (also reached from the same-type local DataCopy when
 * the destination is C2). */
template <typename T, typename U>
inline void copy_l1_to_bt(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &src, const AscendC::DataCopyParams &p) {
    const char *api = "DataCopy(C1->C2)";
    constexpr bool conv = std::is_same<T, float>::value && (std::is_same<U, half>::value || std::is_same<U, bfloat16_t>::value);
    if constexpr (!conv && !std::is_same<T, U>::value) {
        fault(api, "converting %zu-byte to %zu-byte elements: the bias-table move converts half/bfloat16 to float only (rule: bias types)",
              sizeof(U), sizeof(T));
    } else {
        /* int4b_t: two a byte, a fractal is 16 x 64 (512 bytes) */
        if (hw_of(dst.pos_) != Hardware::BIAS || hw_of(src.pos_) != Hardware::L1) {
            fault(api, "moves %s -> %s; a local copy between different types is the C1 (L1) -> C2 (bias table) move (rule: operand position)",
                  pos_name(src.pos_), pos_name(dst.pos_));
        }
        const uint64_t srcBlock = 64, dstBlock = conv ? 64 * sizeof(T) / sizeof(U) : 64;
        uint64_t srcSpan = p.blockCount ? ((uint64_t)(p.blockCount - 1) * (p.blockLen * 2 + p.srcStride) + p.blockLen * 2) * 32 : 0;
        uint64_t dstSpan = p.blockCount ? ((uint64_t)(p.blockCount - 1) * (p.blockLen * (dstBlock / 64) + p.dstStride) + p.blockLen * (dstBlock / 64)) * 64 : 0;
        check_operand(src, Hardware::L1, 32, srcSpan, api, "source");
        check_operand(dst, Hardware::BIAS, 64, dstSpan, api, "destination");
        const uint8_t *s = reinterpret_cast<const uint8_t *>(src.ptr_);
        uint8_t *d = reinterpret_cast<uint8_t *>(dst.ptr_);
        for (uint32_t b = 0; b < p.blockCount; b++) {
            const U *sb = reinterpret_cast<const U *>(s + b * (p.blockLen * srcBlock + (uint64_t)p.srcStride * 32));
            T *db = reinterpret_cast<T *>(d + b * (p.blockLen * dstBlock + (uint64_t)p.dstStride * 64));
            uint64_t n = p.blockLen * srcBlock / sizeof(U);
            for (uint64_t i = 0; i < n; i++) db[i] = static_cast<T>(static_cast<float>(sb[i]));
        }
        charge(PIPE_MTE1, copy_cycles(PIPE_MTE1, (uint64_t)p.blockCount * p.blockLen * dstBlock));
    }
}

/* Reads A (ZZ in L0A) into a row-major float matrix m x k. */
template <typename U>
inline void unpack_a(const U *a, uint32_t m, uint32_t k, std::vector<float> &out) {
    constexpr uint32_t k0 = k0_of<U>();
    const uint32_t kB = (k + k0 - 1) / k0;
    out.resize((size_t)m * k);
    for (uint32_t i = 0; i < m; i++)
        for (uint32_t kk = 0; kk < k; kk++)
            out[(size_t)i * k + kk] = to_f(a[((size_t)(i / 16) * kB + kk / k0) * 16 * k0 + (i % 16) * k0 + kk % k0]);
}

/* Reads B (ZN in L0B) into a row-major float matrix k x n. */
template <typename U>
inline void unpack_b(const U *b, uint32_t k, uint32_t n, std::vector<float> &out) {
    constexpr uint32_t k0 = k0_of<U>();
    const uint32_t nB = (n + 15) / 16;
    out.resize((size_t)k * n);
    for (uint32_t kk = 0; kk < k; kk++)
        for (uint32_t j = 0; j < n; j++)
            out[(size_t)kk * n + j] = to_f(b[((size_t)(kk / k0) * nB + j / 16) * k0 * 16 + (j % 16) * k0 + kk % k0]);
}

/* C (NZ in L0C) element (i, j) of an m-row matrix. */
inline size_t nz_index(uint32_t i, uint32_t j, uint32_t mB) { return ((size_t)(j / 16) * mB + i / 16) * 256 + (i % 16) * 16 + j % 16; }

template <typename T, typename U, typename V>
inline void mmad(const AscendC::LocalTensor<T> &c, const AscendC::LocalTensor<U> &a, const AscendC::LocalTensor<U> &b,
                 const AscendC::LocalTensor<V> *bias, const AscendC::MmadParams &p) {
    const char *api = "Mmad";
    constexpr bool f32acc = std::is_same<T, float>::value &&
                            (std::is_same<U, half>::value || std::is_same<U, bfloat16_t>::value || std::is_same<U, float>::value);
    constexpr bool i32acc = std::is_same<T, int32_t>::value &&
                            (std::is_same<U, int8_t>::value || std::is_same<U, uint8_t>::value || is_int4<U>());
    if constexpr (!f32acc && !i32acc) {
        fault(api, "A/B of %zu-byte elements into C of %zu-byte elements is not a cube type combination "
                   "(rule: half/bfloat16/float -> float, int8 -> int32)",
              sizeof(U), sizeof(T));
    } else {
        constexpr uint32_t k0 = k0_of<U>();
        if (p.m > 4095 || p.n > 4095 || p.k > 4095) fault(api, "m %u / n %u / k %u out of range (rule: m, n, k <= 4095)", p.m, p.n, p.k);
        if (p.enSsparse || p.enWinogradA || p.enWinogradB || p.fmOffset != 0) {
            fault(api, "sparse, Winograd and fmOffset Mmad modes are not emulated by npuemu (rule: supported MmadParams)");
        }
        if (p.m == 0 || p.n == 0 || p.k == 0) return;
        const uint32_t mB = (p.m + 15) / 16, nB = (p.n + 15) / 16, kB = (p.k + k0 - 1) / k0;
        check_operand(a, Hardware::L0A, 512, (uint64_t)mB * kB * 512, api, "A (fm)");
        check_operand(b, Hardware::L0B, 512, (uint64_t)nB * kB * 512, api, "B (filter)");
        check_operand(c, Hardware::L0C, 256 * sizeof(T), (uint64_t)mB * nB * 256 * sizeof(T), api, "C (dst)");
        /* The initial C: the bias table (bias overload, or cmatrixSource),
         * the C already in L0C (cmatrixInitVal false, or the deprecated
         * isBias), or zero. */
        const T *biasv = nullptr;
        if (bias != nullptr) {
            Hardware bh = hw_of(bias->pos_);
            if (bh == Hardware::BIAS) {
                check_operand(*bias, Hardware::BIAS, 64, (uint64_t)p.n * sizeof(V), api, "bias");
                biasv = reinterpret_cast<const T *>(bias->ptr_);
                if constexpr (!std::is_same<T, V>::value) fault(api, "the bias table holds the accumulator type (rule: bias type = C type)");
            } else if (bh != Hardware::L0C) {
                fault(api, "bias is in %s; it must be in C2 (bias table) or CO1 (rule: operand position)", pos_name(bias->pos_));
            }
        }
        bool fromC = bias == nullptr ? (!p.cmatrixInitVal && !p.cmatrixSource) || p.isBias : hw_of(bias->pos_) == Hardware::L0C;
        if (bias == nullptr && !p.cmatrixInitVal && p.cmatrixSource) {
            fault(api, "cmatrixSource asks for the initial C from the bias table but no bias tensor was given (rule: bias operand)");
        }
        if constexpr (f32acc) {
            std::vector<float> A, B, C((size_t)p.m * p.n);
            unpack_a(a.ptr_, p.m, p.k, A);
            unpack_b(b.ptr_, p.k, p.n, B);
            const T *init = bias != nullptr && hw_of(bias->pos_) == Hardware::L0C ? reinterpret_cast<const T *>(bias->ptr_) : c.ptr_;
            for (uint32_t i = 0; i < p.m; i++)
                for (uint32_t j = 0; j < p.n; j++)
                    C[(size_t)i * p.n + j] = biasv ? biasv[j] : fromC ? init[nz_index(i, j, mB)] : 0.0f;
            gemm(Mat{A.data(), Elem::F32, p.k, 1}, Mat{B.data(), Elem::F32, p.n, 1}, p.m, p.n, p.k, C.data(), p.n, true);
            for (uint32_t i = 0; i < p.m; i++)
                for (uint32_t j = 0; j < p.n; j++) c.ptr_[nz_index(i, j, mB)] = C[(size_t)i * p.n + j];
        } else {
            const T *init = bias != nullptr && hw_of(bias->pos_) == Hardware::L0C ? reinterpret_cast<const T *>(bias->ptr_) : c.ptr_;
            std::vector<int32_t> C((size_t)p.m * p.n);
            for (uint32_t i = 0; i < p.m; i++)
                for (uint32_t j = 0; j < p.n; j++) {
                    int32_t s = biasv ? biasv[j] : fromC ? init[nz_index(i, j, mB)] : 0;
                    for (uint32_t kk = 0; kk < p.k; kk++) {
                        size_t ai = ((size_t)(i / 16) * kB + kk / k0) * 16 * k0 + (i % 16) * k0 + kk % k0;
                        size_t bi = ((size_t)(kk / k0) * nB + j / 16) * k0 * 16 + (j % 16) * k0 + kk % k0;
                        if constexpr (is_int4<U>()) {
                            s += AscendC::detail::int4_get(a.ptr_, ai).value() * AscendC::detail::int4_get(b.ptr_, bi).value();
                        } else {
                            s += (int32_t)a.ptr_[ai] * (int32_t)b.ptr_[bi];
                        }
                    }
                    C[(size_t)i * p.n + j] = s;
                }
            for (uint32_t i = 0; i < p.m; i++)
                for (uint32_t j = 0; j < p.n; j++) c.ptr_[nz_index(i, j, mB)] = C[(size_t)i * p.n + j];
        }
        charge(PIPE_M, (uint64_t)mB * nB * kB);
    }
}

/* Fixpipe quantisation (quantPre). Decisions (docs/ascendc-cube.md,
 * "Fixpipe quantisation"): the scale of a scalar mode is the float whose
 * bits are the low 32 bits of deqScalar (the documented way of building
 * it); a vector mode reads one uint64_t per output column from the L1
 * cbufWorkspace, its low 32 bits the column's float scale; the upper 32
 * bits are not interpreted. x * scale is computed in fp32 and converted
 * to the destination with round-half-to-even, saturating for int8_t and
 * uint8_t; reluEn applies to the accumulator value before the scale. */
enum class FixQuant : uint8_t { None, Cast, Scalar, Vector };

inline bool fix_is_vector(AscendC::QuantMode_t q) {
    return q == AscendC::VDEQF16 || q == AscendC::VQF322B8_PRE || q == AscendC::VREQ8;
}

inline const char *fix_mode_name(AscendC::QuantMode_t q) {
    static const char *names[] = {"NoQuant", "F322F16", "F322BF16", "DEQF16", "VDEQF16", "QF322B8_PRE", "VQF322B8_PRE", "REQ8", "VREQ8"};
    return (unsigned)q < sizeof names / sizeof names[0] ? names[q] : "an unknown mode";
}

/* Checks quantPre against the element types once per Fixpipe; returns the
 * kind of conversion. withWorkspace: the cbufWorkspace overload. */
template <typename D, typename S>
inline FixQuant fix_check_mode(const AscendC::FixpipeParamsV220 &p, bool withWorkspace, const char *api) {
    constexpr bool srcF = std::is_same<S, float>::value, srcI = std::is_same<S, int32_t>::value;
    constexpr bool dstB8 = std::is_same<D, int8_t>::value || std::is_same<D, uint8_t>::value;
    bool ok = false;
    FixQuant kind = FixQuant::Scalar;
    switch (p.quantPre) {
    case AscendC::NoQuant:
        if (!std::is_same<D, S>::value) {
            fault(api, "NoQuant needs the destination type of the source (%zu-byte elements); choose F322F16/F322BF16 to convert (rule: quantPre)",
                  sizeof(S));
        }
        ok = true;
        kind = FixQuant::None;
        break;
    case AscendC::F322F16:
        ok = srcF && std::is_same<D, half>::value;
        kind = FixQuant::Cast;
        break;
    case AscendC::F322BF16:
        ok = srcF && std::is_same<D, bfloat16_t>::value;
        kind = FixQuant::Cast;
        break;
    case AscendC::DEQF16:
    case AscendC::VDEQF16:
        ok = srcI && std::is_same<D, half>::value;
        break;
    case AscendC::QF322B8_PRE:
    case AscendC::VQF322B8_PRE:
        ok = srcF && dstB8;
        break;
    case AscendC::REQ8:
    case AscendC::VREQ8:
        ok = srcI && dstB8;
        break;
    default:
        fault(api, "quantPre %d is not a QuantMode_t of the A2 family (rule: quantPre)", (int)p.quantPre);
    }
    if (!ok) {
        static const char *want[] = {"", "float -> half", "float -> bfloat16_t", "int32_t -> half", "int32_t -> half",
                                     "float -> int8_t/uint8_t", "float -> int8_t/uint8_t", "int32_t -> int8_t/uint8_t",
                                     "int32_t -> int8_t/uint8_t"};
        fault(api, "%s converts %s, not %zu-byte %s -> %zu-byte elements (rule: quantPre types)", fix_mode_name(p.quantPre), want[p.quantPre],
              sizeof(S), srcF ? "float" : srcI ? "int32_t" : "elements", sizeof(D));
    }
    if (fix_is_vector(p.quantPre)) {
        if (!withWorkspace) {
            fault(api, "%s reads its per-column scales from cbufWorkspace: the CO1->GM Fixpipe overload that takes it (rule: tensor quantisation)",
                  fix_mode_name(p.quantPre));
        }
        kind = FixQuant::Vector;
    } else if (withWorkspace) {
        fault(api, "cbufWorkspace is only for VDEQF16/VQF322B8_PRE/VREQ8, not %s (rule: tensor quantisation)", fix_mode_name(p.quantPre));
    }
    return kind;
}

inline float fix_scale_of(uint64_t word) {
    uint32_t bits = (uint32_t)word;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

/* Converts one accumulator value for Fixpipe. */
template <typename D, typename S>
inline D fix_convert(S v, FixQuant kind, float scale) {
    if (kind == FixQuant::None || kind == FixQuant::Cast) {
        if constexpr (std::is_same<D, S>::value) {
            return v;
        } else if constexpr (std::is_same<S, float>::value && (std::is_same<D, half>::value || std::is_same<D, bfloat16_t>::value)) {
            return static_cast<D>(v);
        } else {
            return D{};
        }
    }
    float x = static_cast<float>(v) * scale;
    if constexpr (std::is_same<D, int8_t>::value || std::is_same<D, uint8_t>::value) {
        constexpr float lo = std::is_same<D, int8_t>::value ? -128.0f : 0.0f, hi = std::is_same<D, int8_t>::value ? 127.0f : 255.0f;
        if (x != x) return D(0);
        x = std::nearbyint(x); /* the default rounding mode: half to even */
        return static_cast<D>(x < lo ? lo : x > hi ? hi : x);
    } else if constexpr (std::is_same<D, half>::value) {
        return static_cast<D>(x);
    } else {
        return D{};
    }
}

/* L0C (NZ) -> destination element per (matrix, row, col). scales: the
 * L1 cbufWorkspace of a vector mode (nullptr otherwise). ndNum > 1: the
 * source NZ matrices are srcNdStride * 1024 bytes apart (head to head,
 * the documented unit); dstAt gets the matrix index. */
template <typename D, typename S, typename Dst>
inline void fixpipe(Dst dstAt, const AscendC::LocalTensor<S> &src, const AscendC::FixpipeParamsV220 &p, const uint64_t *scales,
                    const char *api) {
    FixQuant kind = fix_check_mode<D, S>(p, scales != nullptr, api);
    if (p.mSize == 0 || p.nSize == 0) return;
    if (p.srcStride < p.mSize) {
        fault(api, "srcStride %u is less than mSize %u (rule: a source column block holds mSize rows)", p.srcStride, p.mSize);
    }
    const uint32_t nd = p.ndNum ? p.ndNum : 1;
    if (nd > 1 && p.srcNdStride == 0) fault(api, "ndNum %u with srcNdStride 0 (rule: srcNdStride in [1, 512] fractals of 1024 bytes)", nd);
    if (p.srcNdStride > 512) fault(api, "srcNdStride %u is over 512 (rule: srcNdStride in [1, 512] fractals of 1024 bytes)", p.srcNdStride);
    const uint32_t nB = (p.nSize + 15) / 16;
    const uint64_t matElems = (uint64_t)p.srcNdStride * 1024 / sizeof(S);
    check_operand(src, Hardware::L0C, 64,
                  ((uint64_t)(nd - 1) * matElems + (uint64_t)(nB - 1) * p.srcStride * 16 + (uint64_t)p.mSize * 16) * sizeof(S), api, "source");
    const float scalar = fix_scale_of(p.deqScalar);
    for (uint32_t k = 0; k < nd; k++) {
        const S *base = src.ptr_ + k * matElems;
        for (uint32_t i = 0; i < p.mSize; i++) {
            for (uint32_t j = 0; j < p.nSize; j++) {
                S v = base[(size_t)(j / 16) * p.srcStride * 16 + (size_t)i * 16 + j % 16];
                if (p.reluEn && v < S(0)) v = S(0);
                dstAt(k, i, j) = fix_convert<D, S>(v, kind, scales ? fix_scale_of(scales[j]) : scalar);
            }
        }
    }
    charge(PIPE_FIX, fix_cycles((uint64_t)nd * p.mSize * p.nSize * sizeof(D)));
}

/* The destination extent of a Fixpipe in elements, and its ND checks. */
inline uint64_t fix_extent(const AscendC::FixpipeParamsV220 &p, bool nz, const char *api) {
    const uint32_t nd = p.ndNum ? p.ndNum : 1;
    if (nz) {
        if (nd > 1) fault(api, "ndNum %u > 1 with CFG_NZ: several matrices are an NZ2ND setting, use CFG_ROW_MAJOR (rule: ndNum)", nd);
        return (uint64_t)((p.nSize + 15) / 16 - 1) * p.dstStride * 16 + (uint64_t)p.mSize * 16;
    }
    if (p.dstStride < p.nSize) fault(api, "dstStride %u is less than nSize %u (rule: ND rows do not overlap)", p.dstStride, p.nSize);
    if (nd > 1 && p.dstNdStride == 0) fault(api, "ndNum %u with dstNdStride 0 (rule: dstNdStride in [1, 65535] elements)", nd);
    return (uint64_t)(nd - 1) * p.dstNdStride + (uint64_t)(p.mSize - 1) * p.dstStride + p.nSize;
}

/* The vector-mode scales: nSize uint64_t words of an L1 tensor. */
template <typename B>
inline const uint64_t *fix_scales(const AscendC::LocalTensor<B> &w, const AscendC::FixpipeParamsV220 &p, const char *api) {
    static_assert(std::is_same<B, uint64_t>::value, "Fixpipe: cbufWorkspace is a LocalTensor<uint64_t>");
    check_operand(w, Hardware::L1, 32, (uint64_t)p.nSize * sizeof(uint64_t), api, "cbufWorkspace");
    return reinterpret_cast<const uint64_t *>(w.ptr_);
}

} // namespace cube
} // namespace asc
} // namespace npuemu

namespace AscendC {

template <typename T, typename U, typename S>
inline void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter, const MmadParams &p) {
    static_assert(std::is_same<U, S>::value, "Mmad: A and B have one element type");
    npuemu::asc::cube::mmad<T, U, T>(dst, fm, filter, nullptr, p);
}

template <typename T, typename U, typename S, typename V>
inline void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter, const LocalTensor<V> &bias,
                 const MmadParams &p) {
    static_assert(std::is_same<U, S>::value, "Mmad: A and B have one element type");
    npuemu::asc::cube::mmad<T, U, V>(dst, fm, filter, &bias, p);
}

/* L0C -> GM. CFG_ROW_MAJOR writes ND rows dstStride elements apart (ndNum
 * matrices dstNdStride elements apart); CFG_NZ writes 16-column blocks
 * dstStride rows apart. */
namespace detail {
template <typename D, typename S, const FixpipeConfig &config>
inline void fixpipe_gm(const GlobalTensor<D> &dst, const LocalTensor<S> &src, const FixpipeParamsV220 &p, const uint64_t *scales,
                       const char *api) {
    using namespace npuemu::asc;
    if (p.mSize == 0 || p.nSize == 0) {
        cube::fix_check_mode<D, S>(p, scales != nullptr, api);
        return;
    }
    const bool nz = config.format == CO2Layout::NZ;
    (void)cube::fix_extent(p, nz, api); /* its rules */
    if (nz) { /* column blocks of 16: mSize rows of 16 each, dstStride * 16 elements apart */
        gm_check_rows(dst.ptr_, (uint64_t)p.mSize * 16 * sizeof(D), (uint64_t)p.dstStride * 16 * sizeof(D), (p.nSize + 15) / 16, api,
                      gm_store_mode());
    } else {
        gm_check_mats(dst.ptr_, p.ndNum ? p.ndNum : 1, (uint64_t)p.dstNdStride * sizeof(D), p.mSize, (uint64_t)p.dstStride * sizeof(D),
                      (uint64_t)p.nSize * sizeof(D), api, gm_store_mode());
    }
    D *d = dst.ptr_;
    std::mutex *m = blk().atomic_op != ATOMIC_NONE ? &AscendC::detail::atomic_mutex() : nullptr;
    std::unique_lock<std::mutex> lk;
    if (m) lk = std::unique_lock<std::mutex>(*m);
    uint8_t op = blk().atomic_op;
    struct Ref {
        D *p;
        uint8_t op;
        Ref &operator=(D v) {
            if (op == ATOMIC_SUM) {
                *p = static_cast<D>(*p + v);
            } else if (op == ATOMIC_MAX) {
                *p = v > *p ? v : *p;
            } else if (op == ATOMIC_MIN) {
                *p = v < *p ? v : *p;
            } else {
                *p = v;
            }
            return *this;
        }
    };
    if (nz) {
        cube::fixpipe<D, S>(
            [&](uint32_t, uint32_t i, uint32_t j) { return Ref{d + (size_t)(j / 16) * p.dstStride * 16 + (size_t)i * 16 + j % 16, op}; },
            src, p, scales, api);
    } else {
        cube::fixpipe<D, S>(
            [&](uint32_t k, uint32_t i, uint32_t j) { return Ref{d + (size_t)k * p.dstNdStride + (size_t)i * p.dstStride + j, op}; }, src, p,
            scales, api);
    }
}
} // namespace detail

template <typename D, typename S, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<D> &dst, const LocalTensor<S> &src, const FixpipeParamsV220 &p) {
    detail::fixpipe_gm<D, S, config>(dst, src, p, nullptr, "Fixpipe(CO1->GM)");
}

/* L0C -> GM with tensor quantisation (VDEQF16, VQF322B8_PRE, VREQ8): one
 * uint64_t scale word per output column in cbufWorkspace (A1). */
template <typename D, typename S, const FixpipeConfig &config = CFG_ROW_MAJOR, typename B = uint64_t>
inline void Fixpipe(const GlobalTensor<D> &dst, const LocalTensor<S> &src, const LocalTensor<B> &cbufWorkspace, const FixpipeParamsV220 &p) {
    const char *api = "Fixpipe(CO1->GM, cbufWorkspace)";
    detail::fixpipe_gm<D, S, config>(dst, src, p, npuemu::asc::cube::fix_scales(cbufWorkspace, p, api), api);
}

/* L0C -> L1 (A1/B1/C1), for reuse as a cube operand. */
template <typename D, typename S, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<D> &dst, const LocalTensor<S> &src, const FixpipeParamsV220 &p) {
    using namespace npuemu::asc;
    const char *api = "Fixpipe(CO1->L1)";
    if (p.mSize == 0 || p.nSize == 0) {
        cube::fix_check_mode<D, S>(p, false, api);
        return;
    }
    const bool nz = config.format == CO2Layout::NZ;
    uint64_t last = cube::fix_extent(p, nz, api);
    cube::check_operand(dst, Hardware::L1, 32, last * sizeof(D), api, "destination");
    D *d = dst.ptr_;
    if (nz) {
        cube::fixpipe<D, S>(
            [&](uint32_t, uint32_t i, uint32_t j) -> D & { return d[(size_t)(j / 16) * p.dstStride * 16 + (size_t)i * 16 + j % 16]; }, src, p,
            nullptr, api);
    } else {
        cube::fixpipe<D, S>([&](uint32_t k, uint32_t i, uint32_t j) -> D & { return d[(size_t)k * p.dstNdStride + (size_t)i * p.dstStride + j]; },
                            src, p, nullptr, api);
    }
}

} // namespace AscendC

#endif
