/* kernel_printf: npuemu_printf output of a launch reaches stdout when the
 * launch ends, block by block in block order, before the synchronisation
 * returns: host output printed before the launch comes first, host output
 * printed after the synchronisation last (docs/kernels.md). The case sends
 * its stdout to a file and reads it back.
 *
 * needs: emulator
 */
#include <stdint.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

int main(void) {
    char repo[4096], so[4096], out[] = "/tmp/npuemu-printf-XXXXXX";
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/hello.c", so, sizeof so) != 0) FAIL("cannot build the kernel");
    int fd = mkstemp(out);
    CHECK(fd >= 0);
    close(fd);

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryGetFunction(bin, "hello", &f));
    aclrtArgsHandle a;
    aclrtParamHandle p;
    uint32_t tag = 7;
    CHECK_OK(aclrtKernelArgsInit(f, &a));
    CHECK_OK(aclrtKernelArgsAppend(a, &tag, sizeof tag, &p));
    CHECK_OK(aclrtKernelArgsFinalize(a));

    fflush(stdout);
    CHECK(freopen(out, "w", stdout) != NULL);
    printf("host before\n");
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 6, s, NULL, a, NULL));
    tag = 8;
    CHECK_OK(aclrtKernelArgsParaUpdate(a, p, &tag, sizeof tag));
    CHECK_OK(aclrtKernelArgsFinalize(a));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 2, s, NULL, a, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    printf("host after\n");
    fflush(stdout);

    FILE *r = fopen(out, "r");
    CHECK(r != NULL);
    char got[4096];
    size_t n = fread(got, 1, sizeof got - 1, r);
    got[n] = 0;
    fclose(r);
    unlink(out);
    const char *want =
        "host before\n"
        "hello from block 0 of 6 (tag 7)\n"
        "hello from block 1 of 6 (tag 7)\n"
        "hello from block 2 of 6 (tag 7)\n"
        "hello from block 3 of 6 (tag 7)\n"
        "hello from block 4 of 6 (tag 7)\n"
        "hello from block 5 of 6 (tag 7)\n"
        "hello from block 0 of 2 (tag 8)\n"
        "hello from block 1 of 2 (tag 8)\n"
        "host after\n";
    if (strcmp(got, want) != 0) FAIL("stdout:\n%s\nwant:\n%s", got, want);

    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
