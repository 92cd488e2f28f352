// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/matmul.h: the high-level Matmul API of Ascend C (Matmul,
 * MatmulType, MatmulConfig, REGIST_MATMUL_OBJ) on npuemu.
 *
 * On hardware the AIV sub-blocks of a MIX kernel are clients: they send
 * requests to the AIC, which runs the Matmul on the cube and returns C.
 * On npuemu there is nothing to serve: REGIST_MATMUL_OBJ ends the AIC
 * sub-block of a MIX launch (as the vendor's macro does after its service
 * loop) and each AIV computes its own requests in place, exactly as the
 * tiling splits them; in a kernel that is not MIX the calling core
 * computes. Results are those of the cube: inputs converted exactly,
 * products accumulated in fp32 (int32 for int8), bias added in fp32.
 *
 * Iterate computes the next baseM x baseN tile of the singleCoreM x
 * singleCoreN block (order: tiling.iterateOrder, 0 = along M first) into a
 * model of L0C; GetTensorC writes it out. The cycles charged are those the
 * cube would spend (MTE2 for A/B/bias loads per tile, MTE1 for L1->L0, M
 * for the fractal MACs, FIX for the C write), on the calling core's pipes.
 * The tiling is checked against the SoC's buffers at Init; a violation is
 * an AI Core exception naming the field and the rule.
 */
#ifndef NPUEMU_ASCENDC_MATMUL_H
#define NPUEMU_ASCENDC_MATMUL_H

#include <type_traits>
#include <vector>

#include "ascendc/cube.h"
#include "ascendc/sync.h" /* GetBlockIdx, GetSysWorkSpacePtr */
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

/* Operand formats of MatmulType. */
enum class CubeFormat : uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
enum class LayoutMode : uint8_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

/* MatmulType<position, format, element type, transposed, layout, ibshare>. */
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false, LayoutMode LAYOUT = LayoutMode::NONE,
          bool IBSHARE = false>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
};

enum class MatmulVersion : uint8_t { NORMAL_VERSION = 0, MULTI_DATA_LOAD_VERSION, BASIC_BLOCK_VERSION, IBSHARE_VERSION };
enum class ScheduleType : uint8_t { INNER_PRODUCT = 0, OUTER_PRODUCT };

/* The template configurations. npuemu computes every one the same way; the
 * fields are kept so that code reading them compiles. */
struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0, basicN = 0, basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    uint32_t stepM = 0, stepN = 0;
    uint32_t baseMN = 0;
    uint32_t singleCoreMN = 0;
    bool enUnitFlag = true;
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
    bool doIBShareNorm = false;
    bool doSpecialMDL = false;
    bool enableInit = true;
    uint8_t batchMode = 0;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = 0;
    bool enableReuse = true;
    bool enableUBReuse = false;
    bool enableL1CacheUB = false;
    bool intraBlockPartSum = false;
    uint8_t iterateOrder = 0;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableDoubleCache = false;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
};

constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false) {
    MatmulConfig c{};
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    return c;
}
constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, uint32_t doMTE2Preload = 0,
                                    bool isVecND2NZ = false) {
    MatmulConfig c{};
    c.doNorm = false;
    c.doMultiDataLoad = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    return c;
}
constexpr MatmulConfig GetBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK) {
    MatmulConfig c{};
    c.doNorm = false;
    c.doBasicBlock = true;
    c.basicM = basicM;
    c.basicN = basicN;
    c.basicK = basicK;
    return c;
}
constexpr MatmulConfig GetIBShareNormConfig() {
    MatmulConfig c{};
    c.doNorm = false;
    c.doIBShareNorm = true;
    return c;
}
constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

/* Callback hooks (data copy / output callbacks) are accepted and unused. */
template <void *DataCopyOut = nullptr, void *CopyA1 = nullptr, void *CopyB1 = nullptr>
struct MatmulCallBackFunc {};

} // namespace AscendC

