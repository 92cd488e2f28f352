/* device_visible: ASCEND_RT_VISIBLE_DEVICES renumbers the listed
 * devices 0..n-1 in list order; the id-mapping calls follow it. */
/* needs: devices=2 */
/* env: NPUEMU_DEVICES=2 ASCEND_RT_VISIBLE_DEVICES=1,0 */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    rt_need_devices(2);
    CHECK_EQ(rt_device_count(), 2);

    /* doc: semantics.md §2 — user id 0 is the first listed device. */
    int32_t out = -1;
    CHECK_OK(aclrtGetPhyDevIdByUserDevId(0, &out));
    CHECK_EQ(out, 1);
    CHECK_OK(aclrtGetPhyDevIdByUserDevId(1, &out));
    CHECK_EQ(out, 0);
    CHECK_OK(aclrtGetUserDevIdByPhyDevId(1, &out));
    CHECK_EQ(out, 0);
    CHECK_OK(aclrtGetLogicDevIdByUserDevId(0, &out));
    CHECK_EQ(out, 1); /* outside containers logical == physical */
    CHECK_OK(aclrtGetUserDevIdByLogicDevId(0, &out));
    CHECK_EQ(out, 1);
    /* The "logic" id of this pair is the user id (semantics.md §2). */
    CHECK_OK(aclrtGetPhyDevIdByLogicDevId(0, &out));
    CHECK_EQ(out, 1);
    CHECK_OK(aclrtGetLogicDevIdByPhyDevId(0, &out));
    CHECK_EQ(out, 1);
    CHECK_ERR(aclrtGetPhyDevIdByUserDevId(2, &out), ACL_ERROR_RT_INVALID_DEVICEID);

    /* Every other call takes user ids. */
    CHECK_OK(aclrtSetDevice(1));
    int32_t cur = -1;
    CHECK_OK(aclrtGetDevice(&cur));
    CHECK_EQ(cur, 1);
    CHECK_ERR(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_OK(aclrtResetDevice(1));
    CHECK_OK(aclFinalize());
    return 0;
}
