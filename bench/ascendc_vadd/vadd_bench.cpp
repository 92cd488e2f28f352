/* vadd_bench: the issue #11 Ascend C vector-add benchmark. The samples'
 * kernel shape (TPipe, TQue double buffering, DataCopy GM->UB, Add,
 * DataCopy UB->GM) over 16 Mi elements in 8 blocks, launched with <<<>>>
 * like a user's program, built by the bisheng driver. Prints
 * "metric value unit" lines (bench/metrics.go):
 *   ascendc_vector_add_16Mi_GBps       float: 3 x 64 MiB moved per launch,
 *                                      10 launches after a warm-up one
 *   ascendc_vector_add_16Mi_half_GBps  the same over halfs (3 x 32 MiB)
 * It checks the result first and exits 1 on a mismatch.
 *   bisheng -O2 vadd_bench.cpp -o vadd_bench
 * --quick: 1 Mi elements, 2 launches (checks that it runs). */
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_BYTES = 16 * 1024; // per buffer: 3 queues x 2 x 16 KiB of the 192 KiB UB

template <typename T> class KernelVadd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t total) {
        blockLength = total / AscendC::GetBlockNum();
        tileLength = TILE_BYTES / sizeof(T);
        tiles = blockLength / tileLength;
        uint64_t off = blockLength * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ T *)x + off, blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + off, blockLength);
        zGm.SetGlobalBuffer((__gm__ T *)z + off, blockLength);
        pipe.InitBuffer(inX, BUFFER_NUM, TILE_BYTES);
        pipe.InitBuffer(inY, BUFFER_NUM, TILE_BYTES);
        pipe.InitBuffer(outZ, BUFFER_NUM, TILE_BYTES);
    }
    __aicore__ inline void Process() {
        for (uint64_t i = 0; i < tiles; i++) {
            AscendC::LocalTensor<T> x = inX.AllocTensor<T>();
            AscendC::LocalTensor<T> y = inY.AllocTensor<T>();
            AscendC::DataCopy(x, xGm[i * tileLength], tileLength);
            AscendC::DataCopy(y, yGm[i * tileLength], tileLength);
            inX.EnQue(x);
            inY.EnQue(y);
            x = inX.DeQue<T>();
            y = inY.DeQue<T>();
            AscendC::LocalTensor<T> z = outZ.AllocTensor<T>();
            AscendC::Add(z, x, y, tileLength);
            outZ.EnQue<T>(z);
            inX.FreeTensor(x);
            inY.FreeTensor(y);
            z = outZ.DeQue<T>();
            AscendC::DataCopy(zGm[i * tileLength], z, tileLength);
            outZ.FreeTensor(z);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inX, inY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outZ;
    AscendC::GlobalTensor<T> xGm, yGm, zGm;
    uint64_t blockLength, tileLength, tiles;
};

extern "C" __global__ __aicore__ void vadd_f32(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t total) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelVadd<float> op;
    op.Init(x, y, z, total);
    op.Process();
}

extern "C" __global__ __aicore__ void vadd_f16(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t total) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelVadd<half> op;
    op.Init(x, y, z, total);
    op.Process();
}

#ifndef __NPUEMU_DEVICE_PASS__
#include "acl/acl.h"

#define CHECK_ACL(x)                                                                           \
    do {                                                                                       \
        aclError e_ = (x);                                                                     \
        if (e_ != ACL_SUCCESS) {                                                               \
            fprintf(stderr, "%s:%d: %s: %d %s\n", __FILE__, __LINE__, #x, e_, aclGetRecentErrMsg()); \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// CPU seconds of the process (all threads): with NPUEMU_BENCH_CPU=1 the
// bench also prints GB per CPU second, a figure that a busy machine
// disturbs less than wall time (used to compare builds A/B).
static double cpu_s() {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static bool want_cpu = getenv("NPUEMU_BENCH_CPU") != nullptr;

// run times `launches` launches of one kernel over n elements of esize bytes
// after a warm-up one, checks z = x + y, and returns GB/s (3 arrays moved).
template <typename T>
static double run(aclrtStream s, bool f16, uint64_t n, int launches) {
    size_t bytes = n * sizeof(T);
    std::vector<T> h(n);
    void *d[3];
    for (int i = 0; i < 3; i++) CHECK_ACL(aclrtMalloc(&d[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    for (uint64_t i = 0; i < n; i++) h[i] = T(float(i % 1000));
    CHECK_ACL(aclrtMemcpy(d[0], bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    for (uint64_t i = 0; i < n; i++) h[i] = T(0.5f);
    CHECK_ACL(aclrtMemcpy(d[1], bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    auto launch = [&] {
        if (f16) {
            vadd_f16<<<8, nullptr, s>>>((GM_ADDR)d[0], (GM_ADDR)d[1], (GM_ADDR)d[2], n);
        } else {
            vadd_f32<<<8, nullptr, s>>>((GM_ADDR)d[0], (GM_ADDR)d[1], (GM_ADDR)d[2], n);
        }
    };
    launch();
    CHECK_ACL(aclrtSynchronizeStream(s));
    double t0 = now_s(), c0 = cpu_s();
    for (int i = 0; i < launches; i++) launch();
    CHECK_ACL(aclrtSynchronizeStream(s));
    double t1 = now_s(), c1 = cpu_s();
    if (want_cpu) {
        printf("ascendc_vector_add_16Mi%s_GB_per_cpu_s %.2f GB/s\n", f16 ? "_half" : "", 3.0 * bytes * launches / (c1 - c0) / 1e9);
    }
    CHECK_ACL(aclrtMemcpy(h.data(), bytes, d[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint64_t i = 0; i < n; i++) {
        float want = float(i % 1000) + 0.5f;
        if (float(h[i]) != want) {
            fprintf(stderr, "vadd_%s wrong: z[%llu] = %g, want %g\n", f16 ? "f16" : "f32", (unsigned long long)i,
                    float(h[i]), want);
            exit(1);
        }
    }
    for (int i = 0; i < 3; i++) CHECK_ACL(aclrtFree(d[i]));
    return 3.0 * bytes * launches / (t1 - t0) / 1e9;
}

int main(int argc, char **argv) {
    bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    uint64_t n = quick ? (1u << 20) : (16u << 20);
    int launches = quick ? 2 : 10;
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_ACL(aclrtCreateStream(&s));
    double f32 = run<float>(s, false, n, launches);
    double f16 = run<half>(s, true, n, launches);
    printf("ascendc_vector_add_16Mi_GBps %.2f GB/s\n", f32);
    printf("ascendc_vector_add_16Mi_half_GBps %.2f GB/s\n", f16);
    CHECK_ACL(aclrtDestroyStream(s));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}
#endif