namespace npuemu {
namespace asc {
namespace mm {

/* Where an operand comes from: GM or a local tensor (its host pointer),
 * its element type, whether it is transposed. */
struct Operand {
    const void *p = nullptr;
    cube::Elem e = cube::Elem::F32;
    bool trans = false;
    bool set = false;
    bool local = false;
};

/* checks a tiling at Init against the SoC's buffers: true or a fault. */
inline void check_tiling(const TCubeTiling &t, uint32_t inBytes, uint32_t biasBytes) {
    const char *api = "Matmul::Init (REGIST_MATMUL_OBJ)";
    if (t.M <= 0 || t.N <= 0 || t.Ka <= 0 || t.Kb <= 0) fault(api, "tiling M %d, N %d, Ka %d, Kb %d must be positive (rule: TCubeTiling shape)", t.M, t.N, t.Ka, t.Kb);
    if (t.singleCoreM <= 0 || t.singleCoreN <= 0 || t.singleCoreK <= 0) {
        fault(api, "tiling singleCoreM %d / singleCoreN %d / singleCoreK %d must be positive (rule: TCubeTiling singleCore*)", t.singleCoreM,
              t.singleCoreN, t.singleCoreK);
    }
    if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0 || t.baseM % 16 || t.baseN % 16 || t.baseK % (32 / (int)inBytes)) {
        fault(api, "tiling baseM %d / baseN %d / baseK %d must be positive multiples of 16 / 16 / %u (rule: base blocks are whole fractals)",
              t.baseM, t.baseN, t.baseK, 32 / inBytes);
    }
    uint64_t l0a = mem_size(Hardware::L0A), l0b = mem_size(Hardware::L0B), l0c = mem_size(Hardware::L0C), l1 = mem_size(Hardware::L1);
    if ((uint64_t)t.baseM * t.baseK * inBytes > l0a) {
        fault(api, "baseM*baseK*%u = %llu bytes exceeds L0A (%llu) (rule: baseM * baseK * sizeof(A) <= L0A_size)", inBytes,
              (unsigned long long)t.baseM * t.baseK * inBytes, (unsigned long long)l0a);
    }
    if ((uint64_t)t.baseK * t.baseN * inBytes > l0b) {
        fault(api, "baseK*baseN*%u = %llu bytes exceeds L0B (%llu) (rule: baseK * baseN * sizeof(B) <= L0B_size)", inBytes,
              (unsigned long long)t.baseK * t.baseN * inBytes, (unsigned long long)l0b);
    }
    if ((uint64_t)t.baseM * t.baseN * 4 > l0c) {
        fault(api, "baseM*baseN*4 = %llu bytes exceeds L0C (%llu) (rule: baseM * baseN * sizeof(l0c type) <= L0C_size)",
              (unsigned long long)t.baseM * t.baseN * 4, (unsigned long long)l0c);
    }
    uint64_t a1 = (uint64_t)(t.depthA1 > 0 ? t.depthA1 : 1) * t.baseM * t.baseK * inBytes;
    uint64_t b1 = (uint64_t)(t.depthB1 > 0 ? t.depthB1 : 1) * t.baseN * t.baseK * inBytes;
    uint64_t bias = t.isBias ? (uint64_t)t.baseN * biasBytes : 0;
    if (a1 + b1 + bias > l1) {
        fault(api, "depthA1*baseM*baseK + depthB1*baseN*baseK (+ bias) = %llu bytes exceeds L1 (%llu) (rule: A1 + B1 buffers fit L1)",
              (unsigned long long)(a1 + b1 + bias), (unsigned long long)l1);
    }
}

} // namespace mm
} // namespace asc
} // namespace npuemu

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const MatmulConfig &MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, class... Rest>
class Matmul {
public:
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    static_assert(std::is_same<SrcAT, SrcBT>::value, "Matmul: A and B have one element type");
    static constexpr bool kInt8 = std::is_same<SrcAT, int8_t>::value;
    static constexpr bool kFloatIn = std::is_same<SrcAT, half>::value || std::is_same<SrcAT, bfloat16_t>::value || std::is_same<SrcAT, float>::value;
    static_assert(kInt8 || kFloatIn, "Matmul: A/B must be half, bfloat16_t, float or int8_t");
    static_assert(A_TYPE::format == CubeFormat::ND || A_TYPE::format == CubeFormat::NZ, "Matmul: npuemu takes A in ND or NZ");
    static_assert(B_TYPE::format == CubeFormat::ND || B_TYPE::format == CubeFormat::NZ, "Matmul: npuemu takes B in ND or NZ");
    static_assert(C_TYPE::format == CubeFormat::ND || C_TYPE::format == CubeFormat::ND_ALIGN, "Matmul: npuemu writes C in ND");
    static_assert(!kInt8 || (A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND), "Matmul: int8 operands in ND");

