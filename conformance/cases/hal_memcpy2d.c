/* hal_memcpy2d: halMemcpy2D with struct MEMCPY2D (hal-api.md §3.4): a
 * synchronous (DEVMM_MEMCPY2D_SYNC) copy of height rows of width bytes,
 * dpitch / spitch apart, host to device and back with different pitches;
 * fixed_size counts the bytes done (a caller calls again while it is below
 * width * height, so a copy resumes from it); the pitch gaps are left
 * alone; bad descriptors get drvError_t codes, never a crash.
 *
 * link: -lascendcl -lascend_hal
 * env: NPUEMU_DEVICES=2
 * needs: devices=2
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "driver/ascend_hal.h"

#define CHECK_DRV(call, code)                                            \
    do {                                                                 \
        drvError_t check_d_ = (call);                                    \
        if (check_d_ != (code))                                          \
            FAIL("%s: got %d, want %s (%d)", #call, (int)check_d_, #code, (int)(code)); \
    } while (0)

enum { W = 5, H = 4, HP = 8, DP = 16 };

/* copy2d runs one synchronous 2-D copy to completion, calling again while
 * fixed_size says bytes are left (the documented contract), at most
 * W * H + 1 times. */
static drvError_t copy2d(struct MEMCPY2D *c)
{
    for (int i = 0; i <= W * H; i++) {
        drvError_t e = halMemcpy2D(c);
        if (e != DRV_ERROR_NONE)
            return e;
        if (c->copy2d.fixed_size >= c->copy2d.width * c->copy2d.height)
            return DRV_ERROR_NONE;
    }
    FAIL("halMemcpy2D made no progress: fixed_size %llu of %llu",
         c->copy2d.fixed_size, c->copy2d.width * c->copy2d.height);
}

static struct MEMCPY2D desc(void *dst, unsigned long long dpitch, void *src, unsigned long long spitch,
                            unsigned int direction)
{
    struct MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.type = DEVMM_MEMCPY2D_SYNC;
    c.copy2d.dst = dst;
    c.copy2d.dpitch = dpitch;
    c.copy2d.src = src;
    c.copy2d.spitch = spitch;
    c.copy2d.width = W;
    c.copy2d.height = H;
    c.copy2d.direction = direction;
    return c;
}

