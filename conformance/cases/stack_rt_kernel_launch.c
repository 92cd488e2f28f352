/* stack_rt_kernel_launch: the runtime's kernel launches called directly,
 * as operator libraries and sharing layers make them: a binary registered
 * with rtDevBinaryRegister (rtDevBinary_t.data is an npuemu kernel binary,
 * what aclrtBinaryLoadFromData takes), stubs bound with rtFunctionRegister
 * and launched with rtKernelLaunch / rtKernelLaunchWithFlag(V2); tiling-key
 * entries of a binary registered with rtRegisterAllKernel launched with
 * rtKernelLaunchWithHandle(V2); rtArgsEx_t host blocks (copied, address
 * slots patched) and device blocks (read in place); the rts* launches by
 * function handle; AI CPU kernels by so and kernel name (the host CPU is
 * the AI CPU); the per-thread task records and fill functions; and the
 * codes of bad input. The program runs under an LD_PRELOAD hook on the
 * four launches HAMi's vNPU limiter interposes (stack/launch_hook.c),
 * which must see every call the program makes.
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "stack/harness.h"
#include "../../examples/kernels/build_kernel.h"
#include "acl/acl.h"
#include "runtime/rt.h"
#include "rt_check.h"

/* add_<tilingKey>: *out += key * v (one tiling-key variant each); pick:
 * *out = *in, in being an address slot the runtime patches. */
static const char *kernel_src =
    "#include \"%s/emu/include/npuemu/kernel.h\"\n"
    "static void add_1(const npuemu_kernel_ctx *ctx) { *NPUEMU_ARG(ctx, int32_t *, 0) += NPUEMU_ARG(ctx, int32_t, 8); }\n"
    "static void add_2(const npuemu_kernel_ctx *ctx) { *NPUEMU_ARG(ctx, int32_t *, 0) += 2 * NPUEMU_ARG(ctx, int32_t, 8); }\n"
    "static void pick(const npuemu_kernel_ctx *ctx) {\n"
    "    *NPUEMU_ARG(ctx, uint64_t *, 0) = *NPUEMU_ARG(ctx, const uint64_t *, 8);\n"
    "}\n"
    "NPUEMU_KERNEL_TABLE(\n"
    "    NPUEMU_KERNEL(add_1, NPUEMU_AICORE, .num_params = 2, .param_sizes = NPUEMU_PARAMS(8, 4)),\n"
    "    NPUEMU_KERNEL(add_2, NPUEMU_AICORE, .num_params = 2, .param_sizes = NPUEMU_PARAMS(8, 4)),\n"
    "    NPUEMU_KERNEL(pick, NPUEMU_VECTOR),\n"
    ")\n";

/* AI CPU kernels: uint32_t kernel(void *args), 0 on success. */
static const char *aicpu_src =
    "#include <stdint.h>\n"
    "uint32_t cpu_add(void *args) { int32_t *out = *(int32_t **)args; *out += *(int32_t *)((char *)args + 8); return 0; }\n"
    "uint32_t cpu_fail(void *args) { (void)args; return 7; }\n"
    "uint32_t cpu_crash(void *args) { (void)args; *(volatile int *)16 = 1; return 0; }\n";

/* The program's own count of the hooked launches. */
static long calls[4];
#define FLAGV2(...) (calls[0]++, rtKernelLaunchWithFlagV2(__VA_ARGS__))
#define HANDLEV2(...) (calls[1]++, rtKernelLaunchWithHandleV2(__VA_ARGS__))
#define AICPU(...) (calls[2]++, rtAicpuKernelLaunchWithFlag(__VA_ARGS__))
#define AICPUEX(...) (calls[3]++, rtAicpuKernelLaunchExWithArgs(__VA_ARGS__))

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

/* blob is an argument block {int32_t *out; int32_t v}. */
struct blob {
    int32_t *out;
    int32_t v;
    int32_t pad;
};

