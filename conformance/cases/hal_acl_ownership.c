/* hal_acl_ownership: npuemu's rule for memory that crosses the two APIs
 * (docs/hal.md): each allocator frees only what it allocated. halMemFree
 * refuses aclrtMalloc / aclrtMallocHost memory, aclrtFree refuses halMemAlloc
 * memory, and a refused free changes nothing. aclFinalize ends the node,
 * and with it memory allocated through the HAL.
 *
 * link: -lascendcl -lascend_hal
 * needs: emulator
 */
#include <stdint.h>

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
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    size_t free0 = 0, total = 0, f = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));

    void *acl = NULL, *aclHost = NULL, *hal = NULL;
    CHECK_OK(aclrtMalloc(&acl, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_OK(aclrtMallocHost(&aclHost, 4096));
    CHECK_DRV(halMemAlloc(&hal, 4096, MEM_DEV), DRV_ERROR_NONE);

    CHECK_DRV(halMemFree(acl), DRV_ERROR_INVALID_VALUE);
    const char *msg = aclGetRecentErrMsg(); /* reading it clears it */
    CHECK(msg != NULL && strstr(msg, "aclrtMalloc") != NULL);
    CHECK_DRV(halMemFree(aclHost), DRV_ERROR_INVALID_VALUE);
    CHECK_ERR(aclrtFree(hal), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_DRV(halMemFree((char *)hal + 64), DRV_ERROR_INVALID_VALUE);

    CHECK_OK(aclrtFree(acl));
    CHECK_OK(aclrtFreeHost(aclHost));
    CHECK_DRV(halMemFree(hal), DRV_ERROR_NONE);
    CHECK_DRV(halMemFree(hal), DRV_ERROR_INVALID_VALUE); /* double free */
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f, &total));
    CHECK_EQ(f, free0);

    /* HAL memory left at aclFinalize goes with the node. */
    CHECK_DRV(halMemAlloc(&hal, 4096, MEM_DEV), DRV_ERROR_NONE);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    CHECK_DRV(halMemFree(hal), DRV_ERROR_INVALID_VALUE);

    /* SVM memory (0x920000: MEM_SVM, huge pages) is managed memory
     * (docs/svm.md); the rule holds for it as well. */
    void *p = NULL;
    CHECK_DRV(halMemAlloc(&p, 4096, 0x920000ULL), DRV_ERROR_NONE);
    CHECK_ERR(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_DRV(halMemFree(p), DRV_ERROR_NONE);
    return 0;
}
