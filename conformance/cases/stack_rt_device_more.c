/* stack_rt_device_more: the runtime's device, timeout and overflow calls of
 * round 9 called directly (rt-functions.tsv, rt.h): the same answers as
 * their aclrt* counterparts, the rt numbering where it differs
 * (rtFloatOverflowMode_t, rtTypeUtil_t, RT_DEVS_INFO_TYPE_TOPOLOGY), the
 * timeout interval rule of aclrtGetOpTimeOutInterval (interval x N, N in
 * 1..254, microseconds), the runtime's refusals, and
 * ACL_ERROR_RT_PARAM_INVALID / ACL_ERROR_RT_INVALID_DEVICEID for bad input.
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 * env: NPUEMU_DEVICES=2
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

/* halGetDeviceInfo's MODULE_TYPE_AICORE / INFO_TYPE_CORE_NUM
 * (driver/ascend_hal_base.h). */
#define MODULE_AICORE 4
#define INFO_CORE_NUM 3

static void *thread_device(void *p)
{
    int32_t *out = p;
    *out = -7;
    rtError_t r = rtsGetDevice(out);
    if (r != ACL_RT_SUCCESS)
        *out = -(int32_t)r;
    return NULL;
}

static int32_t device_of_new_thread(void)
{
    pthread_t th;
    int32_t dev = -7;
    CHECK(pthread_create(&th, NULL, thread_device, &dev) == 0);
    CHECK(pthread_join(th, NULL) == 0);
    return dev;
}

