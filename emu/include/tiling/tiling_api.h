// npuemu-cxx17: this header is C++ only (C++11 or later; see docs/ascendc-cube.md).
/* tiling/tiling_api.h: the host-side Matmul tiling API of Ascend C
 * (matmul_tiling::MatmulApiTiling, MultiCoreMatmulTiling) and the host
 * tiling class optiling::TCubeTiling, on npuemu. C++11 or later.
 *
 * GetTiling fills a TCubeTiling (host class or the kernel struct of
 * kernel_tiling/kernel_tiling.h, the same bytes) that npuemu's Matmul
 * (lib/matmul_intf.h) runs; it returns 0, or -1 with the reason logged
 * through libascendalog (ASCEND_SLOG_PRINT_TO_STDOUT=1 shows it) and
 * kept in GetErrorMessage(). The algorithm and its decisions are in
 * docs/ascendc-cube.md. Implemented in libtiling_api.so
 * (ascendc/hostlib/tiling_api).
 */
#ifndef NPUEMU_TILING_TILING_API_H
#define NPUEMU_TILING_TILING_API_H

#include <cstdint>
#include <string>

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

#define NPUEMU_TCUBE_TILING_HOST_FIELD_(name) TILING_DATA_FIELD_DEF(int32_t, name);
/* The host side of TCubeTiling: set_<field>/get_<field>, GetDataSize()
 * (== sizeof(::TCubeTiling)), SaveToBuffer. */
BEGIN_TILING_DATA_DEF(TCubeTiling)
NPUEMU_TCUBE_TILING_FIELDS(NPUEMU_TCUBE_TILING_HOST_FIELD_)
END_TILING_DATA_DEF;
#undef NPUEMU_TCUBE_TILING_HOST_FIELD_

} // namespace optiling

namespace matmul_tiling {

/* Where an operand lives (the kernel's TPosition names). */
enum class TPosition : int32_t {
    GM = 0,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    MAX,
};

enum class CubeFormat : int32_t {
    ND = 0,
    NZ,
    ZN,
    ZZ,
    NN,
    ND_ALIGN,
    SCALAR,
    VECTOR,
    ROW_MAJOR = ND,
    COLUMN_MAJOR = 8,
};

/* Element types, numbered as ge::DataType. */
enum class DataType : int32_t {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_BF16 = 27,
    DT_INT4 = 29,
    DT_UNDEFINED = 28,
};

/* Order in which Iterate walks the C tiles. */
enum class MatrixTraverse : int32_t {
    NOSET = 0,
    FIRSTM = 1, /* along M first (iterateOrder 0) */
    FIRSTN = 2, /* along N first (iterateOrder 1) */
};

enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };

/* One operand's description. */
struct MatmulType_ {
    TPosition pos = TPosition::GM;
    CubeFormat type = CubeFormat::ND;
    DataType dataType = DataType::DT_UNDEFINED;
    bool isTrans = false;
    bool set = false;
};

class MatmulApiTilingBase {
public:
    /* The node's platform (PlatformAscendCManager::GetInstance()). */
    MatmulApiTilingBase();
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC &ascendcPlatform);
    virtual ~MatmulApiTilingBase();

    int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
    int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
    int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType);
    int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType);
    int32_t SetDequantType(DequantType dequantType);

    /* The problem this tiling computes (M, N, K), and the full matrices it
     * is part of (row lengths of A, B, C). */
    int32_t SetShape(int32_t m, int32_t n, int32_t k);
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn);
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn);
    int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1);
    /* Sizes the tiling may use; -1 = the whole buffer of the platform. */
    int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1);
    int32_t SetTraverse(MatrixTraverse traverse);
    int32_t SetMadType(MatrixMadType madType);
    int32_t SetBias(bool isBiasIn = false);
    int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true);
    int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1, int32_t maxBaseK = -1, int32_t minBaseM = -1,
                          int32_t minBaseN = -1, int32_t minBaseK = -1);

    virtual int64_t GetTiling(optiling::TCubeTiling &tiling) = 0;
    virtual int64_t GetTiling(::TCubeTiling &tiling) = 0;

    int32_t GetBaseM() const { return result_.baseM; }
    int32_t GetBaseN() const { return result_.baseN; }
    int32_t GetBaseK() const { return result_.baseK; }
    /* npuemu: why the last GetTiling failed ("" after a success). */
    const char *GetErrorMessage() const { return error_; }

protected:
    /* Computes result_ for mDim x nDim cores' worth of work; false on error. */
    bool Compute_(int32_t maxCores, bool multiCore);
    void Fill_(optiling::TCubeTiling &t) const;
    bool Fail_(const std::string &msg); /* used inside libtiling_api only */
    bool Store_(const char *msg);

    const platform_ascendc::PlatformAscendC *platform_;
    MatmulType_ a_, b_, c_, bias_;
    int32_t m_ = -1, n_ = -1, k_ = -1;
    int32_t orgM_ = -1, orgN_ = -1, orgKa_ = -1, orgKb_ = -1;
    int32_t fixBaseM_ = -1, fixBaseN_ = -1, fixBaseK_ = -1;
    int32_t singleM_ = -1, singleN_ = -1, singleK_ = -1;
    int32_t l1Size_ = -1, l0cSize_ = -1, ubSize_ = -1, btSize_ = -1;
    MatrixTraverse traverse_ = MatrixTraverse::NOSET;
    MatrixMadType madType_ = MatrixMadType::NORMAL;
    bool isBias_ = false;
    bool dbL0C_ = true;
    int32_t mDim_cache_ = 1, nDim_cache_ = 1;
    ::TCubeTiling result_ = {};
    /* No std::string member: the class must have one layout whatever
     * _GLIBCXX_USE_CXX11_ABI the program uses (the vendor's samples build
     * with 0). */
    char error_[512] = {0};
};

/* The tiling of one core's Matmul. */
class MatmulApiTiling : public MatmulApiTilingBase {
public:
    MatmulApiTiling() : MatmulApiTilingBase() {}
    explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC &ascendcPlatform)
        : MatmulApiTilingBase(ascendcPlatform) {}
    int64_t GetTiling(optiling::TCubeTiling &tiling) override;
    int64_t GetTiling(::TCubeTiling &tiling) override;
};

/* The tiling of a Matmul split over SetDim cores (M and N are split, K
 * never: singleCoreK = K). */
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    MultiCoreMatmulTiling() : MatmulApiTilingBase() {}
    explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC &ascendcPlatform)
        : MatmulApiTilingBase(ascendcPlatform) {}
    /* Cores the Matmul may use (1 .. the platform's AIV count on A2). */
    int32_t SetDim(int32_t dim);
    int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1);
    int32_t GetSingleShape(int32_t &shapeM, int32_t &shapeN, int32_t &shapeK);
    int32_t GetCoreNum(int32_t &dim, int32_t &mDim, int32_t &nDim);
    int64_t GetTiling(optiling::TCubeTiling &tiling) override;
    int64_t GetTiling(::TCubeTiling &tiling) override;

private:
    int32_t dim_ = -1;
};

} // namespace matmul_tiling

#endif /* NPUEMU_TILING_TILING_API_H */
