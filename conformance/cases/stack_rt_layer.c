/* stack_rt_layer: the runtime's rt* functions called directly, as a graph
 * engine, an operator library or a sharing layer calls them
 * (rt-functions.tsv, rt-types.md): their own codes (ACL_ERROR_RT_*), the
 * same objects as the ACL surface (an rtMalloc block is aclrtMalloc
 * memory, an rtStream_t is an aclrtStream), and the explicit refusal of
 * what npuemu does not implement.
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 */
#include <stdint.h>

#include "check.h"
#include "driver/ascend_hal.h"
#include "runtime/rt.h"
#include "rt_check.h"

int main(void) {
    /* The rt codes are the external ACL_ERROR_RT_* values. */
    CHECK_EQ(RT_ERROR_NONE, 0);

    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    int32_t dev = -1;
    CHECK_RT(rtGetDevice(&dev), ACL_RT_SUCCESS);
    CHECK_EQ(dev, 0);
    CHECK_RT(rtGetDevice(NULL), ACL_ERROR_RT_PARAM_INVALID);
    int32_t n = 0;
    CHECK_RT(rtGetDeviceCount(&n), ACL_RT_SUCCESS);
    CHECK(n >= 1);
    CHECK_RT(rtSetDevice(n), ACL_ERROR_RT_INVALID_DEVICEID);

    /* Memory: rtMalloc's block is the runtime's, usable and freeable
     * through ACL; the driver refuses to free it behind the runtime. */
    size_t free0 = 0, total = 0;
    CHECK_RT(rtMemGetInfoEx(RT_MEMORYINFO_HBM, &free0, &total), ACL_RT_SUCCESS);
    CHECK(total > 0 && free0 <= total);
    CHECK_RT(rtMemGetInfoEx(RT_MEMORYINFO_HBM, NULL, &total), ACL_ERROR_RT_PARAM_INVALID);
    void *p = NULL;
    CHECK_RT(rtMalloc(NULL, 4096, RT_MEMORY_DEFAULT, 33), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMalloc(&p, 0, RT_MEMORY_DEFAULT, 33), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMalloc(&p, 2 * 1024 * 1024, RT_MEMORY_POLICY_HUGE_PAGE_ONLY, 33), ACL_RT_SUCCESS);
    CHECK(p != NULL);
    size_t free1 = 0;
    CHECK_RT(rtMemGetInfoEx(RT_MEMORYINFO_HBM, &free1, &total), ACL_RT_SUCCESS);
    CHECK_EQ(free0 - free1, 2 * 1024 * 1024);
    void *big = NULL;
    CHECK_RT(rtMalloc(&big, total + 1, RT_MEMORY_DEFAULT, 33), ACL_ERROR_RT_MEMORY_ALLOCATION);
    CHECK(big == NULL);
    unsigned char in[64], out[64];
    for (int i = 0; i < 64; i++) in[i] = (unsigned char)i;
    CHECK_RT(rtMemcpy(p, 64, in, 64, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);
    CHECK_OK(aclrtMemcpy(out, 64, p, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(in, out, 64) == 0);
    CHECK_RT(rtMemcpy(p, 64, in, 64, (rtMemcpyKind_t)99), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(halMemFree(p) != DRV_ERROR_NONE);
    CHECK_OK(aclrtFree(p));
    CHECK_RT(rtFree(p), ACL_ERROR_RT_PARAM_INVALID); /* already freed */
    CHECK_RT(rtFree(NULL), ACL_ERROR_RT_PARAM_INVALID);
    void *q = NULL;
    CHECK_OK(aclrtMalloc(&q, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_RT(rtFree(q), ACL_RT_SUCCESS);

    /* Streams and events are the ACL objects. */
    rtStream_t s = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamCreate(NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    rtEvent_t e0 = NULL, e1 = NULL;
    CHECK_RT(rtEventCreate(&e0), ACL_RT_SUCCESS);
    CHECK_RT(rtEventCreate(&e1), ACL_RT_SUCCESS);
    rtEventStatus_t st = RT_EVENT_RECORDED;
    CHECK_RT(rtEventQueryStatus(e0, &st), ACL_RT_SUCCESS);
    CHECK_EQ(st, RT_EVENT_INIT);
    CHECK_RT(rtEventRecord(e0, s), ACL_RT_SUCCESS);
    CHECK_RT(rtEventRecord(e1, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamWaitEvent(s, e1), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_RT(rtEventSynchronize(e1), ACL_RT_SUCCESS);
    CHECK_RT(rtEventQuery(e1), ACL_RT_SUCCESS);
    CHECK_RT(rtEventQueryStatus(e1, &st), ACL_RT_SUCCESS);
    CHECK_EQ(st, RT_EVENT_RECORDED);
    float ms = -1;
    CHECK_RT(rtEventElapsedTime(&ms, e0, e1), ACL_RT_SUCCESS);
    CHECK(ms >= 0);
    CHECK_RT(rtEventElapsedTime(NULL, e0, e1), ACL_ERROR_RT_PARAM_INVALID);
    rtStreamCaptureStatus cs = RT_STREAM_CAPTURE_STATUS_ACTIVE;
    rtModel_t m = NULL;
    CHECK_RT(rtStreamGetCaptureInfo(s, &cs, &m), ACL_RT_SUCCESS);
    CHECK_EQ(cs, RT_STREAM_CAPTURE_STATUS_NONE);
    CHECK_OK(aclrtSynchronizeStream(s)); /* the rt stream is an aclrtStream */
    CHECK_RT(rtEventReset(e0, s), ACL_RT_SUCCESS);
    CHECK_RT(rtEventDestroy(e0), ACL_RT_SUCCESS);
    CHECK_RT(rtEventDestroy(e1), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceSynchronize(), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* Physical memory with the driver's properties. */
    rtDrvMemProp_t prop;
    memset(&prop, 0, sizeof prop);
    prop.side = 1; /* MEM_DEV_SIDE */
    prop.devid = 0;
    prop.module_id = 33;
    prop.pg_type = 1; /* MEM_HUGE_PAGE_TYPE */
    prop.mem_type = 0; /* MEM_HBM_TYPE */
    rtDrvMemHandle h = NULL;
    CHECK_RT(rtMallocPhysical(&h, 2 * 1024 * 1024, &prop, 0), ACL_RT_SUCCESS);
    CHECK(h != NULL);
    CHECK_RT(rtFreePhysical(h), ACL_RT_SUCCESS);
    prop.side = 7;
    CHECK_RT(rtMallocPhysical(&h, 2 * 1024 * 1024, &prop, 0), ACL_ERROR_RT_PARAM_INVALID);

    /* Contexts, host memory, memset, queries with the rt codes. */
    rtContext_t ctx = NULL, cur = NULL;
    CHECK_RT(rtCtxCreateEx(&ctx, 0, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtCtxGetCurrent(&cur), ACL_RT_SUCCESS);
    CHECK(cur == ctx);
    CHECK_RT(rtCtxSetCurrent(ctx), ACL_RT_SUCCESS);
    void *hp = NULL, *dp = NULL;
    CHECK_RT(rtMallocHost(&hp, 4096, 33), ACL_RT_SUCCESS);
    CHECK_RT(rtMalloc(&dp, 4096, RT_MEMORY_DEFAULT, 33), ACL_RT_SUCCESS);
    CHECK_RT(rtMemset(dp, 4096, 0x1A5, 4096), ACL_RT_SUCCESS); /* the low byte, 0xA5 */
    CHECK_RT(rtMemcpy(hp, 4096, dp, 4096, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK_EQ(((unsigned char *)hp)[4095], 0xA5);
    rtStream_t s2 = NULL;
    CHECK_RT(rtStreamCreate(&s2, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtMemsetAsync(dp, 4096, 0x5A, 4096, s2), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronizeWithTimeout(s2, -1), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamQuery(s2), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronizeWithTimeout(s2, -2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDeviceSynchronizeWithTimeout(-1), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(s2), ACL_RT_SUCCESS);
    CHECK_RT(rtFree(dp), ACL_RT_SUCCESS);
    CHECK_RT(rtFreeHost(hp), ACL_RT_SUCCESS);
    char soc[64] = {0};
    CHECK_RT(rtGetSocVersion(soc, sizeof soc), ACL_RT_SUCCESS);
    CHECK(strcmp(soc, aclrtGetSocName()) == 0);
    CHECK_RT(rtGetSocVersion(soc, 2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtCtxDestroyEx(ctx), ACL_RT_SUCCESS);

    /* What npuemu does not model (SIMT kernels) fails with the runtime's code. */
    rtDim3 dim = {1, 1, 1};
    CHECK_RT(rtLaunchSIMTKernelWithArgsArray(NULL, dim, dim, 0, NULL, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    const char *msg = aclGetRecentErrMsg();
    CHECK(msg != NULL && msg[0] != '\0');

    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
