/* device_info_310p3: device attributes of an emulated Ascend310P3, so that
 * the per-SoC numbers are not those of the default node. */
/* needs: emulator */
/* env: NPUEMU_SOC=Ascend310P3 NPUEMU_DEVICES=1 */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_EQ(rt_device_count(), 1);
    CHECK_OK(aclrtSetDevice(0));
    int64_t v = -1;

    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    CHECK(strcmp(soc, "Ascend310P3") == 0);

    /* doc: semantics.md §20 — Ascend310P3: 8 AI cores, 7 vector cores,
     * 7 AI CPUs, 16 MiB L2, NpuArch 2002, nominal 24000000000 bytes. */
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
    CHECK_EQ(v, 8);
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v));
    CHECK_EQ(v, 7);
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICPU_CORE_NUM, &v));
    CHECK_EQ(v, 7);
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &v));
    CHECK_EQ(v, 16777216LL);
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &v));
    CHECK_EQ(v, 2002);
    CHECK_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &v));
    CHECK_EQ(v, 8);

    int64_t global = 0;
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &global));
    CHECK(global > 0);
    CHECK(global <= 24000000000LL);
    size_t freeb = 0, total = 0;
    /* doc: semantics.md §8 — HBM attributes on DDR-only devices fall back to DDR. */
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
    CHECK_EQ((long long)total, global);
    CHECK_OK(aclrtGetMemInfo(ACL_DDR_MEM, &freeb, &total));
    CHECK_EQ((long long)total, global);

    /* doc: semantics.md §10 — aclrtMemcpy2dAsync D2D exists only on
     * 950/A3/A2 (no code given for other SoCs). */
    void *d1 = NULL, *d2 = NULL;
    aclrtStream s = NULL;
    CHECK_OK(aclrtMalloc(&d1, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&d2, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_FAILS(aclrtMemcpy2dAsync(d2, 64, d1, 64, 32, 16, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFree(d1));
    CHECK_OK(aclrtFree(d2));

    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
