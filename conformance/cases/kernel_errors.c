/* kernel_errors: what the loader and the launch refuse. A file that is not
 * an npuemu kernel binary (garbage, or a shared object without the
 * npuemu_kernel_table marker) is ACL_ERROR_INVALID_FILE with a message;
 * NULL arguments are ACL_ERROR_INVALID_PARAM; unknown kernel names
 * ACL_ERROR_RT_KERNEL_LOOKUP; stale handles ACL_ERROR_RT_INVALID_HANDLE;
 * numBlocks 0 ACL_ERROR_INVALID_PARAM and above 65535
 * ACL_ERROR_RT_PARAM_INVALID; an args handle not finalized
 * ACL_ERROR_RT_PARAM_INVALID; TIMEOUT with TIMEOUT_US
 * ACL_ERROR_INVALID_PARAM (docs/kernels.md).
 *
 * needs: emulator
 */
#include <stdint.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

int main(void) {
    char repo[4096], so[4096], plain[4096], junk[] = "/tmp/npuemu-junk-XXXXXX";
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) FAIL("cannot build the kernel");
    if (npuemu_build_source("int not_a_kernel(void) { return 1; }\n", plain, sizeof plain) != 0) FAIL("cannot build the plain object");
    int fd = mkstemp(junk);
    CHECK(fd >= 0);
    CHECK(write(fd, "this is no ELF file", 19) == 19);
    close(fd);

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));

    aclrtBinHandle bin = NULL;
    CHECK_ERR(aclrtBinaryLoadFromFile(junk, NULL, &bin), ACL_ERROR_INVALID_FILE);
    CHECK_ERR(aclrtBinaryLoadFromFile(plain, NULL, &bin), ACL_ERROR_INVALID_FILE);
    CHECK(aclrtBinaryLoadFromFile(plain, NULL, &bin) == ACL_ERROR_INVALID_FILE);
    const char *msg = aclGetRecentErrMsg();
    CHECK(msg != NULL && strstr(msg, "npuemu_kernel_table") != NULL); /* says what is expected */
    CHECK_ERR(aclrtBinaryLoadFromFile("/nonexistent/kernel.so", NULL, &bin), ACL_ERROR_INVALID_FILE);
    CHECK_ERR(aclrtBinaryLoadFromFile(NULL, NULL, &bin), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtBinaryLoadFromFile(so, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtBinaryLoadFromData("garbage", 7, NULL, &bin), ACL_ERROR_INVALID_FILE);
    CHECK_ERR(aclrtBinaryLoadFromData(NULL, 7, NULL, &bin), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtBinaryLoadFromData("x", 0, NULL, &bin), ACL_ERROR_INVALID_PARAM);
    CHECK(bin == NULL);
    npuemu_remove_kernel(plain);
    unlink(junk);

    aclrtBinaryLoadOption opt = {.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD};
    opt.value.isLazyLoad = 1;
    aclrtBinaryLoadOptions opts = {.options = &opt, .numOpt = 1};
    CHECK_OK(aclrtBinaryLoadFromFile(so, &opts, &bin));
    npuemu_remove_kernel(so);

    aclrtFuncHandle f = NULL;
    CHECK_ERR(aclrtBinaryGetFunction(bin, "no_such_kernel", &f), ACL_ERROR_RT_KERNEL_LOOKUP);
    CHECK_ERR(aclrtBinaryGetFunction(bin, NULL, &f), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtBinaryGetFunction(NULL, "vadd_f32", &f), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f));

    void *d;
    CHECK_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    uint64_t zero = 0;
    aclrtArgsHandle a;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(f, &a));
    CHECK_OK(aclrtKernelArgsAppend(a, &d, sizeof d, &p));
    CHECK_OK(aclrtKernelArgsAppend(a, &d, sizeof d, &p));
    CHECK_OK(aclrtKernelArgsAppend(a, &d, sizeof d, &p));
    CHECK_OK(aclrtKernelArgsAppend(a, &zero, sizeof zero, &p));
    CHECK_ERR(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL), ACL_ERROR_RT_PARAM_INVALID); /* not finalized */
    CHECK_ERR(aclrtKernelArgsAppend(a, NULL, 8, &p), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtKernelArgsAppend(NULL, &zero, 8, &p), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtKernelArgsFinalize(a));

    CHECK_ERR(aclrtLaunchKernelWithConfig(f, 0, s, NULL, a, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtLaunchKernelWithConfig(f, 65536, s, NULL, a, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ERR(aclrtLaunchKernelWithConfig(NULL, 1, s, NULL, a, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtLaunchKernelWithConfig((aclrtFuncHandle)(uintptr_t)0x1234, 1, s, NULL, a, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ERR(aclrtLaunchKernelWithConfig(f, 1, s, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtLaunchKernel(f, 0, d, 32, s), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtLaunchKernel(NULL, 1, d, 32, s), ACL_ERROR_INVALID_PARAM);

    aclrtLaunchKernelAttr attrs[2] = {{.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT}, {.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US}};
    attrs[0].value.timeout = 1;
    attrs[1].value.timeoutUs.timeoutLow = 1000;
    aclrtLaunchKernelCfg cfg = {.attrs = attrs, .numAttrs = 2};
    CHECK_ERR(aclrtLaunchKernelWithConfig(f, 1, s, &cfg, a, NULL), ACL_ERROR_INVALID_PARAM);
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attrs[0].value.schemMode = 3;
    cfg.numAttrs = 1;
    CHECK_ERR(aclrtLaunchKernelWithConfig(f, 1, s, &cfg, a, NULL), ACL_ERROR_INVALID_PARAM);
    attrs[0].value.schemMode = 0;
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 1, s, &cfg, a, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));

    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_ERR(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ERR(aclrtBinaryGetFunction(bin, "vadd_f32", &f), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ERR(aclrtBinaryUnLoad(bin), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ERR(aclrtBinaryUnLoad(NULL), ACL_ERROR_INVALID_PARAM);

    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
