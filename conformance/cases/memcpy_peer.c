/* memcpy_peer: device-to-device copies between two devices with peer
 * access enabled, synchronous and asynchronous. */
/* needs: devices=2 */
#include "rt_util.h"

#define N (256 * 1024)

int main(void)
{
    CHECK_OK(aclInit(NULL));
    rt_need_devices(2);
    int32_t can = 0;
    CHECK_OK(aclrtDeviceCanAccessPeer(&can, 0, 1));
    if (!can) {
        (void)aclFinalize();
        SKIP("device 0 cannot access device 1");
    }
    static unsigned char src[N], out[N];

    /* Memory on device 1 (P2P policy: usable for inter-device copies, §8). */
    CHECK_OK(aclrtSetDevice(1));
    void *d1 = NULL;
    CHECK_OK(aclrtMalloc(&d1, N, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    CHECK_OK(aclrtMemset(d1, N, 0, N));

    /* Memory on device 0, filled. */
    CHECK_OK(aclrtSetDevice(0));
    void *d0 = NULL;
    CHECK_OK(aclrtMalloc(&d0, N, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    rt_fill(src, N, 40);
    CHECK_OK(aclrtMemcpy(d0, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE));

    /* doc: semantics.md §2 — cross-device aclrtMemcpy requires CanAccessPeer
     * + EnablePeerAccess on A2 (and 950/310P/A1). Without it, it fails. */
    CHECK_FAILS(aclrtMemcpy(d1, N, d0, N, ACL_MEMCPY_DEVICE_TO_DEVICE));

    /* doc: semantics.md §2 / §10 — with peer access enabled, DEVICE_TO_DEVICE
     * covers two devices. */
    CHECK_OK(aclrtDeviceEnablePeerAccess(1, 0));
    CHECK_OK(aclrtMemcpy(d1, N, d0, N, ACL_MEMCPY_DEVICE_TO_DEVICE));

    /* Read it back through device 1. */
    CHECK_OK(aclrtSetDevice(1));
    memset(out, 0, N);
    CHECK_OK(aclrtMemcpy(out, N, d1, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_check_fill(out, N, 40));

    /* Asynchronous, on a stream of device 0 (the current device must own
     * the stream, §4). */
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    rt_fill(src, N, 41);
    CHECK_OK(aclrtMemcpy(d0, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpyAsync(d1, N, d0, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtSetDevice(1));
    memset(out, 0, N);
    CHECK_OK(aclrtMemcpy(out, N, d1, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_check_fill(out, N, 41));

    /* doc: semantics.md §10 — kinds 6/7 are rejected by aclrtMemcpy even
     * when they would describe the copy. */
    CHECK_OK(aclrtSetDevice(0));
    CHECK_ERR(aclrtMemcpy(d1, N, d0, N, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtDeviceDisablePeerAccess(1));
    CHECK_OK(aclrtFree(d0));
    CHECK_OK(aclrtSetDevice(1));
    CHECK_OK(aclrtFree(d1));
    /* SetDevice(1) ×4, SetDevice(0) ×3. */
    for (int i = 0; i < 4; i++) CHECK_OK(aclrtResetDevice(1));
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