int main(void)
{
    CHECK_EQ((int)sizeof(struct MEMCPY2D), 88);
    CHECK_EQ((int)sizeof(struct drvMem2D), 72);

    unsigned char *host = NULL, *back = NULL;
    void *dev = NULL;
    CHECK_DRV(halMemAlloc((void **)&host, HP * H, MEM_HOST), DRV_ERROR_NONE);
    CHECK_DRV(halMemAlloc((void **)&back, HP * H, MEM_HOST), DRV_ERROR_NONE);
    CHECK_DRV(halMemAlloc(&dev, 4096, MEM_DEV | 1), DRV_ERROR_NONE);
    for (int i = 0; i < HP * H; i++)
        host[i] = (unsigned char)(i + 1);
    CHECK_DRV(drvMemsetD8((DVdeviceptr)(uintptr_t)dev, 4096, 0xEE, 4096), DRV_ERROR_NONE);

    /* Host to device: rows land DP apart, the gaps keep 0xEE. */
    struct MEMCPY2D c = desc(dev, DP, host, HP, DRV_MEMCPY_HOST_TO_DEVICE);
    CHECK_DRV(copy2d(&c), DRV_ERROR_NONE);
    CHECK_EQ((int)c.copy2d.fixed_size, W * H);
    unsigned char dev_copy[DP * H];
    CHECK_DRV(drvMemcpy((DVdeviceptr)(uintptr_t)dev_copy, sizeof dev_copy, (DVdeviceptr)(uintptr_t)dev, sizeof dev_copy),
              DRV_ERROR_NONE);
    for (int r = 0; r < H; r++) {
        CHECK(memcmp(dev_copy + r * DP, host + r * HP, W) == 0);
        for (int k = W; k < DP; k++)
            CHECK_EQ(dev_copy[r * DP + k], 0xEE);
    }

    /* Device to host, resuming after 7 bytes (row 1, column 2): what was
     * already done is not copied again. */
    memset(back, 0, HP * H);
    c = desc(back, HP, dev, DP, DRV_MEMCPY_DEVICE_TO_HOST);
    c.copy2d.fixed_size = 7;
    CHECK_DRV(copy2d(&c), DRV_ERROR_NONE);
    CHECK_EQ((int)c.copy2d.fixed_size, W * H);
    for (int k = 0; k < W; k++)
        CHECK_EQ(back[k], 0);
    CHECK_EQ(back[HP], 0);
    CHECK_EQ(back[HP + 1], 0);
    CHECK(memcmp(back + HP + 2, host + HP + 2, W - 2) == 0);
    for (int r = 2; r < H; r++)
        CHECK(memcmp(back + r * HP, host + r * HP, W) == 0);
    for (int r = 0; r < H; r++)
        for (int k = W; k < HP; k++)
            CHECK_EQ(back[r * HP + k], 0); /* host gaps untouched */

    /* Bad descriptors. */
    CHECK_DRV(halMemcpy2D(NULL), DRV_ERROR_INVALID_VALUE);
    c = desc(back, HP, dev, DP, DRV_MEMCPY_DEVICE_TO_HOST);
    c.type = DEVMM_MEMCPY2D_TYPE_MAX;
    CHECK_DRV(halMemcpy2D(&c), DRV_ERROR_INVALID_VALUE);
    c = desc(NULL, HP, dev, DP, DRV_MEMCPY_DEVICE_TO_HOST);
    CHECK_DRV(halMemcpy2D(&c), DRV_ERROR_INVALID_VALUE);
    c = desc(back, HP, NULL, DP, DRV_MEMCPY_DEVICE_TO_HOST);
    CHECK_DRV(halMemcpy2D(&c), DRV_ERROR_INVALID_VALUE);
    c = desc(back, W - 1, dev, DP, DRV_MEMCPY_DEVICE_TO_HOST); /* width > dpitch */
    CHECK_DRV(halMemcpy2D(&c), DRV_ERROR_INVALID_VALUE);
    c = desc(back, HP, dev, W - 1, DRV_MEMCPY_DEVICE_TO_HOST); /* width > spitch */
    CHECK_DRV(halMemcpy2D(&c), DRV_ERROR_INVALID_VALUE);
    c = desc(back, HP, dev, DP, DRV_MEMCPY_DEVICE_TO_HOST);
    c.copy2d.height = 0;
    CHECK_DRV(halMemcpy2D(&c), DRV_ERROR_INVALID_VALUE);
    c = desc(back, HP, dev, DP, DRV_MEMCPY_DEVICE_TO_HOST);
    c.copy2d.fixed_size = W * H + 1;
    CHECK_DRV(halMemcpy2D(&c), DRV_ERROR_INVALID_VALUE);
    c = desc(back, HP, dev, DP, 9);
    CHECK_DRV(halMemcpy2D(&c), DRV_ERROR_INVALID_VALUE);
    c = desc(back, HP, dev, DP, DRV_MEMCPY_DEVICE_TO_HOST);
    c.copy2d.height = 1000; /* past the end of the device block */
    CHECK_DRV(halMemcpy2D(&c), DRV_ERROR_INVALID_VALUE);
    CHECK_EQ((int)c.copy2d.fixed_size, 0);

    CHECK_DRV(halMemFree(dev), DRV_ERROR_NONE);
    CHECK_DRV(halMemFree(host), DRV_ERROR_NONE);
    CHECK_DRV(halMemFree(back), DRV_ERROR_NONE);
    return 0;
}
