/* datacopy.cpp: DataCopy with DataCopyParams (strided blocks both ways),
 * DataCopyPad (any length, padding), UB -> UB, and atomic-add stores. */
#include "entry.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void copy_params(GM_ADDR px, GM_ADDR po) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qi;
    TQue<TPosition::VECOUT, 1> qo;
    pipe.InitBuffer(qi, 1, 1024);
    pipe.InitBuffer(qo, 1, 1024);
    GlobalTensor<float> gx, go;
    gx.SetGlobalBuffer((__gm__ float *)px, 256);
    go.SetGlobalBuffer((__gm__ float *)po, 256);
    LocalTensor<float> a = qi.AllocTensor<float>();
    DataCopy(a, gx, DataCopyParams(4, 1, 1, 0)); /* x[0..8) x[16..24) x[32..40) x[48..56) */
    qi.EnQue(a);
    a = qi.DeQue<float>();
    LocalTensor<float> b = qo.AllocTensor<float>();
    DataCopy(b, a, 32); /* UB -> UB */
    qo.EnQue(b);
    qi.FreeTensor(a);
    b = qo.DeQue<float>();
    DataCopy(go, b, DataCopyParams(4, 1, 0, 2)); /* to o[0..8) o[24..32) o[48..56) o[72..80) */
    qo.FreeTensor(b);
}

extern "C" __global__ __aicore__ void copy_pad(GM_ADDR px, GM_ADDR po) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<float> gx, go;
    gx.SetGlobalBuffer((__gm__ float *)px, 256);
    go.SetGlobalBuffer((__gm__ float *)po, 256);
    LocalTensor<float> t = buf.Get<float>();
    /* 2 blocks of 3 floats, 1 float apart in GM, padded to 8 with 9 */
    DataCopyPad(t, gx, DataCopyExtParams(2, 12, 4, 0, 0), DataCopyPadExtParams<float>(true, 0, 5, 9.0f));
    PipeBarrier<PIPE_ALL>();
    /* out: 2 blocks of 5 floats, back to back */
    DataCopyPad(go, t, DataCopyExtParams(2, 20, 0, 0, 0));
}

extern "C" __global__ __aicore__ void copy_atomic(GM_ADDR px, GM_ADDR po) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    GlobalTensor<float> gx, go;
    gx.SetGlobalBuffer((__gm__ float *)px, 64);
    go.SetGlobalBuffer((__gm__ float *)po, 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, 64);
    PipeBarrier<PIPE_ALL>();
    SetAtomicAdd<float>();
    DataCopy(go, t, 64);
    SetAtomicNone();
}

/* UB -> GM into a 16 MiB allocation (the streaming-store path of
 * DataCopy): 4112 halfs t[i] = i % 2000 to GM half index 1 (a 2-byte
 * aligned address) and to half index 5000. */
extern "C" __global__ __aicore__ void copy_stream(GM_ADDR px, GM_ADDR po) {
    (void)px;
    constexpr uint32_t n = 4112;
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, n * sizeof(half));
    LocalTensor<half> t = b.Get<half>();
    for (uint32_t i = 0; i < n; i++) t.SetValue(i, half((float)(i % 2000)));
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half *)po, 8u << 20);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g[1], t, n);
    DataCopy(g[5000], t, n);
}

/* int4b_t, two elements a byte: 64 halfs x[i] (GM) -> UB -> Cast to
 * int4b_t (CAST_RINT, saturating) in a 32-byte buffer; element 1 then set
 * to -3; the 32 packed bytes go to po[0..32); they come back from GM into
 * another int4b_t tensor and are cast to half at po + 64 (64 halfs); the
 * int4b_t tensor's GetSize, GetLength, GetValue(0), and the size of
 * its ReinterpretCast<int8_t> go to po + 192 as int32_t. */
extern "C" __global__ __aicore__ void copy_int4(GM_ADDR px, GM_ADDR po) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bh, b4, c4, bh2;
    pipe.InitBuffer(bh, 64 * sizeof(half));
    pipe.InitBuffer(b4, 32);
    pipe.InitBuffer(c4, 32);
    pipe.InitBuffer(bh2, 64 * sizeof(half));
    GlobalTensor<half> gx, gy;
    GlobalTensor<int4b_t> g4;
    GlobalTensor<int32_t> gm;
    gx.SetGlobalBuffer((__gm__ half *)px, 64);
    g4.SetGlobalBuffer((__gm__ int4b_t *)po, 64);
    gy.SetGlobalBuffer((__gm__ half *)(po + 64), 64);
    gm.SetGlobalBuffer((__gm__ int32_t *)(po + 192), 4);
    LocalTensor<half> h = bh.Get<half>(), h2 = bh2.Get<half>();
    LocalTensor<int4b_t> q = b4.Get<int4b_t>(), r = c4.Get<int4b_t>();
    DataCopy(h, gx, 64);
    PipeBarrier<PIPE_ALL>();
    Cast(q, h, RoundMode::CAST_RINT, 64);
    q.SetValue(1, -3);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g4, q, 64); /* 32 bytes */
    PipeBarrier<PIPE_ALL>();
    DataCopy(r, g4, 64);
    PipeBarrier<PIPE_ALL>();
    Cast(h2, r, RoundMode::CAST_NONE, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, h2, 64);
    gm.SetValue(0, (int32_t)q.GetSize());
    gm.SetValue(1, (int32_t)q.GetLength());
    gm.SetValue(2, q.GetValue(0).value());
    gm.SetValue(3, (int32_t)q.ReinterpretCast<int8_t>().GetSize());
}

