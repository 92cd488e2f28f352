/* init_fork_before: children forked before the parent used the runtime
 * (Python multiprocessing's "fork" after import) do not hang: aclInit
 * answers ACL_ERROR_RT_DEV_SETUP_ERROR with a message naming fork (the
 * runtime's threads do not survive fork; docs/node.md "fork" gives the
 * decision); a child started with exec works; the parent works afterwards
 * (issue #12 point 5). */
#include "node_proc.h"

static int work(unsigned char seed) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s[2];
    CHECK_OK(aclrtCreateStream(&s[0]));
    CHECK_OK(aclrtCreateStream(&s[1]));
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, 4 * MiB, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < 50; i++) {
        CHECK_OK(aclrtMemsetAsync(d, 2 * MiB, seed, 2 * MiB, s[0]));
        CHECK_OK(aclrtMemsetAsync((char *)d + 2 * MiB, 2 * MiB, seed + 1, 2 * MiB, s[1]));
    }
    CHECK_OK(aclrtSynchronizeStream(s[0]));
    CHECK_OK(aclrtSynchronizeStream(s[1]));
    static unsigned char host[4 * MiB];
    CHECK_OK(aclrtMemcpy(host, sizeof host, d, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(host[0], seed);
    CHECK_EQ(host[4 * MiB - 1], (unsigned char)(seed + 1));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtDestroyStream(s[0]));
    CHECK_OK(aclrtDestroyStream(s[1]));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1) return work(77); /* the exec'd child */
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        CHECK_ERR(aclInit(NULL), ACL_ERROR_RT_DEV_SETUP_ERROR);
        const char *m = aclGetRecentErrMsg();
        CHECK(m != NULL && strstr(m, "fork") != NULL);
        CHECK_ERR(aclrtSetDevice(0), ACL_ERROR_RT_DEV_SETUP_ERROR);
        _exit(0);
    }
    int st = 0;
    CHECK_EQ(waitpid(pid, &st, 0), pid);
    CHECK(WIFEXITED(st));
    CHECK_EQ(WEXITSTATUS(st), 0);

    struct child c = spawn_child("exec");
    CHECK_EQ(wait_child(c), 0);
    return work(200);
}
