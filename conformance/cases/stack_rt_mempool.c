/* stack_rt_mempool: the runtime's stream-ordered memory pools called
 * directly (rtMemPoolCreate, rtMemPoolSetAttr/GetAttr,
 * rtMemPoolMallocAsync/FreeAsync, rtMemPoolTrimTo, rtMemPoolDestroy): a
 * block used in stream order, the pool's counters, and the
 * ACL_ERROR_RT_* codes for bad properties, handles, attributes and NULLs.
 *
 * link: -lruntime -lascendcl
 * needs: emulator
 * env: NPUEMU_SOC=Ascend910B3
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

#define MB (1u << 20)

int main(void) {
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    rtStream_t s = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);

    rtMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.side = 1; /* MEM_DEV_SIDE */
    props.devId = 0;
    props.handleType = RT_MEM_HANDLE_TYPE_NONE;
    props.maxSize = 64 * MB;

    rtMemPool_t pool = NULL;
    CHECK_RT(rtMemPoolCreate(NULL, &props), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemPoolCreate(&pool, NULL), ACL_ERROR_RT_PARAM_INVALID);
    rtMemPoolProps bad = props;
    bad.side = 0; /* host side */
    CHECK_RT(rtMemPoolCreate(&pool, &bad), ACL_ERROR_RT_PARAM_INVALID);
    bad = props;
    bad.handleType = RT_MEM_HANDLE_TYPE_POSIX;
    CHECK_RT(rtMemPoolCreate(&pool, &bad), ACL_ERROR_RT_PARAM_INVALID);
    bad = props;
    bad.maxSize = 0;
    CHECK_RT(rtMemPoolCreate(&pool, &bad), ACL_ERROR_RT_PARAM_INVALID);
    bad = props;
    bad.reserve = 1;
    CHECK_RT(rtMemPoolCreate(&pool, &bad), ACL_ERROR_RT_PARAM_INVALID);
    bad = props;
    bad.devId = 999;
    CHECK_RT(rtMemPoolCreate(&pool, &bad), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK(pool == NULL);
    CHECK_RT(rtMemPoolCreate(&pool, &props), ACL_RT_SUCCESS);
    CHECK(pool != NULL);

    /* Attributes: uint32_t switches, uint64_t sizes. */
    uint32_t on = 0;
    CHECK_RT(rtMemPoolGetAttr(pool, rtMemPoolReuseFollowEventDependencies, &on), ACL_RT_SUCCESS);
    on = 0;
    CHECK_RT(rtMemPoolSetAttr(pool, rtMemPoolReuseAllowOpportunistic, &on), ACL_RT_SUCCESS);
    on = 7;
    CHECK_RT(rtMemPoolGetAttr(pool, rtMemPoolReuseAllowOpportunistic, &on), ACL_RT_SUCCESS);
    CHECK_EQ(on, 0);
    uint64_t thr = 4 * MB, got = 0;
    CHECK_RT(rtMemPoolSetAttr(pool, rtMemPoolAttrReleaseThreshold, &thr), ACL_RT_SUCCESS);
    CHECK_RT(rtMemPoolGetAttr(pool, rtMemPoolAttrReleaseThreshold, &got), ACL_RT_SUCCESS);
    CHECK_EQ(got, 4 * MB);
    CHECK_RT(rtMemPoolGetAttr(pool, rtMemPoolAttrReleaseThreshold, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemPoolGetAttr(pool, (rtMemPoolAttr)99, &got), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemPoolSetAttr(pool, rtMemPoolAttrReleaseThreshold, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* A block in stream order: fill it, read it back, free it. */
    void *p = NULL;
    CHECK_RT(rtMemPoolMallocAsync(NULL, MB, pool, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemPoolMallocAsync(&p, 0, pool, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemPoolMallocAsync(&p, MB, pool, s), ACL_RT_SUCCESS);
    CHECK(p != NULL);
    CHECK_RT(rtMemsetAsync(p, MB, 0x5A, 256, s), ACL_RT_SUCCESS);
    unsigned char out[256];
    CHECK_RT(rtMemcpyAsync(out, sizeof out, p, sizeof out, RT_MEMCPY_DEVICE_TO_HOST, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    for (int i = 0; i < 256; i++) CHECK_EQ(out[i], 0x5A);
    uint64_t used = 0, reserved = 0;
    CHECK_RT(rtMemPoolGetAttr(pool, rtMemPoolAttrUsedMemCurrent, &used), ACL_RT_SUCCESS);
    CHECK(used >= MB);
    CHECK_RT(rtMemPoolGetAttr(pool, rtMemPoolAttrReservedMemCurrent, &reserved), ACL_RT_SUCCESS);
    CHECK(reserved >= used);
    CHECK_RT(rtMemPoolDestroy(pool), ACL_ERROR_RT_PARAM_INVALID); /* a block is still allocated */
    CHECK_RT(rtMemPoolFreeAsync(NULL, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemPoolFreeAsync(p, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_RT(rtMemPoolGetAttr(pool, rtMemPoolAttrUsedMemCurrent, &used), ACL_RT_SUCCESS);
    CHECK_EQ(used, 0);

    /* Trim: nothing idle is kept. */
    CHECK_RT(rtMemPoolTrimTo(pool, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtMemPoolGetAttr(pool, rtMemPoolAttrReservedMemCurrent, &reserved), ACL_RT_SUCCESS);
    CHECK_EQ(reserved, 0);

    CHECK_RT(rtMemPoolDestroy(pool), ACL_RT_SUCCESS);
    CHECK_RT(rtMemPoolDestroy(pool), ACL_ERROR_RT_PARAM_INVALID); /* gone */
    CHECK_RT(rtMemPoolTrimTo(pool, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemPoolDestroy(NULL), ACL_ERROR_RT_PARAM_INVALID);

    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