/* DataCopy with DataCopyEnhancedParams on A2: every block mode, isRelu and
 * deqScale are accepted and the copy is the basic one (the documented
 * behaviour off the 310P CO1 -> CO2 path): GM -> UB (BLOCK_MODE_MATRIX,
 * isRelu), UB -> UB (BLOCK_MODE_VECTOR, DEQ), UB -> GM
 * (BLOCK_MODE_DEPTHWISE), with the strides of copy_params. */
extern "C" __global__ __aicore__ void copy_enhanced(GM_ADDR px, GM_ADDR po) {
    TPipe pipe;
    TBuf<TPosition::VECIN> bi;
    TBuf<TPosition::VECOUT> bo;
    pipe.InitBuffer(bi, 1024);
    pipe.InitBuffer(bo, 1024);
    GlobalTensor<float> gx, go;
    gx.SetGlobalBuffer((__gm__ float *)px, 256);
    go.SetGlobalBuffer((__gm__ float *)po, 256);
    LocalTensor<float> a = bi.Get<float>(), b = bo.Get<float>();
    DataCopyEnhancedParams e;
    e.blockMode = BlockMode::BLOCK_MODE_MATRIX;
    e.isRelu = true;
    DataCopy(a, gx, DataCopyParams(4, 1, 1, 0), e);
    PipeBarrier<PIPE_ALL>();
    e.blockMode = BlockMode::BLOCK_MODE_VECTOR;
    e.deqScale = DeqScale::DEQ;
    e.deqValue = 3;
    DataCopy(b, a, DataCopyParams(1, 4, 0, 0), e);
    PipeBarrier<PIPE_ALL>();
    e.blockMode = BlockMode::BLOCK_MODE_DEPTHWISE;
    DataCopy(go, b, DataCopyParams(4, 1, 0, 2), e);
}

/* Cast half <-> int4b_t in the mask/repeat form: 256 halfs x[i] (GM),
 * 2 repeats of 128 with mask 100 (elements 100..127 of each repeat stay
 * 0), int4b_t repeat stride 2 blocks (64 bytes = 128 elements): the 128
 * packed bytes to po[0..128); then back to half with mask 128 (all) at
 * po + 128 (256 halfs). */
extern "C" __global__ __aicore__ void cast_int4_rep(GM_ADDR px, GM_ADDR po) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bh, b4, bh2;
    pipe.InitBuffer(bh, 256 * sizeof(half));
    pipe.InitBuffer(b4, 128);
    pipe.InitBuffer(bh2, 256 * sizeof(half));
    GlobalTensor<half> gx, gy;
    GlobalTensor<int4b_t> g4;
    gx.SetGlobalBuffer((__gm__ half *)px, 256);
    g4.SetGlobalBuffer((__gm__ int4b_t *)po, 256);
    gy.SetGlobalBuffer((__gm__ half *)(po + 128), 256);
    LocalTensor<half> h = bh.Get<half>(), h2 = bh2.Get<half>();
    LocalTensor<int4b_t> q = b4.Get<int4b_t>();
    Duplicate(q.ReinterpretCast<int8_t>().ReinterpretCast<int16_t>(), (int16_t)0, 64);
    DataCopy(h, gx, 256);
    PipeBarrier<PIPE_ALL>();
    UnaryRepeatParams to4;
    to4.dstRepStride = 2;
    Cast(q, h, RoundMode::CAST_RINT, 100, 2, to4);
    UnaryRepeatParams from4;
    from4.srcRepStride = 2;
    Cast(h2, q, RoundMode::CAST_NONE, 128, 2, from4);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g4, q, 256);
    DataCopy(gy, h2, 256);
}

ASC_ENTRY(copy_params, NPUEMU_VECTOR, copy_params(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
ASC_ENTRY(copy_pad, NPUEMU_VECTOR, copy_pad(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
ASC_ENTRY(copy_atomic, NPUEMU_VECTOR, copy_atomic(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
ASC_ENTRY(copy_stream, NPUEMU_VECTOR, copy_stream(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
ASC_ENTRY(copy_int4, NPUEMU_VECTOR, copy_int4(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
ASC_ENTRY(copy_enhanced, NPUEMU_VECTOR, copy_enhanced(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
ASC_ENTRY(cast_int4_rep, NPUEMU_VECTOR, cast_int4_rep(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
NPUEMU_KERNEL_TABLE(ASC_ROW(copy_params, NPUEMU_VECTOR), ASC_ROW(copy_pad, NPUEMU_VECTOR), ASC_ROW(copy_atomic, NPUEMU_VECTOR),
                    ASC_ROW(copy_stream, NPUEMU_VECTOR), ASC_ROW(copy_int4, NPUEMU_VECTOR),
                    ASC_ROW(copy_enhanced, NPUEMU_VECTOR), ASC_ROW(cast_int4_rep, NPUEMU_VECTOR))
