/* hal_device: device enumeration and information through the driver HAL
 * (hal-api.md §4): counts and ids agree with each other and with ACL, the
 * SoC name and chip id agree with aclrtGetSocName, and bad ids / NULL
 * outputs fail with the exact drvError_t codes.
 *
 * link: -lascendcl -lascend_hal
 * env: NPUEMU_DEVICES=2
 * needs: devices=2
 */
#include <stdint.h>

#include "check.h"
#include "driver/ascend_hal.h"

/* CHECK_DRV: a HAL call returns exactly code (HAL errors have no ACL
 * recent-error message on a real driver, so none is required). */
#define CHECK_DRV(call, code)                                            \
    do {                                                                 \
        drvError_t check_d_ = (call);                                    \
        if (check_d_ != (code))                                          \
            FAIL("%s: got %d, want %s (%d)", #call, (int)check_d_, #code, (int)(code)); \
    } while (0)

int main(void)
{
    CHECK_OK(aclInit(NULL));

    /* doc: hal-api.md §4 — the count, also as halGetDevNumEx(0), and as
     * ACL sees it. */
    uint32_t num = 0;
    CHECK_DRV(drvGetDevNum(&num), DRV_ERROR_NONE);
    CHECK(num >= 2);
    uint32_t numEx = 0;
    CHECK_DRV(halGetDevNumEx(0, &numEx), DRV_ERROR_NONE);
    CHECK_EQ(numEx, num);
    uint32_t aclCount = 0;
    CHECK_OK(aclrtGetDeviceCount(&aclCount));
    CHECK_EQ(aclCount, num);

    /* doc: §4 — ids, logical <-> physical round trip. */
    uint32_t ids[64];
    uint32_t local[64];
    CHECK(num <= 64);
    CHECK_DRV(drvGetDevIDs(ids, 64), DRV_ERROR_NONE);
    CHECK_DRV(drvGetDeviceLocalIDs(local, 64), DRV_ERROR_NONE);
    for (uint32_t i = 0; i < num; i++) {
        uint32_t phy = 99, idx = 99;
        CHECK_DRV(drvDeviceGetPhyIdByIndex(i, &phy), DRV_ERROR_NONE);
        CHECK_DRV(drvDeviceGetIndexByPhyId(phy, &idx), DRV_ERROR_NONE);
        CHECK_EQ(idx, i);
        CHECK_EQ(local[i], i);
    }

    /* doc: §4 — a program on the host side gets 1. */
    uint32_t plat = 99;
    CHECK_DRV(drvGetPlatformInfo(&plat), DRV_ERROR_NONE);
    CHECK_EQ(plat, 1);

    /* doc: §1 — the library's API version is a positive version word. */
    int ver = 0;
    CHECK_DRV(halGetAPIVersion(&ver), DRV_ERROR_NONE);
    CHECK(ver > 0);

    /* doc: §4 — halGetSocVersion is the SoC string aclrtGetSocName gives. */
    char soc[128];
    memset(soc, 'x', sizeof soc);
    CHECK_DRV(halGetSocVersion(0, soc, sizeof soc), DRV_ERROR_NONE);
    const char *aclSoc = aclrtGetSocName();
    CHECK(aclSoc != NULL);
    CHECK(strcmp(soc, aclSoc) == 0);
    CHECK(strncmp(soc, "Ascend", 6) == 0);

    halChipInfo chip;
    memset(&chip, 0, sizeof chip);
    CHECK_DRV(halGetChipInfo(0, &chip), DRV_ERROR_NONE);
    CHECK(chip.name[0] != '\0');
    CHECK(memchr(chip.name, 0, sizeof chip.name) != NULL);

    /* doc: §4.1 — core counts agree with aclrtGetDeviceInfo; VERSION carries
     * the chip id in bits 8-15 (5 for the 910B/910_93 parts). */
    int64_t aic = -1, aclAic = -2, vec = -1, aclVec = -2, cpu = -1, aclCpu = -2, version = -1;
    CHECK_DRV(halGetDeviceInfo(1, MODULE_TYPE_AICORE, INFO_TYPE_CORE_NUM, &aic), DRV_ERROR_NONE);
    CHECK_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_AICORE_CORE_NUM, &aclAic));
    CHECK_EQ(aic, aclAic);
    CHECK_DRV(halGetDeviceInfo(1, MODULE_TYPE_VECTOR_CORE, INFO_TYPE_CORE_NUM, &vec), DRV_ERROR_NONE);
    CHECK_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_VECTOR_CORE_NUM, &aclVec));
    CHECK_EQ(vec, aclVec);
    CHECK_DRV(halGetDeviceInfo(1, MODULE_TYPE_AICPU, INFO_TYPE_CORE_NUM, &cpu), DRV_ERROR_NONE);
    CHECK_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_AICPU_CORE_NUM, &aclCpu));
    CHECK_EQ(cpu, aclCpu);
    CHECK_DRV(halGetDeviceInfo(0, MODULE_TYPE_SYSTEM, INFO_TYPE_VERSION, &version), DRV_ERROR_NONE);
    if (strncmp(soc, "Ascend910B", 10) == 0 || strncmp(soc, "Ascend910_93", 12) == 0)
        CHECK_EQ((version >> 8) & 0xFF, 5);
    int64_t freq = -1, runMach = -1, phy = -1;
    CHECK_DRV(halGetDeviceInfo(0, MODULE_TYPE_AICORE, INFO_TYPE_FREQUE, &freq), DRV_ERROR_NONE);
    CHECK(freq > 0);
    CHECK_DRV(halGetDeviceInfo(0, MODULE_TYPE_SYSTEM, INFO_TYPE_RUN_MACH, &runMach), DRV_ERROR_NONE);
    CHECK(runMach == RUN_MACHINE_PHYCICAL || runMach == RUN_MACHINE_VIRTUAL);
    CHECK_DRV(halGetDeviceInfo(1, MODULE_TYPE_SYSTEM, INFO_TYPE_PHY_CHIP_ID, &phy), DRV_ERROR_NONE);
    CHECK(phy >= 0);

    /* doc: §4 — capacities per task scheduler (tsId 0). */
    struct halResourceInfo res;
    memset(&res, 0, sizeof res);
    CHECK_DRV(halResourceInfoQuery(0, 0, DRV_RESOURCE_STREAM_ID, &res), DRV_ERROR_NONE);
    CHECK(res.capacity > 0);
    CHECK(res.usedNum <= res.capacity);

    /* Every feature answer is a bool; a bad device is never "supported". */
    CHECK(!halSupportFeature(num, FEATURE_MEMCPY_BATCH_ASYNC));

    /* doc: §2 — bad device ids and NULL outputs. */
    uint32_t x = 0;
    int64_t v = 0;
    CHECK_DRV(drvDeviceGetPhyIdByIndex(num, &x), DRV_ERROR_INVALID_DEVICE);
    CHECK_DRV(halGetDeviceInfo(num, MODULE_TYPE_AICORE, INFO_TYPE_CORE_NUM, &v), DRV_ERROR_INVALID_DEVICE);
    CHECK_DRV(halGetSocVersion(num, soc, sizeof soc), DRV_ERROR_INVALID_DEVICE);
    CHECK_DRV(halGetChipInfo(num, &chip), DRV_ERROR_INVALID_DEVICE);
    CHECK_DRV(halResourceInfoQuery(num, 0, DRV_RESOURCE_STREAM_ID, &res), DRV_ERROR_INVALID_DEVICE);
    CHECK(drvGetDevNum(NULL) != DRV_ERROR_NONE);
    CHECK(drvGetPlatformInfo(NULL) != DRV_ERROR_NONE);
    CHECK(halGetDeviceInfo(0, MODULE_TYPE_AICORE, INFO_TYPE_CORE_NUM, NULL) != DRV_ERROR_NONE);
    CHECK(halGetSocVersion(0, NULL, 128) != DRV_ERROR_NONE);
    CHECK(halGetAPIVersion(NULL) != DRV_ERROR_NONE);

    CHECK_OK(aclFinalize());
    return 0;
}
