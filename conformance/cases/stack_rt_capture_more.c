/* stack_rt_capture_more: the rest of the runtime's capture family called
 * directly (rt.h, rt_inner_model.h / rt_inner_task.h names):
 * rtModelCondHandleCreate (RT_COND_HANDLE_ASSIGN_DEFAULT rewrites the word
 * at each execution), rtModelCondHandleGetCondPtr, rtStreamAddCondTask and
 * rtStreamBeginCaptureToModel build an IF node; rtsValueWrite/rtsValueWait
 * are recorded and found again with rtStreamGetTasks, rtTaskGetType
 * (rtTaskType), rtTaskGetSeqId and rtModelTaskGetParams (the bytes
 * aclmdlRITaskGetParams gives, with an rtTaskType), changed with
 * rtModelTaskSetParams and switched off with rtModelTaskDisable, both
 * effective at rtModelUpdate; rtModelDestroyRegisterCallback runs at
 * rtModelDestroy. Bad input gets the runtime's codes (ACL_ERROR_RT_*).
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

/* Offsets in rtTaskParams: the union after rsv1 (aclmdlRITaskParams'). */
#define TP_UNION 72
#define TP_ADDR (TP_UNION + 0)
#define TP_VALUE (TP_UNION + 8)
#define TP_FLAG (TP_UNION + 16)

static int destroyed_a, destroyed_b;
static void on_destroy_a(void *p) { destroyed_a += *(int *)p; }
static void on_destroy_b(void *p) { (void)p; destroyed_b++; }

