/* debug.cpp: AscendC::printf, DumpTensor, ASSERT, trap. */
#include "entry.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void say(GM_ADDR px) {
    AscendC::printf("block %d of %d says %s %.1f\n", (int)GetBlockIdx(), (int)GetBlockNum(), "hello", 2.5);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 64);
    LocalTensor<int32_t> t = b.Get<int32_t>();
    for (int i = 0; i < 4; i++) t.SetValue(i, 100 * (int)GetBlockIdx() + i);
    DumpTensor(t, 7, 4);
    (void)px;
}

extern "C" __global__ __aicore__ void assert_fails(GM_ADDR px) {
    int n = (int)GetBlockNum();
    ASSERT(n > 5 && "need more blocks");
    (void)px;
}

extern "C" __global__ __aicore__ void traps(GM_ADDR px) {
    if (GetBlockIdx() == 1) trap();
    (void)px;
}

ASC_ENTRY(say, NPUEMU_VECTOR, say(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(assert_fails, NPUEMU_VECTOR, assert_fails(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(traps, NPUEMU_VECTOR, traps(ASC_ARG(GM_ADDR, 0)))
NPUEMU_KERNEL_TABLE(ASC_ROW(say, NPUEMU_VECTOR), ASC_ROW(assert_fails, NPUEMU_VECTOR), ASC_ROW(traps, NPUEMU_VECTOR))
