/* compare.cpp: the mask / repeat forms of Compare, CompareScalar /
 * Compares and Select, Select's register forms, the isSetMask = false
 * forms reading the vector mask register (normal and counter mode),
 * ListTensorDesc / TensorDesc reading a descriptor written by the host,
 * and GET_TILING_DATA over a tiling struct written by the host.
 * Each section writes 256 floats of output. */
#include "entry.h"

using namespace AscendC;

constexpr int32_t N = 256;

template <typename T>
struct Io {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bo, bm, bs, bt, bf;
    GlobalTensor<T> gx, gy;
    GlobalTensor<float> go;
    LocalTensor<T> x, y, o;
    LocalTensor<float> f;     /* the float output staging */
    LocalTensor<uint8_t> m;   /* compare results (32 bytes) */
    LocalTensor<uint8_t> sel; /* x < y over all 256 elements (32 bytes) */
    LocalTensor<uint8_t> tmp; /* 32 bytes for SetCmpMask */
    __aicore__ inline void Init(GM_ADDR px, GM_ADDR py, GM_ADDR po, uint32_t outs) {
        gx.SetGlobalBuffer((__gm__ T *)px, N);
        gy.SetGlobalBuffer((__gm__ T *)py, N);
        go.SetGlobalBuffer((__gm__ float *)po, N * outs);
        pipe.InitBuffer(bx, N * sizeof(T));
        pipe.InitBuffer(by, N * sizeof(T));
        pipe.InitBuffer(bo, N * sizeof(T));
        pipe.InitBuffer(bf, N * sizeof(float));
        pipe.InitBuffer(bm, 32);
        pipe.InitBuffer(bs, 32);
        pipe.InitBuffer(bt, 32);
        x = bx.Get<T>();
        y = by.Get<T>();
        o = bo.Get<T>();
        f = bf.Get<float>();
        m = bm.Get<uint8_t>();
        sel = bs.Get<uint8_t>();
        tmp = bt.Get<uint8_t>();
        DataCopy(x, gx, N);
        DataCopy(y, gy, N);
        PipeBarrier<PIPE_ALL>();
        Compare(sel, x, y, CMPMODE::LT, N);
    }
    __aicore__ inline void FillM(uint8_t v) {
        for (int32_t i = 0; i < 32; i++) m.SetValue(i, v);
    }
    /* the 32 bytes of m as floats */
    __aicore__ inline void OutM(uint32_t k) {
        Duplicate(f, -1.0f, N);
        for (int32_t i = 0; i < 32; i++) f.SetValue(i, (float)m.GetValue(i));
        OutF(k);
    }
    __aicore__ inline void OutF(uint32_t k) {
        PipeBarrier<PIPE_ALL>();
        DataCopy(go[k * N], f, N);
        PipeBarrier<PIPE_ALL>();
    }
};

