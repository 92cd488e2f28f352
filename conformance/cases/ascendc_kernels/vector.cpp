/* vector.cpp: the vector instructions on 256-element operands: x and y in,
 * one 256-element result per instruction out. */
#include "entry.h"

using namespace AscendC;

constexpr int32_t N = 256;

template <typename T>
struct Io {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bo;
    GlobalTensor<T> gx, gy, go;
    LocalTensor<T> x, y, o;
    __aicore__ inline void Init(GM_ADDR px, GM_ADDR py, GM_ADDR po, uint32_t outs) {
        gx.SetGlobalBuffer((__gm__ T *)px, N);
        gy.SetGlobalBuffer((__gm__ T *)py, N);
        go.SetGlobalBuffer((__gm__ T *)po, N * outs);
        pipe.InitBuffer(bx, N * sizeof(T));
        pipe.InitBuffer(by, N * sizeof(T));
        pipe.InitBuffer(bo, N * sizeof(T));
        x = bx.Get<T>();
        y = by.Get<T>();
        o = bo.Get<T>();
        DataCopy(x, gx, N);
        DataCopy(y, gy, N);
        PipeBarrier<PIPE_ALL>();
    }
    __aicore__ inline void Out(uint32_t k) {
        PipeBarrier<PIPE_ALL>();
        DataCopy(go[k * N], o, N);
        PipeBarrier<PIPE_ALL>();
    }
};

/* Add Sub Mul Div Max Min AddRelu SubRelu, count form. */
template <typename T>
__aicore__ inline void binary(GM_ADDR px, GM_ADDR py, GM_ADDR po) {
    Io<T> io;
    io.Init(px, py, po, 8);
    Add(io.o, io.x, io.y, N);
    io.Out(0);
    Sub(io.o, io.x, io.y, N);
    io.Out(1);
    Mul(io.o, io.x, io.y, N);
    io.Out(2);
    Div(io.o, io.x, io.y, N);
    io.Out(3);
    Max(io.o, io.x, io.y, N);
    io.Out(4);
    Min(io.o, io.x, io.y, N);
    io.Out(5);
    AddRelu(io.o, io.x, io.y, N);
    io.Out(6);
    SubRelu(io.o, io.x, io.y, N);
    io.Out(7);
}
extern "C" __global__ __aicore__ void binary_float(GM_ADDR x, GM_ADDR y, GM_ADDR o) { binary<float>(x, y, o); }
extern "C" __global__ __aicore__ void binary_half(GM_ADDR x, GM_ADDR y, GM_ADDR o) { binary<half>(x, y, o); }

/* Exp Ln Abs Sqrt Rsqrt Relu Reciprocal Adds Muls Maxs Mins LeakyRelu on x. */
extern "C" __global__ __aicore__ void unary_float(GM_ADDR px, GM_ADDR py, GM_ADDR po) {
    Io<float> io;
    io.Init(px, py, po, 12);
    Exp(io.o, io.x, N);
    io.Out(0);
    Ln(io.o, io.y, N); /* y > 0 */
    io.Out(1);
    Abs(io.o, io.x, N);
    io.Out(2);
    Sqrt(io.o, io.y, N);
    io.Out(3);
    Rsqrt(io.o, io.y, N);
    io.Out(4);
    Relu(io.o, io.x, N);
    io.Out(5);
    Reciprocal(io.o, io.y, N);
    io.Out(6);
    Adds(io.o, io.x, 2.0f, N);
    io.Out(7);
    Muls(io.o, io.x, 3.0f, N);
    io.Out(8);
    Maxs(io.o, io.x, 0.5f, N);
    io.Out(9);
    Mins(io.o, io.x, 0.5f, N);
    io.Out(10);
    LeakyRelu(io.o, io.x, 0.1f, N);
    io.Out(11);
}

/* Mask and repeat forms (float: 64 elements per repeat, 8 per block).
 * 0: Add, counter mask 40, 2 repeats, strides 1/8: the first 40 of each
 *    64 computed, the rest of o left at -1;
 * 1: Mul, bit mask 0x5555..., 1 repeat: even elements of the first 64;
 * 2: Add with src0 block stride 2 (reads blocks 0,2,4,...), dst repeat
 *    stride 16: o[r*128 + e] = x[r*8*8 + (e/8)*16 + e%8] + y[...];
 * 3: Duplicate(7) counter mask 10, 3 repeats, dst repeat stride 8;
 * 4: Copy counter mask 64, 2 repeats, src repeat stride 16 (every other
 *    repeat of x). */
extern "C" __global__ __aicore__ void mask_float(GM_ADDR px, GM_ADDR py, GM_ADDR po) {
    Io<float> io;
    io.Init(px, py, po, 5);
    Duplicate(io.o, -1.0f, N);
    Add(io.o, io.x, io.y, 40, 2, {1, 1, 1, 8, 8, 8});
    io.Out(0);
    Duplicate(io.o, -1.0f, N);
    uint64_t bits[2] = {0x5555555555555555ull, 0};
    Mul(io.o, io.x, io.y, bits, 1, {1, 1, 1, 8, 8, 8});
    io.Out(1);
    Duplicate(io.o, -1.0f, N);
    Add(io.o, io.x, io.y, 64, 2, {1, 2, 1, 16, 8, 8});
    io.Out(2);
    Duplicate(io.o, -1.0f, N);
    Duplicate(io.o, 7.0f, 10, 3, 1, 8);
    io.Out(3);
    Duplicate(io.o, -1.0f, N);
    Copy(io.o, io.x, 64, 2, {1, 1, 8, 16});
    io.Out(4);
}

