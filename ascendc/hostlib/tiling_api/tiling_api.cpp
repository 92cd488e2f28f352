// libtiling_api: matmul_tiling::MatmulApiTiling and MultiCoreMatmulTiling
// (tiling/tiling_api.h). The algorithm (docs/ascendc-cube.md, "Tiling"):
//   1. cores: MultiCore splits M and N (never K) into mDim x nDim <= dim
//      blocks, choosing the split that uses the most cores, then the
//      smallest per-core tile, then the one whose single-core sizes are
//      whole multiples of fixed base sizes, then the squarest;
//   2. base block: SetFixSplit's values where given, else baseM <= 128 and
//      baseN <= 256 (16-aligned), shrunk until L0C holds baseM x baseN of
//      the accumulator type; baseK the largest multiple of the fractal K
//      (32 bytes of the input type) that fits half of L0A and of L0B
//      (double buffering), up to singleCoreK;
//   3. L1: stepM = stepN = 1, stepKa = stepKb = as many baseK slices as fit
//      a double-buffered A and B copy in L1 (less the bias); depthA1/B1 =
//      2 * stepM * stepKa (resp. stepN * stepKb).
// Every size rule the documentation states for TCubeTiling is checked; a
// violation fails GetTiling with -1 and a message.
#include "tiling/tiling_api.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

extern "C" void DlogRecord(int moduleId, int level, const char *fmt, ...) __attribute__((weak));

namespace matmul_tiling {
namespace {

constexpr int kLogModule = 57;  // NPUEMU_DLOG_MODULE_ASCENDC
constexpr int kLogError = 3;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t alignUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

// elemBytes is the size of one element; 0 for types the cube cannot take.
int elemBytes(DataType t) {
    switch (t) {
    case DataType::DT_FLOAT16:
    case DataType::DT_BF16:
    case DataType::DT_INT16:
    case DataType::DT_UINT16: return 2;
    case DataType::DT_FLOAT:
    case DataType::DT_INT32:
    case DataType::DT_UINT32: return 4;
    case DataType::DT_INT8:
    case DataType::DT_UINT8: return 1;
    default: return 0;
    }
}

const char *typeName(DataType t) {
    switch (t) {
    case DataType::DT_FLOAT16: return "DT_FLOAT16";
    case DataType::DT_BF16: return "DT_BF16";
    case DataType::DT_FLOAT: return "DT_FLOAT";
    case DataType::DT_INT8: return "DT_INT8";
    case DataType::DT_INT32: return "DT_INT32";
    default: return "unsupported";
    }
}

// accumulator returns the L0C type of an A/B input type, or UNDEFINED.
DataType accumulator(DataType in) {
    switch (in) {
    case DataType::DT_FLOAT16:
    case DataType::DT_BF16:
    case DataType::DT_FLOAT: return DataType::DT_FLOAT;
    case DataType::DT_INT8: return DataType::DT_INT32;
    default: return DataType::DT_UNDEFINED;
    }
}

}  // namespace

MatmulApiTilingBase::MatmulApiTilingBase() : platform_(platform_ascendc::PlatformAscendCManager::GetInstance()) {}

MatmulApiTilingBase::MatmulApiTilingBase(const platform_ascendc::PlatformAscendC &ascendcPlatform)
    : platform_(&ascendcPlatform) {}

MatmulApiTilingBase::~MatmulApiTilingBase() {}

int32_t MatmulApiTilingBase::SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
    a_ = MatmulType_{pos, type, dataType, isTrans, true};
    return 0;
}

int32_t MatmulApiTilingBase::SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
    b_ = MatmulType_{pos, type, dataType, isTrans, true};
    return 0;
}

int32_t MatmulApiTilingBase::SetCType(TPosition pos, CubeFormat type, DataType dataType) {
    c_ = MatmulType_{pos, type, dataType, false, true};
    return 0;
}

int32_t MatmulApiTilingBase::SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
    bias_ = MatmulType_{pos, type, dataType, false, true};
    return 0;
}

int32_t MatmulApiTilingBase::SetDequantType(DequantType dequantType) {
    (void)dequantType;  // int8 -> int32 results carry no dequantisation on npuemu
    return 0;
}