    Matmul() = default;

    /* Called by REGIST_MATMUL_OBJ. */
    void Init(const TCubeTiling *tiling, TPipe *tpipe = nullptr) {
        using namespace npuemu::asc;
        if (tiling == nullptr) fault("Matmul::Init", "tiling is NULL (rule: REGIST_MATMUL_OBJ needs the TCubeTiling)");
        tiling_ = *tiling;
        pipe_ = tpipe;
        mm::check_tiling(tiling_, sizeof(SrcAT), sizeof(BiasT));
        orgM_ = tiling_.M;
        orgN_ = tiling_.N;
        orgKa_ = tiling_.Ka;
        orgKb_ = tiling_.Kb;
        singleM_ = tiling_.singleCoreM;
        singleN_ = tiling_.singleCoreN;
        singleK_ = tiling_.singleCoreK;
        biasOn_ = tiling_.isBias != 0;
        inited_ = true;
        Reset_();
    }

    void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
        (void)orgKc;
        orgM_ = orgM;
        orgN_ = orgN;
        orgKa_ = orgKa;
        orgKb_ = orgKb;
        Dirty_();
    }
    void SetSingleShape(int singleM, int singleN, int singleK) {
        singleM_ = singleM;
        singleN_ = singleN;
        singleK_ = singleK;
        Dirty_();
    }
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        if (tailM > 0) singleM_ = tailM;
        if (tailN > 0) singleN_ = tailN;
        if (tailK > 0) singleK_ = tailK;
        Dirty_();
    }

    void SetTensorA(const GlobalTensor<SrcAT> &gm, bool isTransposeA = false) { SetA_(gm.ptr_, isTransposeA || A_TYPE::isTrans, false); }
    void SetTensorA(const LocalTensor<SrcAT> &lm, bool isTransposeA = false) { SetA_(lm.ptr_, isTransposeA || A_TYPE::isTrans, true); }
    void SetTensorB(const GlobalTensor<SrcBT> &gm, bool isTransposeB = false) { SetB_(gm.ptr_, isTransposeB || B_TYPE::isTrans, false); }
    void SetTensorB(const LocalTensor<SrcBT> &lm, bool isTransposeB = false) { SetB_(lm.ptr_, isTransposeB || B_TYPE::isTrans, true); }
    void SetBias(const GlobalTensor<BiasT> &gm) {
        bias_ = gm.ptr_;
        biasLocal_ = false;
        biasOn_ = true;
    }
    void SetBias(const LocalTensor<BiasT> &lm) {
        bias_ = lm.ptr_;
        biasLocal_ = true;
        biasOn_ = true;
    }
    void DisableBias() { biasOn_ = false; }
    void ClearBias() { biasOn_ = false; }
    void SetWorkspace(GlobalTensor<uint8_t> &addr) { workspace_ = addr.ptr_; }
    template <typename T>
    void SetWorkspace(__gm__ const T *addr, int size) {
        (void)size;
        workspace_ = (const void *)addr;
    }
    void SetLocalWorkspace(const LocalTensor<uint8_t> &tmp) { (void)tmp; }
    void SetHF32(bool enable = false, int32_t mode = 0) {
        (void)enable;
        (void)mode;
    }
    void SetSubBlockIdx(uint8_t idx) { (void)idx; }

    /* Computes the next baseM x baseN tile; false when all are done. */
    template <bool sync = true>
    bool Iterate(bool enPartialSum = false) {
        Ready_("Matmul::Iterate");
        if (next_ >= mIter_ * nIter_) return false;
        if (iterateOrder_ == 0) {
            curM_ = next_ % mIter_;
            curN_ = next_ / mIter_;
        } else {
            curN_ = next_ % nIter_;
            curM_ = next_ / nIter_;
        }
        next_++;
        ComputeTile_(enPartialSum);
        return true;
    }

    /* The tile of the last Iterate into a local tensor: enSequentialWrite
     * writes it as a baseM x baseN row-major block, otherwise at its place
     * in a singleCoreM x singleCoreN row-major block. */
    template <bool sync = true>
    void GetTensorC(const LocalTensor<DstT> &c, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        using namespace npuemu::asc;
        const char *api = "Matmul::GetTensorC(local)";
        if (!haveTile_) fault(api, "no tile: call Iterate first (rule: GetTensorC follows Iterate)");
        if (enAtomic != 0) fault(api, "enAtomic %u: atomic modes apply to GM outputs only (rule: enAtomic with GM)", enAtomic);
        Hardware h = hw_of(c.pos_);
        if (h != Hardware::UB && h != Hardware::L1) fault(api, "C is in %s; Matmul writes C to VECIN/VECCALC/CO2 (UB) or TSCM (L1) (rule: C position)", pos_name(c.pos_));
        size_t ld = enSequentialWrite ? tiling_.baseN : singleN_;
        size_t off = enSequentialWrite ? 0 : (size_t)curM_ * tiling_.baseM * ld + (size_t)curN_ * tiling_.baseN;
        uint64_t need = ((uint64_t)(tileM_ - 1) * ld + off + tileN_) * sizeof(DstT);
        cube::check_operand(c, h, 32, need, api, "C");
        WriteTile_(c.ptr_ + off, ld, 0);
    }

    /* The tile of the last Iterate into GM: at its place in C (rows
     * orgN apart), or packed baseM x baseN blocks in order with
     * enSequentialWrite. enAtomic: 0 none, 1 add, 2 max, 3 min. */
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT> &gm, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        using namespace npuemu::asc;
        const char *api = "Matmul::GetTensorC(GM)";
        if (!haveTile_) fault(api, "no tile: call Iterate first (rule: GetTensorC follows Iterate)");
        if (enAtomic > 3) fault(api, "enAtomic %u is not 0..3 (rule: enAtomic values)", enAtomic);
        size_t ld = enSequentialWrite ? tiling_.baseN : orgN_;
        size_t off = enSequentialWrite ? (size_t)(next_ - 1) * tiling_.baseM * tiling_.baseN
                                       : (size_t)curM_ * tiling_.baseM * ld + (size_t)curN_ * tiling_.baseN;
        gm_check_rows(gm.ptr_ + off, (uint64_t)tileN_ * sizeof(DstT), (uint64_t)ld * sizeof(DstT), tileM_, api, gm_store_mode(enAtomic));
        WriteTile_(gm.ptr_ + off, ld, enAtomic);
    }

    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT> &gm, const LocalTensor<DstT> &c, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        GetTensorC<sync>(gm, enAtomic, enSequentialWrite);
        GetTensorC<sync>(c, 0, enSequentialWrite);
    }

    /* All tiles of the singleCoreM x singleCoreN block into GM. */
    template <bool sync = true>
    void IterateAll(const GlobalTensor<DstT> &gm, uint8_t enAtomic = 0, bool enSequentialWrite = false, bool waitIterateAll = false,
                    bool fakeMsg = false) {
        (void)waitIterateAll;
        (void)fakeMsg;
        while (Iterate()) GetTensorC(gm, enAtomic, enSequentialWrite);
    }

    /* All tiles into a local singleCoreM x singleCoreN row-major block. */
    template <bool sync = true>
    void IterateAll(const LocalTensor<DstT> &ub, uint8_t enAtomic = 0) {
        while (Iterate()) GetTensorC(ub, enAtomic, false);
    }

    void WaitIterateAll() {}
    void WaitGetTensorC() {}

    /* Ends this Matmul: the next Iterate starts again from the first tile
     * of new operands. */
    void End() {
        a_.set = b_.set = false;
        Reset_();
    }

