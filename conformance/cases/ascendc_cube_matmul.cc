/* ascendc_cube_matmul: the host Matmul tiling (MultiCoreMatmulTiling over
 * PlatformAscendC) gives a tiling that fits the SoC's buffers and covers
 * the matrices with at most SetDim cores, and the high-level Matmul of an
 * Ascend C MIX kernel computes C = A * B (+ bias) with it exactly: through
 * IterateAll to GM (B plain and transposed) and through Iterate +
 * GetTensorC into a local tensor, on 2 and 4 AIV cores, and with A and B
 * (transposed) given in NZ. The platform
 * library reports the runtime's SoC and core counts.
 *
 * needs: emulator
 * link: -lascendcl -ltiling_api -lregister -lplatform -lascendalog
 */
#include <stdint.h>

#include <vector>

#include "ascendc_cube_kernels/build.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

static float h2f(uint16_t h) { return aclFloat16ToFloat(h); }

static TCubeTiling make_tiling(int M, int N, int K, int dim, bool bias, bool transB, MatrixTraverse order) {
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    MultiCoreMatmulTiling api(*plat);
    api.SetDim(dim);
    api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
    api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, transB);
    api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    api.SetOrgShape(M, N, K);
    api.SetShape(M, N, K);
    api.SetBias(bias);
    api.SetTraverse(order);
    api.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling host;
    if (api.GetTiling(host) != 0) FAIL("GetTiling: %s", api.GetErrorMessage());
    CHECK_EQ(host.GetDataSize(), sizeof(TCubeTiling));
    TCubeTiling t;
    host.SaveToBuffer(&t, sizeof t);
    /* The documented constraints of a TCubeTiling. */
    CHECK(t.usedCoreNum >= 1 && t.usedCoreNum <= dim);
    CHECK_EQ(t.M, M);
    CHECK_EQ(t.N, N);
    CHECK_EQ(t.Ka, K);
    CHECK_EQ(t.singleCoreK, K);
    CHECK(((M + t.singleCoreM - 1) / t.singleCoreM) * ((N + t.singleCoreN - 1) / t.singleCoreN) == t.usedCoreNum);
    uint64_t l0a, l0b, l0c, l1;
    plat->GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, l0a);
    plat->GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, l0b);
    plat->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
    plat->GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
    CHECK((uint64_t)t.baseM * t.baseK * 2 <= l0a);
    CHECK((uint64_t)t.baseK * t.baseN * 2 <= l0b);
    CHECK((uint64_t)t.baseM * t.baseN * 4 <= l0c);
    CHECK((uint64_t)t.depthA1 * t.baseM * t.baseK * 2 + (uint64_t)t.depthB1 * t.baseN * t.baseK * 2 <= l1);
    CHECK(t.baseM % 16 == 0 && t.baseN % 16 == 0 && t.baseK % 16 == 0);
    CHECK_EQ(t.iterateOrder, order == MatrixTraverse::FIRSTN ? 1 : 0);
    CHECK_EQ(t.isBias, bias ? 1 : 0);
    return t;
}

