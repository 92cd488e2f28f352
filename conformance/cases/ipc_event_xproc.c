/* ipc_event_xproc: IPC events across processes (semantics.md §5): process
 * A creates an ACL_EVENT_IPC event, passes its 64-byte handle to process B,
 * records it after asynchronous work on IPC memory; B opens the handle,
 * makes a stream wait on it and then reads the memory, which holds A's
 * work; aclrtQueryEventStatus works on the opened event; only A records.
 * (issue #12 point 2) */
#include "node_proc.h"

#define N (8 * MiB)

static void hex(char *out, const unsigned char *b, size_t n) {
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", b[i]);
}

static void unhex(unsigned char *b, const char *in, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        sscanf(in + 2 * i, "%2x", &v);
        b[i] = (unsigned char)v;
    }
}

static unsigned char host[N];

static void waiter(void) {
    char line[512], key[128];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    recv_line(3, line, sizeof line);
    recv_line(3, key, sizeof key);
    aclrtIpcEventHandle h;
    unhex((unsigned char *)&h, line, sizeof h);
    aclrtEvent e = NULL;
    CHECK_OK(aclrtIpcOpenEventHandle(h, &e));
    void *mem = NULL;
    CHECK_OK(aclrtIpcMemImportByKey(&mem, key, 0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_FAILS(aclrtRecordEvent(e, s)); /* only the exporter records */
    send_line(4, "opened");
    recv_line(3, line, sizeof line); /* "recorded" */
    CHECK_OK(aclrtStreamWaitEvent(s, e));
    CHECK_OK(aclrtMemcpyAsync(host, N, mem, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(host[0], 0x42);
    CHECK_EQ(host[N - 1], 0x42);
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK_OK(aclrtQueryEventStatus(e, &st));
    CHECK_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK_OK(aclrtSynchronizeEvent(e));
    CHECK_OK(aclrtIpcMemClose(key));
    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtDestroyStream(s));
    send_line(4, "done");
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
}

int main(int argc, char **argv) {
    if (argc > 1) {
        waiter();
        return 0;
    }
    char line[512];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    if (soc == NULL || strncmp(soc, "Ascend910B", 10) != 0) SKIP("IPC events need an A2/A3/950 device, this is %s", soc ? soc : "?");
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));
    aclrtIpcEventHandle h;
    CHECK_OK(aclrtIpcGetEventHandle(e, &h));
    void *mem = NULL;
    CHECK_OK(aclrtMalloc(&mem, N, ACL_MEM_MALLOC_HUGE_ONLY));
    CHECK_OK(aclrtMemset(mem, N, 0, N));
    char key[65];
    CHECK_OK(aclrtIpcMemGetExportKey(mem, N, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));

    struct child c = spawn_child("waiter");
    hex(line, (const unsigned char *)&h, sizeof h);
    send_line(c.to, "%s", line);
    send_line(c.to, "%s", key);
    recv_line(c.from, line, sizeof line);
    CHECK(strcmp(line, "opened") == 0);
    for (int i = 0; i < 20; i++) CHECK_OK(aclrtMemsetAsync(mem, N, 0x42, N, s));
    CHECK_OK(aclrtRecordEvent(e, s));
    send_line(c.to, "recorded");
    recv_line(c.from, line, sizeof line);
    CHECK(strcmp(line, "done") == 0);
    CHECK_EQ(wait_child(c), 0);

    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtIpcMemClose(key));
    CHECK_OK(aclrtFree(mem));
    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
