/* hal_p2p_peer: the driver's peer-to-peer switch and the memory module's
 * device open, as HAL programs call them (cmd/specgen/hal_public.go gives
 * the prototypes' sources): halDeviceCanAccessPeer answers 1 for two
 * distinct devices, halDeviceEnableP2P / halDeviceDisableP2P pair up,
 * drvMemDeviceOpen / drvMemDeviceClose pair up, bad ids and NULL outputs
 * get drvError_t codes.
 *
 * link: -lascendcl -lascend_hal
 * env: NPUEMU_DEVICES=2
 * needs: devices=2
 */
#include <stdint.h>

#include "check.h"
#include "driver/ascend_hal.h"

#define DRV_OK(call) CHECK_EQ((int)(call), (int)DRV_ERROR_NONE)
#define DRV_ERR(call, code) CHECK_EQ((int)(call), (int)(code))

int main(void)
{
    /* The HDC handle types are declared (opaque pointers). */
    HDC_SESSION session = NULL;
    CHECK(sizeof session == sizeof(void *));

    int can = -1;
    DRV_OK(halDeviceCanAccessPeer(&can, 0, 1));
    CHECK_EQ(can, 1);
    can = -1;
    DRV_OK(halDeviceCanAccessPeer(&can, 1, 0));
    CHECK_EQ(can, 1);
    DRV_ERR(halDeviceCanAccessPeer(NULL, 0, 1), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halDeviceCanAccessPeer(&can, 0, 0), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halDeviceCanAccessPeer(&can, 0, 7), DRV_ERROR_INVALID_DEVICE);
    DRV_ERR(halDeviceCanAccessPeer(&can, 7, 0), DRV_ERROR_INVALID_DEVICE);

    /* Enable, enable again (not an error), disable, disable again (not
     * enabled any more). */
    DRV_ERR(halDeviceDisableP2P(0, 1, 0), DRV_ERROR_INVALID_VALUE);
    DRV_OK(halDeviceEnableP2P(0, 1, 0));
    DRV_OK(halDeviceEnableP2P(0, 1, 0));
    DRV_OK(halDeviceEnableP2P(1, 0, 0));
    DRV_OK(halDeviceDisableP2P(0, 1, 0));
    DRV_ERR(halDeviceDisableP2P(0, 1, 0), DRV_ERROR_INVALID_VALUE);
    DRV_OK(halDeviceDisableP2P(1, 0, 0));
    DRV_ERR(halDeviceEnableP2P(0, 0, 0), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halDeviceEnableP2P(0, 9, 0), DRV_ERROR_INVALID_DEVICE);

    /* Memory module open/close. */
    DRV_ERR(drvMemDeviceClose(0), DRV_ERROR_INVALID_VALUE);
    DRV_OK(drvMemDeviceOpen(0, 0));
    DRV_OK(drvMemDeviceOpen(0, 0));
    void *p = NULL;
    DRV_OK(halMemAlloc(&p, 4096, MEM_DEV | 0));
    CHECK(p != NULL);
    DRV_OK(halMemFree(p));
    DRV_OK(drvMemDeviceClose(0));
    DRV_ERR(drvMemDeviceClose(0), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(drvMemDeviceOpen(5, 0), DRV_ERROR_INVALID_DEVICE);
    DRV_ERR(drvMemDeviceClose(5), DRV_ERROR_INVALID_DEVICE);
    return 0;
}
