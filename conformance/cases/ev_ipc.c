/* ev_ipc: IPC event handles, opened within the same process. */
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

    /* doc: semantics.md §5 — IPC events cannot be queried. */
    aclrtEventRecordedStatus rs;
    CHECK_FAILS(aclrtQueryEventStatus(e, &rs));

    aclrtEvent opened = NULL;
    CHECK_OK(aclrtIpcOpenEventHandle(h, &opened));
    CHECK(opened != NULL);
    CHECK_ERR(aclrtIpcOpenEventHandle(h, NULL), ACL_ERROR_INVALID_PARAM);

    /* The exporter records; a stream waits through the opened handle. */
    CHECK_OK(aclrtRecordEvent(e, NULL));
    CHECK_OK(aclrtStreamWaitEvent(s, opened));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtDestroyEvent(opened));
    CHECK_OK(aclrtDestroyEvent(e));

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
