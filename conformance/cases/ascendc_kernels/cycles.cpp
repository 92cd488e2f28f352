/* cycles.cpp: the cost model. Each kernel writes GetSystemCycle() (the
 * core's latest pipe clock) to o[0].
 *  one_copy:  one 16 KiB GM -> UB DataCopy;
 *  pipeline:  n tiles of copy in, add, copy out, through queues of
 *             `bufs` buffers (1: single buffering, 2: double). */
#include "entry.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void one_copy(GM_ADDR px, GM_ADDR po) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 16384);
    GlobalTensor<float> gx;
    GlobalTensor<int64_t> go;
    gx.SetGlobalBuffer((__gm__ float *)px, 4096);
    go.SetGlobalBuffer((__gm__ int64_t *)po, 4);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, gx, 4096);
    q.EnQue(t);
    go.ptr_[0] = GetSystemCycle(); /* raw store: no scalar charge */
}

template <int BUFS>
__aicore__ inline void pipeline(GM_ADDR px, GM_ADDR po) {
    constexpr int TILE = 2048, N = 8;
    TPipe pipe;
    TQue<TPosition::VECIN, BUFS> qx;
    TQue<TPosition::VECOUT, BUFS> qz;
    pipe.InitBuffer(qx, BUFS, TILE * 4);
    pipe.InitBuffer(qz, BUFS, TILE * 4);
    GlobalTensor<float> gx, gz;
    GlobalTensor<int64_t> go;
    gx.SetGlobalBuffer((__gm__ float *)px, TILE * N);
    gz.SetGlobalBuffer((__gm__ float *)px + TILE * N, TILE * N);
    go.SetGlobalBuffer((__gm__ int64_t *)po, 4);
    for (int i = 0; i < N; i++) {
        LocalTensor<float> x = qx.template AllocTensor<float>();
        DataCopy(x, gx[i * TILE], TILE);
        qx.EnQue(x);
        x = qx.template DeQue<float>();
        LocalTensor<float> z = qz.template AllocTensor<float>();
        Adds(z, x, 1.0f, TILE);
        qz.EnQue(z);
        qx.FreeTensor(x);
        z = qz.template DeQue<float>();
        DataCopy(gz[i * TILE], z, TILE);
        qz.FreeTensor(z);
    }
    go.ptr_[0] = GetSystemCycle();
}
extern "C" __global__ __aicore__ void single_buffer(GM_ADDR px, GM_ADDR po) { pipeline<1>(px, po); }
extern "C" __global__ __aicore__ void double_buffer(GM_ADDR px, GM_ADDR po) { pipeline<2>(px, po); }

ASC_ENTRY(one_copy, NPUEMU_VECTOR, one_copy(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
ASC_ENTRY(single_buffer, NPUEMU_VECTOR, single_buffer(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
ASC_ENTRY(double_buffer, NPUEMU_VECTOR, double_buffer(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
NPUEMU_KERNEL_TABLE(ASC_ROW(one_copy, NPUEMU_VECTOR), ASC_ROW(single_buffer, NPUEMU_VECTOR), ASC_ROW(double_buffer, NPUEMU_VECTOR))
