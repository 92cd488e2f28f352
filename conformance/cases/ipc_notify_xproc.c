/* ipc_notify_xproc: IPC notifies across processes (semantics.md §6):
 * A exports a notify with a pid whitelist; B (whitelisted by its bare
 * tgid) imports it by key and its stream waits; each record of A releases
 * exactly one wait of B; work A did before recording is visible to B
 * after the wait; a process off the whitelist is refused. (issue #12
 * point 2)
 *
 * needs: emulator
 */
#include "node_proc.h"

#define N (4 * MiB)

static unsigned char host[N];

static void waiter(int allowed) {
    char key[128], mkey[128], line[64];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    int32_t me = 0;
    CHECK_OK(aclrtDeviceGetBareTgid(&me));
    send_line(4, "%d", (int)me);
    recv_line(3, key, sizeof key);
    recv_line(3, mkey, sizeof mkey);
    aclrtNotify n = NULL;
    if (!allowed) {
        CHECK_FAILS(aclrtNotifyImportByKey(&n, key, ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT));
        send_line(4, "refused");
        recv_line(3, line, sizeof line);
        CHECK_OK(aclFinalize());
        return;
    }
    CHECK_OK(aclrtNotifyImportByKey(&n, key, ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT));
    void *mem = NULL;
    CHECK_OK(aclrtIpcMemImportByKey(&mem, mkey, 0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    for (int round = 1; round <= 2; round++) {
        CHECK_OK(aclrtWaitAndResetNotify(n, s, 0));
        CHECK_OK(aclrtMemcpyAsync(host, N, mem, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
        CHECK_OK(aclrtSynchronizeStream(s));
        CHECK_EQ(host[0], round); /* not released early by the previous record */
        CHECK_EQ(host[N - 1], round);
        send_line(4, "read");
    }
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtIpcMemClose(mkey));
    CHECK_OK(aclrtDestroyNotify(n));
    send_line(4, "done");
    recv_line(3, line, sizeof line);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
}

int main(int argc, char **argv) {
    if (argc > 1) {
        waiter(strcmp(argv[1], "allowed") == 0);
        return 0;
    }
    char line[64];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtNotify n = NULL;
    CHECK_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    char key[65], mkey[65];
    CHECK_OK(aclrtNotifyGetExportKey(n, key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT));
    void *mem = NULL;
    CHECK_OK(aclrtMalloc(&mem, N, ACL_MEM_MALLOC_HUGE_ONLY));
    CHECK_OK(aclrtIpcMemGetExportKey(mem, N, mkey, sizeof mkey, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));

    struct child b = spawn_child("allowed"), c = spawn_child("stranger");
    recv_line(b.from, line, sizeof line);
    int32_t bpid = atoi(line);
    recv_line(c.from, line, sizeof line);
    CHECK_OK(aclrtNotifySetImportPid(n, &bpid, 1));
    send_line(b.to, "%s", key);
    send_line(b.to, "%s", mkey);
    send_line(c.to, "%s", key);
    send_line(c.to, "%s", mkey);
    recv_line(c.from, line, sizeof line);
    CHECK(strcmp(line, "refused") == 0);
    send_line(c.to, "bye");
    CHECK_EQ(wait_child(c), 0);

    for (int round = 1; round <= 2; round++) {
        for (int i = 0; i < 10; i++) CHECK_OK(aclrtMemsetAsync(mem, N, round, N, s));
        CHECK_OK(aclrtRecordNotify(n, s));
        recv_line(b.from, line, sizeof line); /* B read this round's bytes */
        CHECK(strcmp(line, "read") == 0);
        CHECK_OK(aclrtSynchronizeStream(s));
    }
    recv_line(b.from, line, sizeof line);
    CHECK(strcmp(line, "done") == 0);
    send_line(b.to, "bye");
    CHECK_EQ(wait_child(b), 0);
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtIpcMemClose(mkey));
    CHECK_OK(aclrtFree(mem));
    CHECK_OK(aclrtDestroyNotify(n));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
