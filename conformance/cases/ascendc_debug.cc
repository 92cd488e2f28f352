/* ascendc_debug: AscendC::printf and DumpTensor write into the launch's
 * output, on the process's stdout, block by block in block order, before
 * the synchronisation returns; a failed ASSERT and trap() are AI Core
 * exceptions (507015) whose message names them.
 *
 * needs: emulator
 */
#include <fcntl.h>

#include "ascendc_build.h"

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = asc_load(__FILE__, "debug.cpp");
    void *x = asc_dev(64);
    void *args[1] = {x};

    /* Catch stdout in a file around the launch. */
    char path[] = "/tmp/npuemu-asc-out-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    CHECK(dup2(fd, 1) == 1);
    aclError e = asc_run(asc_fn(bin, "say"), 3, s, args, sizeof args);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    CHECK_OK(e);
    char out[8192] = {0};
    CHECK(pread(fd, out, sizeof out - 1, 0) > 0);
    close(fd);
    unlink(path);
    printf("kernel output:\n%s", out);
    const char *p = out;
    for (int b = 0; b < 3; b++) {
        char line[128];
        snprintf(line, sizeof line, "block %d of 3 says hello 2.5\n", b);
        const char *q = strstr(p, line);
        if (q == NULL) FAIL("missing or out of order: %s", line);
        snprintf(line, sizeof line, "DumpTensor: desc=7");
        q = strstr(q, line);
        if (q == NULL) FAIL("block %d: no DumpTensor", b);
        snprintf(line, sizeof line, "%d %d %d %d", 100 * b, 100 * b + 1, 100 * b + 2, 100 * b + 3);
        q = strstr(q, line);
        if (q == NULL) FAIL("block %d: DumpTensor values %s missing", b, line);
        p = q;
    }

    e = asc_run(asc_fn(bin, "assert_fails"), 2, s, args, sizeof args);
    CHECK_EQ(e, ACL_ERROR_RT_AICORE_EXCEPTION);
    const char *m = aclGetRecentErrMsg();
    if (m == NULL || strstr(m, "ASSERT") == NULL || strstr(m, "need more blocks") == NULL) FAIL("ASSERT message: %s", m ? m : "(none)");
    printf("%s\n", m);
    e = asc_run(asc_fn(bin, "traps"), 2, s, args, sizeof args);
    CHECK_EQ(e, ACL_ERROR_RT_AICORE_EXCEPTION);
    m = aclGetRecentErrMsg();
    if (m == NULL || strstr(m, "trap") == NULL || strstr(m, "block 1") == NULL) FAIL("trap message: %s", m ? m : "(none)");
    printf("%s\n", m);
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
