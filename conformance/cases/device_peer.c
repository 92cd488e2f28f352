/* device_peer: aclrtDeviceCanAccessPeer / EnablePeerAccess /
 * DisablePeerAccess / DevicePeerAccessStatus between two devices. */
/* needs: devices=2 */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    rt_need_devices(2);
    uint32_t n = rt_device_count();

    /* doc: semantics.md §2 — CanAccessPeer reports 1/0; dev ≠ peer required. */
    int32_t can = -1;
    CHECK_OK(aclrtDeviceCanAccessPeer(&can, 0, 1));
    CHECK(can == 0 || can == 1);
    if (can != 1) {
        (void)aclFinalize();
        SKIP("device 0 cannot access device 1");
    }
    CHECK_OK(aclrtDeviceCanAccessPeer(&can, 1, 0));
    CHECK_EQ(can, 1);
    CHECK_FAILS(aclrtDeviceCanAccessPeer(&can, 0, 0));
    CHECK_ERR(aclrtDeviceCanAccessPeer(NULL, 0, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS(aclrtDeviceCanAccessPeer(&can, 0, (int32_t)n));
    CHECK_FAILS(aclrtDeviceCanAccessPeer(&can, -1, 0));

    /* doc: semantics.md §2 — status 0 before enabling. */
    int32_t status = -1;
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
    CHECK_EQ(status, 0);
    CHECK_ERR(aclrtDevicePeerAccessStatus(0, 1, NULL), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §2 — Enable is one-directional (current device →
     * peer): 0 → 1 enabled, 1 → 0 not. */
    CHECK_OK(aclrtDeviceEnablePeerAccess(1, 0));
    CHECK_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
    CHECK_EQ(status, 1);
    CHECK_OK(aclrtDevicePeerAccessStatus(1, 0, &status));
    CHECK_EQ(status, 0);

    /* Invalid peers (no code given): the current device itself, out of range. */
    CHECK_FAILS(aclrtDeviceEnablePeerAccess(0, 0));
    CHECK_FAILS(aclrtDeviceEnablePeerAccess((int32_t)n, 0));

    /* doc: semantics.md §2 — Disable turns it off again. */
    CHECK_OK(aclrtDeviceDisablePeerAccess(1));
    CHECK_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
    CHECK_EQ(status, 0);
    CHECK_FAILS(aclrtDeviceDisablePeerAccess((int32_t)n));

    /* The other direction from device 1. */
    CHECK_OK(aclrtSetDevice(1));
    CHECK_OK(aclrtDeviceEnablePeerAccess(0, 0));
    CHECK_OK(aclrtDevicePeerAccessStatus(1, 0, &status));
    CHECK_EQ(status, 1);
    CHECK_OK(aclrtDeviceDisablePeerAccess(0));

    CHECK_OK(aclrtResetDevice(1));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