static void devices(void)
{
    int32_t dev = -1;
    CHECK_RT(rtsGetDevice(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetDevice(&dev), ACL_RT_SUCCESS);
    CHECK_EQ(dev, 0);

    CHECK_RT(rtSetDeviceWithoutTsd(99), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtSetDeviceWithoutTsd(1), ACL_RT_SUCCESS);
    CHECK_RT(rtsGetDevice(&dev), ACL_RT_SUCCESS);
    CHECK_EQ(dev, 1);
    CHECK_RT(rtDeviceResetWithoutTsd(1), ACL_RT_SUCCESS);
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);

    /* The default device serves threads without a current context. */
    CHECK_EQ(device_of_new_thread(), -(int32_t)ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_RT(rtSetDefaultDeviceId(2), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtSetDefaultDeviceId(-2), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtSetDefaultDeviceId(1), ACL_RT_SUCCESS);
    CHECK_EQ(device_of_new_thread(), 1);
    CHECK_RT(rtSetDefaultDeviceId(-1), ACL_RT_SUCCESS);
    CHECK_EQ(device_of_new_thread(), -(int32_t)ACL_ERROR_RT_CONTEXT_NULL);

    CHECK_RT(rtSetTSDevice(0), ACL_RT_SUCCESS);
    CHECK_RT(rtSetTSDevice(1), ACL_RT_SUCCESS);
    CHECK_RT(rtSetTSDevice(2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtSetTSDevice(0x80000000u), ACL_ERROR_RT_PARAM_INVALID);

    int32_t cap = 5;
    CHECK_RT(rtsDeviceGetCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsDeviceGetCapability(0, 99, &cap), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsDeviceGetCapability(9, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &cap), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtsDeviceGetCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &cap), ACL_RT_SUCCESS);
    CHECK_EQ(cap, ACL_DEV_FEATURE_NOT_SUPPORT);

    uint64_t topo = 0, aclTopo = 1;
    CHECK_RT(rtsGetPairDevicesInfo(0, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetPairDevicesInfo(0, 1, 1, &topo), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetPairDevicesInfo(0, 0, 0, &topo), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetPairDevicesInfo(0, 9, 0, &topo), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtsGetPairDevicesInfo(0, 1, 0, &topo), ACL_RT_SUCCESS);
    CHECK_OK(aclrtGetDevicesTopo(0, 1, &aclTopo));
    CHECK_EQ(topo, aclTopo);
    CHECK(topo >= RT_DEVS_TOPOLOGY_HCCS && topo <= RT_DEVS_TOPOLOGY_HCCS_SW && (topo & (topo - 1)) == 0); /* one RT_DEVS_TOPOLOGY_* bit */

    uint8_t util = 200;
    CHECK_RT(rtGetAllUtilizations(0, RT_UTIL_TYPE_AICORE, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetAllUtilizations(0, RT_UTIL_TYPE_MAX, &util), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetAllUtilizations(9, RT_UTIL_TYPE_AICORE, &util), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtGetAllUtilizations(0, RT_UTIL_TYPE_AICORE, &util), ACL_RT_SUCCESS);
    CHECK(util <= 100);
    util = 200;
    CHECK_RT(rtGetAllUtilizations(0, RT_UTIL_TYPE_AICPU, &util), ACL_RT_SUCCESS);
    CHECK_EQ(util, 0); /* no AI CPU tasks are emulated */

    uint32_t cores = 0;
    int64_t v = -1;
    CHECK_RT(rtGetAiCoreCount(&cores), ACL_RT_SUCCESS);
    CHECK_RT(rtGetDeviceInfo(0, MODULE_AICORE, INFO_CORE_NUM, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetDeviceInfo(9, MODULE_AICORE, INFO_CORE_NUM, &v), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtGetDeviceInfo(0, MODULE_AICORE, 12345, &v), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_EQ(v, -1);
    CHECK_RT(rtGetDeviceInfo(0, MODULE_AICORE, INFO_CORE_NUM, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, (int64_t)cores);

    /* What the runtime does not provide here. */
    char spec[64];
    CHECK_RT(rtGetSocSpec("version", "Short_SoC_version", spec, sizeof spec), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    uint32_t caps[1];
    rtAtomicOperation op = RT_ATOMIC_OPERATION_INTEGER_ADD;
    CHECK_RT(rtDeviceGetHostAtomicCapabilities(caps, &op, 1, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtDeviceGetP2PAtomicCapabilities(caps, &op, 1, 0, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

static void timeouts(void)
{
    uint64_t iv = 0, act = 0;
    uint32_t ms = 0, aclMs = 0;
    CHECK_RT(rtGetOpTimeOutInterval(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetOpTimeOutInterval(&iv), ACL_RT_SUCCESS);
    CHECK(iv > 0);

    /* The largest timeout is 254 intervals: the SoC's maximum. */
    CHECK_RT(rtSetOpExecuteTimeOut(0), ACL_RT_SUCCESS);
    CHECK_RT(rtGetOpExecuteTimeoutV2(&ms), ACL_RT_SUCCESS);
    CHECK(254 * iv >= (uint64_t)ms * 1000);
    CHECK(253 * iv < (uint64_t)ms * 1000);

    CHECK_RT(rtSetOpExecuteTimeOutV2(1, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtSetOpExecuteTimeOutV2(1, &act), ACL_RT_SUCCESS);
    CHECK_EQ(act, iv);
    CHECK_RT(rtGetOpExecuteTimeoutV2(&ms), ACL_RT_SUCCESS);
    CHECK_EQ((uint64_t)ms, (iv + 999999) / 1000000 * 1000); /* whole seconds */
    CHECK_OK(aclrtGetOpExecuteTimeout(&aclMs));
    CHECK_EQ(aclMs, ms);
    CHECK_RT(rtSetOpExecuteTimeOutV2(iv + 1, &act), ACL_RT_SUCCESS);
    CHECK_EQ(act, 2 * iv);
    CHECK_RT(rtSetOpExecuteTimeOutV2(3 * iv, &act), ACL_RT_SUCCESS);
    CHECK_EQ(act, 3 * iv);
    CHECK_RT(rtSetOpExecuteTimeOutV2(0, &act), ACL_RT_SUCCESS);
    CHECK_EQ(act, 254 * iv);
    CHECK_RT(rtSetOpExecuteTimeOutV2(UINT64_MAX, &act), ACL_RT_SUCCESS);
    CHECK_EQ(act, 254 * iv);
    CHECK_RT(rtGetOpExecuteTimeoutV2(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtSetOpExecuteTimeOutWithMs(100), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtSetOpExecuteTimeOut(0), ACL_RT_SUCCESS);
}

static void overflow(rtStream_t s)
{
    rtFloatOverflowMode_t mode = RT_OVERFLOW_MODE_UNDEF;
    aclrtFloatOverflowMode aclMode;
    CHECK_RT(rtGetDeviceSatMode(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetDeviceSatMode(&mode), ACL_RT_SUCCESS);
    CHECK(mode == RT_OVERFLOW_MODE_SATURATION || mode == RT_OVERFLOW_MODE_INFNAN);
    rtFloatOverflowMode_t initial = mode;
    CHECK_RT(rtSetDeviceSatMode(RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtSetDeviceSatMode((rtFloatOverflowMode_t)7), ACL_ERROR_RT_PARAM_INVALID);
    if (rtSetDeviceSatMode(RT_OVERFLOW_MODE_SATURATION) == ACL_RT_SUCCESS) {
        CHECK_RT(rtGetDeviceSatMode(&mode), ACL_RT_SUCCESS);
        CHECK_EQ(mode, RT_OVERFLOW_MODE_SATURATION);
        CHECK_OK(aclrtGetDeviceSatMode(&aclMode));
        CHECK_EQ(aclMode, ACL_RT_OVERFLOW_MODE_SATURATION);
    }
    if (initial == RT_OVERFLOW_MODE_INFNAN) {
        CHECK_RT(rtSetDeviceSatMode(RT_OVERFLOW_MODE_INFNAN), ACL_RT_SUCCESS);
        CHECK_RT(rtGetDeviceSatMode(&mode), ACL_RT_SUCCESS);
        CHECK_EQ(mode, RT_OVERFLOW_MODE_INFNAN);
        CHECK_OK(aclrtGetDeviceSatMode(&aclMode));
        CHECK_EQ(aclMode, ACL_RT_OVERFLOW_MODE_INFNAN);
    } else {
        CHECK_RT(rtSetDeviceSatMode(RT_OVERFLOW_MODE_INFNAN), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    }

    /* The float overflow status is the context's status word. */
    void *word = NULL, *out = NULL;
    uint64_t set = 3, got[8];
    CHECK_RT(rtsCtxGetFloatOverflowAddr(&word), ACL_RT_SUCCESS);
    CHECK_OK(aclrtMemcpy(word, sizeof set, &set, sizeof set, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(out, 64, 0xff, 64));
    CHECK_RT(rtsGetFloatOverflowStatus(NULL, 64, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetFloatOverflowStatus(out, 64, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_OK(aclrtMemcpy(got, sizeof got, out, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(got[0], 3);
    CHECK_EQ(got[7], 0);
    CHECK_RT(rtsResetFloatOverflowStatus(s), ACL_RT_SUCCESS);
    CHECK_RT(rtsGetFloatOverflowStatus(out, 8, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_OK(aclrtMemcpy(got, 8, out, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(got[0], 0);
    CHECK_OK(aclrtFree(out));
    CHECK_RT(rtsNpuGetFloatOverFlowStatus(out, 64, 0, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtsNpuClearFloatOverFlowStatus(0, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

int main(void)
{
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    rtStream_t s = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);
    devices();
    timeouts();
    overflow(s);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    printf("rt device, timeout and overflow calls of round 9 checked\n");
    return 0;
}
