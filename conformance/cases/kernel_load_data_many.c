/* kernel_load_data_many: several different kernel binaries loaded from
 * memory in one process each keep their own kernels — also after one is
 * unloaded and another loaded in its place (a program with two Ascend C
 * kernel sources embeds two device objects and loads both this way).
 *
 * needs: emulator
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

static char *slurp(const char *repo, const char *src, size_t *len) {
    char so[4096];
    if (npuemu_build_kernel(repo, src, so, sizeof so) != 0) FAIL("cannot build %s", src);
    FILE *fp = fopen(so, "rb");
    CHECK(fp != NULL);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *image = malloc((size_t)n);
    CHECK(image != NULL && fread(image, 1, (size_t)n, fp) == (size_t)n);
    fclose(fp);
    npuemu_remove_kernel(so);
    *len = (size_t)n;
    return image;
}

int main(void) {
    char repo[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    size_t nv, ne, nh;
    char *vadd = slurp(repo, "examples/kernels/vadd.c", &nv);
    char *echo = slurp(repo, "examples/kernels/echo.c", &ne);
    char *hello = slurp(repo, "examples/kernels/hello.c", &nh);

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtBinHandle bv, be, bh;
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryLoadFromData(vadd, nv, NULL, &bv));
    CHECK_OK(aclrtBinaryLoadFromData(echo, ne, NULL, &be));
    CHECK(bv != be);
    CHECK_OK(aclrtBinaryGetFunction(bv, "vadd_f32", &f));
    CHECK_OK(aclrtBinaryGetFunction(be, "echo_args", &f));
    CHECK_ERR(aclrtBinaryGetFunction(be, "vadd_f32", &f), ACL_ERROR_RT_KERNEL_LOOKUP);
    CHECK_ERR(aclrtBinaryGetFunction(bv, "echo_args", &f), ACL_ERROR_RT_KERNEL_LOOKUP);

    /* unload one, load a third: it must be the third's kernels */
    CHECK_OK(aclrtBinaryUnLoad(be));
    CHECK_OK(aclrtBinaryLoadFromData(hello, nh, NULL, &bh));
    CHECK_OK(aclrtBinaryGetFunction(bh, "hello", &f));
    CHECK_ERR(aclrtBinaryGetFunction(bh, "echo_args", &f), ACL_ERROR_RT_KERNEL_LOOKUP);
    CHECK_OK(aclrtBinaryGetFunction(bv, "vadd_f16", &f));

    /* the same bytes twice: two binaries, both usable */
    aclrtBinHandle bv2;
    CHECK_OK(aclrtBinaryLoadFromData(vadd, nv, NULL, &bv2));
    CHECK_OK(aclrtBinaryGetFunction(bv2, "vadd_f32", &f));
    CHECK_OK(aclrtBinaryUnLoad(bv2));
    CHECK_OK(aclrtBinaryGetFunction(bv, "vadd_f32", &f));

    CHECK_OK(aclrtBinaryUnLoad(bv));
    CHECK_OK(aclrtBinaryUnLoad(bh));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    free(vadd);
    free(echo);
    free(hello);
    return 0;
}
