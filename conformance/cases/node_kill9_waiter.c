/* node_kill9_waiter: a process whose stream waits on an IPC event of
 * another process is not left hanging when that process is killed: the
 * waiter reclaims the dead exporter, its event is destroyed, and the wait
 * ends with an error (issue #12 points 1 and 2).
 *
 * needs: emulator
 */
#include "node_proc.h"

static void hex(char *out, const unsigned char *b, size_t n) {
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", b[i]);
}

static void exporter(void) {
    char line[256];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    /* A record that never completes: the stream first waits for a notify
     * nobody records. */
    aclrtNotify n = NULL;
    CHECK_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    CHECK_OK(aclrtWaitAndResetNotify(n, s, 0));
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));
    aclrtIpcEventHandle h;
    CHECK_OK(aclrtIpcGetEventHandle(e, &h));
    CHECK_OK(aclrtRecordEvent(e, s));
    hex(line, (const unsigned char *)&h, sizeof h);
    send_line(4, "%s", line);
    recv_line(3, line, sizeof line); /* never answered: killed */
}

static void unhex(unsigned char *b, const char *in, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        sscanf(in + 2 * i, "%2x", &v);
        b[i] = (unsigned char)v;
    }
}

int main(int argc, char **argv) {
    if (argc > 1) {
        exporter();
        return 0;
    }
    char line[256];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    if (soc == NULL || strncmp(soc, "Ascend910B", 10) != 0) SKIP("IPC events need an A2/A3/950 device");
    struct child c = spawn_child("exporter");
    recv_line(c.from, line, sizeof line);
    aclrtIpcEventHandle h;
    unhex((unsigned char *)&h, line, sizeof h);
    aclrtEvent e = NULL;
    CHECK_OK(aclrtIpcOpenEventHandle(h, &e));
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    CHECK_OK(aclrtQueryEventStatus(e, &st));
    CHECK_EQ(st, ACL_EVENT_RECORDED_STATUS_NOT_READY); /* recorded, not complete */
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtStreamWaitEvent(s, e));
    CHECK_EQ(kill(c.pid, SIGKILL), 0);
    CHECK_EQ(wait_child(c), -SIGKILL);
    CHECK_FAILS(aclrtSynchronizeStream(s)); /* ends: the event died with its exporter */
    CHECK_FAILS(aclrtQueryEventStatus(e, &st));
    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
