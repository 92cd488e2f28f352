/* rules.cpp: one kernel per rule of the local memories and the
 * synchronisation (docs/ascendc.md, "Rules"); each breaks its rule once. */
#include "entry.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void init_beyond_capacity(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 100 * 1024); /* 200 KiB of a 192 KiB UB */
}

extern "C" __global__ __aicore__ void copy_length(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half *)x, 512);
    LocalTensor<half> t = q.AllocTensor<half>();
    DataCopy(t, g, 17); /* 34 bytes */
}

extern "C" __global__ __aicore__ void copy_ub_address(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half *)x, 512);
    LocalTensor<half> t = b.Get<half>();
    DataCopy(t[8], g, 16); /* UB offset 16 bytes */
}

extern "C" __global__ __aicore__ void copy_l0_address(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::A1> l1;
    TBuf<TPosition::A2> l0a;
    pipe.InitBuffer(l1, 4096);
    pipe.InitBuffer(l0a, 4096);
    LocalTensor<half> src = l1.Get<half>();
    LocalTensor<half> dst = l0a.Get<half>();
    DataCopy(dst[32], src, 256); /* L0A offset 64 bytes: L0 needs 512 */
}

extern "C" __global__ __aicore__ void deque_empty(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<float> t = q.DeQue<float>();
    (void)t;
}

extern "C" __global__ __aicore__ void alloc_beyond_depth(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECOUT, 2> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<float> a = q.AllocTensor<float>();
    LocalTensor<float> b = q.AllocTensor<float>();
    LocalTensor<float> c = q.AllocTensor<float>(); /* a third of two */
    (void)a;
    (void)b;
    (void)c;
}

extern "C" __global__ __aicore__ void wait_without_set(GM_ADDR) {
    SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1); /* no second SetFlag */
}

extern "C" __global__ __aicore__ void gm_past_end(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)x + 1024, 16); /* a 4 KiB allocation: 4 KiB + 32 usable */
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, g, 16); /* 32 bytes past its end */
}

extern "C" __global__ __aicore__ void gm_outside(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)(uintptr_t)0x1000, 16); /* no allocation */
    LocalTensor<float> t = q.AllocTensor<float>();
    Duplicate(t, 1.0f, 16);
    DataCopy(g, t, 16);
    (void)x;
}

extern "C" __global__ __aicore__ void mask_range(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> t = b.Get<float>();
    Add(t, t, t, (uint64_t)65, 1, BinaryRepeatParams()); /* 65 of 64 floats a repeat */
}

extern "C" __global__ __aicore__ void select_mode(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b, m;
    pipe.InitBuffer(b, 1024);
    pipe.InitBuffer(m, 32);
    LocalTensor<float> t = b.Get<float>();
    LocalTensor<uint8_t> sel = m.Get<uint8_t>();
    Select(t, sel, t, 1.0f, SELMODE::VSEL_TENSOR_TENSOR_MODE, (uint64_t)64, 1, BinaryRepeatParams()); /* a scalar src1 needs mode 1 */
}

extern "C" __global__ __aicore__ void list_desc_layout(GM_ADDR x) {
    ListTensorDesc list(x); /* word 0 is 0: no pointer table offset */
    (void)list.GetSize();
}

/* A kernel that breaks nothing: x[i] = i for 64 floats. */
extern "C" __global__ __aicore__ void fine(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 256);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)x, 64);
    LocalTensor<float> t = q.AllocTensor<float>();
    for (int i = 0; i < 64; i++) t.SetValue(i, (float)i);
    q.EnQue(t);
    t = q.DeQue<float>();
    DataCopy(g, t, 64);
    q.FreeTensor(t);
}

ASC_ENTRY(init_beyond_capacity, NPUEMU_VECTOR, init_beyond_capacity(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(copy_length, NPUEMU_VECTOR, copy_length(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(copy_ub_address, NPUEMU_VECTOR, copy_ub_address(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(copy_l0_address, NPUEMU_CUBE, copy_l0_address(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(deque_empty, NPUEMU_VECTOR, deque_empty(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(alloc_beyond_depth, NPUEMU_VECTOR, alloc_beyond_depth(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(wait_without_set, NPUEMU_VECTOR, wait_without_set(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(gm_past_end, NPUEMU_VECTOR, gm_past_end(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(gm_outside, NPUEMU_VECTOR, gm_outside(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(fine, NPUEMU_VECTOR, fine(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(mask_range, NPUEMU_VECTOR, mask_range(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(select_mode, NPUEMU_VECTOR, select_mode(ASC_ARG(GM_ADDR, 0)))
ASC_ENTRY(list_desc_layout, NPUEMU_VECTOR, list_desc_layout(ASC_ARG(GM_ADDR, 0)))

NPUEMU_KERNEL_TABLE(ASC_ROW(init_beyond_capacity, NPUEMU_VECTOR), ASC_ROW(copy_length, NPUEMU_VECTOR), ASC_ROW(copy_ub_address, NPUEMU_VECTOR),
                    ASC_ROW(copy_l0_address, NPUEMU_CUBE), ASC_ROW(deque_empty, NPUEMU_VECTOR), ASC_ROW(alloc_beyond_depth, NPUEMU_VECTOR),
                    ASC_ROW(wait_without_set, NPUEMU_VECTOR), ASC_ROW(gm_past_end, NPUEMU_VECTOR), ASC_ROW(gm_outside, NPUEMU_VECTOR),
                    ASC_ROW(fine, NPUEMU_VECTOR), ASC_ROW(mask_range, NPUEMU_VECTOR), ASC_ROW(select_mode, NPUEMU_VECTOR),
                    ASC_ROW(list_desc_layout, NPUEMU_VECTOR))
