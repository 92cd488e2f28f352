/* sync.cpp: kernels that synchronise cores: SyncAll between the blocks of
 * a cooperative launch, cross-core flags between the AIC and the two AIVs
 * of a MIX block, and two that break the rules (a block that skips
 * SyncAll, a wait nobody answers). */
#include "entry.h"

using namespace AscendC;

/* Each block publishes its index, meets the others, then reads its
 * neighbour's: x[b*8] = b+1, then x[(n+b)*8] = x[((b+1)%n)*8]. */
extern "C" __global__ __aicore__ void syncall_ring(GM_ADDR x) {
    GlobalTensor<int32_t> g;
    int64_t n = GetBlockNum(), b = GetBlockIdx();
    g.SetGlobalBuffer((__gm__ int32_t *)x, (uint64_t)(2 * n * 8));
    g.SetValue((uint64_t)(b * 8), (int32_t)(b + 1));
    SyncAll();
    g.SetValue((uint64_t)((n + b) * 8), g.GetValue((uint64_t)(((b + 1) % n) * 8)));
}

/* IBSet/IBWait chain: block b waits for block b-1, then x[b*8] =
 * x[(b-1)*8] + 1 (x[0] = 1), then signals block b+1. */
extern "C" __global__ __aicore__ void ib_chain(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 256);
    GlobalTensor<int32_t> g, ws;
    int32_t b = (int32_t)GetBlockIdx();
    g.SetGlobalBuffer((__gm__ int32_t *)x, 1024);
    ws.SetGlobalBuffer((__gm__ int32_t *)x + 512, 256);
    LocalTensor<int32_t> u = ub.Get<int32_t>();
    if (b > 0) IBWait(ws, u, b - 1, 0);
    g.SetValue(b * 8, b == 0 ? 1 : g.GetValue((b - 1) * 8) + 1);
    IBSet(ws, u, b, 0);
}

/* Block 0 leaves without SyncAll: the others could never pass. */
extern "C" __global__ __aicore__ void syncall_missing(GM_ADDR) {
    if (GetBlockIdx() == 0) return;
    SyncAll();
}

/* A MIX block: the AIC writes a value and sets flag 3; each AIV waits for
 * it, writes value + sub + 1 and its block index, sets flag 4; the AIC
 * waits for both AIVs and writes the sum. Per block: 16 ints at x[blk*16]:
 * [0] AIC value, [1..2] AIV values, [3] sum, [4..5] AIV GetBlockIdx,
 * [6..7] AIV GetSubBlockIdx, [8] GetBlockNum seen by the AIC. */
extern "C" __global__ __aicore__ void mix_flags(GM_ADDR x) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t *)x, 1024);
    if (ASCEND_IS_AIC) {
        int64_t blk = GetBlockIdx();
        g.SetValue(blk * 16, (int32_t)(100 + blk));
        g.SetValue(blk * 16 + 8, (int32_t)GetBlockNum());
        CrossCoreSetFlag<2, PIPE_FIX>(3);
        CrossCoreWaitFlag(4);
        g.SetValue(blk * 16 + 3, g.GetValue(blk * 16 + 1) + g.GetValue(blk * 16 + 2));
    }
    if (ASCEND_IS_AIV) {
        int64_t blk = GetBlockIdx() / 2, sub = GetSubBlockIdx();
        CrossCoreWaitFlag(3);
        g.SetValue(blk * 16 + 1 + sub, g.GetValue(blk * 16) + (int32_t)sub + 1);
        g.SetValue(blk * 16 + 4 + sub, (int32_t)GetBlockIdx());
        g.SetValue(blk * 16 + 6 + sub, (int32_t)sub);
        CrossCoreSetFlag<2, PIPE_MTE3>(4);
    }
}

/* The AIVs wait for a flag the AIC never sets. */
extern "C" __global__ __aicore__ void mix_deadlock(GM_ADDR) {
    if (ASCEND_IS_AIV) CrossCoreWaitFlag(5);
}

/* A vector kernel using a cross-core flag. */
extern "C" __global__ __aicore__ void xcore_not_mix(GM_ADDR) { CrossCoreSetFlag<2, PIPE_MTE3>(1); }

ASC_ENTRY(syncall_ring, NPUEMU_VECTOR, syncall_ring(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(syncall_missing, NPUEMU_VECTOR, syncall_missing(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(ib_chain, NPUEMU_VECTOR, ib_chain(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(mix_flags, NPUEMU_MIX, mix_flags(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(mix_deadlock, NPUEMU_MIX, mix_deadlock(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(xcore_not_mix, NPUEMU_VECTOR, xcore_not_mix(ASC_ARG(GM_ADDR, 0)))

NPUEMU_KERNEL_TABLE(ASC_ROW_COOP(syncall_ring, NPUEMU_VECTOR), ASC_ROW_COOP(syncall_missing, NPUEMU_VECTOR), ASC_ROW_COOP(ib_chain, NPUEMU_VECTOR), ASC_ROW_COOP(mix_flags, NPUEMU_MIX),
                    ASC_ROW_COOP(mix_deadlock, NPUEMU_MIX), ASC_ROW(xcore_not_mix, NPUEMU_VECTOR))
