/* capture_task_update_async: aclrtTaskUpdateAsync (semantics.md §15, §18) on a
 * model run instance built on a bound persistent stream. Tasks issued to
 * the bound stream get ids (aclrtGetThreadLastTaskId), consecutive in
 * stream order and equal to aclmdlRITaskGetSeqId. An update task on an
 * ordinary stream reads the new numBlocks / function entry from device
 * memory when it runs and the execution queued behind it on the same
 * stream uses them: a block-indexed kernel then writes more slots, an
 * fp32 add switched to the fp16 add of the same binary computes in fp16.
 * Launch attributes given at the build are read back from the recorded
 * kernel (aclmdlRIKernelTaskGetAttribute). Bad task ids, non-kernel tasks,
 * unbound task streams and model streams as execStream are refused.
 *
 * needs: emulator
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

#define N 4096u   /* fp16 elements of the add's buffers */
#define SLOTS 16u /* uint32 slots of the block-indexed kernel */

static aclrtTaskUpdateInfo aic_aiv(aclrtBinHandle bin, void *entry, void *blocks) {
    aclrtTaskUpdateInfo info;
    memset(&info, 0, sizeof info);
    info.id = ACL_RT_UPDATE_AIC_AIV_TASK;
    info.val.aicAivTaskAttr.binHandle = bin;
    info.val.aicAivTaskAttr.funcEntryAddr = entry;
    info.val.aicAivTaskAttr.blockDimAddr = blocks;
    return info;
}

