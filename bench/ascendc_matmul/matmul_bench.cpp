/* matmul_bench: the issue #11 Matmul benchmark. A 1024 x 1024 x 1024 fp16
 * Matmul (fp32 result) with the Ascend C high-level API in a MIX kernel:
 * blockDim 1 = one AIC and two AIV cores, the tiling from
 * MultiCoreMatmulTiling with SetDim(2), so two host threads compute.
 * Prints "metric value unit" lines (bench/metrics.go):
 *   ascendc_matmul_gflops  the median over --runs launches (default 5) of
 *                          2*M*N*K / (launch + synchronize wall time)
 *   ascendc_matmul_ms      that median time
 * It checks a sample of C against a host reference first and exits 1 on a
 * mismatch. Built by the bisheng driver like any Ascend C program:
 *   bisheng -O2 matmul_bench.cpp -o matmul_bench -L emu/lib -lascendcl \
 *       -ltiling_api -lplatform -lregister -lascendalog
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "lib/matmul_intf.h"

#ifndef __NPUEMU_DEVICE_PASS__
#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#endif

using namespace matmul;

extern "C" __global__ __aicore__ void matmul_bench(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGM) {
    AscendC::TPipe pipe;
    TCubeTiling t;
    const uint32_t *src = reinterpret_cast<const uint32_t *>(tilingGM);
    for (size_t i = 0; i < sizeof(TCubeTiling) / 4; i++) reinterpret_cast<uint32_t *>(&t)[i] = src[i];
    using A = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
    using C = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    Matmul<A, A, C, C> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    int64_t idx = AscendC::GetBlockIdx();
    if (idx >= t.usedCoreNum) return;
    int64_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    int64_t mi = idx % mBlocks, ni = idx / mBlocks;
    AscendC::GlobalTensor<half> aG, bG;
    AscendC::GlobalTensor<float> cG;
    aG.SetGlobalBuffer((__gm__ half *)a + mi * t.singleCoreM * t.Ka);
    bG.SetGlobalBuffer((__gm__ half *)b + ni * t.singleCoreN);
    cG.SetGlobalBuffer((__gm__ float *)c + mi * t.singleCoreM * t.N + ni * t.singleCoreN);
    mm.SetTensorA(aG);
    mm.SetTensorB(bG);
    mm.IterateAll(cG);
    mm.End();
}

#ifndef __NPUEMU_DEVICE_PASS__
#define CHECK_ACL(x)                                                                           \
    do {                                                                                       \
        aclError e_ = (x);                                                                     \
        if (e_ != ACL_SUCCESS) {                                                               \
            fprintf(stderr, "%s:%d: %s = %d: %s\n", __FILE__, __LINE__, #x, (int)e_, aclGetRecentErrMsg()); \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

int main(int argc, char **argv) {
    int runs = 5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) runs = 1;
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
    }
    const int M = 1024, N = 1024, K = 1024, dim = 2;
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling api(*plat);
    api.SetDim(dim);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(M, N, K);
    api.SetOrgShape(M, N, K);
    api.SetBias(false);
    api.SetBufferSpace(-1, -1, -1);
    TCubeTiling tiling;
    if (api.GetTiling(tiling) != 0) {
        fprintf(stderr, "matmul_bench: %s\n", api.GetErrorMessage());
        return 1;
    }
    std::vector<uint16_t> a((size_t)M * K), b((size_t)K * N);
    for (size_t i = 0; i < a.size(); i++) a[i] = aclFloatToFloat16((float)((int)(i * 7 % 13) - 6));
    for (size_t i = 0; i < b.size(); i++) b[i] = aclFloatToFloat16((float)((int)(i * 5 % 11) - 5));

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_ACL(aclrtCreateStream(&s));
    void *da, *db, *dc, *dt;
    CHECK_ACL(aclrtMalloc(&da, a.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&db, b.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dc, (size_t)M * N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dt, sizeof tiling, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(da, a.size() * 2, a.data(), a.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(db, b.size() * 2, b.data(), b.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dt, sizeof tiling, &tiling, sizeof tiling, ACL_MEMCPY_HOST_TO_DEVICE));
    uint32_t blocks = (tiling.usedCoreNum + 1) / 2; /* MIX: two AIV cores per block */

    /* Warm-up and check. */
    matmul_bench<<<blocks, nullptr, s>>>((uint8_t *)da, (uint8_t *)db, (uint8_t *)dc, (uint8_t *)dt);
    CHECK_ACL(aclrtSynchronizeStream(s));
    std::vector<float> c((size_t)M * N);
    CHECK_ACL(aclrtMemcpy(c.data(), c.size() * 4, dc, c.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < M; i += 97)
        for (int j = 0; j < N; j += 89) {
            float want = 0;
            for (int k = 0; k < K; k++) want += aclFloat16ToFloat(a[(size_t)i * K + k]) * aclFloat16ToFloat(b[(size_t)k * N + j]);
            if (c[(size_t)i * N + j] != want) {
                fprintf(stderr, "matmul_bench: C[%d][%d] = %g, want %g\n", i, j, c[(size_t)i * N + j], want);
                return 1;
            }
        }

    std::vector<double> ms;
    for (int r = 0; r < runs; r++) {
        auto t0 = std::chrono::steady_clock::now();
        matmul_bench<<<blocks, nullptr, s>>>((uint8_t *)da, (uint8_t *)db, (uint8_t *)dc, (uint8_t *)dt);
        CHECK_ACL(aclrtSynchronizeStream(s));
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    double med = ms[ms.size() / 2];
    printf("ascendc_matmul_gflops %.2f GFLOP/s\n", 2.0 * M * N * K / (med * 1e-3) / 1e9);
    printf("ascendc_matmul_ms %.3f ms\n", med);
    CHECK_ACL(aclrtFree(da));
    CHECK_ACL(aclrtFree(db));
    CHECK_ACL(aclrtFree(dc));
    CHECK_ACL(aclrtFree(dt));
    CHECK_ACL(aclrtDestroyStream(s));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}
#endif