static void run_case(aclrtStream s, aclrtFuncHandle f, int M, int N, int K, int dim, bool bias, bool transB, bool local,
                     MatrixTraverse order) {
    TCubeTiling t = make_tiling(M, N, K, dim, bias, transB, order);
    std::vector<uint16_t> a((size_t)M * K), b((size_t)K * N);
    std::vector<float> bs(N), c((size_t)M * N);
    for (size_t i = 0; i < a.size(); i++) a[i] = aclFloatToFloat16((float)((int)(i * 7 % 13) - 6));
    for (size_t i = 0; i < b.size(); i++) b[i] = aclFloatToFloat16((float)((int)(i * 5 % 11) - 5));
    for (int j = 0; j < N; j++) bs[j] = (float)(j % 9);
    void *da, *db, *dbias, *dc, *dt;
    CHECK_OK(aclrtMalloc(&da, a.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&db, b.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dbias, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dc, c.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dt, sizeof t, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(da, a.size() * 2, a.data(), a.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(db, b.size() * 2, b.data(), b.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(dbias, N * 4, bs.data(), N * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(dt, sizeof t, &t, sizeof t, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemset(dc, c.size() * 4, 0xff, c.size() * 4));
    uint32_t tb = transB ? 1 : 0;
    uint32_t blocks = (t.usedCoreNum + 1) / 2; /* MIX: two AIV cores per block */
    if (local) {
        asc_param ps[] = {{&da, 8}, {&db, 8}, {&dc, 8}, {&dt, 8}};
        asc_launch(f, blocks, s, ps, 4);
    } else {
        asc_param ps[] = {{&da, 8}, {&db, 8}, {&dbias, 8}, {&dc, 8}, {&dt, 8}, {&tb, 4}};
        asc_launch(f, blocks, s, ps, 6);
    }
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(c.data(), c.size() * 4, dc, c.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float want = bias ? bs[j] : 0.0f;
            for (int k = 0; k < K; k++) {
                float bv = transB ? h2f(b[(size_t)j * K + k]) : h2f(b[(size_t)k * N + j]);
                want += h2f(a[(size_t)i * K + k]) * bv;
            }
            if (c[(size_t)i * N + j] != want) {
                FAIL("M=%d N=%d K=%d dim=%d bias=%d transB=%d local=%d: C[%d][%d] = %g, want %g", M, N, K, dim, bias, transB, local, i, j,
                     c[(size_t)i * N + j], want);
            }
        }
    CHECK_OK(aclrtFree(da));
    CHECK_OK(aclrtFree(db));
    CHECK_OK(aclrtFree(dbias));
    CHECK_OK(aclrtFree(dc));
    CHECK_OK(aclrtFree(dt));
}

int main(void) {
    char repo[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    /* The platform library answers the runtime's SoC. */
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    int64_t aiv = 0, aic = 0;
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &aiv));
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &aic));
    CHECK_EQ(plat->GetCoreNumAiv(), aiv);
    CHECK_EQ(plat->GetCoreNumAic(), aic);
    CHECK_EQ(plat->GetCoreNum(), aiv);
    CHECK(strcmp(plat->GetSocName(), aclrtGetSocName()) == 0);
    CHECK(plat->GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B || plat->GetSocVersion() == platform_ascendc::SocVersion::ASCEND910_93);
    CHECK_EQ(plat->GetLibApiWorkSpaceSize(), 16u << 20);
    uint64_t ub = 0;
    plat->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    CHECK_EQ(ub, 196608);

    /* A tiling that cannot exist fails with a message. */
    MultiCoreMatmulTiling bad(*plat);
    bad.SetDim(2);
    bad.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    bad.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    bad.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    bad.SetShape(128, 128, 64);
    bad.SetOrgShape(128, 128, 64);
    bad.SetFixSplit(256, 256, -1);
    TCubeTiling tt;
    CHECK_EQ(bad.GetTiling(tt), -1);
    CHECK(strstr(bad.GetErrorMessage(), "L0C") != NULL);

    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = asc_load(repo, "matmul_kernels.cpp");
    aclrtFuncHandle all, local;
    CHECK_OK(aclrtBinaryGetFunction(bin, "mm_iterate_all", &all));
    CHECK_OK(aclrtBinaryGetFunction(bin, "mm_iterate_local", &local));
    run_case(s, all, 256, 192, 160, 2, true, false, false, MatrixTraverse::FIRSTM);
    run_case(s, all, 128, 320, 96, 2, true, true, false, MatrixTraverse::FIRSTN);
    run_case(s, all, 200, 176, 72, 4, true, false, false, MatrixTraverse::FIRSTM); /* tails in M */
    run_case(s, local, 256, 256, 128, 4, false, false, true, MatrixTraverse::FIRSTM);

    /* A and B in NZ (B transposed): M 40 (padded to 48 rows), N 32, K 48. */
    {
        const int M = 40, N = 32, K = 48, Mp = 48;
        TCubeTiling t = make_tiling(M, N, K, 1, false, true, MatrixTraverse::FIRSTM);
        std::vector<uint16_t> a((size_t)M * K), b((size_t)N * K), anz((size_t)Mp * K, 0), bnz((size_t)N * K, 0);
        for (size_t i = 0; i < a.size(); i++) a[i] = aclFloatToFloat16((float)((int)(i % 7) - 3));
        for (size_t i = 0; i < b.size(); i++) b[i] = aclFloatToFloat16((float)((int)(i % 5) - 2));
        for (int i = 0; i < M; i++)
            for (int k = 0; k < K; k++) anz[(size_t)(k / 16) * Mp * 16 + i * 16 + k % 16] = a[(size_t)i * K + k];
        for (int j = 0; j < N; j++) /* B stored transposed: N x K */
            for (int k = 0; k < K; k++) bnz[(size_t)(k / 16) * N * 16 + j * 16 + k % 16] = b[(size_t)j * K + k];
        void *da, *db, *dc, *dt;
        std::vector<float> c((size_t)M * N);
        CHECK_OK(aclrtMalloc(&da, anz.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_OK(aclrtMalloc(&db, bnz.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_OK(aclrtMalloc(&dc, c.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_OK(aclrtMalloc(&dt, sizeof t, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_OK(aclrtMemcpy(da, anz.size() * 2, anz.data(), anz.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_OK(aclrtMemcpy(db, bnz.size() * 2, bnz.data(), bnz.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_OK(aclrtMemcpy(dt, sizeof t, &t, sizeof t, ACL_MEMCPY_HOST_TO_DEVICE));
        aclrtFuncHandle nz;
        CHECK_OK(aclrtBinaryGetFunction(bin, "mm_nz", &nz));
        asc_param ps[] = {{&da, 8}, {&db, 8}, {&dc, 8}, {&dt, 8}};
        asc_launch(nz, 1, s, ps, 4);
        CHECK_OK(aclrtSynchronizeStream(s));
        CHECK_OK(aclrtMemcpy(c.data(), c.size() * 4, dc, c.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                float want = 0;
                for (int k = 0; k < K; k++) want += h2f(a[(size_t)i * K + k]) * h2f(b[(size_t)j * K + k]);
                if (c[(size_t)i * N + j] != want) FAIL("NZ: C[%d][%d] = %g, want %g", i, j, c[(size_t)i * N + j], want);
            }
        CHECK_OK(aclrtFree(da));
        CHECK_OK(aclrtFree(db));
        CHECK_OK(aclrtFree(dc));
        CHECK_OK(aclrtFree(dt));
    }
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
