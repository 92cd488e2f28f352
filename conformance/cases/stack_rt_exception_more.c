/* stack_rt_exception_more: the runtime's exception calls of round 9 called
 * directly (rt-functions.tsv, rt.h), with their own codes: a module's task
 * fail callback (rtRegTaskFailCallbackByModule, one per module, NULL
 * removes it) runs for a failing task with the task's record; the
 * uncorrectable memory error injected by NPUEMU_FAULTS is listed by
 * rtGetMemUceInfo until rtMemUceRepair; rtsGetErrorVerbose reports
 * RT_NO_ERROR; state and task-abort callbacks registered through rts*
 * run; bad input is refused with ACL_ERROR_RT_PARAM_INVALID.
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 * env: NPUEMU_FAULTS=uce:nth=2,addr=0x123400,len=128
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

static int calls_a, calls_a2, calls_b;
static uint32_t seen_dev = 99, seen_code;
static rtError_t seen_func_ret = -1, seen_null_ret = -1;

static void cb_a(rtExceptionInfo_t *info) { (void)info; calls_a++; }
static void cb_b(rtExceptionInfo_t *info) { (void)info; calls_b++; }

static void cb_a2(rtExceptionInfo_t *info)
{
    rtFuncHandle fh = NULL;
    calls_a2++;
    seen_dev = info->deviceid;
    seen_code = info->retcode;
    /* A memset is not a kernel: it has no function handle. */
    seen_func_ret = rtGetFuncHandleFromExceptionInfo(info, &fh);
    seen_null_ret = rtGetFuncHandleFromExceptionInfo(info, NULL);
}

static int dev_calls, stream_calls, abort_calls;
static int last_dev_state = -1, last_stream_state = -1, last_abort_stage = -1;

static void on_dev(uint32_t dev, rtDeviceState state, void *arg)
{
    (void)dev;
    (void)arg;
    dev_calls++;
    last_dev_state = state;
}

static void on_stream(rtStream_t s, rtStreamState state, void *arg)
{
    (void)s;
    (void)arg;
    stream_calls++;
    last_stream_state = state;
}

static int32_t on_abort(uint32_t dev, rtDeviceTaskAbortStage stage, uint32_t timeout, void *arg)
{
    (void)dev;
    (void)timeout;
    (*(int *)arg)++;
    abort_calls++;
    last_abort_stage = stage;
    return 0;
}