int32_t MatmulApiTilingBase::SetShape(int32_t m, int32_t n, int32_t k) {
    m_ = m;
    n_ = n;
    k_ = k;
    return 0;
}

int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
    return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
}

int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
    orgM_ = orgMIn;
    orgN_ = orgNIn;
    orgKa_ = orgKaIn;
    orgKb_ = orgKbIn;
    return 0;
}

int32_t MatmulApiTilingBase::SetFixSplit(int32_t baseMIn, int32_t baseNIn, int32_t baseKIn) {
    fixBaseM_ = baseMIn;
    fixBaseN_ = baseNIn;
    fixBaseK_ = baseKIn;
    return 0;
}

int32_t MatmulApiTilingBase::SetBufferSpace(int32_t l1Size, int32_t l0CSize, int32_t ubSize, int32_t btSize) {
    l1Size_ = l1Size;
    l0cSize_ = l0CSize;
    ubSize_ = ubSize;
    btSize_ = btSize;
    return 0;
}

int32_t MatmulApiTilingBase::SetTraverse(MatrixTraverse traverse) {
    traverse_ = traverse;
    return 0;
}

int32_t MatmulApiTilingBase::SetMadType(MatrixMadType madType) {
    madType_ = madType;
    return 0;
}

int32_t MatmulApiTilingBase::SetBias(bool isBiasIn) {
    isBias_ = isBiasIn;
    return 0;
}

int32_t MatmulApiTilingBase::SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ, bool transNZ2ND) {
    (void)a;
    (void)b;
    (void)bias;
    (void)transND2NZ;
    (void)transNZ2ND;
    dbL0C_ = c;
    return 0;
}

int32_t MatmulApiTilingBase::SetSplitRange(int32_t maxBaseM, int32_t maxBaseN, int32_t maxBaseK, int32_t minBaseM,
                                           int32_t minBaseN, int32_t minBaseK) {
    (void)maxBaseM;
    (void)maxBaseN;
    (void)maxBaseK;
    (void)minBaseM;
    (void)minBaseN;
    (void)minBaseK;
    return 0;
}

bool MatmulApiTilingBase::Fail_(const std::string &msg) { return Store_(msg.c_str()); }

bool MatmulApiTilingBase::Store_(const char *msg) {
    snprintf(error_, sizeof error_, "matmul tiling: %s", msg);
    if (DlogRecord != nullptr) {
        DlogRecord(kLogModule, kLogError, "%s", error_);
    }
    return false;
}

