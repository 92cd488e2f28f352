/* Ascend C kernels of the ascendc_cube_* conformance cases: the cube path
 * step by step (GM -> L1 -> L0A/L0B -> Mmad -> Fixpipe -> GM) and the
 * rules it enforces. Built at run time by build.h with the bisheng driver.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {

/* The whole path for C (m x n, fp32) = A (m x k, fp16) * B (k x n, fp16)
 * [+ bias (n, fp16, through C1 -> C2 with conversion)]: m, n multiples of
 * 16, k any up to what fits. */
struct CubePath {
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    TBuf<TPosition::C1> bias1;
    TBuf<TPosition::C2> bias2;

    /* useBias: 0 none, 1 fp16 bias (converted on the C1 -> C2 move), 2 fp32
     * bias (same-type move). */
    void Run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k, uint32_t useBias) {
        const uint32_t kA = (k + 15) / 16 * 16, mB = m / 16, nB = n / 16, kB = kA / 16;
        GlobalTensor<half> aGM, bGM, biasGM;
        GlobalTensor<float> cGM;
        aGM.SetGlobalBuffer((__gm__ half *)a);
        bGM.SetGlobalBuffer((__gm__ half *)b);
        biasGM.SetGlobalBuffer((__gm__ half *)bias);
        cGM.SetGlobalBuffer((__gm__ float *)c);
        pipe.InitBuffer(a1, m * kA * sizeof(half));
        pipe.InitBuffer(b1, kA * n * sizeof(half));
        pipe.InitBuffer(a2, m * kA * sizeof(half));
        pipe.InitBuffer(b2, kA * n * sizeof(half));
        pipe.InitBuffer(co1, m * n * sizeof(float));
        pipe.InitBuffer(bias1, n * sizeof(float) < 64 ? 64 : n * sizeof(float));
        pipe.InitBuffer(bias2, n * sizeof(float));
        LocalTensor<half> a1L = a1.Get<half>(), b1L = b1.Get<half>(), a2L = a2.Get<half>(), b2L = b2.Get<half>();
        LocalTensor<float> c1L = co1.Get<float>();

        /* ND -> NZ: A as mB x kB fractals column by column, B likewise. */
        Nd2NzParams pa(1, m, k, 0, k, m, 1, 0);
        DataCopy(a1L, aGM, pa);
        Nd2NzParams pb(1, k, n, 0, n, kA, 1, 0);
        DataCopy(b1L, bGM, pb);

        /* NZ -> ZZ for A: one LoadData per fractal row. */
        for (uint32_t i = 0; i < mB; i++) {
            LoadData2DParams p;
            p.repeatTimes = kB;
            p.srcStride = mB;
            LoadData(a2L[i * kB * 256], a1L[i * 256], p);
        }
        /* NZ -> ZN for B: transpose each fractal. */
        for (uint32_t i = 0; i < kB; i++) {
            LoadData2DParams p;
            p.repeatTimes = nB;
            p.srcStride = kB;
            p.ifTranspose = true;
            LoadData(b2L[i * nB * 256], b1L[i * 256], p);
        }
        MmadParams mp;
        mp.m = m;
        mp.n = n;
        mp.k = k;
        if (useBias == 2) {
            GlobalTensor<float> biasF;
            biasF.SetGlobalBuffer((__gm__ float *)bias);
            LocalTensor<float> bias1L = bias1.Get<float>();
            LocalTensor<float> bias2L = bias2.Get<float>();
            DataCopy(bias1L, biasF, n < 16 ? 16 : n);
            DataCopy(bias2L, bias1L, DataCopyParams(1, (uint16_t)((n * sizeof(float) + 63) / 64), 0, 0));
            mp.cmatrixInitVal = false;
            Mmad(c1L, a2L, b2L, bias2L, mp);
        } else if (useBias) {
            LocalTensor<half> bias1L = bias1.Get<half>();
            LocalTensor<float> bias2L = bias2.Get<float>();
            DataCopy(bias1L, biasGM, n < 32 ? 32 : n);
            DataCopy(bias2L, bias1L, DataCopyParams(1, (uint16_t)((n * sizeof(half) + 63) / 64), 0, 0));
            mp.cmatrixInitVal = false;
            Mmad(c1L, a2L, b2L, bias2L, mp);
        } else {
            Mmad(c1L, a2L, b2L, mp);
        }
        FixpipeParamsV220 fp;
        fp.nSize = n;
        fp.mSize = m;
        fp.srcStride = m;
        fp.dstStride = n;
        Fixpipe(cGM, c1L, fp);
    }
};

} // namespace

/* C = A * B [+ bias] through the whole cube path. */
extern "C" __global__ __aicore__ void cube_mmad(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k,
                                                 uint32_t useBias) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    CubePath path;
    path.Run(a, b, bias, c, m, n, k, useBias);
}