extern "C" __global__ __aicore__ void cmp_float(GM_ADDR px, GM_ADDR py, GM_ADDR po) {
    Io<float> io;
    io.Init(px, py, po, 14);
    BinaryRepeatParams bp; /* {1, 1, 1, 8, 8, 8} */
    UnaryRepeatParams up;  /* {1, 1, 8, 8} */

    /* 0: counter mask 40, 3 repeats, LT; the other bits keep 0xAA */
    io.FillM(0xAA);
    Compare(io.m, io.x, io.y, CMPMODE::LT, (uint64_t)40, 3, bp);
    io.OutM(0);
    /* 1: bit mask, 2 repeats, GT, src0 every other repeat (stride 16) */
    io.FillM(0);
    uint64_t bits[2] = {0xF0F0F0F0F0F0F0F0ull, 0};
    Compare(io.m, io.x, io.y, CMPMODE::GT, bits, 2, BinaryRepeatParams(1, 1, 1, 8, 16, 8));
    io.OutM(1);
    /* 2: CompareScalar x >= 0.5, full mask, 4 repeats */
    io.FillM(0x5A);
    CompareScalar(io.m, io.x, 0.5f, CMPMODE::GE, (uint64_t)64, 4, up);
    io.OutM(2);
    /* 3: Compares x < 0, the first 32 elements of each repeat */
    io.FillM(0xFF);
    uint64_t low32[2] = {0xFFFFFFFFull, 0};
    Compares(io.m, io.x, 0.0f, CMPMODE::LT, low32, 4, up);
    io.OutM(3);

    /* 4: Select mode 2, counter mask 48: min(x, y) where enabled */
    Duplicate(io.o, -1.0f, N);
    Select(io.o, io.sel, io.x, io.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, (uint64_t)48, 4, bp);
    Copy(io.f, io.o, 64, 4, {1, 1, 8, 8});
    io.OutF(4);
    /* 5: Select mode 1, even elements: x < y ? x : 9 */
    Duplicate(io.f, -1.0f, N);
    uint64_t even[2] = {0x5555555555555555ull, 0};
    Select(io.f, io.sel, io.x, 9.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, even, 4, bp);
    io.OutF(5);
    /* 6: Select mode 0: the first 64 bits of sel for every repeat */
    Duplicate(io.f, -1.0f, N);
    Select(io.f, io.sel, io.x, io.y, SELMODE::VSEL_CMPMASK_SPR, (uint64_t)64, 4, bp);
    io.OutF(6);

    /* 7: register form, mode 0: SetCmpMask(sel), mask register 32 */
    Duplicate(io.f, -1.0f, N);
    SetCmpMask(io.sel);
    SetVectorMask<float>(32);
    Select<float, SELMODE::VSEL_CMPMASK_SPR>(io.f, io.x, io.y, 4, bp);
    ResetMask();
    io.OutF(7);
    /* 8: register form, mode 2, the address as a 64-bit pointer */
    Duplicate(io.f, -1.0f, N);
    io.tmp.template ReinterpretCast<int64_t>().SetValue(0, reinterpret_cast<int64_t>(io.sel.GetPhyAddr()));
    SetCmpMask(io.tmp);
    SetVectorMask<float>(0, ~0ull);
    Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(io.f, io.x, io.y, 4, bp);
    ResetMask();
    io.OutF(8);
    /* 9: register form, mode 2, the address kept in 32 bits, mask 16 */
    Duplicate(io.f, -1.0f, N);
    LocalTensor<uint32_t> t32 = io.tmp.template ReinterpretCast<uint32_t>();
    t32.SetValue(0, static_cast<uint32_t>(reinterpret_cast<int64_t>(io.sel.GetPhyAddr())));
    t32.SetValue(1, 0);
    SetCmpMask(io.tmp);
    SetVectorMask<float>(16);
    Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(io.f, io.x, io.y, 4, bp);
    ResetMask();
    io.OutF(9);
    /* 10: register form, mode 1: the scalar 7 from SetCmpMask */
    Duplicate(io.f, -1.0f, N);
    io.tmp.template ReinterpretCast<float>().SetValue(0, 7.0f);
    SetCmpMask(io.tmp);
    SetVectorMask<float>(64);
    Select(io.f, io.sel, io.x, 4, bp);
    ResetMask();
    io.OutF(10);

    /* 11: counter mode: Add over the first 100 elements */
    Duplicate(io.f, -1.0f, N);
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, 100);
    Add<float, false>(io.f, io.x, io.y, MASK_PLACEHOLDER, 1, bp);
    SetMaskNorm();
    ResetMask();
    io.OutF(11);
    /* 12: normal mode, mask register 0xFF: Mul on 8 of each repeat */
    Duplicate(io.f, -1.0f, N);
    SetVectorMask<float>(0, 0xFF);
    Mul<float, false>(io.f, io.x, io.y, MASK_PLACEHOLDER, 4, bp);
    ResetMask();
    io.OutF(12);
    /* 13: Axpy, counter mask 16: y + 2 x on 16 of each repeat */
    DataCopy(io.f, io.y, N);
    Axpy(io.f, io.x, 2.0f, (uint64_t)16, 4, up);
    io.OutF(13);
}

/* half: Compare LE, counter mask 100, 2 repeats (16 bytes a repeat),
 * and Select mode 2 by bits {all, low 16} over 2 repeats. */
