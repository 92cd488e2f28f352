/* device_visible_subset: a subset of a 4-device node, and npuemu's rule for bad
 * entries (docs/runtime.md): ids are taken up to the first entry that is
 * not a decimal id, is out of range or repeats; the rest is ignored. */
/* needs: emulator */
/* env: NPUEMU_SOC=Ascend910B3 NPUEMU_DEVICES=4 ASCEND_RT_VISIBLE_DEVICES=3,1,9,2 */
#include "rt_util.h"

#include <string.h>

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_EQ(rt_device_count(), 2); /* "9" and what follows are ignored */
    int32_t out = -1;
    CHECK_OK(aclrtGetPhyDevIdByUserDevId(0, &out));
    CHECK_EQ(out, 3);
    CHECK_OK(aclrtGetPhyDevIdByUserDevId(1, &out));
    CHECK_EQ(out, 1);
    int64_t chip = -1; /* aclrtGetDeviceInfo's physical chip id is the same */
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_PHY_CHIP_ID, &chip));
    CHECK_EQ(chip, 3);
    /* Hidden physical devices have no user id. */
    CHECK_ERR(aclrtGetUserDevIdByPhyDevId(2, &out), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ERR(aclrtGetUserDevIdByPhyDevId(0, &out), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ERR(aclrtGetUserDevIdByPhyDevId(4, &out), ACL_ERROR_RT_INVALID_DEVICEID);

    /* PCI slots and UUIDs belong to the physical device. */
    char bus[16];
    CHECK_OK(aclrtDeviceGetPCIBusId(0, bus, sizeof bus));
    CHECK(strcmp(bus, "0000:40:00.0") == 0); /* 0x3d + physical 3 */
    int32_t back = -1;
    CHECK_OK(aclrtDeviceGetByPCIBusId(bus, &back));
    CHECK_EQ(back, 0);
    CHECK_FAILS(aclrtDeviceGetByPCIBusId("0000:3d:00.0", &back)); /* physical 0 is hidden */

    CHECK_OK(aclrtSetDevice(1));
    void *p = NULL;
    CHECK_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtFree(p));
    CHECK_OK(aclrtResetDevice(1));
    CHECK_ERR(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_OK(aclFinalize());
    return 0;
}