/* Mmad accumulating: C = A*B, then C += A*B (cmatrixInitVal false), then
 * Fixpipe with relu into half: out = relu(2*A*B) as fp16 (m = n = k = 16,
 * B = I - 2*E00 so that one element goes negative). */
extern "C" __global__ __aicore__ void cube_accumulate(GM_ADDR a, GM_ADDR b, GM_ADDR out) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a1, 512);
    pipe.InitBuffer(b1, 512);
    pipe.InitBuffer(a2, 512);
    pipe.InitBuffer(b2, 512);
    pipe.InitBuffer(co1, 1024);
    GlobalTensor<half> aGM, bGM, oGM;
    aGM.SetGlobalBuffer((__gm__ half *)a);
    bGM.SetGlobalBuffer((__gm__ half *)b);
    oGM.SetGlobalBuffer((__gm__ half *)out);
    LocalTensor<half> a1L = a1.Get<half>(), b1L = b1.Get<half>(), a2L = a2.Get<half>(), b2L = b2.Get<half>();
    LocalTensor<float> c1L = co1.Get<float>();
    DataCopy(a1L, aGM, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
    DataCopy(b1L, bGM, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
    LoadData(a2L, a1L, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    LoadData(b2L, b1L, LoadData2DParams(0, 1, 1, 0, 0, true, 0));
    MmadParams mp;
    mp.m = mp.n = mp.k = 16;
    Mmad(c1L, a2L, b2L, mp);
    mp.cmatrixInitVal = false;
    Mmad(c1L, a2L, b2L, mp);
    FixpipeParamsV220 fp(16, 16, 16, 16, true);
    fp.quantPre = F322F16;
    Fixpipe(oGM, c1L, fp);
}

/* Rule violations, one per `which`:
 *  1: LoadData into L0A at byte 256 (the 512-byte L0 rule);
 *  2: Mmad whose A needs more than its L0A buffer holds (capacity);
 *  3: Mmad with A in L1 instead of L0A (operand position);
 *  4: Fixpipe NoQuant into a half destination (quantPre types). */
extern "C" __global__ __aicore__ void cube_rules(GM_ADDR a, GM_ADDR c, uint32_t which) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a1, 8192);
    pipe.InitBuffer(a2, 2048);
    pipe.InitBuffer(b2, 8192);
    pipe.InitBuffer(co1, 16384);
    GlobalTensor<half> aGM;
    aGM.SetGlobalBuffer((__gm__ half *)a);
    LocalTensor<half> a1L = a1.Get<half>(), a2L = a2.Get<half>(), b2L = b2.Get<half>();
    LocalTensor<float> c1L = co1.Get<float>();
    DataCopy(a1L, aGM, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
    MmadParams mp;
    mp.m = 64;
    mp.n = 16;
    mp.k = 16;
    switch (which) {
    case 1:
        LoadData(a2L[128], a1L, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
        break;
    case 2: /* A of 64 x 16 halves is 2048 bytes from a2L[256] (512 B in): 512 bytes too many */
        Mmad(c1L, a2L[256], b2L, mp);
        break;
    case 3:
        mp.m = 16;
        Mmad(c1L, a1L, b2L, mp);
        break;
    case 4: {
        GlobalTensor<half> cGM;
        cGM.SetGlobalBuffer((__gm__ half *)c);
        Fixpipe(cGM, c1L.ReinterpretCast<float>(), FixpipeParamsV220(16, 16, 16, 16, false));
        break;
    }
    default:
        break;
    }
}

/* ND -> NZ (GM -> VECIN, Nd2NzParams) and back NZ -> ND (VECIN -> GM,
 * Nz2NdParamsFull): rows x cols halves (cols a multiple of 16) come back
 * unchanged, through a NZ matrix of `padRows` rows per column block. */
extern "C" __global__ __aicore__ void cube_nz_roundtrip(GM_ADDR src, GM_ADDR dst, uint32_t rows, uint32_t cols, uint32_t padRows) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, padRows * cols * sizeof(half));
    GlobalTensor<half> sG, dG;
    sG.SetGlobalBuffer((__gm__ half *)src);
    dG.SetGlobalBuffer((__gm__ half *)dst);
    LocalTensor<half> t = ub.Get<half>();
    DataCopy(t, sG, Nd2NzParams(1, rows, cols, 0, cols, padRows, 1, 0));
    DataCopy(dG, t, Nz2NdParamsFull(1, rows, cols, 1, padRows, cols, 1));
}

/* InitConstValue into L0A: A (16 x 48 halves, three fractals) filled with
 * 1, then fractals 0 and 2 with 2 (blockNum 1, dstGap 1); B (48 x 16) all
 * ones from GM; out = A * B = 80 everywhere. */
