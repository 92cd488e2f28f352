/* group_basic: core groups on Ascend 310P (16_group_management; the
 * documented call order aclrtSetDevice → aclrtGetAllGroupInfo →
 * aclrtGetGroupCount → aclrtGetGroupInfoDetail → aclrtSetGroup). npuemu's
 * layout (docs/groups.md): NPUEMU_CORE_GROUPS groups, resources split
 * evenly, ASQNUM 32 each. A context bound to a group runs a kernel of as
 * many blocks as the device has AI Cores in more waves (1 ms per wave).
 *
 * needs: emulator
 * env: NPUEMU_SOC=Ascend310P3 NPUEMU_DEVICES=1 NPUEMU_CORE_GROUPS=2
 */
#include <stdint.h>

#include "check.h"
#include "case_kernel.h"

static const char *kernel_src =
    "#include \"%s/emu/include/npuemu/kernel.h\"\n"
    "static void tickc(const npuemu_kernel_ctx *ctx) { (void)ctx; }\n"
    "NPUEMU_KERNEL_TABLE(\n"
    "    NPUEMU_KERNEL(tickc, NPUEMU_AICORE, .ns_per_block = 1000000),\n"
    ")\n";

static aclrtStream stream;

static float kernel_ms(aclrtFuncHandle f, uint32_t blocks)
{
    aclrtEvent e0, e1;
    aclrtArgsHandle a;
    CHECK_OK(aclrtCreateEvent(&e0));
    CHECK_OK(aclrtCreateEvent(&e1));
    CHECK_OK(aclrtKernelArgsInit(f, &a));
    CHECK_OK(aclrtKernelArgsFinalize(a));
    CHECK_OK(aclrtRecordEvent(e0, stream));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, blocks, stream, NULL, a, NULL));
    CHECK_OK(aclrtRecordEvent(e1, stream));
    CHECK_OK(aclrtSynchronizeStream(stream));
    float ms = -1;
    CHECK_OK(aclrtEventElapsedTime(&ms, e0, e1));
    CHECK_OK(aclrtDestroyEvent(e0));
    CHECK_OK(aclrtDestroyEvent(e1));
    return ms;
}

static int32_t detail(const aclrtGroupInfo *info, int32_t idx, aclrtGroupAttr attr)
{
    int32_t v = -1;
    size_t got = 0;
    CHECK_OK(aclrtGetGroupInfoDetail(info, idx, attr, &v, sizeof v, &got));
    CHECK_EQ(got, sizeof(int32_t));
    return v;
}

int main(void)
{
    char so[4096];
    build_case_kernel(__FILE__, kernel_src, so, sizeof so);

    CHECK_OK(aclInit(NULL));
    /* No current context yet. */
    uint32_t count = 0;
    CHECK_ERR(aclrtGetGroupCount(&count), ACL_ERROR_RT_CONTEXT_NULL);

    CHECK_OK(aclrtSetDevice(0));
    aclrtGroupInfo *info = aclrtCreateGroupInfo();
    CHECK(info != NULL);
    CHECK_OK(aclrtGetAllGroupInfo(info));
    CHECK_OK(aclrtGetGroupCount(&count));
    CHECK_EQ(count, 2);
    CHECK_ERR(aclrtGetGroupCount(NULL), ACL_ERROR_INVALID_PARAM);

    /* The groups share the device's resources exactly. */
    int64_t aicore = 0, vector = 0, aicpu = 0;
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &aicore));
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &vector));
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICPU_CORE_NUM, &aicpu));
    int64_t sumCore = 0, sumVec = 0, sumCpu = 0;
    for (int32_t i = 0; i < (int32_t)count; i++) {
        CHECK_EQ(detail(info, i, ACL_GROUP_GROUPID_INT), i);
        CHECK_EQ(detail(info, i, ACL_GROUP_ASQNUM_INT), 32);
        CHECK(detail(info, i, ACL_GROUP_AICORE_INT) >= 1);
        CHECK(detail(info, i, ACL_GROUP_SDMANUM_INT) >= 0);
        sumCore += detail(info, i, ACL_GROUP_AICORE_INT);
        sumVec += detail(info, i, ACL_GROUP_AIV_INT);
        sumCpu += detail(info, i, ACL_GROUP_AIC_INT);
    }
    CHECK_EQ(sumCore, aicore);
    CHECK_EQ(sumVec, vector);
    CHECK_EQ(sumCpu, aicpu);
    int32_t g1cores = detail(info, 1, ACL_GROUP_AICORE_INT);
    CHECK(g1cores < aicore);

    /* Bad input. */
    int32_t v = 0;
    size_t got = 0;
    CHECK_ERR(aclrtGetGroupInfoDetail(info, 2, ACL_GROUP_AICORE_INT, &v, sizeof v, &got), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetGroupInfoDetail(info, -1, ACL_GROUP_AICORE_INT, &v, sizeof v, &got), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetGroupInfoDetail(info, 0, (aclrtGroupAttr)6, &v, sizeof v, &got), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, &v, 2, &got), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, NULL, sizeof v, &got), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetGroupInfoDetail(NULL, 0, ACL_GROUP_AICORE_INT, &v, sizeof v, &got), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetAllGroupInfo(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtSetGroup(2), ACL_ERROR_RT_GROUP_NOT_CREATE);
    CHECK_ERR(aclrtSetGroup(-1), ACL_ERROR_RT_GROUP_NOT_CREATE);

    /* Binding the context to group 1 caps the AI Cores a kernel uses. */
    CHECK_OK(aclrtCreateStream(&stream));
    aclrtBinHandle bin;
    aclrtFuncHandle tickc;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    CHECK_OK(aclrtBinaryGetFunction(bin, "tickc", &tickc));
    float whole = kernel_ms(tickc, (uint32_t)aicore);
    CHECK_OK(aclrtSetGroup(1));
    float grouped = kernel_ms(tickc, (uint32_t)aicore);
    uint32_t waves = ((uint32_t)aicore + (uint32_t)g1cores - 1) / (uint32_t)g1cores;
    if (grouped - whole < (float)(waves - 1) - 0.01f || grouped - whole > (float)(waves - 1) + 0.01f)
        FAIL("grouped %.4f ms, whole device %.4f ms: want %u more waves", (double)grouped, (double)whole, waves - 1);

    CHECK_OK(aclrtDestroyGroupInfo(info));
    CHECK_ERR(aclrtDestroyGroupInfo(info), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtDestroyStream(stream));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
