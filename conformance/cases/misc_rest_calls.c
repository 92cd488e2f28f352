/* misc_rest_calls: ACL calls no other case makes, each with valid
 * arguments and a result that could be wrong — the force variants of
 * stream destruction and device reset, the device limits, the synchronising frees, the
 * deprecated conditional copy, device
 * status and capability, architecture compatibility, host memory with a
 * configuration, an IPC access-link attribute (refused off A3), stream failure mode, attributes
 * and stop, event ids, the op wait timeout, and capture task groups
 * (captured, then updated from another stream) and the abort of a built
 * model run instance (its destroy callback unregistered, its stream's
 * persistent tasks cleaned).
 * TestSplitLayoutForwardingHook also runs it in the split layout under an
 * interposer, so each of these routed calls is seen there. */
#include <string.h>

#include "rt_util.h"

static void on_destroy(void *arg) { *(int *)arg += 1; }

int main(void)
{
    CHECK_OK(aclInit(NULL));
    /* The process-wide device limits, set before the device: a SIMD stack
     * above 32 KiB rounds up to 16 KiB multiples. */
    size_t limit = 0;
    CHECK_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &limit));
    CHECK_EQ(limit, 32768u);
    CHECK_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 40000));
    CHECK_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &limit));
    CHECK_EQ(limit, 49152u);
    CHECK_OK(aclrtSetDevice(0));

    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    int32_t compatible = -1;
    CHECK_OK(aclrtCheckArchCompatibility(soc, &compatible));
    CHECK_EQ(compatible, 1);

    aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_END;
    CHECK_OK(aclrtQueryDeviceStatus(0, &status));
    CHECK_EQ(status, ACL_RT_DEVICE_STATUS_NORMAL);

    CHECK_OK(aclrtSetOpWaitTimeout(5));

    /* Synchronising frees: the memory is gone afterwards. */
    void *dev = NULL, *host = NULL;
    CHECK_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&host, 4096));
    CHECK_OK(aclrtMemsetAsync(dev, 4096, 7, 4096, NULL));
    CHECK_OK(aclrtFreeWithDevSync(dev));
    CHECK_OK(aclrtFreeHostWithDevSync(host));
    CHECK_FAILS(aclrtFree(dev));

    /* The deprecated conditional copy is an ordinary asynchronous copy. */
    uint32_t src4[4] = {1, 2, 3, 4}, dst4[4] = {0};
    void *d4 = NULL;
    CHECK_OK(aclrtMalloc(&d4, sizeof src4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpyAsyncWithCondition(d4, sizeof src4, src4, sizeof src4, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
    CHECK_OK(aclrtSynchronizeStream(NULL));
    CHECK_OK(aclrtMemcpy(dst4, sizeof dst4, d4, sizeof dst4, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(src4, dst4, sizeof src4) == 0);
    CHECK_OK(aclrtFree(d4));

    /* Host memory with an (empty) configuration is ordinary host memory. */
    aclrtMallocConfig cfg = {NULL, 0};
    void *hp = NULL;
    CHECK_OK(aclrtMallocHostWithCfg(&hp, 4096, &cfg));
    CHECK(hp != NULL);
    memset(hp, 1, 4096);
    CHECK_OK(aclrtFreeHost(hp));

    int32_t cap = -1;
    CHECK_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &cap));
    CHECK(cap == 0 || cap == 1);

    /* An exported IPC allocation's access-link attribute is an Atlas A3
     * feature: this A2 (the default SoC) refuses it. */
    void *shared = NULL;
    CHECK_OK(aclrtMalloc(&shared, 2 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    char key[65] = {0};
    CHECK_OK(aclrtIpcMemGetExportKey(shared, 2 << 20, key, sizeof key, 0));
    CHECK_ERR(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_OK(aclrtIpcMemClose(key));
    CHECK_OK(aclrtFree(shared));

    /* Failure mode and attributes of a stream. */
    aclrtStream s = NULL, s2 = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&s2));
    CHECK_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof v);
    CHECK_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    CHECK_EQ(v.failureMode, ACL_STOP_ON_FAILURE);
    /* The mode is set once per stream (a second setting is refused). */
    CHECK_ERR(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE), ACL_ERROR_RT_PARAM_INVALID);
    v.failureMode = ACL_STOP_ON_FAILURE;
    CHECK_OK(aclrtSetStreamAttribute(s2, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    memset(&v, 0, sizeof v);
    CHECK_OK(aclrtGetStreamAttribute(s2, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    CHECK_EQ(v.failureMode, ACL_STOP_ON_FAILURE);

    /* Event ids are distinct. */
    aclrtEvent e1 = NULL, e2 = NULL;
    CHECK_OK(aclrtCreateEvent(&e1));
    CHECK_OK(aclrtCreateEvent(&e2));
    uint32_t id1 = 0, id2 = 0;
    CHECK_OK(aclrtGetEventId(e1, &id1));
    CHECK_OK(aclrtGetEventId(e2, &id2));
    CHECK(id1 != id2);

    /* A task group captured on s, then updated from s2. */
    void *buf = NULL;
    CHECK_OK(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_OK(aclmdlRICaptureTaskGrpBegin(s));
    CHECK_OK(aclrtMemsetAsync(buf, 4096, 1, 4096, s));
    aclrtTaskGrp grp = NULL;
    CHECK_OK(aclmdlRICaptureTaskGrpEnd(s, &grp));
    CHECK(grp != NULL);
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureEnd(s, &ri));
    CHECK(ri != NULL);
    CHECK_OK(aclmdlRICaptureTaskUpdateBegin(s2, grp));
    CHECK_OK(aclrtMemsetAsync(buf, 4096, 2, 4096, s2));
    CHECK_OK(aclmdlRICaptureTaskUpdateEnd(s2));
    CHECK_OK(aclmdlRIExecuteAsync(ri, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    unsigned char back[16];
    CHECK_OK(aclrtMemcpy(back, sizeof back, buf, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(back[0], 2); /* the updated memset ran */
    CHECK_OK(aclmdlRIDestroy(ri));

    /* A built instance can be aborted (here: one that is not running). */
    aclrtStream bs = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&bs, 0, ACL_STREAM_PERSISTENT));
    aclmdlRI built = NULL;
    CHECK_OK(aclmdlRIBuildBegin(&built, 0));
    CHECK_OK(aclmdlRIBindStream(built, bs, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_OK(aclrtMemsetAsync(buf, 4096, 3, 4096, bs));
    CHECK_OK(aclmdlRIEndTask(built, bs));
    CHECK_OK(aclmdlRIBuildEnd(built, NULL));
    int destroyed = 0;
    CHECK_OK(aclmdlRIDestroyRegisterCallback(built, on_destroy, &destroyed));
    CHECK_OK(aclmdlRIDestroyUnregisterCallback(built, on_destroy));
    CHECK_OK(aclmdlRIExecute(built, -1));
    CHECK_OK(aclmdlRIAbort(built));
    CHECK_OK(aclmdlRIUnbindStream(built, bs));
    CHECK_OK(aclmdlRIDestroy(built));
    CHECK_EQ(destroyed, 0); /* unregistered before the destruction */
    CHECK_OK(aclrtPersistentTaskClean(bs)); /* unbound now */
    CHECK_OK(aclrtDestroyStream(bs));
    CHECK_OK(aclrtFree(buf));

    /* A stopped stream takes no more tasks; force destruction works on it. */
    CHECK_OK(aclrtStreamStop(s2));
    CHECK_FAILS(aclrtRecordEvent(e1, s2));
    CHECK_OK(aclrtDestroyStreamForce(s2));
    CHECK_OK(aclrtDestroyEvent(e1));
    CHECK_OK(aclrtDestroyEvent(e2));
    CHECK_OK(aclrtDestroyStream(s));

    CHECK_OK(aclrtSetDevice(0)); /* a second reference */
    CHECK_OK(aclrtResetDeviceForce(0));
    int32_t cur = -1;
    CHECK_FAILS(aclrtGetDevice(&cur)); /* every reference is gone */
    CHECK_OK(aclFinalize());
    return 0;
}