extern "C" __global__ __aicore__ void cmp_half(GM_ADDR px, GM_ADDR py, GM_ADDR po) {
    Io<half> io;
    io.Init(px, py, po, 2);
    io.FillM(0xAA);
    Compare(io.m, io.x, io.y, CMPMODE::LE, (uint64_t)100, 2, BinaryRepeatParams());
    io.OutM(0);
    Duplicate(io.o, half(-1.0f), N);
    uint64_t bits[2] = {~0ull, 0xFFFFull};
    Select(io.o, io.sel, io.x, io.y, SELMODE::VSEL_TENSOR_TENSOR_MODE, bits, 2, BinaryRepeatParams());
    Cast(io.f, io.o, RoundMode::CAST_NONE, N);
    io.OutF(1);
}

/* ListTensorDesc: o[0] = tensors; per tensor i at o[1 + 8 i]: its
 * dimension count, its dimensions (up to 4), the sum of its elements
 * read through GetDataObj, and whether GetDataPtr gives the same
 * address. */
extern "C" __global__ __aicore__ void list_desc(GM_ADDR desc, GM_ADDR po) {
    ListTensorDesc list(desc);
    GlobalTensor<float> out;
    out.SetGlobalBuffer((__gm__ float *)po, 32);
    out.SetValue(0, (float)list.GetSize());
    for (uint32_t i = 0; i < list.GetSize(); i++) {
        uint64_t shape[8] = {0};
        TensorDesc<float> td;
        td.SetShapeAddr(shape);
        list.GetDesc(td, i);
        uint32_t b = 1 + 8 * i;
        out.SetValue(b, (float)td.GetDim());
        for (uint32_t d = 0; d < td.GetDim() && d < 4; d++) out.SetValue(b + 1 + d, (float)td.GetShape(d));
        GlobalTensor<float> g = td.GetDataObj();
        float sum = 0;
        for (uint64_t k = 0; k < g.GetSize(); k++) sum += g.GetValue(k);
        out.SetValue(b + 5, sum);
        out.SetValue(b + 6, list.GetDataPtr<float>(i) == td.GetDataPtr() ? 1.0f : 0.0f);
        out.SetValue(b + 7, (float)td.GetIndex());
    }
}

/* GET_TILING_DATA and friends over a tiling struct the host wrote:
 * o[0..2] = the fields, o[3] = a field through the pointer form, o[4] =
 * TILING_KEY_IS(0), o[5] = TILING_KEY_IS(1). */
struct TilingData {
    uint32_t total;
    float scale;
    int16_t tiles[2];
};
struct OtherTiling {
    uint64_t word;
};
extern "C" __global__ __aicore__ void tiling(GM_ADDR t, GM_ADDR po) {
    GET_TILING_DATA(td, t);
    GET_TILING_DATA_WITH_STRUCT(OtherTiling, ot, t);
    GET_TILING_DATA_PTR_WITH_STRUCT(TilingData, tp, t);
    GlobalTensor<float> out;
    out.SetGlobalBuffer((__gm__ float *)po, 8);
    out.SetValue(0, (float)td.total);
    out.SetValue(1, td.scale);
    out.SetValue(2, (float)td.tiles[1]);
    out.SetValue(3, (float)tp->tiles[0]);
    out.SetValue(4, TILING_KEY_IS(0) ? 1.0f : 0.0f);
    out.SetValue(5, TILING_KEY_IS(1) ? 1.0f : 0.0f);
    out.SetValue(6, (float)(ot.word & 0xffffffffu));
}

ASC_ENTRY(cmp_float, NPUEMU_VECTOR, cmp_float(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8), ASC_ARG(GM_ADDR, 16)))
ASC_ENTRY(cmp_half, NPUEMU_VECTOR, cmp_half(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8), ASC_ARG(GM_ADDR, 16)))
ASC_ENTRY(list_desc, NPUEMU_VECTOR, list_desc(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
ASC_ENTRY(tiling, NPUEMU_VECTOR, tiling(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))

NPUEMU_KERNEL_TABLE(ASC_ROW(cmp_float, NPUEMU_VECTOR), ASC_ROW(cmp_half, NPUEMU_VECTOR), ASC_ROW(list_desc, NPUEMU_VECTOR),
                    ASC_ROW(tiling, NPUEMU_VECTOR))
