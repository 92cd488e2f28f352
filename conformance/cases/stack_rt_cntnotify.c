/* stack_rt_cntnotify: the runtime's counting notifies called directly on
 * an Ascend 950 (rtCntNotifyCreateServer, rts*CntNotify*): the record and
 * wait modes of the ACL counterparts (same values, same layouts), a wait
 * that holds its stream until the count is reached, isClear, reset, the
 * id aclrtCntNotifyGetId answers, and ACL_ERROR_RT_PARAM_INVALID for bad
 * input.
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 * env: NPUEMU_SOC=Ascend950PR_9599
 */
#include <stdint.h>
#include <string.h>

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

static void record(rtCntNotify_t c, rtStream_t s, rtCntNotifyRecordMode mode, uint32_t value)
{
    rtCntNotifyRecordInfo_t ri = {mode, value};
    CHECK_RT(rtsCntNotifyRecord(c, s, &ri), ACL_RT_SUCCESS);
}

static void wait(rtCntNotify_t c, rtStream_t s, rtCntNotifyWaitMode mode, uint32_t value, int clear)
{
    rtCntNotifyWaitInfo_t wi;
    memset(&wi, 0, sizeof wi);
    wi.mode = mode;
    wi.value = value;
    wi.isClear = clear != 0;
    CHECK_RT(rtsCntNotifyWaitWithTimeout(c, s, &wi), ACL_RT_SUCCESS);
}

int main(void)
{
    /* The rt structs and modes are the ACL ones (acl-to-rt.tsv casts). */
    CHECK_EQ(sizeof(rtCntNotifyRecordInfo_t), sizeof(aclrtCntNotifyRecordInfo));
    CHECK_EQ(sizeof(rtCntNotifyWaitInfo_t), sizeof(aclrtCntNotifyWaitInfo));
    CHECK_EQ(RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE);
    CHECK_EQ(RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE);

    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    rtStream_t s = NULL, w = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamCreate(&w, 0), ACL_RT_SUCCESS);

    rtCntNotify_t c = NULL;
    CHECK_RT(rtCntNotifyCreateServer(NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtCntNotifyCreateServer(&c, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(c == NULL);
    CHECK_RT(rtCntNotifyCreateServer(&c, 0), ACL_RT_SUCCESS);

    uint32_t id = 0, aclId = 1;
    CHECK_RT(rtsCntNotifyGetId(c, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsCntNotifyGetId(NULL, &id), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsCntNotifyGetId(c, &id), ACL_RT_SUCCESS);
    CHECK_OK(aclrtCntNotifyGetId(c, &aclId));
    CHECK_EQ(id, aclId);

    /* ADD accumulates; the wait holds w until the count reaches 3, then
     * clears it (isClear). */
    wait(c, w, RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 3, 1);
    record(c, s, RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    record(c, s, RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK(!ready(w));
    record(c, s, RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    CHECK_RT(rtStreamSynchronize(w), ACL_RT_SUCCESS);
    wait(c, w, RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 0);
    CHECK_RT(rtStreamSynchronize(w), ACL_RT_SUCCESS);

    /* SET, OR, AND: 0x10 | 0x03 & 0x12 = 0x12. */
    record(c, s, RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0x10);
    record(c, s, RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0x03);
    record(c, s, RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0x12);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    wait(c, w, RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0x12, 0);
    CHECK_RT(rtStreamSynchronize(w), ACL_RT_SUCCESS);

    /* After a reset the count is 0: an EQUAL 5 wait holds until SET 5. */
    CHECK_RT(rtsCntNotifyReset(NULL, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsCntNotifyReset(c, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    wait(c, w, RT_CNT_NOTIFY_WAIT_LESS_MODE, 1, 0);
    CHECK_RT(rtStreamSynchronize(w), ACL_RT_SUCCESS);
    wait(c, w, RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 5, 0);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK(!ready(w));
    record(c, s, RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 5);
    CHECK_RT(rtStreamSynchronize(w), ACL_RT_SUCCESS);

    /* Bad input: there is no record mode 3, no wait mode 5, no NULL info. */
    rtCntNotifyRecordInfo_t bad = {(rtCntNotifyRecordMode)3, 1};
    CHECK_RT(rtsCntNotifyRecord(c, s, &bad), ACL_ERROR_RT_PARAM_INVALID);
    rtCntNotifyWaitInfo_t badw;
    memset(&badw, 0, sizeof badw);
    badw.mode = RT_CNT_NOTIFY_WAIT_MODE_MAX;
    CHECK_RT(rtsCntNotifyWaitWithTimeout(c, w, &badw), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsCntNotifyRecord(c, s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsCntNotifyWaitWithTimeout(c, w, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsCntNotifyRecord(NULL, s, &bad), ACL_ERROR_RT_PARAM_INVALID);

    CHECK_RT(rtCntNotifyDestroy(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtCntNotifyDestroy(c), ACL_RT_SUCCESS);
    CHECK_RT(rtsCntNotifyGetId(c, &id), ACL_ERROR_RT_INVALID_HANDLE);

    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(w), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
