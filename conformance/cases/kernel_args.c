/* kernel_args: argument blobs. Parameters sit at multiples of 8 bytes in
 * append order; a placeholder's data is copied after the parameters and
 * its slot receives the data's address; aclrtKernelArgsParaUpdate needs a
 * new aclrtKernelArgsFinalize and does not change a launch already made;
 * aclrtKernelArgsInitByUserMem keeps the parameters in the caller's
 * memory. An npuemu kernel (examples/kernels/echo.c) copies the blob it
 * receives to device memory.
 *
 * needs: emulator
 */
#include <stdint.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

static void fetch(void *dev, unsigned char *host) {
    if (aclrtMemcpy(host, 2048, dev, 2048, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) FAIL("memcpy back");
}

int main(void) {
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/echo.c", so, sizeof so) != 0) FAIL("cannot build the kernel");

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryGetFunction(bin, "echo_args", &f));
    void *out;
    CHECK_OK(aclrtMalloc(&out, 2048, ACL_MEM_MALLOC_HUGE_FIRST));
    unsigned char host[2048];

    /* out (8) | uint32 (4, padded to 8) | placeholder slot (8) | 3 bytes */
    aclrtArgsHandle a;
    aclrtParamHandle pout, pval, ph, ptail;
    CHECK_OK(aclrtKernelArgsInit(f, &a));
    CHECK_OK(aclrtKernelArgsAppend(a, &out, sizeof out, &pout));
    uint32_t val = 0x11223344;
    CHECK_OK(aclrtKernelArgsAppend(a, &val, sizeof val, &pval));
    CHECK_OK(aclrtKernelArgsAppendPlaceHolder(a, &ph));
    unsigned char tail[3] = {7, 8, 9};
    CHECK_OK(aclrtKernelArgsAppend(a, tail, sizeof tail, &ptail));
    void *buf = NULL;
    CHECK_OK(aclrtKernelArgsGetPlaceHolderBuffer(a, ph, 8, &buf));
    CHECK(buf != NULL);
    memcpy(buf, "PLACEHLD", 8);
    CHECK_OK(aclrtKernelArgsFinalize(a));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL));

    /* Update after the launch: that launch keeps the old value. */
    uint32_t val2 = 0x55667788;
    CHECK_OK(aclrtKernelArgsParaUpdate(a, pval, &val2, sizeof val2));
    CHECK_ERR(aclrtKernelArgsParaUpdate(a, pval, &val2, 8), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtSynchronizeStream(s));
    fetch(out, host);
    uint64_t size;
    memcpy(&size, host, 8);
    CHECK_EQ(size, 40); /* 27 bytes of parameters to 32, then 8 of data */
    unsigned char *blob = host + 8;
    void *got;
    memcpy(&got, blob, 8);
    CHECK(got == out);
    uint32_t gv;
    memcpy(&gv, blob + 8, 4);
    CHECK_EQ(gv, 0x11223344);
    CHECK(memcmp(blob + 24, tail, 3) == 0);
    CHECK(memcmp(blob + 32, "PLACEHLD", 8) == 0);
    CHECK(memcmp(host + 1024, "PLACEHLD", 8) == 0); /* the slot points at the copy */

    /* Not finalized since the update: refused; finalized: the new value. */
    CHECK_FAILS(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL));
    CHECK_OK(aclrtKernelArgsFinalize(a));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    fetch(out, host);
    memcpy(&gv, host + 8 + 8, 4);
    CHECK_EQ(gv, 0x55667788);

    /* Caller-provided memory. */
    size_t hsize = 0, msize = 0;
    CHECK_OK(aclrtKernelArgsGetHandleMemSize(f, &hsize));
    CHECK_OK(aclrtKernelArgsGetMemSize(f, 16, &msize));
    CHECK(hsize > 0 && msize >= 16);
    void *hmem = calloc(1, hsize), *umem = calloc(1, msize);
    CHECK_OK(aclrtKernelArgsInitByUserMem(f, (aclrtArgsHandle)hmem, umem, msize));
    CHECK_OK(aclrtKernelArgsAppend((aclrtArgsHandle)hmem, &out, sizeof out, &pout));
    uint64_t big = 0x0102030405060708ull;
    CHECK_OK(aclrtKernelArgsAppend((aclrtArgsHandle)hmem, &big, sizeof big, &pval));
    CHECK(memcmp(umem, &out, 8) == 0); /* stored in the caller's memory */
    CHECK_FAILS(aclrtKernelArgsAppend((aclrtArgsHandle)hmem, &big, sizeof big, &pval)); /* full */
    CHECK_OK(aclrtKernelArgsFinalize((aclrtArgsHandle)hmem));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 2, s, NULL, (aclrtArgsHandle)hmem, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    fetch(out, host);
    memcpy(&size, host, 8);
    CHECK_EQ(size, 16);
    CHECK(memcmp(host + 16, &big, 8) == 0);

    CHECK_OK(aclrtBinaryUnLoad(bin));
    free(hmem);
    free(umem);
    CHECK_OK(aclrtFree(out));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