// Compute_ fills result_ from the settings; multiCore splits over up to
// maxCores cores.
bool MatmulApiTilingBase::Compute_(int32_t maxCores, bool multiCore) {
    error_[0] = '\0';
    result_ = ::TCubeTiling{};
    if (!a_.set || !b_.set || !c_.set) {
        return Fail_("SetAType, SetBType and SetCType must be called before GetTiling");
    }
    if (a_.dataType != b_.dataType) {
        return Fail_(std::string("A and B must have one type, got ") + typeName(a_.dataType) + " and " +
                     typeName(b_.dataType));
    }
    DataType acc = accumulator(a_.dataType);
    if (acc == DataType::DT_UNDEFINED) {
        return Fail_(std::string("A/B type ") + typeName(a_.dataType) +
                     " is not a cube input (DT_FLOAT16, DT_BF16, DT_FLOAT, DT_INT8)");
    }
    int inBytes = elemBytes(a_.dataType);
    if (elemBytes(c_.dataType) == 0) {
        return Fail_(std::string("C type ") + typeName(c_.dataType) + " is not supported");
    }
    for (const MatmulType_ *t : {&a_, &b_}) {
        if (t->type != CubeFormat::ND && t->type != CubeFormat::NZ) {
            return Fail_("A and B formats must be ND or NZ");
        }
    }
    if (isBias_ && bias_.set && elemBytes(bias_.dataType) == 0) {
        return Fail_(std::string("bias type ") + typeName(bias_.dataType) + " is not supported");
    }
    int32_t M = m_, N = n_, K = k_;
    if (M <= 0 && orgM_ > 0) {  // SetShape omitted: the whole original matrices
        M = orgM_;
        N = orgN_;
        K = orgKa_;
    }
    if (M <= 0 || N <= 0 || K <= 0) {
        return Fail_("shape must be positive: call SetShape or SetOrgShape (M=" + std::to_string(M) +
                     " N=" + std::to_string(N) + " K=" + std::to_string(K) + ")");
    }
    int32_t orgM = orgM_ > 0 ? orgM_ : M, orgN = orgN_ > 0 ? orgN_ : N;
    int32_t orgKa = orgKa_ > 0 ? orgKa_ : K, orgKb = orgKb_ > 0 ? orgKb_ : K;
    if (M > orgM || N > orgN || K > orgKa || K > orgKb) {
        return Fail_("SetShape's M/N/K exceed SetOrgShape's");
    }

    uint64_t l0a = 0, l0b = 0, l0c = 0, l1 = 0, bt = 0;
    platform_->GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, l0a);
    platform_->GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, l0b);
    platform_->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
    platform_->GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
    platform_->GetCoreMemSize(platform_ascendc::CoreMemType::BT, bt);
    if (l1Size_ > 0) {
        if (static_cast<uint64_t>(l1Size_) > l1) {
            return Fail_("SetBufferSpace l1Size " + std::to_string(l1Size_) + " exceeds L1 (" + std::to_string(l1) + ")");
        }
        l1 = l1Size_;
    }
    if (l0cSize_ > 0) {
        if (static_cast<uint64_t>(l0cSize_) > l0c) {
            return Fail_("SetBufferSpace l0CSize " + std::to_string(l0cSize_) + " exceeds L0C (" + std::to_string(l0c) + ")");
        }
        l0c = l0cSize_;
    }
    const int accBytes = 4;
    const int k0 = 32 / inBytes;  // fractal K: 32 bytes of the input type

    // 1. cores.
    int32_t mDim = 1, nDim = 1;
    int64_t singleM = M, singleN = N;
    const int64_t mAlign = fixBaseM_ > 0 ? fixBaseM_ : 16;
    const int64_t nAlign = fixBaseN_ > 0 ? fixBaseN_ : 16;
    if (multiCore && maxCores > 1) {
        if (singleM_ > 0 && singleN_ > 0) {
            singleM = singleM_;
            singleN = singleN_;
            mDim = static_cast<int32_t>(ceilDiv(M, singleM));
            nDim = static_cast<int32_t>(ceilDiv(N, singleN));
            if (mDim * nDim > maxCores) {
                return Fail_("SetSingleShape needs " + std::to_string(mDim * nDim) + " cores, SetDim allows " +
                             std::to_string(maxCores));
            }
        } else {
            struct Cand {
                int64_t used, area, aligned, perimeter;
                int32_t md, nd;
                int64_t sm, sn;
            } best{-1, 0, 0, 0, 1, 1, M, N};
            for (int32_t md = 1; md <= maxCores; md++) {
                for (int32_t nd = 1; md * nd <= maxCores; nd++) {
                    int64_t sm = alignUp(ceilDiv(M, md), 16);
                    int64_t sn = alignUp(ceilDiv(N, nd), 16);
                    if (sm % mAlign != 0 && sm > mAlign) {
                        sm = alignUp(sm, mAlign);
                    }
                    if (sn % nAlign != 0 && sn > nAlign) {
                        sn = alignUp(sn, nAlign);
                    }
                    int64_t usedM = ceilDiv(M, sm), usedN = ceilDiv(N, sn);
                    Cand c{usedM * usedN, sm * sn, (sm % mAlign == 0 ? 0 : 1) + (sn % nAlign == 0 ? 0 : 1), sm + sn,
                           static_cast<int32_t>(usedM), static_cast<int32_t>(usedN), sm, sn};
                    bool better = best.used < 0 || c.area < best.area ||
                                  (c.area == best.area && (c.aligned < best.aligned ||
                                                           (c.aligned == best.aligned && (c.perimeter < best.perimeter ||
                                                                                          (c.perimeter == best.perimeter && c.used < best.used)))));
                    if (better) {
                        best = c;
                    }
                }
            }
            mDim = best.md;
            nDim = best.nd;
            singleM = best.sm;
            singleN = best.sn;
        }
    } else if (singleM_ > 0 && singleN_ > 0) {
        singleM = singleM_;
        singleN = singleN_;
    }
    singleM = std::min<int64_t>(singleM, M);
    singleN = std::min<int64_t>(singleN, N);
    int64_t singleK = singleK_ > 0 ? singleK_ : K;
    mDim_cache_ = mDim;
    nDim_cache_ = nDim;

    // 2. base block.
    int64_t baseM, baseN, baseK;
    if (fixBaseM_ > 0) {
        baseM = fixBaseM_;
    } else {
        baseM = std::min<int64_t>(alignUp(singleM, 16), 128);
    }
    if (fixBaseN_ > 0) {
        baseN = fixBaseN_;
    } else {
        baseN = std::min<int64_t>(alignUp(singleN, 16), 256);
    }
    if (baseM % 16 != 0 || baseN % 16 != 0) {
        return Fail_("baseM and baseN must be multiples of 16 (got " + std::to_string(baseM) + ", " +
                     std::to_string(baseN) + ")");
    }
    while (static_cast<uint64_t>(baseM * baseN * accBytes) > l0c) {
        if (fixBaseM_ > 0 && fixBaseN_ > 0) {
            return Fail_("baseM*baseN*" + std::to_string(accBytes) + " = " + std::to_string(baseM * baseN * accBytes) +
                         " bytes exceeds L0C (" + std::to_string(l0c) + ")");
        }
        if (fixBaseN_ <= 0 && (baseN >= baseM || fixBaseM_ > 0)) {
            baseN -= 16;
        } else {
            baseM -= 16;
        }
    }
    if (fixBaseK_ > 0) {
        baseK = fixBaseK_;
        if (baseK % k0 != 0) {
            return Fail_("baseK must be a multiple of " + std::to_string(k0) + " for this type");
        }
    } else {
        int64_t byA = static_cast<int64_t>(l0a / 2) / (baseM * inBytes);
        int64_t byB = static_cast<int64_t>(l0b / 2) / (baseN * inBytes);
        baseK = std::min(byA, byB) / k0 * k0;
        baseK = std::min<int64_t>(baseK, alignUp(singleK, k0));
        if (baseK < k0) {
            baseK = k0;
        }
    }
    if (static_cast<uint64_t>(baseM * baseK * inBytes) > l0a) {
        return Fail_("baseM*baseK does not fit L0A (" + std::to_string(l0a) + " bytes)");
    }
    if (static_cast<uint64_t>(baseK * baseN * inBytes) > l0b) {
        return Fail_("baseK*baseN does not fit L0B (" + std::to_string(l0b) + " bytes)");
    }
    bool dbl0c = dbL0C_ && static_cast<uint64_t>(2 * baseM * baseN * accBytes) <= l0c;

    // 3. L1 staging.
    int64_t biasL1 = isBias_ ? baseN * 4 : 0;
    if (isBias_ && bt > 0 && static_cast<uint64_t>(baseN * 4) > bt) {
        // the bias table holds baseN fp32 values at a time (1 KiB: 256)
        if (fixBaseN_ > 0) {
            return Fail_("baseN " + std::to_string(baseN) + " of fp32 bias exceeds the bias table (" +
                         std::to_string(bt) + " bytes)");
        }
        baseN = static_cast<int64_t>(bt / 4) / 16 * 16;
    }
    int64_t kSteps = ceilDiv(singleK, baseK);
    int64_t perStep = 2 * (baseM + baseN) * baseK * inBytes;  // A and B slices, double buffered
    int64_t avail = static_cast<int64_t>(l1) - biasL1;
    if (perStep > avail) {
        return Fail_("one double-buffered baseM x baseK and baseK x baseN slice does not fit L1 (" +
                     std::to_string(l1) + " bytes)");
    }
    int64_t stepK = std::max<int64_t>(1, std::min<int64_t>(kSteps, avail / perStep));

    ::TCubeTiling &t = result_;
    t.usedCoreNum = mDim * nDim;
    t.M = orgM;
    t.N = orgN;
    t.Ka = orgKa;
    t.Kb = orgKb;
    t.singleCoreM = static_cast<int32_t>(singleM);
    t.singleCoreN = static_cast<int32_t>(singleN);
    t.singleCoreK = static_cast<int32_t>(singleK);
    t.baseM = static_cast<int32_t>(baseM);
    t.baseN = static_cast<int32_t>(baseN);
    t.baseK = static_cast<int32_t>(baseK);
    t.stepM = 1;
    t.stepN = 1;
    t.stepKa = static_cast<int32_t>(stepK);
    t.stepKb = static_cast<int32_t>(stepK);
    t.depthA1 = static_cast<int32_t>(2 * stepK);
    t.depthB1 = static_cast<int32_t>(2 * stepK);
    t.isBias = isBias_ ? 1 : 0;
    t.transLength = 0;
    t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
    t.shareMode = 0;
    t.shareL1Size = static_cast<int32_t>(perStep * stepK / 2 * 2 + biasL1);
    t.shareL0CSize = static_cast<int32_t>(baseM * baseN * accBytes * (dbl0c ? 2 : 1));
    t.shareUbSize = 0;
    t.batchM = 1;
    t.batchN = 1;
    t.singleBatchM = 1;
    t.singleBatchN = 1;
    t.dbL0A = 2;
    t.dbL0B = 2;
    t.dbL0C = dbl0c ? 2 : 1;
    t.BatchNum = 1;
    return true;
}

