/* memcpy_2d: aclrtMemcpy2d / aclrtMemcpy2dAsync with pitches. */
#include "rt_util.h"

#define W 48      /* bytes per row copied */
#define H 16      /* rows */
#define SP 64     /* host pitch */
#define DP 128    /* device pitch */

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    static unsigned char host[SP * H], back[SP * H], dev_img[DP * H];
    void *d = NULL, *d2 = NULL;
    CHECK_OK(aclrtMalloc(&d, DP * H, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&d2, DP * H, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(d, DP * H, 0xCC, DP * H));

    /* doc: semantics.md §10 — H2D: width bytes of each of height rows, rows
     * spitch apart in the source and dpitch apart in the destination. */
    rt_fill(host, sizeof host, 30);
    CHECK_OK(aclrtMemcpy2d(d, DP, host, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(dev_img, sizeof dev_img, d, DP * H, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int r = 0; r < H; r++) {
        CHECK(memcmp(dev_img + r * DP, host + r * SP, W) == 0);
        CHECK(rt_all_bytes(dev_img + r * DP + W, DP - W, 0xCC)); /* gaps untouched */
    }

    /* D2H back into a zeroed host image. */
    memset(back, 0, sizeof back);
    CHECK_OK(aclrtMemcpy2d(back, SP, d, DP, W, H, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int r = 0; r < H; r++) {
        CHECK(memcmp(back + r * SP, host + r * SP, W) == 0);
        CHECK(rt_all_bytes(back + r * SP + W, SP - W, 0));
    }

    /* doc: semantics.md §10 — width > dpitch or > spitch → 100000. */
    CHECK_ERR(aclrtMemcpy2d(d, DP, host, SP, SP + 1, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemcpy2d(back, SP, d, DP, SP + 1, H, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    /* doc: semantics.md §10 — the synchronous form supports only H2D/D2H. */
    CHECK_FAILS(aclrtMemcpy2d(d2, DP, d, DP, W, H, ACL_MEMCPY_DEVICE_TO_DEVICE));
    CHECK_FAILS(aclrtMemcpy2d(back, SP, host, SP, W, H, ACL_MEMCPY_HOST_TO_HOST));
    /* doc: semantics.md §0 — NULL pointers. */
    CHECK_ERR(aclrtMemcpy2d(NULL, DP, host, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemcpy2d(d, DP, NULL, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §10 — the async form: H2D, D2H, and D2D on A2/A3/950. */
    aclrtStream s = NULL;
    void *pin = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtMallocHost(&pin, SP * H));
    rt_fill(pin, SP * H, 31);
    CHECK_OK(aclrtMemset(d2, DP * H, 0, DP * H));
    CHECK_OK(aclrtMemcpy2dAsync(d, DP, pin, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE, s));
    int64_t arch = 0;
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &arch));
    if (arch == 2201 || arch == 3510) {
        CHECK_OK(aclrtMemcpy2dAsync(d2, DP, d, DP, W, H, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    } else {
        /* Elsewhere D2D is not a 2D kind: go through the host image instead. */
        CHECK_OK(aclrtSynchronizeStream(s));
        CHECK_OK(aclrtMemcpy2d(dev_img, DP, d, DP, W, H, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK_OK(aclrtMemcpy2d(d2, DP, dev_img, DP, W, H, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(dev_img, sizeof dev_img, d2, DP * H, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int r = 0; r < H; r++) {
        CHECK(memcmp(dev_img + r * DP, (unsigned char *)pin + r * SP, W) == 0);
        CHECK(rt_all_bytes(dev_img + r * DP + W, DP - W, 0));
    }
    memset(pin, 0, SP * H);
    CHECK_OK(aclrtMemcpy2dAsync(pin, SP, d2, DP, W, H, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    for (int r = 0; r < H; r++) CHECK(memcmp((unsigned char *)pin + r * SP, dev_img + r * DP, W) == 0);

    /* doc: semantics.md §10 — other kinds → 100000; width > pitch → 100000. */
    CHECK_ERR(aclrtMemcpy2dAsync(back, SP, host, SP, W, H, ACL_MEMCPY_HOST_TO_HOST, s), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemcpy2dAsync(d, DP, pin, SP, SP + 1, H, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM);

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFreeHost(pin));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtFree(d2));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
