/* reduce.cpp: reductions, GatherMask and Sort32 on 256 floats x. Output
 * o (float words):
 *  [0..2]   ReduceSum, ReduceMax (value, index), count form;
 *  [4..5]   ReduceMin with calIndex (value, index bits);
 *  [8..11]  WholeReduceSum of each of the 4 repeats (64 elements);
 *  [16..23] WholeReduceMax (value, index) of each repeat, pairs;
 *  [32..63] BlockReduceSum of the 32 blocks (4 repeats x 8 blocks);
 *  [64..]   GatherMask of the even elements of x[0..64) (32 values);
 *  [96]     the count GatherMask reports;
 *  [128..]  Sort32 of x[0..32) with indices 0..31: 32 (score, index) pairs. */
#include "entry.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void reduce_all(GM_ADDR px, GM_ADDR po) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bo, bw, bi, bp;
    pipe.InitBuffer(bx, 1024);
    pipe.InitBuffer(bo, 1024);
    pipe.InitBuffer(bw, 1024);
    pipe.InitBuffer(bi, 128);
    pipe.InitBuffer(bp, 32);
    GlobalTensor<float> gx, go;
    gx.SetGlobalBuffer((__gm__ float *)px, 256);
    go.SetGlobalBuffer((__gm__ float *)po, 256 + 64);
    LocalTensor<float> x = bx.Get<float>(), o = bo.Get<float>(), w = bw.Get<float>();
    DataCopy(x, gx, 256);
    Duplicate(o, 0.0f, 256);
    ReduceSum(o, x, w, 256);
    ReduceMax(o[1], x, w, 256, true);
    uint64_t all[2] = {~0ull, 0};
    ReduceMin(o[4], x, w, all, 4, 8, true);
    WholeReduceSum(o[8], x, 64, 4, 1, 1, 8);
    WholeReduceMax(o[16], x, 64, 4, 1, 1, 8);
    BlockReduceSum(o[32], x, 4, 64, 1, 1, 8);
    LocalTensor<uint32_t> pat = bp.Get<uint32_t>();
    for (int i = 0; i < 8; i++) pat.SetValue(i, 0x55555555u);
    uint64_t cnt = 0;
    GatherMask(o[64], x, pat, true, 64, {1, 1, 8, 0}, cnt);
    o.SetValue(96, (float)cnt);
    LocalTensor<uint32_t> idx = bi.Get<uint32_t>();
    for (int i = 0; i < 32; i++) idx.SetValue(i, (uint32_t)i);
    LocalTensor<float> srt = bw.Get<float>();
    Sort32(srt, x, idx, 1);
    DataCopy(go, o, 128);
    DataCopy(go[128], srt, 64);
}

ASC_ENTRY(reduce_all, NPUEMU_VECTOR, reduce_all(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
NPUEMU_KERNEL_TABLE(ASC_ROW(reduce_all, NPUEMU_VECTOR))