static int32_t readOut(int32_t *d) {
    int32_t v = 0;
    CHECK_RT(rtMemcpy(&v, 4, d, 4, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    return v;
}

static void setOut(int32_t *d, int32_t v) { CHECK_RT(rtMemcpy(d, 4, &v, 4, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS); }

static int32_t fill_cb(void *p, uint32_t n) {
    (void)p;
    (void)n;
    return 0;
}

static char stubA, stubPick, stubUnbound; /* stub functions: host addresses used as keys */

static int child(void) {
    char repo[4096], so[4096], cpu[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    char code[8192];
    snprintf(code, sizeof code, kernel_src, repo);
    if (npuemu_build_source(code, so, sizeof so) != 0) FAIL("cannot build the kernel");
    if (npuemu_build_source(aicpu_src, cpu, sizeof cpu) != 0) FAIL("cannot build the AI CPU kernels");

    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    rtStream_t s = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);
    int32_t *d = NULL;
    CHECK_RT(rtMalloc((void **)&d, 4096, RT_MEMORY_HBM, 0), ACL_RT_SUCCESS);

    /* rtDevBinaryRegister: the data is an npuemu kernel binary. */
    size_t len;
    void *image = read_file(so, &len);
    rtDevBinary_t bin = {RT_DEV_BINARY_MAGIC_ELF, 0, image, len};
    void *h = NULL;
    CHECK_RT(rtDevBinaryRegister(NULL, &h), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDevBinaryRegister(&bin, NULL), ACL_ERROR_RT_PARAM_INVALID);
    rtDevBinary_t bad = bin;
    bad.magic = 0x1234;
    CHECK_RT(rtDevBinaryRegister(&bad, &h), ACL_ERROR_RT_PARAM_INVALID);
    bad.magic = RT_DEV_BINARY_MAGIC_ELF_AICPU;
    CHECK_RT(rtDevBinaryRegister(&bad, &h), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    bad = bin;
    bad.length = 0;
    CHECK_RT(rtDevBinaryRegister(&bad, &h), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDevBinaryRegister(&bin, &h), ACL_RT_SUCCESS);
    CHECK(h != NULL);

    /* rtFunctionRegister: kernelInfoExt names the device function. */
    CHECK_RT(rtFunctionRegister(h, &stubA, "stubA", "add_1", 0), ACL_RT_SUCCESS);
    CHECK_RT(rtFunctionRegister(h, &stubPick, "pick", NULL, 0), ACL_RT_SUCCESS); /* by stubName */
    CHECK_RT(rtFunctionRegister(h, NULL, "stubA", "add_1", 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtFunctionRegister(h, &stubUnbound, "x", "no_such_kernel", 0), ACL_ERROR_RT_KERNEL_LOOKUP);

    /* rtKernelLaunchWithFlagV2, host block: copied at the call. */
    struct blob b = {d, 5, 0};
    rtArgsEx_t ax;
    memset(&ax, 0, sizeof ax);
    ax.args = &b;
    ax.argsSize = sizeof b;
    setOut(d, 10);
    CHECK_RT(FLAGV2(&stubA, 1, &ax, NULL, s, 0, NULL), ACL_RT_SUCCESS);
    b.v = 1000; /* the launch took a copy */
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(readOut(d), 15);
    b.v = 5;

    /* With a task config and flags. */
    rtTaskCfgInfo_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.neverTimeout = 1;
    cfg.schemMode = 1;
    CHECK_RT(FLAGV2(&stubA, 1, &ax, NULL, s, RT_KERNEL_DUMPFLAG, &cfg), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(readOut(d), 20);

    /* Device block: read in place when the kernel runs. */
    struct blob *db = (struct blob *)(d + 64);
    CHECK_RT(rtMemcpy(db, sizeof b, &b, sizeof b, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);
    rtArgsEx_t dx = ax;
    dx.args = db;
    dx.isNoNeedH2DCopy = 1;
    CHECK_RT(FLAGV2(&stubA, 1, &dx, NULL, s, 0, NULL), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(readOut(d), 25);

    /* Bad input. */
    CHECK_RT(FLAGV2(&stubUnbound, 1, &ax, NULL, s, 0, NULL), ACL_ERROR_RT_KERNEL_LOOKUP);
    CHECK_RT(FLAGV2(NULL, 1, &ax, NULL, s, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(FLAGV2(&stubA, 1, NULL, NULL, s, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(FLAGV2(&stubA, 0, &ax, NULL, s, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(FLAGV2(&stubA, 1, &ax, NULL, s, 0x1000, NULL), ACL_ERROR_RT_PARAM_INVALID);
    rtArgsEx_t hx = ax;
    hx.isNoNeedH2DCopy = 1; /* host memory said to be device memory */
    CHECK_RT(FLAGV2(&stubA, 1, &hx, NULL, s, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    hx = ax;
    hx.hostInputInfoNum = 1; /* a count without its array */
    CHECK_RT(FLAGV2(&stubA, 1, &hx, NULL, s, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    rtTaskCfgInfo_t badCfg = cfg;
    badCfg.neverTimeout = 2;
    CHECK_RT(FLAGV2(&stubA, 1, &ax, NULL, s, 0, &badCfg), ACL_ERROR_RT_PARAM_INVALID);
    badCfg = cfg;
    badCfg.localMemorySize = 1024; /* SIMT local memory */
    CHECK_RT(FLAGV2(&stubA, 1, &ax, NULL, s, 0, &badCfg), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_EQ(readOut(d), 25); /* none of them ran */

    /* Address slots: hostInputInfo, then tiling, receive the address of
     * their data in the copied block. */
    struct {
        uint64_t *out;
        const uint64_t *in;
        uint64_t data;
    } pb = {(uint64_t *)(d + 128), NULL, 0xABCDEF0123ull};
    rtHostInputInfo_t hin = {8, 16};
    rtArgsEx_t px;
    memset(&px, 0, sizeof px);
    px.args = &pb;
    px.argsSize = sizeof pb;
    px.hostInputInfoPtr = &hin;
    px.hostInputInfoNum = 1;
    CHECK_RT(FLAGV2(&stubPick, 1, &px, NULL, s, 0, NULL), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    uint64_t got = 0;
    CHECK_RT(rtMemcpy(&got, 8, d + 128, 8, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK_EQ(got, 0xABCDEF0123ull);
    pb.data = 0x77;
    px.hostInputInfoPtr = NULL;
    px.hostInputInfoNum = 0;
    px.hasTiling = 1;
    px.tilingAddrOffset = 8;
    px.tilingDataOffset = 16;
    CHECK_RT(rtKernelLaunchWithFlag(&stubPick, 1, &px, NULL, s, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy(&got, 8, d + 128, 8, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK_EQ(got, 0x77);
    px.tilingAddrOffset = 20; /* the slot overruns the block */
    CHECK_RT(FLAGV2(&stubPick, 1, &px, NULL, s, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* rtKernelLaunch: a host block by pointer and size. */
    CHECK_RT(rtKernelLaunch(&stubA, 1, &b, sizeof b, NULL, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(readOut(d), 30);

    /* rtRegisterAllKernel + tiling keys. */
    void *h2 = NULL;
    CHECK_RT(rtRegisterAllKernel(&bin, &h2), ACL_RT_SUCCESS);
    CHECK_RT(HANDLEV2(h2, 2, 1, &ax, NULL, s, NULL), ACL_RT_SUCCESS); /* add_2: += 10 */
    CHECK_RT(HANDLEV2(h2, 1, 1, &dx, NULL, s, &cfg), ACL_RT_SUCCESS); /* add_1: += 5 */
    CHECK_RT(rtKernelLaunchWithHandle(h2, 2, 1, &ax, NULL, s, NULL), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(readOut(d), 55);
    CHECK_RT(HANDLEV2(h2, 9, 1, &ax, NULL, s, NULL), ACL_ERROR_RT_KERNEL_LOOKUP);
    CHECK_RT(HANDLEV2(NULL, 1, 1, &ax, NULL, s, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* The registered binary is an ACL binary handle: the function-handle
     * launches take its functions. */
    aclrtFuncHandle f = NULL;
    CHECK_OK(aclrtBinaryGetFunction(h, "add_1", &f));
    CHECK_RT(rtLaunchKernelByFuncHandleV3(f, 1, &ax, s, &cfg), ACL_RT_SUCCESS); /* host block: whole now */
    CHECK_RT(rtLaunchKernelByFuncHandleV3(f, 1, &dx, s, NULL), ACL_RT_SUCCESS);
    CHECK_RT(rtLaunchKernelByFuncHandleV3(f, 1, NULL, s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLaunchKernelWithHostArgs(f, 1, s, NULL, &b, sizeof b, NULL, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtsLaunchKernelWithHostArgs(f, 1, s, NULL, &b, sizeof b, NULL, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLaunchKernelWithDevArgs(f, 1, s, NULL, db, sizeof b, NULL), ACL_RT_SUCCESS);
    int32_t *outp = d;
    int32_t v = 5;
    void *arr[2] = {&outp, &v};
    CHECK_RT(rtLaunchKernelWithArgsArray(f, 1, s, NULL, arr), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(readOut(d), 80);
    void *arrNull[2] = {&outp, NULL};
    CHECK_RT(rtLaunchKernelWithArgsArray(f, 1, s, NULL, arrNull), ACL_ERROR_RT_PARAM_INVALID);

    /* The thread's task records. */
    uint32_t id = 0xFFFFFFFFu;
    CHECK_RT(rtsGetThreadLastTaskId(&id), ACL_RT_SUCCESS);
    CHECK(id != 0xFFFFFFFFu);
    CHECK_RT(rtsGetThreadLastTaskId(NULL), ACL_ERROR_RT_PARAM_INVALID);
    char info[16] = "op info";
    CHECK_RT(rtCacheLastTaskOpInfo(info, sizeof info), ACL_RT_SUCCESS);
    CHECK_RT(rtCacheLastTaskOpInfo(NULL, 4), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtCacheLastTaskOpInfo(info, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtCacheLastTaskExtendInfo("extend", 6), ACL_RT_SUCCESS);
    CHECK_RT(rtCacheLastTaskExtendInfo("extend", 0), ACL_ERROR_RT_PARAM_INVALID);

    /* Fill functions by symbol. */
    CHECK_RT(rtRegKernelLaunchFillFunc("g_opSystemRunCfg", fill_cb), ACL_RT_SUCCESS);
    CHECK_RT(rtRegKernelLaunchFillFunc(NULL, fill_cb), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtRegKernelLaunchFillFunc("g_opSystemRunCfg", NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtUnRegKernelLaunchFillFunc("g_opSystemRunCfg"), ACL_RT_SUCCESS);
    CHECK_RT(rtUnRegKernelLaunchFillFunc("g_opSystemRunCfg"), ACL_ERROR_RT_PARAM_INVALID);

    /* AI CPU kernels by so and kernel name. */
    rtKernelLaunchNames_t names = {cpu, "cpu_add", "AddOp"};
    CHECK_RT(AICPU(&names, 1, &ax, NULL, s, 0), ACL_RT_SUCCESS);
    CHECK_RT(AICPU(&names, 2, &dx, NULL, s, 0), ACL_RT_SUCCESS); /* device block, two blocks */
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(readOut(d), 95);
    rtKernelLaunchNames_t missing = {cpu, "no_such_kernel", "X"};
    CHECK_RT(AICPU(&missing, 1, &ax, NULL, s, 0), ACL_ERROR_RT_KERNEL_LOOKUP);
    missing.soName = "libnpuemu_no_such_aicpu.so";
    missing.kernelName = "cpu_add";
    CHECK_RT(AICPU(&missing, 1, &ax, NULL, s, 0), ACL_ERROR_RT_KERNEL_LOOKUP);
    CHECK_RT(AICPU(NULL, 1, &ax, NULL, s, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(AICPU(&names, 0, &ax, NULL, s, 0), ACL_ERROR_RT_PARAM_INVALID);
    rtKernelLaunchNames_t failing = {cpu, "cpu_fail", "FailOp"};
    CHECK_RT(AICPU(&failing, 1, &ax, NULL, s, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_ERROR_RT_AICPU_EXCEPTION);
    (void)rtStreamDestroy(s);
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);
    /* A kernel that faults fails its task; the process goes on. */
    rtKernelLaunchNames_t crashing = {cpu, "cpu_crash", "CrashOp"};
    CHECK_RT(AICPU(&crashing, 1, &ax, NULL, s, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_ERROR_RT_AICPU_EXCEPTION);
    (void)rtStreamDestroy(s);
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);
    CHECK_RT(AICPU(&names, 1, &ax, NULL, s, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(readOut(d), 95 + 5);
    setOut(d, 95); /* as before the crash check, for what follows */

    /* rtAicpuKernelLaunchExWithArgs: the names live in the block. */
    struct {
        int32_t *out;
        int32_t v;
        int32_t pad;
        char so[4096];
        char kernel[16];
    } eb;
    memset(&eb, 0, sizeof eb);
    eb.out = d;
    eb.v = 7;
    snprintf(eb.so, sizeof eb.so, "%s", cpu);
    snprintf(eb.kernel, sizeof eb.kernel, "cpu_add");
    rtAicpuArgsEx_t ex;
    memset(&ex, 0, sizeof ex);
    ex.args = &eb;
    ex.argsSize = sizeof eb;
    ex.soNameAddrOffset = 16;
    ex.kernelNameAddrOffset = 16 + 4096;
    CHECK_RT(AICPUEX(2 /* KERNEL_TYPE_AICPU */, "AddOp", 1, &ex, NULL, s, 0), ACL_RT_SUCCESS);
    CHECK_RT(AICPUEX(4 /* KERNEL_TYPE_AICPU_CUSTOM */, "AddOp", 1, &ex, NULL, s, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(readOut(d), 109);
    CHECK_RT(AICPUEX(1 /* KERNEL_TYPE_FWK */, "AddOp", 1, &ex, NULL, s, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(AICPUEX(3, "AddOp", 1, &ex, NULL, s, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(AICPUEX(2, "AddOp", 1, NULL, NULL, s, 0), ACL_ERROR_RT_PARAM_INVALID);
    ex.kernelNameAddrOffset = sizeof eb;
    CHECK_RT(AICPUEX(2, "AddOp", 1, &ex, NULL, s, 0), ACL_ERROR_RT_PARAM_INVALID);

    /* rtsLaunchRandomNumTask: rtRandomNumDataType numbers differently from
     * aclDataType; the same draw as aclrtRandomNumAsync's. */
    char soc[64] = "";
    CHECK_RT(rtGetSocVersion(soc, sizeof soc), ACL_RT_SUCCESS);
    if ((strncmp(soc, "Ascend910B", 10) == 0 || strncmp(soc, "Ascend910_93", 12) == 0)) {
        enum { N = 256 };
        float *out = NULL;
        void *ctr = NULL;
        CHECK_RT(rtMalloc((void **)&out, N * 4, RT_MEMORY_HBM, 0), ACL_RT_SUCCESS);
        CHECK_RT(rtMalloc(&ctr, 16, RT_MEMORY_HBM, 0), ACL_RT_SUCCESS);
        aclrtRandomNumTaskInfo ai;
        memset(&ai, 0, sizeof ai);
        ai.dataType = ACL_FLOAT;
        ai.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
        float lo = 2.0f, hi = 6.0f;
        uint64_t seed = 99, n = N;
        memcpy(ai.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min.valueOrAddr, &lo, 4);
        ai.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min.size = 4;
        memcpy(ai.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.valueOrAddr, &hi, 4);
        ai.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.size = 4;
        memcpy(ai.randomSeed.valueOrAddr, &seed, 8);
        ai.randomSeed.size = 8;
        memcpy(ai.randomNum.valueOrAddr, &n, 8);
        ai.randomNum.size = 8;
        ai.randomResultAddr = out;
        ai.randomCounterAddr = ctr;
        static float viaAcl[N], viaRt[N];
        CHECK_RT(rtMemset(ctr, 16, 0, 16), ACL_RT_SUCCESS);
        CHECK_OK(aclrtRandomNumAsync(&ai, s, NULL));
        CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
        CHECK_RT(rtMemcpy(viaAcl, sizeof viaAcl, out, sizeof viaAcl, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
        rtRandomNumTaskInfo_t ri;
        CHECK_EQ(sizeof ri, sizeof ai);
        memcpy(&ri, &ai, sizeof ri);
        ri.dataType = RT_RANDOM_NUM_DATATYPE_FP32;
        CHECK_RT(rtMemset(ctr, 16, 0, 16), ACL_RT_SUCCESS);
        CHECK_RT(rtsLaunchRandomNumTask(&ri, s, NULL), ACL_RT_SUCCESS);
        CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
        CHECK_RT(rtMemcpy(viaRt, sizeof viaRt, out, sizeof viaRt, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
        CHECK_EQ(memcmp(viaAcl, viaRt, sizeof viaRt), 0);
        ri.dataType = RT_RANDOM_NUM_DATATYPE_MAX;
        CHECK_RT(rtsLaunchRandomNumTask(&ri, s, NULL), ACL_ERROR_RT_PARAM_INVALID);
        CHECK_RT(rtsLaunchRandomNumTask(NULL, s, NULL), ACL_ERROR_RT_PARAM_INVALID);
        CHECK_RT(rtFree(out), ACL_RT_SUCCESS);
        CHECK_RT(rtFree(ctr), ACL_RT_SUCCESS);
    }

    /* Unregistering forgets the binary's stubs. */
    CHECK_RT(rtDevBinaryUnRegister(h), ACL_RT_SUCCESS);
    CHECK_RT(FLAGV2(&stubA, 1, &ax, NULL, s, 0, NULL), ACL_ERROR_RT_KERNEL_LOOKUP);
    CHECK_RT(rtDevBinaryUnRegister(h), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_RT(rtDevBinaryUnRegister(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDevBinaryUnRegister(h2), ACL_RT_SUCCESS);
    CHECK_RT(HANDLEV2(h2, 1, 1, &ax, NULL, s, NULL), ACL_ERROR_RT_INVALID_HANDLE);

    /* The hook saw every hooked launch the program made. */
    long (*hooked)(const char *) = (long (*)(const char *))dlsym(RTLD_DEFAULT, "launch_hook_count");
    if (hooked == NULL) FAIL("the launch hook is not loaded (LD_PRELOAD)");
    const char *hn[4] = {"rtKernelLaunchWithFlagV2", "rtKernelLaunchWithHandleV2", "rtAicpuKernelLaunchWithFlag", "rtAicpuKernelLaunchExWithArgs"};
    for (int i = 0; i < 4; i++)
        if (hooked(hn[i]) != calls[i]) FAIL("the hook saw %ld calls of %s, the program made %ld", hooked(hn[i]), hn[i], calls[i]);

    CHECK_RT(rtFree(d), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    free(image);
    npuemu_remove_kernel(so);
    npuemu_remove_kernel(cpu);
    printf("rt launches: stubs %ld, tiling keys %ld, AI CPU %ld + %ld, all seen by the hook\n", calls[0], calls[1], calls[2], calls[3]);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    char repo[4096], preload[4096], self[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    stack_build(repo, "conformance/cases/stack/launch_hook.c", preload, sizeof preload);
    stack_self(self, sizeof self);
    int st = stack_spawn(self, preload, "--child");
    unlink(preload);
    if (!stack_ok(st)) FAIL("the program under the launch hook failed (status %#x)", st);
    printf("a hook on rtKernelLaunchWithFlagV2, rtKernelLaunchWithHandleV2 and the AI CPU launches sees the program's launches\n");
    return 0;
}
