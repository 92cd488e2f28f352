/* host_mem_register_hal: host memory registration through the driver HAL
 * (hal-api.md §3.4): halHostRegister with HOST_MEM_MAP_DEV returns a
 * device pointer that halMemHostGetDevPointer finds again (inside the
 * range too), registration must be page aligned and not overlap, and
 * unregistering needs the registered start; HOST_MEM_MAP_DMA registers
 * without a device address.
 *
 * link: -lascendcl -lascend_hal
 * needs: emulator
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "driver/ascend_hal.h"

#define CHECK_DRV(call, code)                                            \
    do {                                                                 \
        drvError_t check_d_ = (call);                                    \
        if (check_d_ != (code))                                          \
            FAIL("%s: got %d, want %s (%d)", #call, (int)check_d_, #code, (int)(code)); \
    } while (0)

int main(void)
{
    char *raw = malloc(6 * 4096);
    CHECK(raw != NULL);
    char *p = (char *)(((uintptr_t)raw + 4095) / 4096 * 4096);

    void *dp = NULL, *q = NULL;
    CHECK_DRV(halHostRegister(p, 4 * 4096, HOST_MEM_MAP_DEV, 0, &dp), DRV_ERROR_NONE);
    CHECK(dp != NULL);
    CHECK_DRV(halMemHostGetDevPointer(p + 4096 + 5, 0, &q), DRV_ERROR_NONE);
    CHECK((char *)q == (char *)dp + 4096 + 5);
    CHECK_DRV(halHostRegister(p + 4096, 4096, HOST_MEM_MAP_DEV, 0, &q), DRV_ERROR_REPEATED_USERD); /* overlaps */
    CHECK_DRV(halHostRegister(p + 8, 4096, HOST_MEM_MAP_DEV, 0, &q), DRV_ERROR_INVALID_VALUE);     /* not page aligned */
    CHECK_DRV(halHostRegister(p, 4096, HOST_MEM_MAP_DEV, 99, &q), DRV_ERROR_INVALID_DEVICE);
    CHECK_DRV(halHostRegister(p, 4096, HOST_REGISTER_MAX_TPYE, 0, &q), DRV_ERROR_INVALID_VALUE);
    CHECK_DRV(halHostUnregister(p + 4096, 0), DRV_ERROR_NOT_EXIST); /* not the start */

    uint32_t cap = 7;
    CHECK_DRV(halHostRegisterCapabilities(0, DRV_ACC_MODULE_TYPE_AIC, &cap), DRV_ERROR_NONE);
    CHECK(cap == HOST_MEM_MAP_SUPPORTED || cap == HOST_MEM_MAP_NOT_SUPPORTED);
    CHECK_DRV(halHostRegisterCapabilities(0, DRV_ACC_MODULE_TYPE_MAX, &cap), DRV_ERROR_INVALID_VALUE);

    CHECK_DRV(halHostUnregisterEx(p, 0, HOST_MEM_MAP_DEV), DRV_ERROR_NONE);
    CHECK_DRV(halHostUnregister(p, 0), DRV_ERROR_NOT_EXIST);
    CHECK_DRV(halMemHostGetDevPointer(p, 0, &q), DRV_ERROR_NOT_EXIST);

    /* HOST_MEM_MAP_DMA page-locks the memory for the copy engines: no
     * device address. */
    CHECK_DRV(halHostRegister(p, 4096, HOST_MEM_MAP_DMA, 0, &q), DRV_ERROR_NONE);
    CHECK_DRV(halMemHostGetDevPointer(p, 0, &q), DRV_ERROR_INVALID_VALUE);
    CHECK_DRV(halHostUnregisterEx(p, 0, HOST_MEM_MAP_DMA), DRV_ERROR_NONE);
    free(raw);
    return 0;
}
