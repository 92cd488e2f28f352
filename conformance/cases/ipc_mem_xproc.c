/* ipc_mem_xproc: IPC memory across processes, as documented (semantics.md
 * §13): the exporter whitelists importers by their bare tgid; a process
 * not in the whitelist is refused; an importer sees the exporter's very
 * bytes and its writes are read by the exporter; only the creator sets
 * pids; DISABLE_PID_VALIDATION lets any process import. */
#include "node_proc.h"

#define N (2 * MiB)

static void fill(unsigned char *b, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++) b[i] = (unsigned char)(i * 31 + seed);
}

static unsigned char buf[N], out[N];

static void importer(int allowed) {
    char key[256], key2[256];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    int32_t me = 0;
    CHECK_OK(aclrtDeviceGetBareTgid(&me));
    CHECK_EQ(me, getpid());
    send_line(4, "%d", (int)me);
    recv_line(3, key, sizeof key);
    recv_line(3, key2, sizeof key2);
    void *p = NULL;
    if (!allowed) {
        CHECK_FAILS(aclrtIpcMemImportByKey(&p, key, 0)); /* not whitelisted */
        CHECK_OK(aclrtIpcMemImportByKey(&p, key2, 0));   /* no pid validation */
        CHECK_OK(aclrtMemcpy(out, N, p, N, ACL_MEMCPY_DEVICE_TO_HOST));
        fill(buf, N, 1);
        CHECK(memcmp(buf, out, N) == 0);
        CHECK_OK(aclrtIpcMemClose(key2));
        send_line(4, "refused");
    } else {
        CHECK_OK(aclrtIpcMemImportByKey(&p, key, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT));
        CHECK(p != NULL);
        CHECK_OK(aclrtMemcpy(out, N, p, N, ACL_MEMCPY_DEVICE_TO_HOST));
        fill(buf, N, 1);
        CHECK(memcmp(buf, out, N) == 0); /* the exporter's bytes */
        fill(buf, N, 2);
        CHECK_OK(aclrtMemcpy(p, N, buf, N, ACL_MEMCPY_HOST_TO_DEVICE));
        /* Only the creator sets pids. */
        CHECK_FAILS(aclrtIpcMemSetImportPid(key, &me, 1));
        CHECK_OK(aclrtIpcMemClose(key)); /* importers close first */
        send_line(4, "written");
    }
    recv_line(3, key, sizeof key); /* "bye" */
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
}

int main(int argc, char **argv) {
    if (argc > 1) {
        importer(strcmp(argv[1], "allowed") == 0);
        return 0;
    }
    char line[256];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    void *dev = NULL;
    CHECK_OK(aclrtMalloc(&dev, N, ACL_MEM_MALLOC_HUGE_ONLY));
    fill(buf, N, 1);
    CHECK_OK(aclrtMemcpy(dev, N, buf, N, ACL_MEMCPY_HOST_TO_DEVICE));
    char key[65], key2[65];
    CHECK_OK(aclrtIpcMemGetExportKey(dev, N, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT));
    CHECK_OK(aclrtIpcMemGetExportKey(dev, N, key2, sizeof key2, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));

    struct child a = spawn_child("allowed"), s = spawn_child("stranger");
    recv_line(a.from, line, sizeof line);
    int32_t apid = atoi(line);
    CHECK_EQ(apid, a.pid);
    recv_line(s.from, line, sizeof line);
    CHECK_OK(aclrtIpcMemSetImportPid(key, &apid, 1));
    /* The stranger reads the first bytes before the allowed importer may
     * write the second ones: it gets its keys, and answers, first. */
    send_line(s.to, "%s", key);
    send_line(s.to, "%s", key2);
    recv_line(s.from, line, sizeof line);
    CHECK(strcmp(line, "refused") == 0);
    send_line(a.to, "%s", key);
    send_line(a.to, "%s", key2);
    recv_line(a.from, line, sizeof line);
    CHECK(strcmp(line, "written") == 0);
    /* The importer's write is in the exporter's memory. */
    CHECK_OK(aclrtMemcpy(out, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST));
    fill(buf, N, 2);
    CHECK(memcmp(buf, out, N) == 0);
    send_line(a.to, "bye");
    send_line(s.to, "bye");
    CHECK_EQ(wait_child(a), 0);
    CHECK_EQ(wait_child(s), 0);

    CHECK_OK(aclrtIpcMemClose(key));
    CHECK_OK(aclrtIpcMemClose(key2));
    CHECK_OK(aclrtFree(dev));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
