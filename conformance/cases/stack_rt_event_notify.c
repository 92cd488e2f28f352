/* stack_rt_event_notify: the runtime's flagged, timed and IPC event calls,
 * its rts* notifies and its rts* labels called directly (rt-functions.tsv,
 * rt.h), with their own codes (ACL_ERROR_RT_*): each agrees with the ACL
 * call of the same object (rtEvent_t == aclrtEvent, rtNotify_t ==
 * aclrtNotify, rtLabel_t == aclrtLabel), orders streams the way its ACL
 * counterpart does, and refuses bad input with ACL_ERROR_RT_PARAM_INVALID.
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

static int ready(rtStream_t s)
{
    rtError_t r = rtStreamQuery(s);
    if (r != ACL_RT_SUCCESS && r != ACL_ERROR_RT_STREAM_NOT_COMPLETE)
        FAIL("rtStreamQuery: got %d", (int)r);
    return r == ACL_RT_SUCCESS;
}

static void events(rtStream_t s, rtStream_t w)
{
    /* Flags share the ACL values (acl-to-rt.tsv: passed unchanged). */
    CHECK_EQ(RT_EVENT_DDSYNC_NS, ACL_EVENT_SYNC);
    CHECK_EQ(RT_EVENT_TIME_LINE, ACL_EVENT_TIME_LINE);
    CHECK_EQ(RT_EVENT_IPC, ACL_EVENT_IPC);

    rtEvent_t timed = NULL, sync = NULL, plain = NULL;
    CHECK_RT(rtEventCreateWithFlag(NULL, RT_EVENT_TIME_LINE), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtEventCreateWithFlag(&timed, 0x80), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(timed == NULL);
    CHECK_RT(rtEventCreateWithFlag(&timed, RT_EVENT_TIME_LINE), ACL_RT_SUCCESS);
    CHECK_RT(rtEventCreateWithFlag(&sync, RT_EVENT_DDSYNC_NS), ACL_RT_SUCCESS);

    /* A plain event takes one of the device's hardware event ids. */
    uint32_t avail0 = 0, avail1 = 0, aclAvail = 0;
    CHECK_RT(rtsEventGetAvailNum(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsEventGetAvailNum(&avail0), ACL_RT_SUCCESS);
    CHECK_OK(aclrtGetEventAvailNum(&aclAvail));
    CHECK_EQ(avail0, aclAvail);
    CHECK_RT(rtEventCreate(&plain), ACL_RT_SUCCESS);
    CHECK_RT(rtsEventGetAvailNum(&avail1), ACL_RT_SUCCESS);
    CHECK_EQ(avail1, avail0 - 1);

    uint32_t id = 0, aclId = 1;
    CHECK_RT(rtsEventGetId(plain, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsEventGetId(NULL, &id), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsEventGetId(plain, &id), ACL_RT_SUCCESS);
    CHECK_OK(aclrtGetEventId(plain, &aclId));
    CHECK_EQ(id, aclId);

    /* Timestamps: none before a record, none without TIME_LINE. */
    uint64_t ts = 7;
    CHECK_RT(rtEventGetTimeStamp(NULL, timed), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtEventGetTimeStamp(&ts, timed), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    CHECK_EQ(ts, 7);
    CHECK_RT(rtEventRecordWithFlag(timed, s, 7), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtEventRecordWithFlag(NULL, s, RT_EVENT_RECORD_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtEventRecordWithFlag(timed, s, RT_EVENT_RECORD_DEFAULT), ACL_RT_SUCCESS);
    CHECK_RT(rtEventRecord(sync, s), ACL_RT_SUCCESS);
    CHECK_RT(rtEventSynchronizeWithTimeout(timed, -2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtEventSynchronizeWithTimeout(NULL, 1000), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtEventSynchronizeWithTimeout(timed, 10000), ACL_RT_SUCCESS);
    CHECK_RT(rtEventSynchronizeWithTimeout(sync, -1), ACL_RT_SUCCESS);
    CHECK_RT(rtEventGetTimeStamp(&ts, timed), ACL_RT_SUCCESS);
    uint64_t aclTs = ts + 1;
    CHECK_OK(aclrtEventGetTimestamp(timed, &aclTs));
    CHECK_EQ(ts, aclTs);
    CHECK_RT(rtEventGetTimeStamp(&ts, sync), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);

    /* Waits: bad flags and NULL events refused; only RT_EVENT_DDSYNC_NS
     * (ACL_EVENT_SYNC) events of the flagged kind can be waited on. */
    CHECK_RT(rtsEventWait(w, timed, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamWaitEventWithFlag(w, sync, 0, 9), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamWaitEventWithFlag(w, NULL, 0, RT_EVENT_WAIT_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamWaitEventWithFlag(w, sync, 0, RT_EVENT_WAIT_DEFAULT), ACL_RT_SUCCESS);
    CHECK_RT(rtsEventWait(w, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsEventWait(w, plain, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(w), ACL_RT_SUCCESS);

    /* IPC: only RT_EVENT_IPC events export; the opened handle is usable
     * and outlives the exporter's. */
    rtIpcEventHandle_t h;
    memset(&h, 0, sizeof h);
    CHECK_EQ(sizeof h, 64);
    CHECK_RT(rtIpcGetEventHandle(plain, &h), ACL_ERROR_RT_PARAM_INVALID);
    rtEvent_t ipc = NULL, opened = NULL;
    CHECK_RT(rtEventCreateExWithFlag(&ipc, RT_EVENT_IPC | RT_EVENT_TIME_LINE), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtEventCreateExWithFlag(NULL, RT_EVENT_IPC), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtEventCreateExWithFlag(&ipc, RT_EVENT_IPC), ACL_RT_SUCCESS);
    CHECK_RT(rtIpcGetEventHandle(ipc, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtIpcGetEventHandle(ipc, &h), ACL_RT_SUCCESS);
    rtIpcEventHandle_t junk;
    memset(&junk, 0x5a, sizeof junk);
    CHECK_RT(rtIpcOpenEventHandle(junk, &opened), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtIpcOpenEventHandle(h, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtIpcOpenEventHandle(h, &opened), ACL_RT_SUCCESS);
    CHECK(opened != NULL && opened != ipc);
    CHECK_RT(rtEventRecord(ipc, s), ACL_RT_SUCCESS);
    CHECK_RT(rtEventDestroy(ipc), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamWaitEvent(w, opened), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(w), ACL_RT_SUCCESS);
    CHECK_RT(rtEventDestroy(opened), ACL_RT_SUCCESS);

    CHECK_RT(rtEventDestroy(timed), ACL_RT_SUCCESS);
    CHECK_RT(rtEventDestroy(sync), ACL_RT_SUCCESS);
    CHECK_RT(rtEventDestroy(plain), ACL_RT_SUCCESS);
    CHECK_RT(rtsEventGetId(plain, &id), ACL_ERROR_RT_INVALID_HANDLE);
}

static void notifies(rtStream_t s, rtStream_t w)
{
    CHECK_EQ(RT_NOTIFY_FLAG_DOWNLOAD_TO_DEV, ACL_NOTIFY_DEVICE_USE_ONLY);
    rtNotify_t n = NULL;
    CHECK_RT(rtsNotifyCreate(NULL, RT_NOTIFY_FLAG_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifyCreate(&n, 5), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(n == NULL);
    CHECK_RT(rtsNotifyCreate(&n, RT_NOTIFY_FLAG_DEFAULT), ACL_RT_SUCCESS);

    uint32_t id = 0, aclId = 1;
    CHECK_RT(rtsNotifyGetId(n, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifyGetId(n, &id), ACL_RT_SUCCESS);
    CHECK_OK(aclrtGetNotifyId(n, &aclId));
    CHECK_EQ(id, aclId);

    /* w waits until s records; the wait resets the notify. */
    CHECK_RT(rtsNotifyWaitAndReset(NULL, w, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifyWaitAndReset(n, w, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK(!ready(w));
    CHECK_RT(rtsNotifyRecord(NULL, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifyRecord(n, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(w), ACL_RT_SUCCESS);

    /* A batch reset clears a recorded notify: the next wait blocks. */
    CHECK_RT(rtsNotifyRecord(n, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_RT(rtsNotifyBatchReset(NULL, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifyBatchReset(&n, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifyBatchReset(&n, 1), ACL_RT_SUCCESS);
    CHECK_RT(rtsNotifyWaitAndReset(n, w, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK(!ready(w));
    CHECK_RT(rtsNotifyRecord(n, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(w), ACL_RT_SUCCESS);

    /* Export by key: with pid validation only listed processes import. */
    char key[65];
    rtNotify_t imp = NULL;
    CHECK_RT(rtsNotifyGetExportKey(n, NULL, sizeof key, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifyGetExportKey(n, key, 8, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifyGetExportKey(n, key, sizeof key, 0x40), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifyGetExportKey(n, key, sizeof key, 0), ACL_RT_SUCCESS);
    CHECK(key[0] != '\0');
    CHECK_RT(rtsNotifyImportByKey(&imp, key, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifyImportByKey(&imp, "not-a-key", 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifyImportByKey(NULL, key, 0), ACL_ERROR_RT_PARAM_INVALID);
    int32_t pid = (int32_t)getpid(), bad = -3;
    CHECK_RT(rtsNotifySetImportPid(n, &pid, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifySetImportPid(n, &bad, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifySetImportPid(n, &pid, 1), ACL_RT_SUCCESS);
    CHECK_RT(rtsNotifyImportByKey(&imp, key, RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS), ACL_RT_SUCCESS);
    CHECK(imp != NULL && imp != n);
    /* The imported handle names the same hardware notify. */
    CHECK_RT(rtsNotifyWaitAndReset(n, w, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK(!ready(w));
    CHECK_RT(rtsNotifyRecord(imp, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(w), ACL_RT_SUCCESS);

    CHECK_RT(rtsNotifyDestroy(imp), ACL_RT_SUCCESS);
    CHECK_RT(rtsNotifyDestroy(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsNotifyDestroy(n), ACL_RT_SUCCESS);
    CHECK_RT(rtsNotifyGetId(n, &id), ACL_ERROR_RT_INVALID_HANDLE);
}

/* labels: a switch on a device-side index inside a built model run
 * instance skips (index 0 -> "after") or runs (index 1, or beyond
 * maxValue: the last entry, "mid") a memset. */
static void labels(rtStream_t plain, rtStream_t run)
{
    rtLabel_t mid = NULL, after = NULL;
    CHECK_RT(rtsLabelCreate(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLabelCreate(&mid), ACL_RT_SUCCESS);
    CHECK_RT(rtsLabelCreate(&after), ACL_RT_SUCCESS);
    rtLabel_t ls[2] = {after, mid};
    void *list = NULL;
    CHECK_RT(rtsLabelSwitchListCreate(NULL, 2, &list), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLabelSwitchListCreate(ls, 0, &list), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLabelSwitchListCreate(ls, 2, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLabelSwitchListCreate(ls, 2, &list), ACL_RT_SUCCESS);

    uint32_t *idx = NULL, *acc = NULL;
    CHECK_OK(aclrtMalloc((void **)&idx, 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&acc, 4, ACL_MEM_MALLOC_HUGE_FIRST));
    /* Only streams bound to a model being built take label tasks. */
    CHECK_RT(rtsLabelSet(mid, plain), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_RT(rtsLabelSet(NULL, plain), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLabelSwitchByIndex(idx, 1, list, plain), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_RT(rtsLabelSwitchByIndex(NULL, 1, list, plain), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLabelSwitchByIndex(idx, 1, NULL, plain), ACL_ERROR_RT_PARAM_INVALID);

    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT));
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRIBuildBegin(&ri, 0));
    CHECK_OK(aclmdlRIBindStream(ri, s, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_OK(aclrtMemsetAsync(acc, 4, 0, 4, s));
    CHECK_RT(rtsLabelSwitchByIndex(idx, 1, list, s), ACL_RT_SUCCESS);
    CHECK_RT(rtsLabelSet(mid, s), ACL_RT_SUCCESS);
    CHECK_OK(aclrtMemsetAsync(acc, 4, 0x11, 4, s));
    CHECK_RT(rtsLabelSet(after, s), ACL_RT_SUCCESS);
    CHECK_OK(aclmdlRIEndTask(ri, s));
    CHECK_OK(aclmdlRIBuildEnd(ri, NULL));
    /* The list was read when the switch was recorded. */
    CHECK_RT(rtsLabelSwitchListDestroy(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLabelSwitchListDestroy(list), ACL_RT_SUCCESS);

    uint32_t choose[3] = {0, 1, 7}, want[3] = {0, 0x11111111u, 0x11111111u};
    for (int i = 0; i < 3; i++) {
        CHECK_OK(aclrtMemcpy(idx, 4, &choose[i], 4, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_OK(aclmdlRIExecuteAsync(ri, run));
        CHECK_RT(rtStreamSynchronize(run), ACL_RT_SUCCESS);
        uint32_t got = 0xdeadbeef;
        CHECK_OK(aclrtMemcpy(&got, 4, acc, 4, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK_EQ(got, want[i]);
    }

    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFree(idx));
    CHECK_OK(aclrtFree(acc));
    CHECK_RT(rtsLabelDestroy(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLabelDestroy(mid), ACL_RT_SUCCESS);
    CHECK_RT(rtsLabelDestroy(after), ACL_RT_SUCCESS);
    CHECK_RT(rtsLabelDestroy(mid), ACL_ERROR_RT_INVALID_HANDLE);
}

int main(void)
{
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    rtStream_t s = NULL, w = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamCreate(&w, 0), ACL_RT_SUCCESS);
    events(s, w);
    notifies(s, w);
    labels(s, w);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(w), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
