/* stack_rt_kernel_registry: the runtime's kernel registry and argument
 * handles called directly (rt-functions.tsv, rt-types.md): binaries
 * loaded from a file (with an rtLoadBinaryConfig_t), from data and
 * without tiling key; kernels by name and by entry point; their name,
 * addresses, sizes, attributes and parameter layout; exported variables
 * (rtBinaryGetGlobal, rtSymbolLookup); rts* argument handles, also in the
 * caller's memory. The handles are ACL's: a kernel found and an argument
 * handle built with rt* calls launch through aclrtLaunchKernelWithConfig,
 * and the kernels (examples/kernels/globals.c, echo.c) show what they
 * received. Bad input gets the runtime's codes; what npuemu does not model
 * (a binary's device copy, entries by tiling key) is refused with
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 */
#include <stdint.h>

#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"
#include "../../examples/kernels/build_kernel.h"

static unsigned char *read_file(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) FAIL("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)len);
    if (b == NULL || fread(b, 1, (size_t)len, f) != (size_t)len) FAIL("cannot read %s", path);
    fclose(f);
    *n = (size_t)len;
    return b;
}

static int not_a_kernel;

int main(void) {
    char repo[4096], gso[4096], eso[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/globals.c", gso, sizeof gso) != 0) FAIL("cannot build globals.c");
    if (npuemu_build_kernel(repo, "examples/kernels/echo.c", eso, sizeof eso) != 0) FAIL("cannot build echo.c");
    size_t elen = 0;
    unsigned char *edata = read_file(eso, &elen);
    npuemu_remove_kernel(eso);

    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    rtStream_t s;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);

    /* Loading from a file, with the rt option ids. */
    rtBinHandle bin = NULL;
    CHECK_RT(rtsBinaryLoadFromFile(NULL, NULL, &bin), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsBinaryLoadFromFile(gso, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsBinaryLoadFromFile("/nonexistent/kernel.so", NULL, &bin), ACL_ERROR_RT_PARAM_INVALID);
    rtLoadBinaryOption_t opt;
    memset(&opt, 0, sizeof opt);
    rtLoadBinaryConfig_t cfg = {&opt, 1};
    opt.optionId = (rtLoadBinaryOption)99;
    CHECK_RT(rtsBinaryLoadFromFile(gso, &cfg, &bin), ACL_ERROR_RT_PARAM_INVALID);
    opt.optionId = RT_LOAD_BINARY_OPT_LAZY_LOAD;
    opt.value.isLazyLoad = 7;
    CHECK_RT(rtsBinaryLoadFromFile(gso, &cfg, &bin), ACL_ERROR_RT_PARAM_INVALID);
    opt.optionId = RT_LOAD_BINARY_OPT_CPU_KERNEL_MODE;
    opt.value.cpuKernelMode = 1;
    CHECK_RT(rtsBinaryLoadFromFile(gso, &cfg, &bin), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK(bin == NULL);
    opt.optionId = RT_LOAD_BINARY_OPT_LAZY_LOAD;
    opt.value.isLazyLoad = 1;
    CHECK_RT(rtsBinaryLoadFromFile(gso, &cfg, &bin), ACL_RT_SUCCESS);
    CHECK(bin != NULL);
    npuemu_remove_kernel(gso);

    /* Kernels by name; the handles are ACL's. */
    rtFuncHandle apply = NULL, bump = NULL, f2 = NULL;
    CHECK_RT(rtsFuncGetByName(bin, "apply", &apply), ACL_RT_SUCCESS);
    CHECK_RT(rtsFuncGetByName(bin, "bump", &bump), ACL_RT_SUCCESS);
    CHECK_RT(rtsFuncGetByName(bin, "nope", &f2), ACL_ERROR_RT_KERNEL_LOOKUP);
    CHECK_RT(rtsFuncGetByName(bin, NULL, &f2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsFuncGetByName(bin, "apply", NULL), ACL_ERROR_RT_PARAM_INVALID);
    aclrtFuncHandle aapply = NULL;
    CHECK_OK(aclrtBinaryGetFunction((aclrtBinHandle)bin, "apply", &aapply));
    CHECK(aapply == (aclrtFuncHandle)apply);
    rtBinHandle back = NULL;
    CHECK_RT(rtFunctionGetBinary(apply, &back), ACL_RT_SUCCESS);
    CHECK(back == bin);
    CHECK_RT(rtFunctionGetBinary(apply, NULL), ACL_ERROR_RT_PARAM_INVALID);

    char name[16];
    CHECK_RT(rtsFuncGetName(apply, sizeof name, name), ACL_RT_SUCCESS);
    CHECK(strcmp(name, "apply") == 0);
    CHECK_RT(rtsFuncGetName(apply, 5, name), ACL_ERROR_RT_PARAM_INVALID); /* "apply" and its NUL need 6 */
    CHECK_RT(rtsFuncGetName(apply, sizeof name, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* A vector kernel: the entry point is its vector part; the entry is
     * its symbol. */
    void *aic = (void *)1, *aiv = NULL;
    CHECK_RT(rtsFuncGetAddr(apply, &aic, &aiv), ACL_RT_SUCCESS);
    CHECK(aic == NULL && aiv != NULL);
    CHECK_RT(rtsFuncGetAddr(apply, NULL, &aiv), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetFuncBySymbol(aiv, &f2), ACL_RT_SUCCESS);
    CHECK(f2 == apply);
    CHECK_RT(rtGetFuncBySymbol(&not_a_kernel, &f2), ACL_ERROR_RT_KERNEL_LOOKUP);
    CHECK_RT(rtGetFuncBySymbol(NULL, &f2), ACL_ERROR_RT_PARAM_INVALID);
    size_t aicSize = 1, aivSize = 0;
    CHECK_RT(rtFuncGetSize(apply, &aicSize, &aivSize), ACL_RT_SUCCESS);
    CHECK_EQ(aicSize, 0);
    CHECK_RT(rtFuncGetSize(apply, &aicSize, NULL), ACL_ERROR_RT_PARAM_INVALID);

    int64_t v = -1;
    CHECK_RT(rtFunctionGetAttribute(apply, RT_FUNCTION_ATTR_KERNEL_TYPE, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, ACL_KERNEL_TYPE_VECTOR);
    CHECK_RT(rtFunctionGetAttribute(apply, RT_FUNCTION_ATTR_KERNEL_RATIO, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, 1); /* cube 0 (bits 16..31), vector 1 */
    CHECK_RT(rtFunctionGetAttribute(apply, RT_FUNCTION_ATTR_KERNEL_SCHED_MODE, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, 0);
    CHECK_RT(rtFunctionGetAttribute(apply, RT_FUNCTION_ATTR_MAX, &v), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtFunctionGetAttribute(apply, RT_FUNCTION_ATTR_KERNEL_TYPE, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* The parameter layout, by handle or by entry point. */
    size_t n = 0, off = 1, sz = 0;
    CHECK_RT(rtFunctionGetParamCount(apply, &n), ACL_RT_SUCCESS);
    CHECK_EQ(n, 1);
    n = 0;
    CHECK_RT(rtFunctionGetParamCount(aiv, &n), ACL_RT_SUCCESS);
    CHECK_EQ(n, 1);
    CHECK_RT(rtFunctionGetParamCount(bump, &n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* declares none */
    CHECK_RT(rtFunctionGetParamCount(apply, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtFunctionGetParamCount(&not_a_kernel, &n), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_RT(rtFunctionGetParamInfo(apply, 0, &off, &sz), ACL_RT_SUCCESS);
    CHECK(off == 0 && sz == 8);
    CHECK_RT(rtFunctionGetParamInfo(apply, 1, &off, &sz), ACL_ERROR_RT_PARAM_INVALID);
    size_t ubuf = 99;
    CHECK_RT(rtFunctionGetAvailDynUbufPerBlock(apply, 0, &ubuf), ACL_RT_SUCCESS);
    CHECK_EQ(ubuf, 0);
    CHECK_RT(rtFunctionGetAvailDynUbufPerBlock(apply, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* The exported variable: its own address, 16 bytes. */
    void *sym = NULL;
    size_t symSize = 0;
    CHECK_RT(rtBinaryGetGlobal(bin, "scale", &sym, &symSize), ACL_RT_SUCCESS);
    CHECK(sym != NULL);
    CHECK_EQ(symSize, 16);
    CHECK_RT(rtBinaryGetGlobal(bin, "nope", &sym, &symSize), ACL_ERROR_RT_KERNEL_LOOKUP);
    CHECK_RT(rtBinaryGetGlobal(bin, "scale", NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    void *dev = NULL;
    size_t devSize = 0;
    CHECK_RT(rtSymbolLookup(sym, &dev, &devSize), ACL_RT_SUCCESS);
    CHECK(dev == sym);
    CHECK_EQ(devSize, 16);
    CHECK_RT(rtSymbolLookup((char *)sym + 4, &dev, &devSize), ACL_ERROR_RT_INVALID_SYMBOL);
    CHECK_RT(rtSymbolLookup(sym, &dev, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* AI CPU registration refuses an AI Core binary. */
    CHECK_RT(rtsRegisterCpuFunc(bin, "f", "k", &f2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsRegisterCpuFunc(bin, NULL, "k", &f2), ACL_ERROR_RT_PARAM_INVALID);

    /* Not modelled: refused with the runtime's code. */
    void *binAddr = NULL;
    uint32_t binSize = 0;
    CHECK_RT(rtsBinaryGetDevAddress(bin, &binAddr, &binSize), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtsFuncGetByEntry(bin, 0, &f2), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

    /* rts* argument handles launch through ACL: block i writes
     * scale[i % 4] * (i + 1) to out[i]. */
    uint32_t *out = NULL;
    CHECK_OK(aclrtMalloc((void **)&out, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    rtArgsHandle a = NULL;
    rtParaHandle p = NULL;
    CHECK_RT(rtsKernelArgsInit(apply, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsKernelArgsInit(apply, &a), ACL_RT_SUCCESS);
    CHECK_RT(rtsKernelArgsAppend(a, NULL, 8, &p), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsKernelArgsAppend(a, &out, sizeof out, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsKernelArgsAppend(a, &out, sizeof out, &p), ACL_RT_SUCCESS);
    CHECK_RT(rtsKernelArgsFinalize(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsKernelArgsFinalize(a), ACL_RT_SUCCESS);
    CHECK_OK(aclrtLaunchKernelWithConfig((aclrtFuncHandle)apply, 4, (aclrtStream)s, NULL, (aclrtArgsHandle)a, NULL));
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    uint32_t r[4];
    CHECK_RT(rtMemcpy(r, sizeof r, out, sizeof r, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(r[0] == 1 && r[1] == 4 && r[2] == 9 && r[3] == 16);

    /* A binary from data: out | uint32 | placeholder slot | 3 bytes, as
     * echo_args receives them. */
    rtBinHandle ebin = NULL;
    CHECK_RT(rtsBinaryLoadFromData(NULL, elen, NULL, &ebin), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsBinaryLoadFromData(edata, 0, NULL, &ebin), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsBinaryLoadFromData(edata, UINT64_MAX, NULL, &ebin), ACL_ERROR_RT_PARAM_INVALID); /* no buffer is that long */
    CHECK_RT(rtsBinaryLoadFromData(edata, elen, &cfg, &ebin), ACL_RT_SUCCESS);
    rtFuncHandle echo = NULL;
    CHECK_RT(rtsFuncGetByName(ebin, "echo_args", &echo), ACL_RT_SUCCESS);
    CHECK_RT(rtFunctionGetAttribute(echo, RT_FUNCTION_ATTR_KERNEL_TYPE, &v), ACL_RT_SUCCESS);
    CHECK_EQ(v, ACL_KERNEL_TYPE_AICORE);
    CHECK_RT(rtsFuncGetAddr(echo, &aic, &aiv), ACL_RT_SUCCESS);
    CHECK(aic != NULL && aiv == NULL);
    rtArgsHandle e = NULL;
    rtParaHandle pout, pval, ph, ptail;
    CHECK_RT(rtsKernelArgsInit(echo, &e), ACL_RT_SUCCESS);
    CHECK_RT(rtsKernelArgsAppend(e, &out, sizeof out, &pout), ACL_RT_SUCCESS);
    uint32_t val = 0x11223344;
    CHECK_RT(rtsKernelArgsAppend(e, &val, sizeof val, &pval), ACL_RT_SUCCESS);
    CHECK_RT(rtsKernelArgsAppendPlaceHolder(e, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsKernelArgsAppendPlaceHolder(e, &ph), ACL_RT_SUCCESS);
    unsigned char tail[3] = {7, 8, 9};
    CHECK_RT(rtsKernelArgsAppend(e, tail, sizeof tail, &ptail), ACL_RT_SUCCESS);
    CHECK_RT(rtsKernelArgsFinalize(e), ACL_ERROR_RT_PARAM_INVALID); /* the placeholder has no buffer yet */
    void *buf = NULL;
    CHECK_RT(rtsKernelArgsGetPlaceHolderBuffer(e, pval, 8, &buf), ACL_ERROR_RT_PARAM_INVALID); /* not a placeholder */
    CHECK_RT(rtsKernelArgsGetPlaceHolderBuffer(e, ph, 0, &buf), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsKernelArgsGetPlaceHolderBuffer(e, ph, 8, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsKernelArgsGetPlaceHolderBuffer(e, ph, 8, &buf), ACL_RT_SUCCESS);
    CHECK(buf != NULL);
    memcpy(buf, "PLACEHLD", 8);
    uint32_t val2 = 0x55667788;
    CHECK_RT(rtsKernelArgsParaUpdate(e, pval, &val2, 8), ACL_ERROR_RT_PARAM_INVALID); /* appended with 4 bytes */
    CHECK_RT(rtsKernelArgsParaUpdate(e, pval, NULL, 4), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsKernelArgsParaUpdate(e, pval, &val2, sizeof val2), ACL_RT_SUCCESS);
    CHECK_RT(rtsKernelArgsFinalize(e), ACL_RT_SUCCESS);
    CHECK_OK(aclrtLaunchKernelWithConfig((aclrtFuncHandle)echo, 1, (aclrtStream)s, NULL, (aclrtArgsHandle)e, NULL));
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    unsigned char host[2048];
    CHECK_RT(rtMemcpy(host, sizeof host, out, sizeof host, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    uint64_t size;
    memcpy(&size, host, 8);
    CHECK_EQ(size, 40); /* 27 bytes of parameters to 32, then 8 of placeholder data */
    void *got;
    memcpy(&got, host + 8, 8);
    CHECK(got == (void *)out);
    uint32_t gv;
    memcpy(&gv, host + 16, 4);
    CHECK_EQ(gv, 0x55667788);
    CHECK(memcmp(host + 8 + 24, tail, 3) == 0);
    CHECK(memcmp(host + 8 + 32, "PLACEHLD", 8) == 0);
    CHECK(memcmp(host + 1024, "PLACEHLD", 8) == 0); /* the slot points at the copy */

    /* Argument handles in the caller's memory. */
    size_t hsize = 0, msize = 0;
    CHECK_RT(rtsKernelArgsGetHandleMemSize(echo, &hsize), ACL_RT_SUCCESS);
    CHECK_EQ(hsize, 16);
    CHECK_RT(rtsKernelArgsGetHandleMemSize(echo, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsKernelArgsGetMemSize(echo, 12, &msize), ACL_RT_SUCCESS);
    CHECK_EQ(msize, 16);
    CHECK_RT(rtsKernelArgsGetMemSize(echo, 0, &msize), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsKernelArgsGetMemSize(echo, 12, NULL), ACL_ERROR_RT_PARAM_INVALID);
    void *hmem = calloc(1, hsize), *umem = calloc(1, msize);
    CHECK_RT(rtsKernelArgsInitByUserMem(echo, NULL, umem, msize), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsKernelArgsInitByUserMem(echo, (rtArgsHandle)hmem, NULL, msize), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsKernelArgsInitByUserMem(echo, (rtArgsHandle)hmem, umem, msize), ACL_RT_SUCCESS);
    CHECK_RT(rtsKernelArgsAppend((rtArgsHandle)hmem, &out, sizeof out, &pout), ACL_RT_SUCCESS);
    uint64_t big = 0x0102030405060708ull;
    CHECK_RT(rtsKernelArgsAppend((rtArgsHandle)hmem, &big, sizeof big, &pval), ACL_RT_SUCCESS);
    CHECK(memcmp(umem, &out, 8) == 0); /* stored in the caller's memory */
    CHECK_RT(rtsKernelArgsAppend((rtArgsHandle)hmem, &big, sizeof big, &pval), ACL_ERROR_RT_PARAM_INVALID); /* full */
    CHECK_RT(rtsKernelArgsFinalize((rtArgsHandle)hmem), ACL_RT_SUCCESS);
    CHECK_OK(aclrtLaunchKernelWithConfig((aclrtFuncHandle)echo, 1, (aclrtStream)s, NULL, (aclrtArgsHandle)hmem, NULL));
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy(host, sizeof host, out, sizeof host, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    memcpy(&size, host, 8);
    CHECK_EQ(size, 16);
    CHECK(memcmp(host + 16, &big, 8) == 0);

    /* Without tiling key (what aclrtBinaryLoad does), then unloaded: its
     * handles die. */
    rtBinHandle nbin = NULL;
    rtFuncHandle necho = NULL;
    CHECK_RT(rtBinaryLoadWithoutTilingKey(edata, elen, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtBinaryLoadWithoutTilingKey(edata, 16, &nbin), ACL_ERROR_RT_PARAM_INVALID); /* not a kernel binary */
    CHECK_RT(rtBinaryLoadWithoutTilingKey(edata, elen, &nbin), ACL_RT_SUCCESS);
    CHECK(nbin != NULL && nbin != ebin);
    CHECK_RT(rtsFuncGetByName(nbin, "echo_args", &necho), ACL_RT_SUCCESS);
    CHECK(necho != echo);
    CHECK_RT(rtBinaryUnLoad(nbin), ACL_RT_SUCCESS);
    CHECK_RT(rtBinaryUnLoad(nbin), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_RT(rtBinaryUnLoad(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsFuncGetByName(nbin, "echo_args", &f2), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_RT(rtsFuncGetName(necho, sizeof name, name), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_RT(rtsKernelArgsInit(necho, &a), ACL_ERROR_RT_INVALID_HANDLE);

    CHECK_RT(rtBinaryUnLoad(ebin), ACL_RT_SUCCESS);
    CHECK_RT(rtsKernelArgsFinalize(e), ACL_ERROR_RT_INVALID_HANDLE); /* args die with the binary */
    CHECK_RT(rtBinaryUnLoad(bin), ACL_RT_SUCCESS);
    free(hmem);
    free(umem);
    free(edata);
    CHECK_RT(rtFree(out), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
