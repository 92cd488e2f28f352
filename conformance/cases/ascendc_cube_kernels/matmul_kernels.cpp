/* Ascend C kernels of the ascendc_cube_matmul case: the high-level Matmul
 * API in a MIX kernel (each AIV computes its singleCoreM x singleCoreN part
 * as the tiling says), with the C tiles fetched to GM (IterateAll) or to a
 * local tensor (Iterate + GetTensorC) and copied out. */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

namespace {

template <bool TRANS_B>
struct MatmulKernel {
    using A = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
    using B = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, TRANS_B>;
    using C = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    using Bias = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    Matmul<A, B, C, Bias> mm;
    TCubeTiling tiling;
};

inline void LoadTiling(TCubeTiling &t, GM_ADDR g) {
    const uint32_t *src = reinterpret_cast<const uint32_t *>(g);
    uint32_t *dst = reinterpret_cast<uint32_t *>(&t);
    for (size_t i = 0; i < sizeof(TCubeTiling) / 4; i++) dst[i] = src[i];
}

/* The offsets of this core's block of A, B, C, bias (M split first). */
inline void Offsets(const TCubeTiling &t, bool transB, int64_t &oa, int64_t &ob, int64_t &oc, int64_t &obias) {
    int64_t idx = AscendC::GetBlockIdx();
    int64_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    int64_t mi = idx % mBlocks, ni = idx / mBlocks;
    oa = mi * t.singleCoreM * t.Ka;
    ob = transB ? ni * t.singleCoreN * t.Kb : ni * t.singleCoreN;
    oc = mi * t.singleCoreM * t.N + ni * t.singleCoreN;
    obias = ni * t.singleCoreN;
}

} // namespace

/* C = A * B + bias with IterateAll to GM; B transposed (stored N x K) when
 * transB. Cores past usedCoreNum do nothing. */
extern "C" __global__ __aicore__ void mm_iterate_all(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGM, uint32_t transB) {
    AscendC::TPipe pipe;
    MatmulKernel<false> k;
    MatmulKernel<true> kt;
    LoadTiling(k.tiling, tilingGM);
    kt.tiling = k.tiling;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), k.mm, &k.tiling, kt.mm, &kt.tiling);
    if (AscendC::GetBlockIdx() >= k.tiling.usedCoreNum) return;
    int64_t oa, ob, oc, obias;
    Offsets(k.tiling, transB != 0, oa, ob, oc, obias);
    AscendC::GlobalTensor<half> aG, bG;
    AscendC::GlobalTensor<float> cG, biasG;
    aG.SetGlobalBuffer((__gm__ half *)a + oa);
    bG.SetGlobalBuffer((__gm__ half *)b + ob);
    cG.SetGlobalBuffer((__gm__ float *)c + oc);
    biasG.SetGlobalBuffer((__gm__ float *)bias + obias);
    /* The last core in M or N gets what is left (SetTail). */
    int64_t mBlocks = (k.tiling.M + k.tiling.singleCoreM - 1) / k.tiling.singleCoreM;
    int64_t mi = AscendC::GetBlockIdx() % mBlocks, ni = AscendC::GetBlockIdx() / mBlocks;
    int tailM = (int)(k.tiling.M - mi * k.tiling.singleCoreM), tailN = (int)(k.tiling.N - ni * k.tiling.singleCoreN);
    tailM = tailM < k.tiling.singleCoreM ? tailM : k.tiling.singleCoreM;
    tailN = tailN < k.tiling.singleCoreN ? tailN : k.tiling.singleCoreN;
    if (transB) {
        kt.mm.SetTail(tailM, tailN);
        kt.mm.SetTensorA(aG);
        kt.mm.SetTensorB(bG, true);
        kt.mm.SetBias(biasG);
        kt.mm.IterateAll(cG);
        kt.mm.End();
    } else {
        k.mm.SetTail(tailM, tailN);
        k.mm.SetTensorA(aG);
        k.mm.SetTensorB(bG);
        k.mm.SetBias(biasG);
        k.mm.IterateAll(cG);
        k.mm.End();
    }
}

/* C = A * B (no bias) tile by tile: Iterate, GetTensorC into a VECIN
 * tensor (baseM x baseN, sequential), then DataCopy to its place in C. */
extern "C" __global__ __aicore__ void mm_iterate_local(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGM) {
    AscendC::TPipe pipe;
    using A = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
    using C = MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, float>;
    Matmul<A, A, C, C> mm;
    TCubeTiling t;
    LoadTiling(t, tilingGM);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (AscendC::GetBlockIdx() >= t.usedCoreNum) return;
    int64_t oa, ob, oc, obias;
    Offsets(t, false, oa, ob, oc, obias);
    AscendC::GlobalTensor<half> aG, bG;
    AscendC::GlobalTensor<float> cG;
    aG.SetGlobalBuffer((__gm__ half *)a + oa);
    bG.SetGlobalBuffer((__gm__ half *)b + ob);
    cG.SetGlobalBuffer((__gm__ float *)c + oc);
    AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, t.baseM * t.baseN * sizeof(float));
    mm.SetTensorA(aG);
    mm.SetTensorB(bG);
    uint32_t n = 0;
    const uint32_t roundM = (t.singleCoreM + t.baseM - 1) / t.baseM;
    while (mm.Iterate()) {
        AscendC::LocalTensor<float> cl = q.AllocTensor<float>();
        mm.GetTensorC(cl, 0, true);
        q.EnQue(cl);
        cl = q.DeQue<float>();
        uint32_t mi = t.iterateOrder == 0 ? n % roundM : n / ((t.singleCoreN + t.baseN - 1) / t.baseN);
        uint32_t ni = t.iterateOrder == 0 ? n / roundM : n % ((t.singleCoreN + t.baseN - 1) / t.baseN);
        AscendC::DataCopyParams p((uint16_t)t.baseM, (uint16_t)(t.baseN * sizeof(float) / 32), 0,
                                  (uint16_t)((t.N - t.baseN) * sizeof(float) / 32));
        AscendC::DataCopy(cG[(int64_t)mi * t.baseM * t.N + ni * t.baseN], cl, p);
        q.FreeTensor(cl);
        n++;
    }
    mm.End();
}

/* REGIST_MATMUL_OBJ with a tiling whose base block does not fit L0C. */
extern "C" __global__ __aicore__ void mm_bad_tiling(GM_ADDR tilingGM) {
    AscendC::TPipe pipe;
    using A = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
    using C = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    Matmul<A, A, C, C> mm;
    TCubeTiling t;
    LoadTiling(t, tilingGM);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
}

/* C = A * B on one core with A given in NZ (32-byte columns of
 * align16(M) rows) and B transposed in NZ. */
extern "C" __global__ __aicore__ void mm_nz(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGM) {
    AscendC::TPipe pipe;
    using A = MatmulType<AscendC::TPosition::GM, CubeFormat::NZ, half>;
    using B = MatmulType<AscendC::TPosition::GM, CubeFormat::NZ, half, true>;
    using C = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    Matmul<A, B, C, C> mm;
    TCubeTiling t;
    LoadTiling(t, tilingGM);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (AscendC::GetBlockIdx() != 0) return;
    AscendC::GlobalTensor<half> aG, bG;
    AscendC::GlobalTensor<float> cG;
    aG.SetGlobalBuffer((__gm__ half *)a);
    bG.SetGlobalBuffer((__gm__ half *)b);
    cG.SetGlobalBuffer((__gm__ float *)c);
    mm.SetTensorA(aG);
    mm.SetTensorB(bG, true);
    mm.IterateAll(cG);
    mm.End();
}
