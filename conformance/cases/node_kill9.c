/* node_kill9: when a process dies (kill -9), the next process that touches
 * the node reclaims it within 1 s: its device memory returns to the pool
 * and the keys it exported are destroyed (issue #12 point 1). */
#include "node_proc.h"

static void child(void) {
    char line[256];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    void *big = NULL, *small = NULL;
    CHECK_OK(aclrtMalloc(&big, 16 * GiB, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&small, 2 * MiB, ACL_MEM_MALLOC_HUGE_ONLY));
    char key[65] = {0};
    CHECK_OK(aclrtIpcMemGetExportKey(small, 2 * MiB, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    send_line(4, "%s", key);
    recv_line(3, line, sizeof line); /* never answered: the parent kills us */
}

int main(int argc, char **argv) {
    if (argc > 1) {
        child();
        return 0;
    }
    char key[256];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    size_t free0 = 0, total = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
    if (total < 20 * GiB) SKIP("needs a device of 20 GiB or more, this one has %zu bytes", total);

    struct child c = spawn_child("holder");
    recv_line(c.from, key, sizeof key);
    size_t free1 = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    CHECK(free0 - free1 >= 16 * GiB + 2 * MiB);
    void *imp = NULL;
    CHECK_OK(aclrtIpcMemImportByKey(&imp, key, 0));
    CHECK(imp != NULL);
    CHECK_OK(aclrtIpcMemClose(key));

    CHECK_EQ(kill(c.pid, SIGKILL), 0);
    CHECK_EQ(wait_child(c), -SIGKILL);
    /* Within 1 s the memory is back, without anything special done here. */
    size_t free2 = 0;
    for (int i = 0; i < 100; i++) {
        CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total));
        if (free2 == free0) break;
        sleep_ms(10);
    }
    CHECK_EQ(free2, free0);
    /* Its key died with it. */
    CHECK_FAILS(aclrtIpcMemImportByKey(&imp, key, 0));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
