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
 * rtModelDestroy. On a model built on a bound stream, a kernel task's
 * launch attribute (rtModelKernelTaskGetAttribute) and parameters read as
 * ACL reads them, and rtsLaunchUpdateTask gives it a new block count for
 * the executions behind it. Bad input gets the runtime's codes
 * (ACL_ERROR_RT_*).
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
#include "../../examples/kernels/build_kernel.h"

#define SLOTS 16u

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

/* kernel_tasks builds a model on a bound persistent stream with one
 * block-indexed kernel (trap.c's trap_block, which writes slot i in block
 * i), launched with RT-side attribute DATA_DUMP, and re-issues it with 5
 * blocks through rtsLaunchUpdateTask. */
static void kernel_tasks(const char *so)
{
    rtStream_t ps = NULL, exe = NULL;
    rtStreamCreateAttr_t fa = {RT_STREAM_CREATE_ATTR_FLAGS, {RT_STREAM_PERSISTENT}};
    rtStreamCreateConfig_t fc = {&fa, 1};
    CHECK_RT(rtsStreamCreate(&ps, &fc), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamCreate(&exe, 0), ACL_RT_SUCCESS);
    aclrtBinHandle bin = NULL;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryGetFunction(bin, "trap_block", &f));
    uint32_t *slots = NULL;
    void *words = NULL;
    CHECK_OK(aclrtMalloc((void **)&slots, SLOTS * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&words, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    uint32_t never = 0xFFFFFFFFu;
    aclrtArgsHandle args;
    aclrtParamHandle ph;
    CHECK_OK(aclrtKernelArgsInit(f, &args));
    CHECK_OK(aclrtKernelArgsAppend(args, &never, sizeof never, &ph));
    CHECK_OK(aclrtKernelArgsAppend(args, &slots, sizeof slots, &ph));
    CHECK_OK(aclrtKernelArgsFinalize(args));

    rtModel_t mdl = NULL;
    CHECK_RT(rtsModelCreate(&mdl, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtsModelBindStream(mdl, ps, RT_MODEL_STREAM_FLAG_HEAD), ACL_RT_SUCCESS);
    CHECK_OK(aclrtMemsetAsync(slots, SLOTS * 4, 0xFF, SLOTS * 4, ps));
    aclrtLaunchKernelAttr attr;
    memset(&attr, 0, sizeof attr);
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP;
    attr.value.isDataDump = 1;
    aclrtLaunchKernelCfg cfg = {.attrs = &attr, .numAttrs = 1};
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 2, ps, &cfg, args, NULL));
    uint32_t tk = 0;
    CHECK_OK(aclrtGetThreadLastTaskId(&tk));
    CHECK_RT(rtsEndGraph(mdl, ps), ACL_RT_SUCCESS);
    CHECK_RT(rtsModelLoadComplete(mdl, NULL), ACL_RT_SUCCESS);

    rtTask_t tasks[2];
    uint32_t nt = 2;
    CHECK_RT(rtStreamGetTasks(ps, tasks, &nt), ACL_RT_SUCCESS);
    CHECK_EQ(nt, 2);
    rtTaskType ty;
    CHECK_RT(rtTaskGetType(tasks[1], &ty), ACL_RT_SUCCESS);
    CHECK_EQ(ty, RT_TASK_KERNEL);
    uint32_t seq = 0;
    CHECK_RT(rtTaskGetSeqId(tasks[1], &seq), ACL_RT_SUCCESS);
    CHECK_EQ(seq, tk);

    /* Attributes: the ACL call's value; the memset is no kernel. */
    rtLaunchKernelAttrVal_t v;
    aclrtLaunchKernelAttrValue av;
    memset(&v, 0xAB, sizeof v);
    memset(&av, 0xAB, sizeof av);
    CHECK_EQ(sizeof v, sizeof av);
    CHECK_RT(rtModelKernelTaskGetAttribute(tasks[1], RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v.isDataDump, 1);
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, &av));
    CHECK(memcmp(&v, &av, sizeof v) == 0);
    CHECK_RT(rtModelKernelTaskGetAttribute(tasks[1], RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v.enableProfiling, 0);
    CHECK_RT(rtModelKernelTaskGetAttribute(tasks[0], RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, &v), ACL_ERROR_RT_PARAM_INVALID);

    /* Parameters: ACL's bytes with RT_TASK_KERNEL; numBlocks 2. */
    rtTaskParams tp;
    aclmdlRITaskParams ap;
    CHECK_RT(rtModelTaskGetParams(tasks[1], &tp), ACL_RT_SUCCESS);
    CHECK_OK(aclmdlRITaskGetParams(tasks[1], &ap));
    CHECK(memcmp(&tp, &ap, sizeof tp) == 0);
    CHECK_EQ(tp.type, RT_TASK_KERNEL);
    CHECK_EQ(ap.kernelTaskParams.numBlocks, 2);

    uint32_t hs[SLOTS];
    run(mdl, exe);
    CHECK_OK(aclrtMemcpy(hs, sizeof hs, slots, sizeof hs, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < SLOTS; i++)
        CHECK_EQ(hs[i], i < 2 ? i : 0xFFFFFFFFu);

    /* rtsLaunchUpdateTask: 5 blocks, read from device memory when the
     * update runs on exe; the execution behind it uses them. */
    uint32_t blocks = 5;
    CHECK_OK(aclrtMemcpy(words, 4, &blocks, 4, ACL_MEMCPY_HOST_TO_DEVICE));
    rtTaskUpdateCfg_t uc;
    memset(&uc, 0, sizeof uc);
    uc.id = RT_UPDATE_AIC_AIV_TASK;
    uc.val.aicAivTaskAttr.binHandle = bin;
    uc.val.aicAivTaskAttr.blockDimAddr = words;
    CHECK_RT(rtsLaunchUpdateTask(ps, tk + 7, exe, &uc), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLaunchUpdateTask(exe, tk, exe, &uc), ACL_ERROR_RT_STREAM_MODEL);
    rtTaskUpdateCfg_t dsa = uc;
    dsa.id = RT_UPDATE_DSA_TASK; /* the task is no DSA task */
    CHECK_RT(rtsLaunchUpdateTask(ps, tk, exe, &dsa), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLaunchUpdateTask(ps, tk, exe, &uc), ACL_RT_SUCCESS);
    CHECK_RT(rtModelExecute(mdl, exe, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(exe), ACL_RT_SUCCESS);
    CHECK_OK(aclrtMemcpy(hs, sizeof hs, slots, sizeof hs, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < SLOTS; i++)
        CHECK_EQ(hs[i], i < 5 ? i : 0xFFFFFFFFu);

    CHECK_RT(rtsModelUnbindStream(mdl, ps), ACL_RT_SUCCESS);
    CHECK_RT(rtModelDestroy(mdl), ACL_RT_SUCCESS);
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtFree(slots));
    CHECK_OK(aclrtFree(words));
    CHECK_RT(rtStreamDestroy(ps), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(exe), ACL_RT_SUCCESS);
}

int main(void)
{
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/trap.c", so, sizeof so) != 0) FAIL("cannot build trap.c");
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    if (strncmp(soc, "Ascend910B", 10) != 0 && strncmp(soc, "Ascend910_93", 12) != 0 && strncmp(soc, "Ascend950", 9) != 0) {
        (void)rtDeviceReset(0);
        SKIP("model task introspection is documented for 950/A3/A2 only (%s)", soc);
    }
    kernel_tasks(so);
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
