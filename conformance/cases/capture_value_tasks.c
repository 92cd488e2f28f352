/* capture_value_tasks: aclrtValueWrite / aclrtValueWait inside model run
 * instances (semantics.md §10, §18). A producer stream fills a buffer and
 * writes a flag word; a consumer stream waits for the word and copies the
 * buffer out. The pair is captured in each capture mode (and built on two
 * bound persistent streams), replayed several times with data checks, and
 * its tasks are inspected (aclmdlRITaskGetType / GetParams) and changed
 * (aclmdlRITaskSetParams, effective at aclmdlRIUpdate).
 *
 * needs: emulator
 */
#include "rt_util.h"

#define N 4096

static void *word, *data, *dout, *hout;

static uint64_t read_u64(void *dev)
{
    uint64_t v = 0;
    CHECK_OK(aclrtMemcpy(&v, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
}

/* replay runs ri on s with fresh data byte b and checks the consumer's
 * copy and the flag word (at word + off, expected want). */
static void replay(aclmdlRI ri, aclrtStream s, unsigned char b, size_t off, uint64_t want)
{
    CHECK_OK(aclrtMemset(word, 16, 0, 16));
    CHECK_OK(aclrtMemset(dout, N, 0, N));
    CHECK_OK(aclmdlRIExecuteAsync(ri, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(hout, N, dout, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_all_bytes(hout, N, b));
    CHECK_EQ(read_u64((char *)word + off), want);
    CHECK_EQ(read_u64((char *)word + (8 - off)), 0);
}

/* find_tasks returns the value write and the value wait of ri. */
static void find_tasks(aclmdlRI ri, aclmdlRITask *write, aclmdlRITask *wait)
{
    aclrtStream streams[8];
    uint32_t ns = 8;
    CHECK_OK(aclmdlRIGetStreams(ri, streams, &ns));
    *write = *wait = NULL;
    for (uint32_t i = 0; i < ns; i++) {
        aclmdlRITask tasks[16];
        uint32_t nt = 16;
        CHECK_OK(aclmdlRIGetTasksByStream(streams[i], tasks, &nt));
        for (uint32_t k = 0; k < nt; k++) {
            aclmdlRITaskType t;
            CHECK_OK(aclmdlRITaskGetType(tasks[k], &t));
            if (t == ACL_MODEL_RI_TASK_VALUE_WRITE) *write = tasks[k];
            if (t == ACL_MODEL_RI_TASK_VALUE_WAIT) *wait = tasks[k];
        }
    }
    CHECK(*write != NULL && *wait != NULL);
}

static void params_round_trip(aclmdlRI ri, aclrtStream s)
{
    aclmdlRITask wr, wt;
    find_tasks(ri, &wr, &wt);
    aclmdlRITaskParams p;
    memset(&p, 0, sizeof p);
    CHECK_OK(aclmdlRITaskGetParams(wt, &p));
    CHECK_EQ(p.type, ACL_MODEL_RI_TASK_VALUE_WAIT);
    CHECK(p.valueWaitTaskParams.devAddr == word);
    CHECK_EQ(p.valueWaitTaskParams.value, 7);
    CHECK_EQ(p.valueWaitTaskParams.flag, ACL_STREAM_WAIT_VALUE_GEQ);
    aclmdlRITaskParams q;
    memset(&q, 0, sizeof q);
    CHECK_OK(aclmdlRITaskGetParams(wr, &q));
    CHECK_EQ(q.type, ACL_MODEL_RI_TASK_VALUE_WRITE);
    CHECK(q.valueWriteTaskParams.devAddr == word);
    CHECK_EQ(q.valueWriteTaskParams.value, 7);

    /* Bad input changes nothing. */
    aclmdlRITaskParams bad = p;
    bad.type = ACL_MODEL_RI_TASK_VALUE_WRITE;
    CHECK_ERR(aclmdlRITaskSetParams(wt, &bad), ACL_ERROR_INVALID_PARAM);
    bad = p;
    bad.valueWaitTaskParams.devAddr = (char *)word + 4;
    CHECK_ERR(aclmdlRITaskSetParams(wt, &bad), ACL_ERROR_INVALID_PARAM);
    bad = p;
    bad.valueWaitTaskParams.flag = 9;
    CHECK_ERR(aclmdlRITaskSetParams(wt, &bad), ACL_ERROR_INVALID_PARAM);
    bad = q;
    bad.valueWriteTaskParams.devAddr = NULL;
    CHECK_ERR(aclmdlRITaskSetParams(wr, &bad), ACL_ERROR_INVALID_PARAM);

    /* Move the pair to the second word, value 40, wait EQ: still the old
     * behaviour until aclmdlRIUpdate. */
    q.valueWriteTaskParams.devAddr = (char *)word + 8;
    q.valueWriteTaskParams.value = 40;
    CHECK_OK(aclmdlRITaskSetParams(wr, &q));
    p.valueWaitTaskParams.devAddr = (char *)word + 8;
    p.valueWaitTaskParams.value = 40;
    p.valueWaitTaskParams.flag = ACL_STREAM_WAIT_VALUE_EQ;
    CHECK_OK(aclmdlRITaskSetParams(wt, &p));
    replay(ri, s, 0x5A, 0, 7);
    CHECK_OK(aclmdlRIUpdate(ri));
    for (int i = 0; i < 3; i++)
        replay(ri, s, 0x5A, 8, 40);
    memset(&p, 0, sizeof p);
    CHECK_OK(aclmdlRITaskGetParams(wt, &p));
    CHECK(p.valueWaitTaskParams.devAddr == (char *)word + 8);
    CHECK_EQ(p.valueWaitTaskParams.value, 40);
    CHECK_EQ(p.valueWaitTaskParams.flag, ACL_STREAM_WAIT_VALUE_EQ);
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    if (strncmp(soc, "Ascend910B", 10) != 0 && strncmp(soc, "Ascend910_93", 12) != 0 && strncmp(soc, "Ascend950", 9) != 0) {
        (void)aclrtResetDevice(0);
        (void)aclFinalize();
        SKIP("stream memory operations are documented for 950/A3/A2 only (%s)", soc);
    }
    CHECK_OK(aclrtMalloc(&word, 16, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&data, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dout, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&hout, N));
    aclrtStream prod, cons, target;
    CHECK_OK(aclrtCreateStream(&prod));
    CHECK_OK(aclrtCreateStream(&cons));
    CHECK_OK(aclrtCreateStream(&target));
    aclrtEvent fork, join;
    CHECK_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    CHECK_OK(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));

    const aclmdlRICaptureMode modes[] = {ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
                                         ACL_MODEL_RI_CAPTURE_MODE_RELAXED};
    for (int m = 0; m < 3; m++) {
        /* The consumer's wait is issued first: only the word orders it
         * after the producer's fill. */
        CHECK_OK(aclrtMemset(word, 16, 0, 16));
        CHECK_OK(aclmdlRICaptureBegin(prod, modes[m]));
        CHECK_OK(aclrtRecordEvent(fork, prod));
        CHECK_OK(aclrtStreamWaitEvent(cons, fork));
        CHECK_OK(aclrtValueWait(word, 7, ACL_STREAM_WAIT_VALUE_GEQ, cons));
        CHECK_OK(aclrtMemcpyAsync(dout, N, data, N, ACL_MEMCPY_DEVICE_TO_DEVICE, cons));
        CHECK_OK(aclrtRecordEvent(join, cons));
        CHECK_OK(aclrtMemsetAsync(data, N, 0x30 + m, N, prod));
        CHECK_OK(aclrtValueWrite(word, 7, 0, prod));
        CHECK_OK(aclrtStreamWaitEvent(prod, join));
        aclmdlRICaptureStatus st;
        CHECK_OK(aclmdlRICaptureGetInfo(cons, &st, NULL));
        CHECK_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
        aclmdlRI ri = NULL;
        CHECK_OK(aclmdlRICaptureEnd(prod, &ri));
        CHECK_EQ(read_u64(word), 0); /* recorded, not run */
        for (int i = 0; i < 4; i++)
            replay(ri, target, 0x30 + m, 0, 7);
        CHECK_OK(aclmdlRIDestroy(ri));
    }

    /* Built: two persistent streams bound HEAD; the fill is a memset of
     * 0x5A, so params_round_trip's replays check it. */
    aclrtStream bp, bc;
    CHECK_OK(aclrtCreateStreamWithConfig(&bp, 0, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtCreateStreamWithConfig(&bc, 0, ACL_STREAM_PERSISTENT));
    aclmdlRI built = NULL;
    CHECK_OK(aclmdlRIBuildBegin(&built, 0));
    CHECK_OK(aclmdlRIBindStream(built, bp, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_OK(aclmdlRIBindStream(built, bc, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_OK(aclrtValueWait(word, 7, ACL_STREAM_WAIT_VALUE_GEQ, bc));
    CHECK_OK(aclrtMemcpyAsync(dout, N, data, N, ACL_MEMCPY_DEVICE_TO_DEVICE, bc));
    CHECK_OK(aclrtMemsetAsync(data, N, 0x5A, N, bp));
    CHECK_OK(aclrtValueWrite(word, 7, 0, bp));
    CHECK_OK(aclmdlRIEndTask(built, bp));
    CHECK_OK(aclmdlRIBuildEnd(built, NULL));
    for (int i = 0; i < 3; i++)
        replay(built, target, 0x5A, 0, 7);
    params_round_trip(built, target);
    CHECK_OK(aclmdlRIDestroy(built));

    /* Captured, with the parameters changed. */
    CHECK_OK(aclmdlRICaptureBegin(prod, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_OK(aclrtRecordEvent(fork, prod));
    CHECK_OK(aclrtStreamWaitEvent(cons, fork));
    CHECK_OK(aclrtValueWait(word, 7, ACL_STREAM_WAIT_VALUE_GEQ, cons));
    CHECK_OK(aclrtMemcpyAsync(dout, N, data, N, ACL_MEMCPY_DEVICE_TO_DEVICE, cons));
    CHECK_OK(aclrtRecordEvent(join, cons));
    CHECK_OK(aclrtMemsetAsync(data, N, 0x5A, N, prod));
    CHECK_OK(aclrtValueWrite(word, 7, 0, prod));
    CHECK_OK(aclrtStreamWaitEvent(prod, join));
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureEnd(prod, &ri));
    params_round_trip(ri, target);
    CHECK_OK(aclmdlRIDestroy(ri));

    CHECK_OK(aclrtDestroyStream(bp));
    CHECK_OK(aclrtDestroyStream(bc));
    CHECK_OK(aclrtDestroyEvent(fork));
    CHECK_OK(aclrtDestroyEvent(join));
    CHECK_OK(aclrtDestroyStream(prod));
    CHECK_OK(aclrtDestroyStream(cons));
    CHECK_OK(aclrtDestroyStream(target));
    CHECK_OK(aclrtFree(word));
    CHECK_OK(aclrtFree(data));
    CHECK_OK(aclrtFree(dout));
    CHECK_OK(aclrtFreeHost(hout));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
