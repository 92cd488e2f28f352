/* device_id: user/logical/physical device-id mapping (identity outside a
 * container), PCI bus ids and device UUIDs. */
/* needs: devices=2 */
/* env: NPUEMU_SOC=Ascend910B3 NPUEMU_DEVICES=2 */
#include "rt_util.h"

#include <string.h>

typedef aclError (*mapfn)(const int32_t, int32_t *const);

int main(void)
{
    CHECK_OK(aclInit(NULL));
    rt_need_devices(2);
    uint32_t count = 0;
    CHECK_OK(aclrtGetDeviceCount(&count));

    /* doc: semantics.md §2 — outside containers physical == logical == user. */
    mapfn maps[] = {aclrtGetLogicDevIdByUserDevId, aclrtGetUserDevIdByLogicDevId,
                    aclrtGetLogicDevIdByPhyDevId, aclrtGetPhyDevIdByLogicDevId,
                    aclrtGetUserDevIdByPhyDevId, aclrtGetPhyDevIdByUserDevId};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        int32_t out = -7;
        CHECK_OK(maps[i](1, &out));
        CHECK_EQ(out, 1);
        CHECK_FAILS(maps[i]((int32_t)count, &out));
        CHECK_FAILS(maps[i](-1, &out));
        CHECK_FAILS(maps[i](0, NULL));
    }

    /* doc: semantics.md §2 — PCI bus id "0000:3d:00.0" form, len >= 13. */
    char bus[2][16];
    for (int32_t d = 0; d < 2; d++) {
        memset(bus[d], 'x', sizeof bus[d]);
        CHECK_OK(aclrtDeviceGetPCIBusId(d, bus[d], 13));
        CHECK_EQ(strlen(bus[d]), 12);
        CHECK(bus[d][4] == ':' && bus[d][7] == ':' && bus[d][10] == '.');
        int32_t back = -1;
        CHECK_OK(aclrtDeviceGetByPCIBusId(bus[d], &back));
        CHECK_EQ(back, d);
    }
    CHECK(strcmp(bus[0], bus[1]) != 0);
    CHECK_FAILS(aclrtDeviceGetPCIBusId(0, bus[0], 12));
    CHECK_FAILS(aclrtDeviceGetPCIBusId(0, NULL, 13));
    int32_t dev = -1;
    CHECK_FAILS(aclrtDeviceGetByPCIBusId(NULL, &dev));

    /* UUIDs: stable per device and distinct between devices. */
    aclrtUuid u0, u0b, u1;
    CHECK_OK(aclrtDeviceGetUuid(0, &u0));
    CHECK_OK(aclrtDeviceGetUuid(0, &u0b));
    CHECK_OK(aclrtDeviceGetUuid(1, &u1));
    CHECK(memcmp(&u0, &u0b, sizeof u0) == 0);
    CHECK(memcmp(&u0, &u1, sizeof u0) != 0);
    CHECK_FAILS(aclrtDeviceGetUuid(0, NULL));
    CHECK_FAILS(aclrtDeviceGetUuid((int32_t)count, &u0));

    CHECK_OK(aclFinalize());
    return 0;
}