int main(void) {
    char repo[4096], trapSo[4096], addSo[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/trap.c", trapSo, sizeof trapSo) != 0) FAIL("cannot build trap.c");
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", addSo, sizeof addSo) != 0) FAIL("cannot build vadd.c");

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    if (strncmp(soc, "Ascend910B", 10) != 0 && strncmp(soc, "Ascend910_93", 12) != 0 && strncmp(soc, "Ascend950", 9) != 0) {
        (void)aclrtResetDevice(0);
        (void)aclFinalize();
        SKIP("model run instance updates are exercised on 950/A3/A2 (%s)", soc);
    }
    aclrtStream ps, exec;
    CHECK_OK(aclrtCreateStreamWithConfig(&ps, 0, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtCreateStream(&exec));
    aclrtBinHandle trapBin = NULL, addBin = NULL;
    CHECK_OK(aclrtBinaryLoadFromFile(trapSo, NULL, &trapBin));
    CHECK_OK(aclrtBinaryLoadFromFile(addSo, NULL, &addBin));
    aclrtFuncHandle fTrap, fAdd32, fAdd16;
    CHECK_OK(aclrtBinaryGetFunction(trapBin, "trap_block", &fTrap));
    CHECK_OK(aclrtBinaryGetFunction(addBin, "vadd_f32", &fAdd32));
    CHECK_OK(aclrtBinaryGetFunction(addBin, "vadd_f16", &fAdd16));

    /* Buffers: slots of the block-indexed kernel, the add's input and
     * output (fp16 1.0 everywhere), and the words the updates read. */
    static uint16_t ha[N], hc[N];
    for (uint32_t i = 0; i < N; i++)
        ha[i] = 0x3C00;
    void *slots, *da, *dc, *words;
    CHECK_OK(aclrtMalloc(&slots, SLOTS * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&da, sizeof ha, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dc, sizeof hc, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&words, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(da, sizeof ha, ha, sizeof ha, ACL_MEMCPY_HOST_TO_DEVICE));

    uint32_t never = 0xFFFFFFFFu; /* no block traps */
    aclrtArgsHandle trapArgs, addArgs;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(fTrap, &trapArgs));
    CHECK_OK(aclrtKernelArgsAppend(trapArgs, &never, sizeof never, &p));
    CHECK_OK(aclrtKernelArgsAppend(trapArgs, &slots, sizeof slots, &p));
    CHECK_OK(aclrtKernelArgsFinalize(trapArgs));
    uint64_t n = N / 2; /* fp32 elements; the fp16 add then covers the first N/2 halves */
    CHECK_OK(aclrtKernelArgsInit(fAdd32, &addArgs));
    CHECK_OK(aclrtKernelArgsAppend(addArgs, &da, sizeof da, &p));
    CHECK_OK(aclrtKernelArgsAppend(addArgs, &da, sizeof da, &p));
    CHECK_OK(aclrtKernelArgsAppend(addArgs, &dc, sizeof dc, &p));
    CHECK_OK(aclrtKernelArgsAppend(addArgs, &n, sizeof n, &p));
    CHECK_OK(aclrtKernelArgsFinalize(addArgs));

    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRIBuildBegin(&ri, 0));
    CHECK_OK(aclmdlRIBindStream(ri, ps, ACL_MODEL_STREAM_FLAG_HEAD));
    uint32_t tMemset, tTrap, tAdd;
    CHECK_OK(aclrtMemsetAsync(slots, SLOTS * 4, 0xFF, SLOTS * 4, ps));
    CHECK_OK(aclrtGetThreadLastTaskId(&tMemset));
    CHECK_OK(aclrtLaunchKernelWithConfig(fTrap, 2, ps, NULL, trapArgs, NULL));
    CHECK_OK(aclrtGetThreadLastTaskId(&tTrap));
    aclrtLaunchKernelAttr attr;
    memset(&attr, 0, sizeof attr);
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP;
    attr.value.isDataDump = 1;
    aclrtLaunchKernelCfg cfg = {.attrs = &attr, .numAttrs = 1};
    CHECK_OK(aclrtLaunchKernelWithConfig(fAdd32, 4, ps, &cfg, addArgs, NULL));
    CHECK_OK(aclrtGetThreadLastTaskId(&tAdd));
    CHECK_EQ(tTrap, tMemset + 1);
    CHECK_EQ(tAdd, tTrap + 1);
    CHECK_OK(aclmdlRIEndTask(ri, ps));
    CHECK_OK(aclmdlRIBuildEnd(ri, NULL));

    aclmdlRITask tasks[3];
    uint32_t nt = 3;
    CHECK_OK(aclmdlRIGetTasksByStream(ps, tasks, &nt));
    CHECK_EQ(nt, 3);
    uint32_t seq;
    CHECK_OK(aclmdlRITaskGetSeqId(tasks[2], &seq));
    CHECK_EQ(seq, tAdd);
    aclrtLaunchKernelAttrValue v;
    memset(&v, 0xAB, sizeof v);
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[2], ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, &v));
    CHECK_EQ(v.isDataDump, 1);
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, &v));
    CHECK_EQ(v.isDataDump, 0);
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[2], ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING, &v));
    CHECK_EQ(v.enableProfiling, 0);

    /* As recorded: 2 blocks fill 2 slots; the fp32 add doubles each float. */
    uint32_t hs[SLOTS];
    CHECK_OK(aclmdlRIExecuteAsync(ri, exec));
    CHECK_OK(aclrtSynchronizeStream(exec));
    CHECK_OK(aclrtMemcpy(hs, sizeof hs, slots, sizeof hs, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < SLOTS; i++)
        CHECK_EQ(hs[i], i < 2 ? i : 0xFFFFFFFFu);
    CHECK_OK(aclrtMemcpy(hc, sizeof hc, dc, sizeof hc, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < N; i++)
        if (hc[i] != (i % 2 ? 0x3C80 : 0x3C00)) FAIL("fp32 add: half %u = %#x", i, hc[i]);

    /* The words an earlier kernel would compute: the fp16 add's entry and
     * 5 blocks. */
    void *aic = NULL, *aiv = NULL;
    CHECK_OK(aclrtGetFunctionAddr(fAdd16, &aic, &aiv));
    struct {
        uint64_t entry;
        uint32_t blocks, pad;
    } w = {(uint64_t)(uintptr_t)(aiv != NULL ? aiv : aic), 5, 0};
    CHECK(w.entry != 0);
    CHECK_OK(aclrtMemcpy(words, sizeof w, &w, sizeof w, ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtTaskUpdateInfo blocksOnly = aic_aiv(trapBin, NULL, (char *)words + 8);
    aclrtTaskUpdateInfo entryOnly = aic_aiv(addBin, words, NULL);
    CHECK_OK(aclrtTaskUpdateAsync(ps, tTrap, &blocksOnly, exec));
    CHECK_OK(aclrtTaskUpdateAsync(ps, tAdd, &entryOnly, exec));
    CHECK_OK(aclrtMemsetAsync(dc, sizeof hc, 0, sizeof hc, exec));
    CHECK_OK(aclmdlRIExecuteAsync(ri, exec)); /* behind the updates, no synchronisation */
    CHECK_OK(aclrtSynchronizeStream(exec));
    CHECK_OK(aclrtMemcpy(hs, sizeof hs, slots, sizeof hs, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < SLOTS; i++)
        CHECK_EQ(hs[i], i < 5 ? i : 0xFFFFFFFFu);
    CHECK_OK(aclrtMemcpy(hc, sizeof hc, dc, sizeof hc, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < N; i++)
        if (hc[i] != (i < N / 2 ? 0x4000 : 0)) FAIL("fp16 add: half %u = %#x", i, hc[i]);

    /* The update stays for later executions, synchronous ones included. */
    CHECK_OK(aclmdlRIExecute(ri, -1));
    CHECK_OK(aclrtMemcpy(hs, sizeof hs, slots, sizeof hs, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(hs[4], 4u);
    CHECK_EQ(hs[5], 0xFFFFFFFFu);

    /* Bad input. */
    aclrtTaskUpdateInfo random = blocksOnly;
    random.id = ACL_RT_UPDATE_RANDOM_TASK;
    aclrtTaskUpdateInfo empty = aic_aiv(trapBin, NULL, NULL);
    CHECK_ERR(aclrtTaskUpdateAsync(ps, tAdd + 7, &blocksOnly, exec), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ERR(aclrtTaskUpdateAsync(ps, tMemset, &blocksOnly, exec), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ERR(aclrtTaskUpdateAsync(exec, tTrap, &blocksOnly, exec), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_ERR(aclrtTaskUpdateAsync(ps, tTrap, &blocksOnly, ps), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_ERR(aclrtTaskUpdateAsync(ps, tTrap, NULL, exec), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtTaskUpdateAsync(NULL, tTrap, &blocksOnly, exec), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtTaskUpdateAsync(ps, tTrap, &random, exec), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtTaskUpdateAsync(ps, tTrap, &empty, exec), ACL_ERROR_INVALID_PARAM);
    /* A word that is not a kernel entry fails the update task itself. */
    uint64_t junk = 0x1234;
    CHECK_OK(aclrtMemcpy(words, 8, &junk, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtTaskUpdateAsync(ps, tAdd, &entryOnly, exec));
    CHECK_FAILS(aclrtSynchronizeStream(exec));

    CHECK_OK(aclmdlRIUnbindStream(ri, ps));
    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclrtFree(slots));
    CHECK_OK(aclrtFree(da));
    CHECK_OK(aclrtFree(dc));
    CHECK_OK(aclrtFree(words));
    CHECK_OK(aclrtBinaryUnLoad(trapBin));
    CHECK_OK(aclrtBinaryUnLoad(addBin));
    CHECK_OK(aclrtDestroyStream(ps));
    CHECK_OK(aclrtDestroyStream(exec));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
