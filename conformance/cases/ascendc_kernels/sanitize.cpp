/* sanitize.cpp: a kernel whose blocks copy disjoint slices of GM, for the
 * sanitizer's exact footprints (sanitize_ascendc). */
#include "entry.h"

using namespace AscendC;

/* copy_part: y[off, off+n) = x[off, off+n), block b of B copying the b-th
 * of B equal slices (n / B floats, a multiple of 8). */
extern "C" __global__ __aicore__ void copy_part(GM_ADDR px, GM_ADDR py, uint64_t off, uint64_t n) {
    uint64_t per = n / GetBlockNum(), start = off + per * GetBlockIdx();
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (uint32_t)(per * sizeof(float)));
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)px + start, per);
    gy.SetGlobalBuffer((__gm__ float *)py + start, per);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, (uint32_t)per);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, (uint32_t)per);
}

ASC_ENTRY(copy_part, NPUEMU_VECTOR, copy_part(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8), ASC_ARG(uint64_t, 16), ASC_ARG(uint64_t, 24)))
NPUEMU_KERNEL_TABLE(ASC_ROW(copy_part, NPUEMU_VECTOR))
