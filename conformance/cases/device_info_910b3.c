/* device_info_910b3: aclrtGetDeviceInfo / aclGetDeviceCapability on an
 * emulated Ascend910B3, pinned to the numbers of semantics.md §20. */
/* needs: emulator */
/* env: NPUEMU_SOC=Ascend910B3 NPUEMU_DEVICES=2 */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    int64_t v = -1;

    /* doc: semantics.md §2 — the SoC name is the SoC_version of §20. */
    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    CHECK(strcmp(soc, "Ascend910B3") == 0);

    /* doc: semantics.md §20 — Ascend910B3: 20 AI cores (= cube cores on A2),
     * 40 vector cores, 6 AI CPUs, 192 MiB L2, NpuArch 2201, 64 GiB. */
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
    CHECK_EQ(v, 20);
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &v));
    CHECK_EQ(v, 20);
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v));
    CHECK_EQ(v, 40);
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICPU_CORE_NUM, &v));
    CHECK_EQ(v, 6);
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &v));
    CHECK_EQ(v, 201326592LL);
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &v));
    CHECK_EQ(v, 2201);
    /* doc: semantics.md §2 — IS_VIRTUAL 0 for a physical device. */
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_IS_VIRTUAL, &v));
    CHECK_EQ(v, 0);
    /* doc: semantics.md §2 — SIMT attributes return 0 on non-950 SoCs. */
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &v));
    CHECK_EQ(v, 0);
    /* doc: semantics.md §2 — HD_CONNECT_TYPE / DEVICE_FORM_FACTOR: 950 only,
     * error elsewhere (no code given). */
    CHECK_FAILS(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_HD_CONNECT_TYPE, &v));
    CHECK_FAILS(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_DEVICE_FORM_FACTOR, &v));

    /* doc: semantics.md §2 TOTAL_GLOBAL_MEM_SIZE = usable bytes; §8
     * aclrtGetMemInfo excludes system-reserved memory; §20 nominal 64 GiB. */
    int64_t global = 0;
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &global));
    CHECK(global > 0);
    CHECK(global <= 68719476736LL);
    size_t freeb = 0, total = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
    CHECK_EQ((long long)total, global);
    CHECK(freeb <= total);

    /* The second device answers the same. */
    CHECK_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
    CHECK_EQ(v, 20);
    CHECK_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
    CHECK_EQ(v, global);

    /* doc: semantics.md §2 — aclGetDeviceCapability: AI_CORE_NUM, VECTOR_CORE_NUM,
     * L2_SIZE (bytes). */
    CHECK_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &v));
    CHECK_EQ(v, 20);
    CHECK_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &v));
    CHECK_EQ(v, 40);
    CHECK_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &v));
    CHECK_EQ(v, 201326592LL);

    /* Bad input. doc: semantics.md §0 (NULL output), §2 (invalid ids). */
    CHECK_ERR(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS(aclrtGetDeviceInfo(2, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
    CHECK_FAILS(aclrtGetDeviceInfo(0, (aclrtDevAttr)9999, &v));
    CHECK_ERR(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS(aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &v));

    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
