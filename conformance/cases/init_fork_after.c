/* init_fork_after: a child forked after the parent initialised the runtime
 * gets, for every call, ACL_ERROR_RT_DEV_SETUP_ERROR and a message naming
 * fork (the documented choice of docs/node.md "fork": the runtime of the
 * parent cannot be used in such a child); it never hangs, and the parent
 * goes on unaffected (issue #12 point 5). */
#include "node_proc.h"

#include "driver/ascend_hal.h"

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, 2 * MiB, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtMemsetAsync(d, 2 * MiB, 7, 2 * MiB, s));

    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        CHECK_ERR(aclInit(NULL), ACL_ERROR_RT_DEV_SETUP_ERROR);
        const char *m = aclGetRecentErrMsg();
        CHECK(m != NULL && strstr(m, "fork") != NULL);
        CHECK_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_DEV_SETUP_ERROR);
        void *p = NULL;
        CHECK_ERR(aclrtMalloc(&p, 2 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_DEV_SETUP_ERROR);
        uint32_t n = 0;
        CHECK_EQ(drvGetDevNum(&n), DRV_ERROR_NO_DEVICE);
        _exit(0);
    }
    int st = 0;
    CHECK_EQ(waitpid(pid, &st, 0), pid);
    CHECK(WIFEXITED(st));
    CHECK_EQ(WEXITSTATUS(st), 0);

    /* The parent is unaffected. */
    CHECK_OK(aclrtSynchronizeStream(s));
    unsigned char b[16];
    CHECK_OK(aclrtMemcpy(b, sizeof b, d, sizeof b, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(b[0], 7);
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