extern "C" __global__ __aicore__ void cube_init_const(GM_ADDR b, GM_ADDR c) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(b1, 48 * 16 * 2);
    pipe.InitBuffer(a2, 48 * 16 * 2);
    pipe.InitBuffer(b2, 48 * 16 * 2);
    pipe.InitBuffer(co1, 16 * 16 * 4);
    GlobalTensor<half> bG;
    GlobalTensor<float> cG;
    bG.SetGlobalBuffer((__gm__ half *)b);
    cG.SetGlobalBuffer((__gm__ float *)c);
    LocalTensor<half> b1L = b1.Get<half>(), a2L = a2.Get<half>(), b2L = b2.Get<half>();
    LocalTensor<float> c1L = co1.Get<float>();
    InitConstValue(a2L, InitConstValueParams<half>(3, half(1.0f)));
    InitConstValue(a2L, InitConstValueParams<half>(2, 1, 1, half(2.0f)));
    DataCopy(b1L, bG, Nd2NzParams(1, 48, 16, 0, 16, 48, 1, 0));
    LoadData(b2L, b1L, LoadData2DParams(0, 3, 1, 0, 0, true, 0));
    MmadParams mp;
    mp.m = 16;
    mp.n = 16;
    mp.k = 48;
    Mmad(c1L, a2L, b2L, mp);
    Fixpipe(cG, c1L, FixpipeParamsV220(16, 16, 16, 16, false));
}

/* Fixpipe quantisation and ndNum. The accumulator is written directly
 * (SetValue on CO1): a 16 x 16 NZ matrix (one fractal) holding
 * v(i, j) = 16 i + j - 100 (int32_t) or (16 i + j - 100) / 4 (float); with
 * `two` a second matrix one 1024-byte fractal later holding v + 1000.
 * mode picks the quantPre and the destination type:
 *  0: DEQF16 scalar 0.5        int32 -> half
 *  1: VDEQF16 column j scale 2^-(j % 4)
 *  2: QF322B8_PRE scalar 5     float -> int8
 *  3: VQF322B8_PRE scale j / 4 float -> uint8
 *  4: REQ8 scalar 1.5          int32 -> int8
 *  5: VREQ8 scale 1/(j+1)      int32 -> uint8
 *  6: NoQuant float, ndNum 2, srcNdStride 1, dstNdStride 272
 *  7: REQ8 with relu, scalar 1
 *  8: VDEQF16 without cbufWorkspace (a fault)
 * Vector scales come from GM (`scales`, 16 uint64_t) through L1. */
extern "C" __global__ __aicore__ void cube_fixpipe_quant(GM_ADDR out, GM_ADDR scales, uint32_t mode) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::CO1> co1;
    TBuf<TPosition::A1> a1;
    pipe.InitBuffer(co1, 2 * 1024);
    pipe.InitBuffer(a1, 16 * 8);
    LocalTensor<int32_t> ci = co1.Get<int32_t>();
    LocalTensor<float> cf = co1.Get<float>();
    const bool isFloat = mode == 2 || mode == 3 || mode == 6;
    const bool two = mode == 6;
    for (uint32_t k = 0; k < (two ? 2u : 1u); k++)
        for (uint32_t i = 0; i < 16; i++)
            for (uint32_t j = 0; j < 16; j++) {
                int32_t v = (int32_t)(16 * i + j) - 100 + (int32_t)k * 1000;
                if (isFloat) {
                    cf.SetValue(k * 256 + i * 16 + j, (float)v / 4.0f);
                } else {
                    ci.SetValue(k * 256 + i * 16 + j, v);
                }
            }
    LocalTensor<uint64_t> w = a1.Get<uint64_t>();
    GlobalTensor<uint64_t> sG;
    sG.SetGlobalBuffer((__gm__ uint64_t *)scales);
    DataCopy(w, sG, 16);
    FixpipeParamsV220 fp(16, 16, 16, 16, false);
    auto bits = [](float f) {
        uint32_t u;
        memcpy(&u, &f, 4);
        return (uint64_t)u;
    };
    switch (mode) {
    case 0: {
        GlobalTensor<half> o;
        o.SetGlobalBuffer((__gm__ half *)out);
        fp.quantPre = DEQF16;
        fp.deqScalar = bits(0.5f);
        Fixpipe(o, ci, fp);
        break;
    }
    case 1: {
        GlobalTensor<half> o;
        o.SetGlobalBuffer((__gm__ half *)out);
        fp.quantPre = VDEQF16;
        Fixpipe(o, ci, w, fp);
        break;
    }
    case 2: {
        GlobalTensor<int8_t> o;
        o.SetGlobalBuffer((__gm__ int8_t *)out);
        fp.quantPre = QF322B8_PRE;
        fp.deqScalar = bits(5.0f);
        Fixpipe(o, cf, fp);
        break;
    }
    case 3: {
        GlobalTensor<uint8_t> o;
        o.SetGlobalBuffer((__gm__ uint8_t *)out);
        fp.quantPre = VQF322B8_PRE;
        Fixpipe(o, cf, w, fp);
        break;
    }
    case 4: {
        GlobalTensor<int8_t> o;
        o.SetGlobalBuffer((__gm__ int8_t *)out);
        fp.quantPre = REQ8;
        fp.deqScalar = bits(1.5f);
        Fixpipe(o, ci, fp);
        break;
    }
    case 5: {
        GlobalTensor<uint8_t> o;
        o.SetGlobalBuffer((__gm__ uint8_t *)out);
        fp.quantPre = VREQ8;
        Fixpipe(o, ci, w, fp);
        break;
    }
    case 6: {
        GlobalTensor<float> o;
        o.SetGlobalBuffer((__gm__ float *)out);
        fp.ndNum = 2;
        fp.srcNdStride = 1;
        fp.dstNdStride = 272;
        Fixpipe(o, cf, fp);
        break;
    }
    case 7: {
        GlobalTensor<int8_t> o;
        o.SetGlobalBuffer((__gm__ int8_t *)out);
        fp.quantPre = REQ8;
        fp.reluEn = true;
        fp.deqScalar = bits(1.0f);
        Fixpipe(o, ci, fp);
        break;
    }
    case 8: { /* a vector mode without cbufWorkspace: a fault */
        GlobalTensor<half> o;
        o.SetGlobalBuffer((__gm__ half *)out);
        fp.quantPre = VDEQF16;
        Fixpipe(o, ci, fp);
        break;
    }
    default:
        break;
    }
}

