/* ipc_event_handles: IPC event handles, opened within the same process. */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));

    /* doc: semantics.md §5 — ACL_EVENT_IPC is valid only with
     * aclrtCreateEventExWithFlag and alone. */
    aclrtEvent e = NULL;
    CHECK_FAILS(aclrtCreateEventWithFlag(&e, ACL_EVENT_IPC));
    CHECK_FAILS(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_SYNC));
    CHECK_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));

    /* doc: acl-types.md — the handle is 64 bytes, passed by value. */
    CHECK_EQ(sizeof(aclrtIpcEventHandle), ACL_IPC_EVENT_HANDLE_SIZE);
    aclrtIpcEventHandle h;
    memset(&h, 0, sizeof h);
    CHECK_OK(aclrtIpcGetEventHandle(e, &h));
    CHECK_ERR(aclrtIpcGetEventHandle(e, NULL), ACL_ERROR_INVALID_PARAM);

    /* IPC events are queried like any other (rtEventQueryStatus makes no
     * exception; the vendor's source corrects semantics.md §5, issue #13).
     * An event of aclrtCreateEventExWithFlag that was never recorded reads
     * as complete (semantics.md §5). */
    aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK_OK(aclrtQueryEventStatus(e, &rs));
    CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);

    aclrtEvent opened = NULL;
    CHECK_OK(aclrtIpcOpenEventHandle(h, &opened));
    CHECK(opened != NULL);
    CHECK_ERR(aclrtIpcOpenEventHandle(h, NULL), ACL_ERROR_INVALID_PARAM);

    /* The exporter records; a stream waits through the opened handle. */
    CHECK_OK(aclrtRecordEvent(e, NULL));
    CHECK_OK(aclrtStreamWaitEvent(s, opened));
    CHECK_OK(aclrtSynchronizeStream(s));
    /* Both ends report the record complete. */
    CHECK_OK(aclrtSynchronizeEvent(e));
    CHECK_OK(aclrtQueryEventStatus(e, &rs));
    CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    rs = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK_OK(aclrtQueryEventStatus(opened, &rs));
    CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK_OK(aclrtDestroyEvent(opened));
    CHECK_OK(aclrtDestroyEvent(e));

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