private:
    void SetA_(const void *p, bool trans, bool local) {
        a_.p = p;
        a_.e = npuemu::asc::cube::elem_of<SrcAT>();
        a_.trans = trans;
        a_.set = true;
        a_.local = local;
        packedA_ = false;
        Dirty_();
    }
    void SetB_(const void *p, bool trans, bool local) {
        b_.p = p;
        b_.e = npuemu::asc::cube::elem_of<SrcBT>();
        b_.trans = trans;
        b_.set = true;
        b_.local = local;
        packedB_ = false;
        Dirty_();
    }
    void Dirty_() {
        next_ = 0;
        haveTile_ = false;
        packedA_ = packedB_ = false;
    }
    void Reset_() {
        next_ = 0;
        haveTile_ = false;
        packedA_ = packedB_ = false;
    }

    /* Ready_ checks the operands once per Matmul and packs them. */
    void Ready_(const char *api) {
        using namespace npuemu::asc;
        if (!inited_) fault(api, "the Matmul object was not registered (rule: REGIST_MATMUL_OBJ before use)");
        if (!a_.set || !b_.set) fault(api, "SetTensorA and SetTensorB must come before Iterate (rule: operands set)");
        if (next_ != 0 || (packedA_ && packedB_)) return;
        if (singleM_ <= 0 || singleN_ <= 0 || singleK_ <= 0) fault(api, "single shape %d x %d x %d is empty (rule: positive shapes)", singleM_, singleN_, singleK_);
        if (singleK_ > orgKa_ || singleK_ > orgKb_) fault(api, "singleCoreK %d exceeds Ka %d / Kb %d (rule: singleCoreK <= K)", singleK_, orgKa_, orgKb_);
        mIter_ = (singleM_ + tiling_.baseM - 1) / tiling_.baseM;
        nIter_ = (singleN_ + tiling_.baseN - 1) / tiling_.baseN;
        iterateOrder_ = tiling_.iterateOrder;
        const size_t es = sizeof(SrcAT);
        /* A: element (i, k) at i*Ka + k, transposed at k*M + i. */
        size_t aRs = a_.trans ? 1 : (size_t)orgKa_, aCs = a_.trans ? (size_t)orgM_ : 1;
        size_t bRs = b_.trans ? 1 : (size_t)orgN_, bCs = b_.trans ? (size_t)orgKb_ : 1;
        /* NZ operands: the stored matrix (M x Ka for A, Ka x ... ) in
         * 32-byte columns of 16-aligned height. */
        const size_t c0 = 32 / es;
        cube::Mat am{a_.p, a_.e, aRs, aCs}, bm{b_.p, b_.e, bRs, bCs};
        if constexpr (A_TYPE::format == CubeFormat::NZ) {
            am.nzRows = ((size_t)(a_.trans ? orgKa_ : orgM_) + 15) / 16 * 16;
            am.nzTrans = a_.trans;
            size_t cols = a_.trans ? (size_t)orgM_ : (size_t)orgKa_;
            if (!a_.local) gm_check(a_.p, (cols + c0 - 1) / c0 * c0 * am.nzRows * es, "Matmul::SetTensorA", kGmRead);
        } else if (!a_.local) {
            /* rows of A (or of A^T) apart by aRs (aCs) elements */
            if (aCs == 1) {
                gm_check_rows(a_.p, (size_t)singleK_ * es, aRs * es, singleM_, "Matmul::SetTensorA", kGmRead);
            } else {
                gm_check_rows(a_.p, (size_t)singleM_ * es, aCs * es, singleK_, "Matmul::SetTensorA", kGmRead);
            }
        }
        if constexpr (B_TYPE::format == CubeFormat::NZ) {
            bm.nzRows = ((size_t)(b_.trans ? orgN_ : orgKb_) + 15) / 16 * 16;
            bm.nzTrans = b_.trans;
            size_t cols = b_.trans ? (size_t)orgKb_ : (size_t)orgN_;
            if (!b_.local) gm_check(b_.p, (cols + c0 - 1) / c0 * c0 * bm.nzRows * es, "Matmul::SetTensorB", kGmRead);
        } else if (!b_.local) {
            if (bCs == 1) {
                gm_check_rows(b_.p, (size_t)singleN_ * es, bRs * es, singleK_, "Matmul::SetTensorB", kGmRead);
            } else {
                gm_check_rows(b_.p, (size_t)singleK_ * es, bCs * es, singleN_, "Matmul::SetTensorB", kGmRead);
            }
        }
        if (biasOn_) {
            if (bias_ == nullptr) fault(api, "the tiling enables bias (isBias) but SetBias was not called (rule: bias operand)", kGmRead);
            if (!biasLocal_) gm_check(bias_, (uint64_t)singleN_ * sizeof(BiasT), "Matmul::SetBias", kGmRead);
        }
        if constexpr (kFloatIn) {
            cube::pack_a(am, singleM_, singleK_, pa_);
            cube::pack_b(bm, singleK_, singleN_, pb_);
        }
        aRs_ = aRs;
        aCs_ = aCs;
        bRs_ = bRs;
        bCs_ = bCs;
        packedA_ = packedB_ = true;
    }

    void ComputeTile_(bool partial) {
        using namespace npuemu::asc;
        const int bm = tiling_.baseM, bn = tiling_.baseN;
        const int m0 = curM_ * bm, n0 = curN_ * bn;
        tileM_ = singleM_ - m0 < bm ? singleM_ - m0 : bm;
        tileN_ = singleN_ - n0 < bn ? singleN_ - n0 : bn;
        const bool acc = partial && haveTile_;
        if (acc_.size() < (size_t)bm * bn) acc_.assign((size_t)bm * bn, 0.0f);
        if constexpr (kFloatIn) {
            cube::gemm_packed(pa_, pb_, m0, tileM_, n0, tileN_, acc_.data(), bn, acc);
        } else {
            const SrcAT *A = static_cast<const SrcAT *>(a_.p), *B = static_cast<const SrcBT *>(b_.p);
            accI_.resize(acc_.size());
            for (int i = 0; i < tileM_; i++)
                for (int j = 0; j < tileN_; j++) {
                    int32_t s = 0;
                    for (int k = 0; k < singleK_; k++) s += (int32_t)A[(m0 + i) * aRs_ + k * aCs_] * (int32_t)B[k * bRs_ + (n0 + j) * bCs_];
                    float &d = acc_[(size_t)i * bn + j];
                    accI_[(size_t)i * bn + j] = (acc ? accI_[(size_t)i * bn + j] : 0) + s;
                    d = (float)accI_[(size_t)i * bn + j];
                }
        }
        if (biasOn_ && !acc) {
            const BiasT *bias = static_cast<const BiasT *>(bias_);
            for (int i = 0; i < tileM_; i++)
                for (int j = 0; j < tileN_; j++) acc_[(size_t)i * bn + j] += static_cast<float>(bias[n0 + j]);
            if constexpr (kInt8) {
                for (int i = 0; i < tileM_; i++)
                    for (int j = 0; j < tileN_; j++) accI_[(size_t)i * bn + j] += static_cast<int32_t>(bias[n0 + j]);
            }
        }
        haveTile_ = true;
        /* The cube's cycles for this tile. */
        const uint32_t k0 = 32 / sizeof(SrcAT);
        const uint64_t kB = (singleK_ + k0 - 1) / k0;
        const uint64_t aBytes = (uint64_t)tileM_ * singleK_ * sizeof(SrcAT), bBytes = (uint64_t)singleK_ * tileN_ * sizeof(SrcBT);
        charge(PIPE_MTE2, copy_cycles(PIPE_MTE2, aBytes + bBytes + (biasOn_ ? tileN_ * sizeof(BiasT) : 0)));
        charge(PIPE_MTE1, copy_cycles(PIPE_MTE1, aBytes + bBytes));
        charge(PIPE_M, (uint64_t)((tileM_ + 15) / 16) * ((tileN_ + 15) / 16) * kB);
    }

    /* Writes the current tile at d (rows ld elements apart). */
    template <typename P>
    void WriteTile_(P *d, size_t ld, uint8_t atomic) {
        using namespace npuemu::asc;
        const int bn = tiling_.baseN;
        std::unique_lock<std::mutex> lk;
        if (atomic) lk = std::unique_lock<std::mutex>(AscendC::detail::atomic_mutex());
        for (int i = 0; i < tileM_; i++) {
            P *row = d + (size_t)i * ld;
            const float *src = acc_.data() + (size_t)i * bn;
            for (int j = 0; j < tileN_; j++) {
                DstT v;
                if constexpr (kInt8 && std::is_same<DstT, int32_t>::value) {
                    v = accI_[(size_t)i * bn + j];
                } else {
                    v = static_cast<DstT>(src[j]);
                }
                if (atomic == 1) {
                    row[j] = static_cast<DstT>(row[j] + v);
                } else if (atomic == 2) {
                    row[j] = v > row[j] ? v : row[j];
                } else if (atomic == 3) {
                    row[j] = v < row[j] ? v : row[j];
                } else {
                    row[j] = v;
                }
            }
        }
        charge(PIPE_FIX, cube::fix_cycles((uint64_t)tileM_ * tileN_ * sizeof(DstT)));
    }

    TCubeTiling tiling_{};
    TPipe *pipe_ = nullptr;
    const void *workspace_ = nullptr;
    bool inited_ = false;
    int orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
    int singleM_ = 0, singleN_ = 0, singleK_ = 0;
    npuemu::asc::mm::Operand a_, b_;
    const void *bias_ = nullptr;
    bool biasLocal_ = false;
    bool biasOn_ = false;
    size_t aRs_ = 0, aCs_ = 0, bRs_ = 0, bCs_ = 0;
    npuemu::asc::cube::PackedA pa_;
    npuemu::asc::cube::PackedB pb_;
    bool packedA_ = false, packedB_ = false;
    int mIter_ = 0, nIter_ = 0, iterateOrder_ = 0;
    int next_ = 0, curM_ = 0, curN_ = 0, tileM_ = 0, tileN_ = 0;
    bool haveTile_ = false;
    std::vector<float> acc_;
    std::vector<int32_t> accI_;
};

} // namespace AscendC