void MatmulApiTilingBase::Fill_(optiling::TCubeTiling &t) const {
#define NPUEMU_SET_FIELD_(name) t.set_##name(result_.name);
    NPUEMU_TCUBE_TILING_FIELDS(NPUEMU_SET_FIELD_)
#undef NPUEMU_SET_FIELD_
}

int64_t MatmulApiTiling::GetTiling(::TCubeTiling &tiling) {
    if (!Compute_(1, false)) {
        return -1;
    }
    tiling = result_;
    return 0;
}

int64_t MatmulApiTiling::GetTiling(optiling::TCubeTiling &tiling) {
    if (!Compute_(1, false)) {
        return -1;
    }
    Fill_(tiling);
    return 0;
}

int32_t MultiCoreMatmulTiling::SetDim(int32_t dim) {
    dim_ = dim;
    return 0;
}

int32_t MultiCoreMatmulTiling::SetSingleShape(int32_t singleMIn, int32_t singleNIn, int32_t singleKIn) {
    singleM_ = singleMIn;
    singleN_ = singleNIn;
    singleK_ = singleKIn;
    return 0;
}

int32_t MultiCoreMatmulTiling::GetSingleShape(int32_t &shapeM, int32_t &shapeN, int32_t &shapeK) {
    shapeM = result_.singleCoreM;
    shapeN = result_.singleCoreN;
    shapeK = result_.singleCoreK;
    return 0;
}

int32_t MultiCoreMatmulTiling::GetCoreNum(int32_t &dim, int32_t &mDim, int32_t &nDim) {
    dim = result_.usedCoreNum;
    mDim = mDim_cache_;
    nDim = nDim_cache_;
    return 0;
}

int64_t MultiCoreMatmulTiling::GetTiling(::TCubeTiling &tiling) {
    int32_t cores = dim_ > 0 ? dim_ : 1;
    if (dim_ > static_cast<int32_t>(platform_->GetCoreNumAiv()) && dim_ > static_cast<int32_t>(platform_->GetCoreNum())) {
        Fail_("SetDim(" + std::to_string(dim_) + ") exceeds the platform's " +
              std::to_string(platform_->GetCoreNumAiv()) + " cores");
        return -1;
    }
    if (!Compute_(cores, true)) {
        return -1;
    }
    tiling = result_;
    return 0;
}

int64_t MultiCoreMatmulTiling::GetTiling(optiling::TCubeTiling &tiling) {
    ::TCubeTiling t{};
    if (GetTiling(t) != 0) {
        return -1;
    }
    Fill_(tiling);
    return 0;
}

}  // namespace matmul_tiling