static void task_fail_and_uce(rtStream_t s)
{
    CHECK_RT(rtRegTaskFailCallbackByModule(NULL, cb_a), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtRegTaskFailCallbackByModule("modA", cb_a), ACL_RT_SUCCESS);
    CHECK_RT(rtRegTaskFailCallbackByModule("modB", cb_b), ACL_RT_SUCCESS);
    CHECK_RT(rtRegTaskFailCallbackByModule("modA", cb_a2), ACL_RT_SUCCESS); /* replaces cb_a */
    CHECK_RT(rtRegTaskFailCallbackByModule("modB", NULL), ACL_RT_SUCCESS);  /* removes cb_b */
    CHECK_RT(rtRegTaskFailCallbackByModule("never", NULL), ACL_RT_SUCCESS);

    void *d = NULL;
    CHECK_RT(rtMalloc(&d, 4096, RT_MEMORY_HBM, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtMemsetAsync(d, 4096, 0, 4096, s), ACL_RT_SUCCESS); /* task 1 */
    CHECK_RT(rtMemsetAsync(d, 4096, 1, 4096, s), ACL_RT_SUCCESS); /* task 2: UCE */
    CHECK_RT(rtStreamSynchronize(s), ACL_ERROR_RT_DEVICE_MEM_ERROR);
    CHECK_EQ(calls_a2, 1);
    CHECK_EQ(calls_a, 0);
    CHECK_EQ(calls_b, 0);
    CHECK_EQ(seen_dev, 0);
    CHECK(seen_code != 0);
    CHECK_EQ(seen_func_ret, ACL_ERROR_RT_PARAM_INVALID);
    CHECK_EQ(seen_null_ret, ACL_ERROR_RT_PARAM_INVALID);
    rtFuncHandle fh = NULL;
    rtExceptionInfo_t fake;
    memset(&fake, 0, sizeof fake);
    CHECK_RT(rtGetFuncHandleFromExceptionInfo(&fake, &fh), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetFuncHandleFromExceptionInfo(NULL, &fh), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtRegTaskFailCallbackByModule("modA", NULL), ACL_RT_SUCCESS);

    rtMemUceInfo info;
    memset(&info, 0xee, sizeof info);
    CHECK_RT(rtGetMemUceInfo(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetMemUceInfo(99, &info), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtGetMemUceInfo(0, &info), ACL_RT_SUCCESS);
    CHECK_EQ(info.devid, 0);
    CHECK_EQ(info.count, 1);
    CHECK_EQ(info.repairAddr[0].ptr, 0x123400);
    CHECK_EQ(info.repairAddr[0].len, 128);
    CHECK_EQ(info.repairAddr[1].ptr, 0);

    rtMemUceInfo bad = info;
    bad.count = 0;
    CHECK_RT(rtMemUceRepair(0, &bad), ACL_ERROR_RT_PARAM_INVALID);
    bad.count = RT_MAX_RECORD_PA_NUM_PER_DEV + 1;
    CHECK_RT(rtMemUceRepair(0, &bad), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemUceRepair(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemUceRepair(0, &info), ACL_RT_SUCCESS);
    CHECK_RT(rtMemUceRepair(0, &info), ACL_ERROR_RT_PARAM_INVALID); /* repaired: no longer reported */
    CHECK_RT(rtGetMemUceInfo(0, &info), ACL_RT_SUCCESS);
    CHECK_EQ(info.count, 0);

    /* Later tasks run again. */
    CHECK_RT(rtMemsetAsync(d, 4096, 2, 4096, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(calls_a2, 1);
    CHECK_RT(rtFree(d), ACL_RT_SUCCESS);
}

static void error_verbose(void)
{
    rtErrorInfo e;
    memset(&e, 0xff, sizeof e);
    CHECK_RT(rtsGetErrorVerbose(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetErrorVerbose(99, &e), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtsGetErrorVerbose(0, &e), ACL_RT_SUCCESS);
    CHECK_EQ(e.errorType, RT_NO_ERROR);
    CHECK_EQ(e.tryRepair, 0);
    CHECK_EQ(e.hasDetail, 0);
    CHECK_RT(rtsRepairError(0, &e), ACL_RT_SUCCESS);
    CHECK_RT(rtsRepairError(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    e.errorType = RT_ERROR_MEMORY;
    CHECK_RT(rtsRepairError(0, &e), ACL_ERROR_RT_PARAM_INVALID);
    e.errorType = (rtErrType)77;
    CHECK_RT(rtsRepairError(0, &e), ACL_ERROR_RT_PARAM_INVALID);
}

static void state_callbacks(void)
{
    int arg = 0;
    CHECK_RT(rtsRegDeviceStateCallback(NULL, on_dev, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsRegDeviceStateCallback("dev", on_dev, NULL), ACL_RT_SUCCESS);
    CHECK_RT(rtsRegDeviceStateCallback("dev", on_dev, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    CHECK_EQ(dev_calls, 2);
    CHECK_EQ(last_dev_state, RT_DEVICE_STATE_SET_POST);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    CHECK_EQ(dev_calls, 4);
    CHECK_EQ(last_dev_state, RT_DEVICE_STATE_RESET_POST);
    CHECK_RT(rtsRegDeviceStateCallback("dev", NULL, NULL), ACL_RT_SUCCESS);
    CHECK_RT(rtsRegDeviceStateCallback("dev", NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);

    CHECK_RT(rtsRegStreamStateCallback(NULL, on_stream, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsRegStreamStateCallback("stm", on_stream, NULL), ACL_RT_SUCCESS);
    rtStream_t s2 = NULL;
    CHECK_RT(rtStreamCreate(&s2, 0), ACL_RT_SUCCESS);
    CHECK_EQ(stream_calls, 1);
    CHECK_EQ(last_stream_state, RT_STREAM_STATE_CREATE_POST);
    CHECK_RT(rtStreamDestroy(s2), ACL_RT_SUCCESS);
    CHECK_EQ(stream_calls, 2);
    CHECK_EQ(last_stream_state, RT_STREAM_STATE_DESTROY_PRE);
    CHECK_RT(rtsRegStreamStateCallback("stm", NULL, NULL), ACL_RT_SUCCESS);

    CHECK_RT(rtsSetDeviceTaskAbortCallback(NULL, on_abort, &arg), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsSetDeviceTaskAbortCallback("abort", on_abort, &arg), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceTaskAbort(0, 0), ACL_RT_SUCCESS);
    CHECK_EQ(abort_calls, 2);
    CHECK_EQ(arg, 2);
    CHECK_EQ(last_abort_stage, RT_DEVICE_TASK_ABORT_POST);
}

int main(void)
{
    CHECK_OK(aclInit(NULL)); /* NPUEMU_FAULTS is read by aclInit */
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    const char *soc = aclrtGetSocName();
    if (soc == NULL || (strstr(soc, "910B") == NULL && strstr(soc, "910_93") == NULL && strstr(soc, "950") == NULL))
        SKIP("uncorrectable memory errors and task abort are Atlas A2/A3/950 features; SoC %s", soc ? soc : "?");
    rtStream_t s = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);
    task_fail_and_uce(s);
    error_verbose();
    CHECK_RT(rtBinarySetExceptionCallback(NULL, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    state_callbacks();
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    CHECK_OK(aclFinalize());
    printf("rt exception calls of round 9 checked\n");
    return 0;
}