/* int4 Mmad (A2: int4b_t x int4b_t -> int32_t): A 16 x 128 and B^T
 * 32 x 128, int4b_t packed two a byte in GM (64 bytes a row). Moved as
 * bytes for A (int8_t: a 32-byte C0 row of int8_t is a 64-element int4b_t
 * row) and as int4b_t for B (Nd2Nz counting elements): Nd2Nz to L1 gives
 * A in ZZ (one fractal row) and B in ZN, LoadData
 * moves the 512-byte fractals, Mmad reads them as int4b_t (k0 = 64), and
 * Fixpipe writes C (16 x 32 int32_t, NoQuant). */
extern "C" __global__ __aicore__ void cube_mmad_int4(GM_ADDR a, GM_ADDR bt, GM_ADDR c) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    pipe.InitBuffer(a1, 1024);
    pipe.InitBuffer(b1, 2048);
    pipe.InitBuffer(a2, 1024);
    pipe.InitBuffer(b2, 2048);
    pipe.InitBuffer(co1, 16 * 32 * 4);
    GlobalTensor<int8_t> aG, bG;
    GlobalTensor<int32_t> cG;
    aG.SetGlobalBuffer((__gm__ int8_t *)a);
    bG.SetGlobalBuffer((__gm__ int8_t *)bt);
    cG.SetGlobalBuffer((__gm__ int32_t *)c);
    LocalTensor<int8_t> a1L = a1.Get<int8_t>(), b1L = b1.Get<int8_t>(), a2L = a2.Get<int8_t>(), b2L = b2.Get<int8_t>();
    DataCopy(a1L, aG, Nd2NzParams(1, 16, 64, 0, 64, 16, 1, 0));
    GlobalTensor<int4b_t> b4G; /* B through the int4b_t form: element counts */
    b4G.SetGlobalBuffer((__gm__ int4b_t *)bt);
    LocalTensor<int4b_t> b1L4 = b1L.ReinterpretCast<int4b_t>();
    DataCopy(b1L4, b4G, Nd2NzParams(1, 32, 128, 0, 128, 32, 1, 0));
    LoadData(a2L, a1L, LoadData2DParams(0, 2, 1, 0, 0, false, 0));
    LoadData(b2L, b1L, LoadData2DParams(0, 4, 1, 0, 0, false, 0));
    LocalTensor<int4b_t> a4 = a2L.ReinterpretCast<int4b_t>(), b4 = b2L.ReinterpretCast<int4b_t>();
    LocalTensor<int32_t> c1L = co1.Get<int32_t>();
    MmadParams mp;
    mp.m = 16;
    mp.n = 32;
    mp.k = 128;
    Mmad(c1L, a4, b4, mp);
    Fixpipe(cG, c1L, FixpipeParamsV220(32, 16, 16, 32, false));
}
