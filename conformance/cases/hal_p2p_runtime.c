/* hal_p2p_runtime: the runtime's peer-to-peer calls (rtEnableP2P,
 * rtDisableP2P, rtDeviceCanAccessPeer, rtsGetP2PStatus,
 * rtGetDevicePhyIdByIndex) sit on the driver's switch
 * (rt-to-hal.tsv: rtEnableP2P → halDeviceEnableP2P): what one layer turns
 * on the other sees, and an ACL copy between two devices is allowed while
 * the switch is on, as after aclrtDeviceEnablePeerAccess.
 *
 * link: -lruntime -lascendcl -lascend_hal
 * env: NPUEMU_DEVICES=2
 * needs: emulator devices=2
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "driver/ascend_hal.h"
#include "runtime/rt.h"

#define CHECK_RT(call, code) CHECK_EQ((int)(call), (int)(code))
#define N 4096

int main(void)
{
    CHECK_OK(aclInit(NULL));
    uint32_t phy = 99;
    CHECK_RT(rtGetDevicePhyIdByIndex(1, &phy), ACL_RT_SUCCESS);
    CHECK_EQ(phy, 1);
    CHECK_RT(rtGetDevicePhyIdByIndex(1, NULL), ACL_ERROR_RT_PARAM_INVALID);

    int32_t can = -1;
    CHECK_RT(rtDeviceCanAccessPeer(&can, 0, 1), ACL_RT_SUCCESS);
    CHECK_EQ(can, 1);
    CHECK_RT(rtDeviceCanAccessPeer(NULL, 0, 1), ACL_ERROR_RT_PARAM_INVALID);

    uint32_t status = 9;
    CHECK_RT(rtsGetP2PStatus(0, 1, &status), ACL_RT_SUCCESS);
    CHECK_EQ(status, 0);

    /* One device's memory, another's; no peer access yet. */
    static uint8_t src[N], out[N];
    for (int i = 0; i < N; i++)
        src[i] = (uint8_t)(i * 7 + 3);
    CHECK_OK(aclrtSetDevice(1));
    void *d1 = NULL;
    CHECK_OK(aclrtMalloc(&d1, N, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    CHECK_OK(aclrtSetDevice(0));
    void *d0 = NULL;
    CHECK_OK(aclrtMalloc(&d0, N, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    CHECK_OK(aclrtMemcpy(d0, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_FAILS(aclrtMemcpy(d1, N, d0, N, ACL_MEMCPY_DEVICE_TO_DEVICE));

    /* The runtime's switch: the driver sees it, and ACL copies pass. */
    CHECK_RT(rtEnableP2P(0, 1, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtsGetP2PStatus(0, 1, &status), ACL_RT_SUCCESS);
    CHECK_EQ(status, 1);
    CHECK_RT(halDeviceDisableP2P(0, 1, 0), DRV_ERROR_NONE); /* the same switch */
    CHECK_RT(rtsGetP2PStatus(0, 1, &status), ACL_RT_SUCCESS);
    CHECK_EQ(status, 0);
    CHECK_RT(rtDisableP2P(0, 1), ACL_ERROR_RT_PARAM_INVALID); /* not enabled any more */
    CHECK_RT(halDeviceEnableP2P(0, 1, 0), DRV_ERROR_NONE);
    CHECK_OK(aclrtMemcpy(d1, N, d0, N, ACL_MEMCPY_DEVICE_TO_DEVICE));
    CHECK_OK(aclrtSetDevice(1));
    CHECK_OK(aclrtMemcpy(out, N, d1, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(out, src, N) == 0);
    CHECK_RT(rtDisableP2P(0, 1), ACL_RT_SUCCESS);
    CHECK_FAILS(aclrtMemcpy(d0, N, d1, N, ACL_MEMCPY_DEVICE_TO_DEVICE));

    CHECK_RT(rtEnableP2P(0, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtEnableP2P(0, 7, 0), ACL_ERROR_RT_INVALID_DEVICEID);

    CHECK_OK(aclrtFree(d1));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtFree(d0));
    CHECK_OK(aclFinalize());
    return 0;
}