static uint64_t u64(void *dev)
{
    uint64_t v = 0;
    CHECK_OK(aclrtMemcpy(&v, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
}

static void put64(void *dev, uint64_t v)
{
    CHECK_OK(aclrtMemcpy(dev, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
}

static uint64_t field64(const rtTaskParams *p, size_t off)
{
    uint64_t v;
    memcpy(&v, (const char *)p + off, 8);
    return v;
}

static void set64(rtTaskParams *p, size_t off, uint64_t v) { memcpy((char *)p + off, &v, 8); }

static void set32(rtTaskParams *p, size_t off, uint32_t v) { memcpy((char *)p + off, &v, 4); }

/* run executes mdl on stm and waits. */
static void run(rtModel_t mdl, rtStream_t stm)
{
    CHECK_RT(rtModelExecute(mdl, stm, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(stm), ACL_RT_SUCCESS);
}

int main(void)
{
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    rtStream_t s = NULL, sub = NULL, exe = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamCreate(&sub, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamCreate(&exe, 0), ACL_RT_SUCCESS);
    unsigned char *out = NULL;
    uint64_t *vw = NULL; /* [0]: the value-task word, [1]: a second word */
    CHECK_OK(aclrtMalloc((void **)&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&vw, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(out, 64, 0, 64));
    CHECK_OK(aclrtMemset(vw, 64, 0, 64));

    /* Value tasks outside a capture run at once. */
    CHECK_RT(rtsValueWrite(NULL, 1, 0, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsValueWrite(vw, 1, 1, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsValueWrite((char *)vw + 4, 1, 0, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsValueWait(vw, 1, 4, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsValueWrite(vw, 0x55, 0, s), ACL_RT_SUCCESS);
    CHECK_RT(rtsValueWait(vw, 0x55, 1 /* ACL_STREAM_WAIT_VALUE_EQ */, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(u64(vw), 0x55);
    put64(vw, 0);

    /* Capture: an IF node on a condition word, then a value write and a
     * value wait on vw[0]. */
    CHECK_RT(rtStreamBeginCapture(s, RT_STREAM_CAPTURE_MODE_RELAXED), ACL_RT_SUCCESS);
    rtStreamCaptureStatus st = RT_STREAM_CAPTURE_STATUS_NONE;
    rtModel_t mdl = NULL;
    CHECK_RT(rtStreamGetCaptureInfo(s, &st, &mdl), ACL_RT_SUCCESS);
    CHECK(mdl != NULL);

    rtCondHandle_t h = NULL;
    CHECK_RT(rtModelCondHandleCreate(NULL, 1, RT_COND_HANDLE_ASSIGN_DEFAULT, &h), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelCondHandleCreate(mdl, 1, (rtCondHandleFlag_t)5, &h), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelCondHandleCreate(mdl, 1, RT_COND_HANDLE_ASSIGN_DEFAULT, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(h == NULL);
    CHECK_RT(rtModelCondHandleCreate(mdl, 1, RT_COND_HANDLE_ASSIGN_DEFAULT, &h), ACL_RT_SUCCESS);
    CHECK(h != NULL);
    uint64_t *word = NULL;
    CHECK_RT(rtModelCondHandleGetCondPtr(NULL, &word), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelCondHandleGetCondPtr(h, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelCondHandleGetCondPtr(h, &word), ACL_RT_SUCCESS);
    CHECK(word != NULL);
    CHECK_EQ(u64(word), 1); /* the default, written at creation */

    rtModel_t subs[2] = {NULL, NULL};
    rtCondTaskParams p = {h, RT_COND_TASK_TYPE_MAX, 2, subs};
    CHECK_RT(rtStreamAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID);
    p.type = RT_COND_TASK_TYPE_IF;
    CHECK_RT(rtStreamAddCondTask(p, s, 1), ACL_ERROR_RT_PARAM_INVALID);
    p.handle = NULL;
    CHECK_RT(rtStreamAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID);
    p.handle = h;
    p.size = 3; /* an IF has 1 or 2 sub-graphs */
    CHECK_RT(rtStreamAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID);
    p.size = 2;
    CHECK(subs[0] == NULL);
    CHECK_RT(rtStreamAddCondTask(p, s, 0), ACL_RT_SUCCESS);
    CHECK(subs[0] != NULL && subs[1] != NULL);
    CHECK_RT(rtStreamBeginCaptureToModel(sub, NULL, RT_STREAM_CAPTURE_MODE_RELAXED), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamBeginCaptureToModel(sub, subs[0], RT_STREAM_CAPTURE_MODE_MAX), ACL_ERROR_RT_PARAM_INVALID);
    for (int i = 0; i < 2; i++) {
        CHECK_RT(rtStreamBeginCaptureToModel(sub, subs[i], RT_STREAM_CAPTURE_MODE_RELAXED), ACL_RT_SUCCESS);
        CHECK_OK(aclrtMemsetAsync(out + i, 1, i + 1, 1, sub));
        rtModel_t got = NULL;
        CHECK_RT(rtStreamEndCapture(sub, &got), ACL_RT_SUCCESS);
        CHECK(got == subs[i]);
    }
    CHECK_RT(rtsValueWrite(vw, 7, 0, s), ACL_RT_SUCCESS);
    CHECK_RT(rtsValueWait(vw, 7, 0 /* ACL_STREAM_WAIT_VALUE_GEQ */, s), ACL_RT_SUCCESS);
    rtModel_t done = NULL;
    CHECK_RT(rtStreamEndCapture(s, &done), ACL_RT_SUCCESS);
    CHECK(done == mdl);
    /* Nothing ran while capturing. */
    CHECK_EQ(u64(vw), 0);

    /* ASSIGN_DEFAULT: the word is 1 again at the start of each execution,
     * whatever the host left in it, so the IF takes sub-graph 0. */
    put64(word, 0);
    run(mdl, exe);
    unsigned char hout[2] = {0, 0};
    CHECK_OK(aclrtMemcpy(hout, 2, out, 2, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(hout[0], 1);
    CHECK_EQ(hout[1], 0);
    CHECK_EQ(u64(vw), 7);

    /* The tasks of the capture stream, as the ACL call lists them. */
    uint32_t n = 0, an = 0;
    CHECK_RT(rtStreamGetTasks(s, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamGetTasks(NULL, NULL, &n), ACL_ERROR_RT_PARAM_INVALID);
    rtStream_t ms[8];
    uint32_t nms = 8;
    CHECK_RT(rtModelGetStreams(mdl, ms, &nms), ACL_RT_SUCCESS);
    CHECK(nms >= 1);
    rtTask_t wr = NULL, wt = NULL;
    for (uint32_t k = 0; k < nms; k++) {
        CHECK_RT(rtStreamGetTasks(ms[k], NULL, &n), ACL_RT_SUCCESS);
        CHECK_OK(aclmdlRIGetTasksByStream(ms[k], NULL, &an));
        CHECK_EQ(n, an);
        if (n == 0) continue;
        rtTask_t tasks[16];
        uint32_t room = 0;
        CHECK_RT(rtStreamGetTasks(ms[k], tasks, &room), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
        room = 16;
        CHECK_RT(rtStreamGetTasks(ms[k], tasks, &room), ACL_RT_SUCCESS);
        CHECK_EQ(room, n);
        for (uint32_t i = 0; i < room; i++) {
            uint32_t seq = 99;
            CHECK_RT(rtTaskGetSeqId(tasks[i], &seq), ACL_RT_SUCCESS);
            CHECK_EQ(seq, i);
            rtTaskType ty = (rtTaskType)99;
            aclmdlRITaskType aty;
            CHECK_RT(rtTaskGetType(tasks[i], &ty), ACL_RT_SUCCESS);
            CHECK_OK(aclmdlRITaskGetType(tasks[i], &aty));
            CHECK_EQ((int)ty, (int)aty);
            if (ty == RT_TASK_VALUE_WRITE) wr = tasks[i];
            if (ty == RT_TASK_VALUE_WAIT) wt = tasks[i];
        }
    }
    CHECK(wr != NULL && wt != NULL);
    CHECK_RT(rtTaskGetType(NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtTaskGetSeqId(wr, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* Parameters: the ACL call's bytes, with an rtTaskType. */
    rtTaskParams tp, tq;
    aclmdlRITaskParams ap;
    memset(&tp, 0xEE, sizeof tp);
    CHECK_EQ(sizeof tp, sizeof ap);
    CHECK_RT(rtModelTaskGetParams(wt, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelTaskGetParams(wt, &tp), ACL_RT_SUCCESS);
    CHECK_OK(aclmdlRITaskGetParams(wt, &ap));
    CHECK(memcmp(&tp, &ap, sizeof tp) == 0);
    CHECK_EQ(tp.type, RT_TASK_VALUE_WAIT);
    CHECK_EQ(field64(&tp, TP_ADDR), (uint64_t)(uintptr_t)vw);
    CHECK_EQ(field64(&tp, TP_VALUE), 7);
    CHECK_RT(rtModelTaskGetParams(wr, &tq), ACL_RT_SUCCESS);
    CHECK_EQ(tq.type, RT_TASK_VALUE_WRITE);
    CHECK_EQ(field64(&tq, TP_VALUE), 7);

    /* Bad parameters change nothing. */
    rtTaskParams bad = tq;
    bad.type = RT_TASK_KERNEL;
    CHECK_RT(rtModelTaskSetParams(wr, &bad), ACL_ERROR_RT_PARAM_INVALID);
    bad.type = (rtTaskType)42;
    CHECK_RT(rtModelTaskSetParams(wr, &bad), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelTaskSetParams(NULL, &tq), ACL_ERROR_RT_PARAM_INVALID);

    /* Move the pair to vw[1], value 9, wait EQ: the old behaviour until
     * rtModelUpdate. */
    set64(&tq, TP_ADDR, (uint64_t)(uintptr_t)(vw + 1));
    set64(&tq, TP_VALUE, 9);
    CHECK_RT(rtModelTaskSetParams(wr, &tq), ACL_RT_SUCCESS);
    set64(&tp, TP_ADDR, (uint64_t)(uintptr_t)(vw + 1));
    set64(&tp, TP_VALUE, 9);
    set32(&tp, TP_FLAG, 1 /* ACL_STREAM_WAIT_VALUE_EQ */);
    CHECK_RT(rtModelTaskSetParams(wt, &tp), ACL_RT_SUCCESS);
    put64(vw, 0);
    run(mdl, exe);
    CHECK_EQ(u64(vw), 7);
    CHECK_EQ(u64(vw + 1), 0);
    CHECK_RT(rtModelUpdate(mdl), ACL_RT_SUCCESS);
    put64(vw, 0);
    run(mdl, exe);
    CHECK_EQ(u64(vw), 0);
    CHECK_EQ(u64(vw + 1), 9);
    CHECK_RT(rtModelTaskGetParams(wt, &tp), ACL_RT_SUCCESS);
    CHECK_EQ(field64(&tp, TP_VALUE), 9);

    /* A kernel attribute of a value task: not a kernel. */
    rtLaunchKernelAttrVal_t av;
    CHECK_RT(rtModelKernelTaskGetAttribute(wr, RT_LAUNCH_KERNEL_ATTR_MAX, &av), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelKernelTaskGetAttribute(wr, RT_LAUNCH_KERNEL_ATTR_TIMEOUT, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelKernelTaskGetAttribute(wr, RT_LAUNCH_KERNEL_ATTR_TIMEOUT, &av), ACL_ERROR_RT_PARAM_INVALID);

    /* rtsLaunchUpdateTask: its configuration is checked first. */
    rtTaskUpdateCfg_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.id = RT_UPDATE_MAX;
    CHECK_RT(rtsLaunchUpdateTask(s, 0, exe, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLaunchUpdateTask(s, 0, exe, &cfg), ACL_ERROR_RT_PARAM_INVALID);

    /* Disable both value tasks: after rtModelUpdate nothing writes vw. */
    CHECK_RT(rtModelTaskDisable(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelTaskDisable(wt), ACL_RT_SUCCESS);
    CHECK_RT(rtModelTaskDisable(wr), ACL_RT_SUCCESS);
    CHECK_RT(rtModelUpdate(mdl), ACL_RT_SUCCESS);
    put64(vw + 1, 0);
    run(mdl, exe);
    CHECK_EQ(u64(vw + 1), 0);

    /* Destroy callbacks: a runs with its data, b was unregistered. */
    int inc = 3;
    CHECK_RT(rtModelDestroyRegisterCallback(NULL, on_destroy_a, &inc), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelDestroyRegisterCallback(mdl, NULL, &inc), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelDestroyRegisterCallback(mdl, on_destroy_a, &inc), ACL_RT_SUCCESS);
    CHECK_RT(rtModelDestroyRegisterCallback(mdl, on_destroy_b, NULL), ACL_RT_SUCCESS);
    CHECK_RT(rtModelDestroyUnregisterCallback(mdl, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelDestroyUnregisterCallback(mdl, on_destroy_b), ACL_RT_SUCCESS);
    CHECK_RT(rtModelDestroyUnregisterCallback(mdl, on_destroy_b), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelDestroy(mdl), ACL_RT_SUCCESS);
    CHECK_EQ(destroyed_a, 3);
    CHECK_EQ(destroyed_b, 0);
    CHECK_RT(rtTaskGetType(wr, &(rtTaskType){0}), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_RT(rtModelCondHandleGetCondPtr(h, &word), ACL_ERROR_RT_INVALID_HANDLE);

    CHECK_OK(aclrtFree(out));
    CHECK_OK(aclrtFree(vw));
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(sub), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(exe), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
