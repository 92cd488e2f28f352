/* notify_cnt: counting notifies on an Ascend 950: record modes, wait
 * modes, isClear, reset, and their refusal on other products. */
/* needs: emulator */
/* env: NPUEMU_SOC=Ascend950PR_9599 NPUEMU_DEVICES=2 */
#include "rt_util.h"

static void record(aclrtCntNotify c, aclrtStream s, aclrtCntNotifyRecordMode mode, uint32_t value)
{
    aclrtCntNotifyRecordInfo ri = {mode, value};
    CHECK_OK(aclrtCntNotifyRecord(c, s, &ri));
}

static void wait(aclrtCntNotify c, aclrtStream s, aclrtCntNotifyWaitMode mode, uint32_t value, uint8_t clear)
{
    aclrtCntNotifyWaitInfo wi;
    memset(&wi, 0, sizeof wi);
    wi.mode = mode;
    wi.value = value;
    wi.timeout = 0;
    wi.isClear = clear;
    CHECK_OK(aclrtCntNotifyWaitWithTimeout(c, s, &wi));
}

static int ready(aclrtStream s)
{
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    CHECK_OK(aclrtStreamQuery(s, &st));
    return st == ACL_STREAM_STATUS_COMPLETE;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream w = NULL;
    CHECK_OK(aclrtCreateStream(&w));

    /* doc: acl-types.md — record info 8 bytes, wait info 16. */
    CHECK_EQ(sizeof(aclrtCntNotifyRecordInfo), 8);
    CHECK_EQ(sizeof(aclrtCntNotifyWaitInfo), 16);

    aclrtCntNotify c = NULL;
    CHECK_ERR(aclrtCntNotifyCreate(NULL, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtCntNotifyCreate(&c, 0));
    uint32_t id = 0;
    CHECK_OK(aclrtCntNotifyGetId(c, &id));

    /* doc: semantics.md §6 — ADD accumulates; BIGGER_OR_EQUAL releases at
     * the threshold; isClear resets the count when released. */
    wait(c, w, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 3, 1);
    record(c, NULL, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    record(c, NULL, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    CHECK_OK(aclrtSynchronizeStream(NULL));
    CHECK(!ready(w));
    record(c, NULL, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    CHECK_OK(aclrtSynchronizeStream(w));
    /* Cleared to 0: an EQUAL 0 wait passes at once. */
    wait(c, w, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 0);
    CHECK_OK(aclrtSynchronizeStream(w));

    /* SET, OR, AND and the bitmask wait. */
    record(c, NULL, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0x10);
    record(c, NULL, ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0x03);
    record(c, NULL, ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0x12);
    CHECK_OK(aclrtSynchronizeStream(NULL));
    wait(c, w, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0x12, 0);
    wait(c, w, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0x02, 0);
    wait(c, w, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 0x11, 0);
    CHECK_OK(aclrtSynchronizeStream(w));

    /* LESS after a reset (semantics.md §6: count < value). */
    CHECK_OK(aclrtCntNotifyReset(c, NULL));
    wait(c, w, ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 1, 0);
    CHECK_OK(aclrtSynchronizeStream(w));

    /* Bad modes: there is no record mode 3 (semantics.md §6). */
    aclrtCntNotifyRecordInfo bad = {(aclrtCntNotifyRecordMode)3, 1};
    CHECK_FAILS(aclrtCntNotifyRecord(c, w, &bad));
    CHECK_ERR(aclrtCntNotifyRecord(c, w, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtCntNotifyWaitWithTimeout(c, w, NULL), ACL_ERROR_INVALID_PARAM);

    /* Across devices: device 1 waits for device 0's count. */
    if (rt_device_count() >= 2) {
        aclrtContext ctx0 = NULL;
        CHECK_OK(aclrtGetCurrentContext(&ctx0));
        CHECK_OK(aclrtSetDevice(1));
        aclrtStream s1 = NULL;
        CHECK_OK(aclrtCreateStream(&s1));
        wait(c, s1, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 42, 0);
        CHECK_OK(aclrtSetCurrentContext(ctx0));
        record(c, NULL, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 42);
        CHECK_OK(aclrtSetDevice(1));
        CHECK_OK(aclrtSynchronizeStream(s1));
        CHECK_OK(aclrtDestroyStream(s1));
        CHECK_OK(aclrtResetDevice(1));
        CHECK_OK(aclrtSetCurrentContext(ctx0));
    }

    /* A wait with a 1 s timeout that never holds fails the next
     * synchronise (semantics.md §21.8; no code given). */
    aclrtCntNotifyWaitInfo wi;
    memset(&wi, 0, sizeof wi);
    wi.mode = ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE;
    wi.value = 7;
    wi.timeout = 1;
    CHECK_OK(aclrtCntNotifyWaitWithTimeout(c, w, &wi));
    CHECK_FAILS(aclrtSynchronizeStream(w));

    CHECK_OK(aclrtCntNotifyDestroy(c));
    CHECK_FAILS(aclrtCntNotifyGetId(c, &id));
    CHECK_OK(aclrtDestroyStream(w));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
