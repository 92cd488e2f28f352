/* kernel_launch_variants: the launch calls other than
 * aclrtLaunchKernelWithConfig (V2 with host and device arguments,
 * WithHostArgs with a placeholder, WithArgsArray by handle and by symbol),
 * parameter queries, function sizes, globals, and binaries made with
 * aclrtCreateBinary + aclrtBinaryLoad.
 *
 * needs: emulator
 */
#include <stdint.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

/* A kernel with a 4-byte parameter and an exported global: bump adds its
 * argument to npuemu_counter; pick copies the 8 bytes its placeholder
 * slot (offset 8) points to into the device word at offset 0. */
static const char *kernel_src =
    "#include \"%s/emu/include/npuemu/kernel.h\"\n"
    "__attribute__((visibility(\"default\"))) int32_t npuemu_counter = 5;\n"
    "static void bump(const npuemu_kernel_ctx *ctx) { npuemu_counter += NPUEMU_ARG(ctx, int32_t, 0); }\n"
    "static void pick(const npuemu_kernel_ctx *ctx) {\n"
    "    uint64_t *out = NPUEMU_ARG(ctx, uint64_t *, 0);\n"
    "    const uint64_t *in = NPUEMU_ARG(ctx, const uint64_t *, 8);\n"
    "    *out = *in;\n"
    "}\n"
    "NPUEMU_KERNEL_TABLE(\n"
    "    NPUEMU_KERNEL(bump, NPUEMU_AICORE, .num_params = 1, .param_sizes = NPUEMU_PARAMS(4)),\n"
    "    NPUEMU_KERNEL(pick, NPUEMU_VECTOR, .num_params = 2),\n"
    ")\n";

static void build(const char *repo, char *so, size_t n) {
    char code[8192];
    snprintf(code, sizeof code, kernel_src, repo);
    if (npuemu_build_source(code, so, n) != 0) FAIL("cannot build the kernel");
}

static void *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) FAIL("open %s", path);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc(*len);
    if (fread(p, 1, *len, f) != *len) FAIL("read %s", path);
    fclose(f);
    return p;
}

