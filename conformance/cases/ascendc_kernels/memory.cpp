/* memory.cpp: the memory objects. Output o (int32 words):
 *  [0..3]  values DeQue'd from a depth-2 queue in EnQue order;
 *  [4]     HasTensorInQue after draining (0); [5] VacantInQue (1);
 *  [8..15] a TQueBind<VECIN, VECOUT> round trip of x[0..8);
 *  [16]    byte offset between two TBufPool buffers (1024);
 *  [17]    GetTPipePtr() == &pipe; [18] a TBuf GetWithOffset view reads
 *          what Get's view wrote at the same place (42);
 *  [19]    LocalMemAllocator: second tensor's offset from the first (4096);
 *  [20]    a static LocalTensor(VECCALC, addr, n) at the address of the
 *          first allocated one reads its value (77);
 *  [21]    after TPipe::Reset the first InitBuffer starts at offset 0 again;
 *  [22]    Transpose of a 16 x 16 matrix (see below). */
#include "entry.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void memory_objects(GM_ADDR px, GM_ADDR po) {
    GlobalTensor<int32_t> gx, go;
    gx.SetGlobalBuffer((__gm__ int32_t *)px, 64);
    go.SetGlobalBuffer((__gm__ int32_t *)po, 64);
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 64);
    for (int round = 0; round < 2; round++) {
        LocalTensor<int32_t> a = q.AllocTensor<int32_t>();
        a.SetValue(0, 10 + round * 2);
        LocalTensor<int32_t> b = q.AllocTensor<int32_t>();
        b.SetValue(0, 11 + round * 2);
        q.EnQue(a);
        q.EnQue(b);
        LocalTensor<int32_t> c = q.DeQue<int32_t>();
        go.SetValue(round * 2, c.GetValue(0));
        q.FreeTensor(c);
        LocalTensor<int32_t> d = q.DeQue<int32_t>();
        go.SetValue(round * 2 + 1, d.GetValue(0));
        q.FreeTensor(d);
    }
    go.SetValue(4, q.HasTensorInQue() ? 1 : 0);
    go.SetValue(5, q.VacantInQue() ? 1 : 0);

    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bind;
    pipe.InitBuffer(bind, 1, 32);
    LocalTensor<int32_t> t = bind.AllocTensor<int32_t>();
    DataCopy(t, gx, 8);
    bind.EnQue(t);
    t = bind.DeQue<int32_t>();
    DataCopy(go[8], t, 8);
    bind.FreeTensor(t);

    TBufPool<TPosition::VECCALC> pool;
    pipe.InitBufPool(pool, 4096);
    TBuf<TPosition::VECCALC> p1, p2;
    pool.InitBuffer(p1, 1024);
    pool.InitBuffer(p2, 1024);
    go.SetValue(16, (int32_t)((uint8_t *)p2.Get<int32_t>().GetPhyAddr() - (uint8_t *)p1.Get<int32_t>().GetPhyAddr()));
    go.SetValue(17, GetTPipePtr() == &pipe ? 1 : 0);

    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, 256);
    tb.Get<int32_t>().SetValue(16, 42);
    go.SetValue(18, tb.GetWithOffset<int32_t>(8, 64).GetValue(0));

    LocalMemAllocator<Hardware::UB> alloc;
    LocalTensor<int32_t> s1 = alloc.Alloc<int32_t, 1024>();
    LocalTensor<int32_t> s2 = alloc.Alloc<int32_t, 1024>();
    go.SetValue(19, (int32_t)((uint8_t *)s2.GetPhyAddr() - (uint8_t *)s1.GetPhyAddr()));
    s1.SetValue(0, 77);
    LocalTensor<int32_t> st(TPosition::VECCALC, 0, 8);
    go.SetValue(20, st.GetValue(0));

    /* [22] Transpose of a 16 x 16 int16 matrix m[i][j] = 16 i + j: element
     * (2, 5) of the result is m[5][2] = 82. */
    TBuf<TPosition::VECCALC> tm, tt;
    pipe.InitBuffer(tm, 512);
    pipe.InitBuffer(tt, 512);
    LocalTensor<int16_t> m = tm.Get<int16_t>(), mt = tt.Get<int16_t>();
    for (int i = 0; i < 256; i++) m.SetValue(i, (int16_t)i);
    Transpose(mt, m);
    go.SetValue(22, mt.GetValue(2 * 16 + 5));

    pipe.Reset();
    TBuf<TPosition::VECCALC> again;
    pipe.InitBuffer(again, 32);
    go.SetValue(21, (int32_t)((uint8_t *)again.Get<int32_t>().GetPhyAddr() - (uint8_t *)s1.GetPhyAddr()));
}

ASC_ENTRY(memory_objects, NPUEMU_VECTOR, memory_objects(ASC_ARG(GM_ADDR, 0), ASC_ARG(GM_ADDR, 8)))
NPUEMU_KERNEL_TABLE(ASC_ROW(memory_objects, NPUEMU_VECTOR))