namespace npuemu {
namespace asc {
namespace mm {

inline void regist(AscendC::TPipe *, GM_ADDR) {}

/* One object without its tiling: the kernel calls mm.Init(&tiling) later. */
template <class MM>
inline void regist(AscendC::TPipe *pipe, GM_ADDR ws, MM &obj) {
    (void)pipe;
    obj.SetWorkspace(ws, 0);
}

/* Objects with their tilings; a NULL tiling leaves Init to the kernel. */
template <class MM, class... Rest>
inline void regist(AscendC::TPipe *pipe, GM_ADDR ws, MM &obj, const TCubeTiling *tiling, Rest &&...rest) {
    obj.SetWorkspace(ws, 0);
    if (tiling != nullptr) obj.Init(tiling, pipe);
    regist(pipe, ws, rest...);
}

template <class MM, class... Rest>
inline void regist(AscendC::TPipe *pipe, GM_ADDR ws, MM &obj, TCubeTiling *tiling, Rest &&...rest) {
    regist(pipe, ws, obj, static_cast<const TCubeTiling *>(tiling), rest...);
}

template <class MM, class... Rest>
inline void regist(AscendC::TPipe *pipe, GM_ADDR ws, MM &obj, std::nullptr_t, Rest &&...rest) {
    regist(pipe, ws, obj, static_cast<const TCubeTiling *>(nullptr), rest...);
}

/* True on the AIC sub-block of a MIX launch: it serves the AIVs on
 * hardware and has nothing to do here. */
inline bool aic_of_mix() { return is_mix() && is_aic(); }

} // namespace mm
} // namespace asc
} // namespace npuemu