/* Cast float -> int32 with RINT FLOOR CEIL ROUND TRUNC, float -> half
 * (RINT) and back, and Compare(LT) + Select. Outputs as int32/float
 * words. */
extern "C" __global__ __aicore__ void cast_cmp(GM_ADDR px, GM_ADDR py, GM_ADDR po) {
    Io<float> io;
    io.Init(px, py, po, 8);
    LocalTensor<int32_t> oi = io.o.template ReinterpretCast<int32_t>();
    const RoundMode modes[5] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL, RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC};
    for (uint32_t k = 0; k < 5; k++) {
        Cast(oi, io.x, modes[k], N);
        io.Out(k);
    }
    TBuf<TPosition::VECCALC> bh, bm;
    io.pipe.InitBuffer(bh, N * sizeof(half));
    io.pipe.InitBuffer(bm, N / 8);
    LocalTensor<half> h = bh.Get<half>();
    Cast(h, io.x, RoundMode::CAST_RINT, N);
    Cast(io.o, h, RoundMode::CAST_NONE, N);
    io.Out(5);
    LocalTensor<uint8_t> m = bm.Get<uint8_t>();
    Compare(m, io.x, io.y, CMPMODE::LT, N);
    Select(io.o, m, io.x, io.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, N); /* min */
    io.Out(6);
    Select(io.o, m, io.x, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, N);
    io.Out(7);
}

/* Brcb, Gather, CreateVecIndex:
 * 0: Brcb of x[0..16) over 2 repeats: o[b*8 + k] = x[b];
 * 1: Gather with offsets (255 - i) * 4: o[i] = x[255 - i];
 * 2: CreateVecIndex from 3: o[i] = 3 + i. */
extern "C" __global__ __aicore__ void extras_float(GM_ADDR px, GM_ADDR py, GM_ADDR po) {
    Io<float> io;
    io.Init(px, py, po, 5);
    Duplicate(io.o, -1.0f, N);
    Brcb(io.o, io.x, 2, {1, 8});
    io.Out(0);
    TBuf<TPosition::VECCALC> bo;
    io.pipe.InitBuffer(bo, N * 4);
    LocalTensor<uint32_t> off = bo.Get<uint32_t>();
    for (int32_t i = 0; i < N; i++) off.SetValue(i, (uint32_t)(N - 1 - i) * 4);
    Gather(io.o, io.x, off, 0, N);
    io.Out(1);
    CreateVecIndex(io.o, 3.0f, N);
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(io.go);
    io.Out(2);
    /* 3: Compare (register form, x > y on the first 64) + Select by the
     * register: o[i] = x[i] > y[i] ? x[i] : y[i] for each 64-element
     * repeat's bits of the first repeat's comparison. */
    Compare(io.x, io.y, CMPMODE::GT, (uint64_t)64, {1, 1, 1, 8, 8, 8});
    TBuf<TPosition::VECCALC> bm;
    io.pipe.InitBuffer(bm, 32);
    LocalTensor<uint8_t> m = bm.Get<uint8_t>();
    GetCmpMask(m); /* mode 0 reads the first 64 bits of selMask */
    Select(io.o, m, io.x, io.y, SELMODE::VSEL_CMPMASK_SPR, N);
    io.Out(3);
    /* 4: GetCmpMask: the 8 bytes of those 64 bits, as floats */
    GetCmpMask(m);
    for (int32_t i = 0; i < 8; i++) io.o.SetValue(i, (float)m.GetValue(i));
    io.Out(4);
}

ASC_ENTRY(binary_float, NPUEMU_VECTOR, binary_float(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8), ASC_ARG(GM_ADDR, 16)))
ASC_ENTRY(binary_half, NPUEMU_VECTOR, binary_half(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8), ASC_ARG(GM_ADDR, 16)))
ASC_ENTRY(unary_float, NPUEMU_VECTOR, unary_float(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8), ASC_ARG(GM_ADDR, 16)))
ASC_ENTRY(mask_float, NPUEMU_VECTOR, mask_float(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8), ASC_ARG(GM_ADDR, 16)))
ASC_ENTRY(cast_cmp, NPUEMU_VECTOR, cast_cmp(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8), ASC_ARG(GM_ADDR, 16)))
ASC_ENTRY(extras_float, NPUEMU_VECTOR, extras_float(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8), ASC_ARG(GM_ADDR, 16)))

NPUEMU_KERNEL_TABLE(ASC_ROW(binary_float, NPUEMU_VECTOR), ASC_ROW(binary_half, NPUEMU_VECTOR), ASC_ROW(unary_float, NPUEMU_VECTOR),
                    ASC_ROW(mask_float, NPUEMU_VECTOR), ASC_ROW(cast_cmp, NPUEMU_VECTOR), ASC_ROW(extras_float, NPUEMU_VECTOR))
