/* stack_rt_stream_device: the runtime's stream, device, context, timeout
 * and res-limit rt* functions called directly (rt-functions.tsv): the
 * same objects the ACL surface sees (an rtStream_t is an aclrtStream, a
 * limit set through rts* is the one aclrtGet*ResLimit reads), the rt
 * numbering where it differs from ACL's (RT_STREAM_* flags, rtRunMode),
 * and the runtime's codes for bad input.
 *
 * link: -lruntime -lascendcl
 * needs: emulator
 */
#include <stdint.h>
#include <unistd.h>

#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

static void streams(void) {
    int32_t least = -1, greatest = -1;
    CHECK_RT(rtsDeviceGetStreamPriorityRange(&least, &greatest), ACL_RT_SUCCESS);
    CHECK_EQ(least, 7);
    CHECK_EQ(greatest, 0);
    CHECK_RT(rtsDeviceGetStreamPriorityRange(NULL, &greatest), ACL_ERROR_RT_PARAM_INVALID);

    uint32_t avail0 = 0, avail1 = 0;
    CHECK_RT(rtsStreamGetAvailableNum(&avail0), ACL_RT_SUCCESS);
    CHECK(avail0 > 0);
    CHECK_RT(rtsStreamGetAvailableNum(NULL), ACL_ERROR_RT_PARAM_INVALID);

    rtStream_t s = NULL;
    CHECK_RT(rtStreamCreate(&s, 3), ACL_RT_SUCCESS);
    CHECK_RT(rtsStreamGetAvailableNum(&avail1), ACL_RT_SUCCESS);
    CHECK_EQ(avail1, avail0 - 1);
    uint32_t prio = 99;
    CHECK_RT(rtStreamGetPriority(s, &prio), ACL_RT_SUCCESS);
    CHECK_EQ(prio, 3);
    CHECK_RT(rtStreamGetPriority(s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    int32_t id = -1, aclId = -2;
    CHECK_RT(rtsStreamGetId(s, &id), ACL_RT_SUCCESS);
    CHECK_OK(aclrtStreamGetId(s, &aclId));
    CHECK_EQ(id, aclId);
    CHECK_RT(rtsStreamGetId(s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsStreamGetId((rtStream_t)(uintptr_t)0x1234, &id), ACL_ERROR_RT_INVALID_HANDLE);

    /* Flags in the runtime's numbering (ACL_STREAM_FAST_LAUNCH is 1,
     * RT_STREAM_FAST_LAUNCH 0x200). */
    uint32_t flags = 99;
    CHECK_RT(rtStreamGetFlags(s, &flags), ACL_RT_SUCCESS);
    CHECK_EQ(flags, 0);
    aclrtStream fast = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&fast, 0, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_PERSISTENT));
    CHECK_RT(rtStreamGetFlags(fast, &flags), ACL_RT_SUCCESS);
    CHECK_EQ(flags, RT_STREAM_FAST_LAUNCH | RT_STREAM_PERSISTENT);
    CHECK_RT(rtStreamGetFlags(fast, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* Failure mode: once per stream, the same one that ACL reads. */
    CHECK_RT(rtStreamSetMode(s, 7), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamSetMode(s, RT_STREAM_FAILURE_MODE_STOP_ON_FAILURE), ACL_RT_SUCCESS);
    aclrtStreamAttrValue v;
    CHECK_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    CHECK_EQ(v.failureMode, ACL_STOP_ON_FAILURE);
    CHECK_RT(rtStreamSetMode(s, RT_STREAM_FAILURE_MODE_CONTINUE_ON_FAILURE), ACL_ERROR_RT_PARAM_INVALID);

    /* Attributes: rtStreamAttr/rtStreamAttrValue_t are aclrtStreamAttr's. */
    rtStreamAttrValue_t av;
    memset(&av, 0, sizeof av);
    av.userCustomTag = 0xabc;
    CHECK_RT(rtsStreamSetAttribute(s, RT_STREAM_ATTR_USER_CUSTOM_TAG, &av), ACL_RT_SUCCESS);
    CHECK_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
    CHECK_EQ(v.userCustomTag, 0xabc);
    memset(&av, 0, sizeof av);
    CHECK_RT(rtsStreamGetAttribute(s, RT_STREAM_ATTR_FAILURE_MODE, &av), ACL_RT_SUCCESS);
    CHECK_EQ(av.failureMode, RT_STREAM_FAILURE_MODE_STOP_ON_FAILURE);
    av.streamPriority = 8;
    CHECK_RT(rtsStreamSetAttribute(s, RT_STREAM_ATTR_PRIORITY, &av), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsStreamSetAttribute(s, RT_STREAM_ATTR_MAX, &av), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsStreamGetAttribute(s, (rtStreamAttr)0, &av), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsStreamGetAttribute(s, RT_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsStreamGetAttribute(s, RT_STREAM_ATTR_PRIORITY, &av), ACL_RT_SUCCESS);
    CHECK_EQ(av.streamPriority, 3);

    /* Abort leaves the stream usable; stop refuses later work. */
    void *dev = NULL;
    CHECK_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));

    /* Stream control belongs to streams bound to a model run instance. */
    CHECK_RT(rtsActiveStream(NULL, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsActiveStream(fast, s), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_RT(rtsSwitchStream(dev, RT_EQUAL, dev, RT_SWITCH_INT32, fast, NULL, s), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_RT(rtsSwitchStream(NULL, RT_EQUAL, dev, RT_SWITCH_INT32, fast, NULL, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsSwitchStream(dev, (rtCondition_t)6, dev, RT_SWITCH_INT32, fast, NULL, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsSwitchStream(dev, RT_EQUAL, dev, (rtSwitchDataType_t)2, fast, NULL, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsSwitchStream(dev, RT_EQUAL, dev, RT_SWITCH_INT32, fast, s, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamAbort(s), ACL_RT_SUCCESS);
    CHECK_RT(rtMemsetAsync(dev, 64, 1, 64, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_RT(rtsStreamStop(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsStreamStop(fast), ACL_RT_SUCCESS);
    CHECK(rtMemsetAsync(dev, 64, 2, 64, fast) != ACL_RT_SUCCESS);
    CHECK_OK(aclrtFree(dev));

    CHECK_RT(rtStreamDestroyForce(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamDestroyForce(fast), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamGetPriority(s, &prio), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_RT(rtsStreamGetAvailableNum(&avail1), ACL_RT_SUCCESS);
    CHECK_EQ(avail1, avail0);
}

static void device_and_context(void) {
    rtRunMode mode = RT_RUN_MODE_RESERVED;
    CHECK_RT(rtGetRunMode(&mode), ACL_RT_SUCCESS);
    CHECK_EQ(mode, RT_RUN_MODE_ONLINE);
    CHECK_RT(rtGetRunMode(NULL), ACL_ERROR_RT_PARAM_INVALID);

    rtDeviceStatus st = RT_DEVICE_STATUS_END;
    CHECK_RT(rtDeviceStatusQuery(0, &st), ACL_RT_SUCCESS);
    CHECK_EQ(st, RT_DEVICE_STATUS_NORMAL);
    CHECK_RT(rtDeviceStatusQuery(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDeviceStatusQuery(1000, &st), ACL_ERROR_RT_INVALID_DEVICEID);

    uint32_t pid = 0;
    CHECK_RT(rtDeviceGetBareTgid(&pid), ACL_RT_SUCCESS);
    CHECK_EQ(pid, (uint32_t)getpid());
    CHECK_RT(rtDeviceGetBareTgid(NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* Device attributes and ids, as the ACL calls report them. */
    int64_t cube = -1, aclCube = -2;
    CHECK_RT(rtsDeviceGetInfo(0, RT_DEV_ATTR_CUBE_CORE_NUM, &cube), ACL_RT_SUCCESS);
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &aclCube));
    CHECK_EQ(cube, aclCube);
    CHECK(cube > 0);
    CHECK_RT(rtsDeviceGetInfo(0, RT_DEV_ATTR_CUBE_CORE_NUM, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsDeviceGetInfo(0, RT_DEV_ATTR_MAX, &cube), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsDeviceGetInfo(1000, RT_DEV_ATTR_CUBE_CORE_NUM, &cube), ACL_ERROR_RT_INVALID_DEVICEID);
    uint32_t aic = 0;
    int64_t aclAic = -1;
    CHECK_RT(rtGetAiCoreCount(&aic), ACL_RT_SUCCESS);
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &aclAic));
    CHECK_EQ((int64_t)aic, aclAic);
    CHECK_RT(rtGetAiCoreCount(NULL), ACL_ERROR_RT_PARAM_INVALID);
    rtUuid_t u;
    aclrtUuid au;
    CHECK_RT(rtGetDeviceUuid(0, &u), ACL_RT_SUCCESS);
    CHECK_OK(aclrtDeviceGetUuid(0, &au));
    CHECK(memcmp(&u, &au, 16) == 0);
    CHECK_RT(rtGetDeviceUuid(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetDeviceUuid(1000, &u), ACL_ERROR_RT_INVALID_DEVICEID);
    int32_t phy = -1, logic = -1, user = -1;
    CHECK_RT(rtsGetPhyDevIdByLogicDevId(0, &phy), ACL_RT_SUCCESS);
    CHECK_RT(rtsGetLogicDevIdByPhyDevId(phy, &logic), ACL_RT_SUCCESS);
    CHECK_EQ(logic, 0);
    CHECK_RT(rtsGetLogicDevIdByUserDevId(0, &logic), ACL_RT_SUCCESS);
    CHECK_RT(rtsGetUserDevIdByLogicDevId(logic, &user), ACL_RT_SUCCESS);
    CHECK_EQ(user, 0);
    CHECK_RT(rtsGetPhyDevIdByLogicDevId(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetLogicDevIdByPhyDevId(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetLogicDevIdByUserDevId(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetUserDevIdByLogicDevId(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(rtsGetPhyDevIdByLogicDevId(1000, &phy) != ACL_RT_SUCCESS);

    /* PCI bus ids round-trip, as through ACL. */
    char bus[16] = {0}, aclBus[16] = {0};
    CHECK_RT(rtDeviceGetPCIBusId(0, bus, sizeof bus), ACL_RT_SUCCESS);
    CHECK_OK(aclrtDeviceGetPCIBusId(0, aclBus, sizeof aclBus));
    CHECK(strcmp(bus, aclBus) == 0);
    int32_t byBus = -1;
    CHECK_RT(rtDeviceGetByPCIBusId(bus, &byBus), ACL_RT_SUCCESS);
    CHECK_EQ(byBus, 0);
    CHECK_RT(rtDeviceGetPCIBusId(0, NULL, 16), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDeviceGetPCIBusId(0, bus, 4), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDeviceGetByPCIBusId(NULL, &byBus), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDeviceGetByPCIBusId(bus, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDeviceGetByPCIBusId("ffff:ff:1f.7", &byBus), ACL_ERROR_RT_PARAM_INVALID);

    /* Architecture compatibility with the SoC's own name. */
    char soc[64] = {0};
    CHECK_RT(rtGetSocVersion(soc, sizeof soc), ACL_RT_SUCCESS);
    int32_t can = -1;
    CHECK_RT(rtCheckArchCompatibility(soc, &can), ACL_RT_SUCCESS);
    CHECK_EQ(can, 1);
    CHECK_RT(rtCheckArchCompatibility("NoSuchSoC", &can), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtCheckArchCompatibility(NULL, &can), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtCheckArchCompatibility(soc, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* Device limits: rtLimitType_t numbers them one above aclrtDeviceLimit. */
    uint32_t lim = 0;
    CHECK_RT(rtDeviceGetLimit(RT_LIMIT_TYPE_STACK_SIZE, &lim), ACL_RT_SUCCESS);
    CHECK_EQ(lim, 32768);
    CHECK_RT(rtDeviceSetLimit(0, RT_LIMIT_TYPE_STACK_SIZE, 40000), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceGetLimit(RT_LIMIT_TYPE_STACK_SIZE, &lim), ACL_RT_SUCCESS);
    CHECK_EQ(lim, 49152); /* rounded up to 16 KiB */
    size_t aclLim = 0;
    CHECK_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &aclLim));
    CHECK_EQ(aclLim, 49152);
    CHECK_RT(rtDeviceSetLimit(0, RT_LIMIT_TYPE_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 4096), ACL_RT_SUCCESS);
    CHECK_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &aclLim));
    CHECK_EQ(aclLim, 4096);
    CHECK_RT(rtDeviceSetLimit(0, RT_LIMIT_TYPE_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 4097), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDeviceSetLimit(1000, RT_LIMIT_TYPE_STACK_SIZE, 40000), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtDeviceSetLimit(0, RT_LIMIT_TYPE_LOW_POWER_TIMEOUT, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtDeviceSetLimit(0, RT_LIMIT_TYPE_RESERVED, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDeviceGetLimit(RT_LIMIT_TYPE_RESERVED, &lim), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDeviceGetLimit(RT_LIMIT_TYPE_STACK_SIZE, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* The current context's default stream is the one NULL means. */
    rtStream_t def = NULL;
    CHECK_RT(rtsCtxGetCurrentDefaultStream(&def), ACL_RT_SUCCESS);
    CHECK(def != NULL);
    aclrtStream aclDef = NULL;
    CHECK_OK(aclrtCtxGetCurrentDefaultStream(&aclDef));
    CHECK(def == aclDef);
    CHECK_RT(rtsCtxGetCurrentDefaultStream(NULL), ACL_ERROR_RT_PARAM_INVALID);

    uint32_t cflags = 99;
    int32_t active = -1;
    CHECK_RT(rtsGetPrimaryCtxState(0, &cflags, &active), ACL_RT_SUCCESS);
    CHECK_EQ(active, 1);
    CHECK_EQ(cflags, 0);
    CHECK_RT(rtsGetPrimaryCtxState(0, NULL, &active), ACL_RT_SUCCESS);
    CHECK_RT(rtsGetPrimaryCtxState(0, &cflags, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetPrimaryCtxState(1000, &cflags, &active), ACL_ERROR_RT_INVALID_DEVICEID);

    /* System options: per context (unset is an error) and process-wide
     * (unset reads 0); the ACL calls see the same values. */
    int64_t val = -1;
    CHECK_RT(rtCtxGetSysParamOpt(SYS_OPT_DETERMINISTIC, &val), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
    CHECK_RT(rtCtxSetSysParamOpt(SYS_OPT_DETERMINISTIC, 1), ACL_RT_SUCCESS);
    CHECK_RT(rtCtxGetSysParamOpt(SYS_OPT_DETERMINISTIC, &val), ACL_RT_SUCCESS);
    CHECK_EQ(val, 1);
    int64_t aclVal = -1;
    CHECK_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &aclVal));
    CHECK_EQ(aclVal, 1);
    CHECK_RT(rtCtxGetSysParamOpt(SYS_OPT_DETERMINISTIC, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtCtxSetSysParamOpt(SYS_OPT_RESERVED, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtCtxSetSysParamOpt((rtSysParamOpt)-1, 1), ACL_ERROR_RT_PARAM_INVALID);
    val = -1;
    CHECK_RT(rtGetSysParamOpt(SYS_OPT_STRONG_CONSISTENCY, &val), ACL_RT_SUCCESS);
    CHECK_EQ(val, 0);
    CHECK_RT(rtSetSysParamOpt(SYS_OPT_STRONG_CONSISTENCY, 5), ACL_RT_SUCCESS);
    CHECK_RT(rtGetSysParamOpt(SYS_OPT_STRONG_CONSISTENCY, &val), ACL_RT_SUCCESS);
    CHECK_EQ(val, 5);
    CHECK_RT(rtGetSysParamOpt(SYS_OPT_RESERVED, &val), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetSysParamOpt(SYS_OPT_STRONG_CONSISTENCY, NULL), ACL_ERROR_RT_PARAM_INVALID);
}

static void timeouts(void) {
    /* The execute timeout is the one aclrtGetOpExecuteTimeout reports. */
    uint32_t ms = 0;
    CHECK_RT(rtSetOpExecuteTimeOut(5), ACL_RT_SUCCESS);
    CHECK_OK(aclrtGetOpExecuteTimeout(&ms));
    CHECK_EQ(ms, 5000);
    CHECK_RT(rtSetOpExecuteTimeOut(0), ACL_RT_SUCCESS); /* 0: the maximum */
    CHECK_OK(aclrtGetOpExecuteTimeout(&ms));
    CHECK(ms > 5000);
    CHECK_RT(rtSetOpWaitTimeOut(30), ACL_RT_SUCCESS);
    CHECK_RT(rtSetOpWaitTimeOut(0), ACL_RT_SUCCESS);
}

static void res_limits(void) {
    uint32_t hw = 0, v = 0;
    CHECK_RT(rtsGetDeviceResLimit(0, RT_DEV_RES_CUBE_CORE, &hw), ACL_RT_SUCCESS);
    CHECK(hw >= 2);
    CHECK_RT(rtsGetDeviceResLimit(0, RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetDeviceResLimit(0, RT_DEV_RES_TYPE_MAX, &v), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetDeviceResLimit(1000, RT_DEV_RES_CUBE_CORE, &v), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtsSetDeviceResLimit(0, RT_DEV_RES_CUBE_CORE, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsSetDeviceResLimit(0, RT_DEV_RES_CUBE_CORE, hw + 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsSetDeviceResLimit(0, (rtDevResLimitType_t)9, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsSetDeviceResLimit(0, RT_DEV_RES_CUBE_CORE, hw - 1), ACL_RT_SUCCESS);
    CHECK_RT(rtsGetDeviceResLimit(0, RT_DEV_RES_CUBE_CORE, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, hw - 1);
    uint32_t aclV = 0;
    CHECK_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &aclV));
    CHECK_EQ(aclV, hw - 1);

    /* Stream level, and the thread that uses the stream's resources. */
    rtStream_t s = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtsGetStreamResLimit(s, RT_DEV_RES_CUBE_CORE, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, hw - 1); /* unset: the device's */
    CHECK_RT(rtsSetStreamResLimit(s, RT_DEV_RES_CUBE_CORE, 1), ACL_RT_SUCCESS);
    CHECK_RT(rtsSetStreamResLimit(s, RT_DEV_RES_CUBE_CORE, hw + 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsSetStreamResLimit(s, (rtDevResLimitType_t)9, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetStreamResLimit(s, RT_DEV_RES_CUBE_CORE, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, 1);
    CHECK_RT(rtsGetStreamResLimit(s, RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetResInCurrentThread(RT_DEV_RES_CUBE_CORE, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, hw - 1);
    CHECK_RT(rtsNotUseStreamResInCurrentThread(s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsUseStreamResInCurrentThread(s), ACL_RT_SUCCESS);
    CHECK_RT(rtsGetResInCurrentThread(RT_DEV_RES_CUBE_CORE, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, 1);
    CHECK_RT(rtsGetResInCurrentThread(RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetResInCurrentThread(RT_DEV_RES_TYPE_MAX, &v), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotUseStreamResInCurrentThread(s), ACL_RT_SUCCESS);
    CHECK_RT(rtsGetResInCurrentThread(RT_DEV_RES_CUBE_CORE, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, hw - 1);
    CHECK_RT(rtsResetStreamResLimit(s), ACL_RT_SUCCESS);
    CHECK_RT(rtsGetStreamResLimit(s, RT_DEV_RES_CUBE_CORE, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, hw - 1);
    CHECK_RT(rtsResetDeviceResLimit(0), ACL_RT_SUCCESS);
    CHECK_RT(rtsGetDeviceResLimit(0, RT_DEV_RES_CUBE_CORE, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, hw);
    CHECK_RT(rtsResetDeviceResLimit(1000), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtsUseStreamResInCurrentThread(s), ACL_ERROR_RT_INVALID_HANDLE);
}

int main(void) {
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    streams();
    device_and_context();
    timeouts();
    res_limits();

    /* A device-wide task abort, then the device still takes work. */
    CHECK_RT(rtDeviceTaskAbort(1000, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtDeviceTaskAbort(0, 0), ACL_RT_SUCCESS);
    rtStream_t after = NULL;
    CHECK_RT(rtStreamCreate(&after, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(after), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(after), ACL_RT_SUCCESS);

    /* A forced reset releases the primary context however often it was
     * set, once. */
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceResetForce(0), ACL_RT_SUCCESS);
    int32_t active = -1;
    CHECK_RT(rtsGetPrimaryCtxState(0, NULL, &active), ACL_RT_SUCCESS);
    CHECK_EQ(active, 0);
    CHECK_RT(rtDeviceResetForce(0), ACL_ERROR_RT_PARAM_INVALID);
    return 0;
}
