/* sanitize_exact.cpp: kernels with strided and atomic GM accesses, for the
 * sanitizer's exact footprints (sanitize_ascendc_exact). */
#include "entry.h"

using namespace AscendC;

/* rows: a matrix of 256-byte rows (64 floats). Starting at row first,
 * every step-th row, nrows rows in all split between the blocks: the
 * first bytes of each (a multiple of 32) of x are read with a strided
 * DataCopy (DataCopyParams) and written to the same rows of y with a
 * strided DataCopyPad. bytes may exceed 256: the copy then runs into the
 * next row. */
extern "C" __global__ __aicore__ void rows(GM_ADDR px, GM_ADDR py, uint32_t first, uint32_t step, uint32_t nrows, uint32_t bytes) {
    const uint32_t per = nrows / GetBlockNum(), row0 = first + per * step * GetBlockIdx();
    const uint32_t gap = step * 256 - bytes; /* bytes between one copied burst's end and the next's start */
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, per * bytes);
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)px + row0 * 64);
    gy.SetGlobalBuffer((__gm__ float *)py + row0 * 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, DataCopyParams((uint16_t)per, (uint16_t)(bytes / 32), (uint16_t)(gap / 32), 0));
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(gy, t, DataCopyExtParams((uint16_t)per, bytes, 0, gap, 0));
}

/* accumulate: every block adds x[0, n) into y[0, n) with atomic adds
 * (SetAtomicAdd, DataCopy to GM). */
extern "C" __global__ __aicore__ void accumulate(GM_ADDR px, GM_ADDR py, uint32_t n) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)px, n);
    gy.SetGlobalBuffer((__gm__ float *)py, n);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, n);
    PipeBarrier<PIPE_ALL>();
    SetAtomicAdd<float>();
    DataCopy(gy, t, n);
    SetAtomicNone();
}

/* row_loop: for each of nrows 256-byte rows, one 32-byte chunk at a time,
 * copies bytes [col, col + bytes) of the row from x to y (thousands of
 * small copies whose footprint is a few strided records). */
extern "C" __global__ __aicore__ void row_loop(GM_ADDR px, GM_ADDR py, uint32_t col, uint32_t bytes, uint32_t nrows) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> gx, gy;
    for (uint32_t r = 0; r < nrows; r++) {
        for (uint32_t c = col; c < col + bytes; c += 32) {
            gx.SetGlobalBuffer((__gm__ float *)(px + (uint64_t)r * 256 + c), 8);
            gy.SetGlobalBuffer((__gm__ float *)(py + (uint64_t)r * 256 + c), 8);
            DataCopy(t, gx, 8);
            PipeBarrier<PIPE_ALL>();
            DataCopy(gy, t, 8);
            PipeBarrier<PIPE_ALL>();
        }
    }
}

ASC_ENTRY(rows, NPUEMU_VECTOR,
          rows(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8), ASC_ARG(uint32_t, 16), ASC_ARG(uint32_t, 20), ASC_ARG(uint32_t, 24), ASC_ARG(uint32_t, 28)))
ASC_ENTRY(accumulate, NPUEMU_VECTOR, accumulate(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8), ASC_ARG(uint32_t, 16)))
ASC_ENTRY(row_loop, NPUEMU_VECTOR,
          row_loop(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8), ASC_ARG(uint32_t, 16), ASC_ARG(uint32_t, 20), ASC_ARG(uint32_t, 24)))
NPUEMU_KERNEL_TABLE(ASC_ROW(rows, NPUEMU_VECTOR), ASC_ROW(accumulate, NPUEMU_VECTOR), ASC_ROW(row_loop, NPUEMU_VECTOR))