/* REGIST_MATMUL_OBJ(pipe, workspace, mm1, &tiling1[, mm2, &tiling2 ...]):
 * registers the Matmul objects (a tiling may be NULL, or a single object
 * may come alone: the kernel then calls mm.Init(&tiling) itself). On the AIC of a MIX kernel it returns from
 * the enclosing (kernel) function, as the vendor's does. */
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                                         \
    if (npuemu::asc::mm::aic_of_mix()) {                                                                  \
        return;                                                                                           \
    }                                                                                                     \
    npuemu::asc::mm::regist((tpipe), (GM_ADDR)(workspace), __VA_ARGS__)

/* The vendor's kernels name these through namespace matmul. */
namespace matmul {
using AscendC::CFG_IBSHARE_NORM;
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
using AscendC::CubeFormat;
using AscendC::GetBasicConfig;
using AscendC::GetIBShareNormConfig;
using AscendC::GetMDLConfig;
using AscendC::GetNormalConfig;
using AscendC::LayoutMode;
using AscendC::Matmul;
using AscendC::MatmulCallBackFunc;
using AscendC::MatmulConfig;
using AscendC::MatmulType;
using AscendC::MatmulVersion;
using AscendC::MM_CFG_BB;
using AscendC::ScheduleType;
/* Kernels call it unqualified next to REGIST_MATMUL_OBJ with only
 * `using namespace matmul;` in scope. */
using AscendC::GetSysWorkSpacePtr;
} // namespace matmul

#endif