int main(void) {
    char repo[4096], so[4096], vadd[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    build(repo, so, sizeof so);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", vadd, sizeof vadd) != 0) FAIL("cannot build vadd");

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));

    /* aclrtCreateBinary keeps the caller's bytes; aclrtBinaryLoad loads them. */
    size_t len;
    void *image = read_file(so, &len);
    aclrtBinary raw = aclrtCreateBinary(image, len);
    CHECK(raw != NULL);
    aclrtBinHandle bin;
    CHECK_OK(aclrtBinaryLoad(raw, &bin));
    CHECK_OK(aclrtDestroyBinary(raw));
    free(image);
    CHECK(aclrtCreateBinary(NULL, 8) == NULL);
    CHECK_ERR(aclrtBinaryLoad(NULL, &bin), ACL_ERROR_INVALID_PARAM);

    aclrtFuncHandle bump, pick;
    CHECK_OK(aclrtBinaryGetFunction(bin, "bump", &bump));
    CHECK_OK(aclrtBinaryGetFunction(bin, "pick", &pick));

    /* Parameters as the table declares them. */
    size_t count = 0, off = 1, size = 0;
    CHECK_OK(aclrtFunctionGetParamCount(bump, &count));
    CHECK_EQ(count, 1);
    CHECK_OK(aclrtFunctionGetParamInfo(bump, 0, &off, &size));
    CHECK_EQ(off, 0);
    CHECK_EQ(size, 4);
    CHECK_OK(aclrtFunctionGetParamInfo(pick, 1, &off, &size));
    CHECK_EQ(off, 8);
    CHECK_EQ(size, 8);
    CHECK_ERR(aclrtFunctionGetParamInfo(pick, 2, &off, &size), ACL_ERROR_INVALID_PARAM);

    /* Sizes: the cube part of an AI Core kernel, the vector part of a
     * vector kernel. */
    size_t aic = 0, aiv = 1;
    CHECK_OK(aclrtGetFunctionSize(bump, &aic, &aiv));
    CHECK(aic > 0);
    CHECK_EQ(aiv, 0);
    CHECK_OK(aclrtGetFunctionSize(pick, &aic, &aiv));
    CHECK_EQ(aic, 0);
    CHECK(aiv > 0);

    /* The global, written by the kernel. */
    int32_t *counter = NULL;
    size_t gsize = 0;
    CHECK_OK(aclrtBinaryGetGlobal(bin, "npuemu_counter", (void **)&counter, &gsize));
    CHECK(counter != NULL);
    CHECK_EQ(gsize, 4);
    CHECK_EQ(*counter, 5);
    CHECK_ERR(aclrtBinaryGetGlobal(bin, "no_such_global", (void **)&counter, &gsize), ACL_ERROR_RT_KERNEL_LOOKUP);
    CHECK_ERR(aclrtBinaryGetGlobal(bin, "npuemu_counter", NULL, NULL), ACL_ERROR_INVALID_PARAM);

    /* WithArgsArray: by handle, then by symbol (the entry address). */
    int32_t seven = 7;
    void *one[] = {&seven};
    CHECK_OK(aclrtLaunchKernelWithArgsArray(bump, 1, s, NULL, one));
    void *entry = NULL, *none = NULL;
    CHECK_OK(aclrtGetFunctionAddr(bump, &entry, &none));
    aclrtFuncHandle by_symbol = NULL;
    CHECK_OK(aclrtGetFuncBySymbol(entry, &by_symbol));
    CHECK(by_symbol == bump);
    CHECK_OK(aclrtLaunchKernelWithArgsArray(entry, 1, s, NULL, one));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(*counter, 19);

    /* WithHostArgs: the placeholder slot receives the address of its data. */
    uint64_t *dev, host = 0;
    CHECK_OK(aclrtMalloc((void **)&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    struct {
        uint64_t *out;
        uint64_t slot;
        uint64_t data;
    } blob = {dev, 0, 0x1122334455667788ull};
    aclrtPlaceHolderInfo ph = {8, 16};
    CHECK_OK(aclrtLaunchKernelWithHostArgs(pick, 1, s, NULL, &blob, sizeof blob, &ph, 1));
    blob.data = 0; /* copied at the call */
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(&host, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(host == 0x1122334455667788ull);
    aclrtPlaceHolderInfo bad = {sizeof blob, 0};
    CHECK_ERR(aclrtLaunchKernelWithHostArgs(pick, 1, s, NULL, &blob, sizeof blob, &bad, 1), ACL_ERROR_INVALID_PARAM);

    /* V2 with host arguments (copied) and device arguments (in place). */
    uint64_t src = 0xABCDEF, *dsrc = dev + 2;
    CHECK_OK(aclrtMemcpy(dsrc, 8, &src, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    uint64_t *hargs[2] = {dev, dsrc};
    CHECK_OK(aclrtLaunchKernelV2(pick, 1, hargs, sizeof hargs, NULL, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(&host, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(host == 0xABCDEF);
    uint64_t *dargs = dev + 4;
    uint64_t *dvals[2] = {dev + 1, dsrc};
    CHECK_OK(aclrtMemcpy(dargs, sizeof dvals, dvals, sizeof dvals, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtLaunchKernelV2(pick, 1, dargs, sizeof dvals, NULL, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(&host, 8, dev + 1, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(host == 0xABCDEF);

    /* No SIMT kernels: no dynamic UB. */
    size_t ubuf = 1;
    CHECK_OK(aclrtFunctionGetAvailDynUbufPerBlock(pick, 0, &ubuf));
    CHECK_EQ(ubuf, 0);

    /* Documented refusals. */
    aclrtFuncHandle cpu;
    CHECK_ERR(aclrtRegisterCpuFunc(bin, "f", "k", &cpu), ACL_ERROR_RT_PARAM_INVALID);
    void *addr;
    size_t bsize;
    CHECK_ERR(aclrtBinaryGetDevAddress(bin, &addr, &bsize), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

    /* vadd declares 4 parameters of 8 bytes without param_sizes. */
    aclrtBinHandle vbin;
    aclrtFuncHandle vf;
    CHECK_OK(aclrtBinaryLoadFromFile(vadd, NULL, &vbin));
    CHECK_OK(aclrtBinaryGetFunction(vbin, "vadd_f32", &vf));
    CHECK_OK(aclrtFunctionGetParamInfo(vf, 3, &off, &size));
    CHECK_EQ(off, 24);
    CHECK_EQ(size, 8);
    CHECK_OK(aclrtBinaryUnLoad(vbin));

    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_ERR(aclrtGetFuncBySymbol(entry, &by_symbol), ACL_ERROR_RT_KERNEL_LOOKUP);
    CHECK_OK(aclrtFree(dev));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    npuemu_remove_kernel(so);
    npuemu_remove_kernel(vadd);
    return 0;
}
