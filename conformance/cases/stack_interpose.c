/* stack_interpose: the library boundaries of the real stack, seen by an
 * LD_PRELOAD interposer (stack/interposer.c, a sharing layer in
 * miniature) that counts rt* and hal* calls and enforces a memory quota.
 * An unmodified ACL program (the --child half of this file) runs under it
 * in both layouts (docs/stack.md):
 *
 *  - split (NPUEMU_STACK=split, libascendcl.so apart from libruntime.so):
 *    aclrt* calls cross into rt*, so the rt hooks see the program's
 *    aclrtMalloc / aclrtFree / aclrtGetMemInfo / aclrtCreateStream /
 *    aclrtLaunchKernel / aclrtLaunchKernelWithConfig, and an rt-level
 *    quota is what aclrtMalloc and aclrtGetMemInfo report;
 *  - merged (the default, CANN 8.x): aclrt* → rt* bind inside libruntime,
 *    so the rt hooks see none of the program's ACL traffic and an rt-level
 *    quota changes nothing, while the runtime's driver calls still cross:
 *    the hal hooks see them and a hal-level quota is what the program gets.
 *
 * In both, a second library calling rt* directly (stack/rtclient.c) is
 * seen by the rt hooks. The counts are exact: npuemu's runtime makes one
 * halMemAlloc per rtMalloc, one halMemGetInfo per rtMemGetInfoEx.
 *
 * needs: emulator
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <unistd.h>

#include "check.h"
#include "stack/harness.h"
#include "../../examples/kernels/build_kernel.h"

#define MIB (1024ull * 1024ull)
#define QUOTA (4 * MIB)

typedef long (*count_fn)(const char *);

static long count(const char *name) {
    count_fn f = (count_fn)dlsym(RTLD_DEFAULT, "interposer_count");
    if (f == NULL) FAIL("the interposer is not loaded (LD_PRELOAD)");
    return f(name);
}

/* The ACL program: counts what it calls, then compares with the hooks. */
static int child(void) {
    const char *layout = getenv("NPUEMU_STACK");
    const char *level = getenv("INTERPOSER_LEVEL");
    int split = strcmp(layout, "split") == 0;
    int quotaApplies = strcmp(level, "hal") == 0 || (split && strcmp(level, "rt") == 0);
    long nMalloc = 0, nMallocOK = 0, nFree = 0, nInfo = 0, nStream = 0;

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    size_t freeB = 0, totalB = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeB, &totalB));
    nInfo++;
    if (quotaApplies) {
        CHECK_EQ(totalB, QUOTA);
        CHECK_EQ(freeB, QUOTA);
    } else {
        CHECK(totalB > QUOTA);
    }

    /* 1 MiB blocks (1 MiB + 32 bytes with the runtime's padding): three fit
     * the quota, the fourth does not. */
    void *blk[4] = {0};
    for (int i = 0; i < 4; i++) {
        nMalloc++;
        if (quotaApplies && i == 3) {
            CHECK_ERR(aclrtMalloc(&blk[i], MIB, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_ERROR_RT_MEMORY_ALLOCATION);
            blk[i] = NULL;
            continue;
        }
        CHECK_OK(aclrtMalloc(&blk[i], MIB, ACL_MEM_MALLOC_NORMAL_ONLY));
        nMallocOK++;
    }
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeB, &totalB));
    nInfo++;
    if (quotaApplies) CHECK_EQ(freeB, QUOTA - 3 * (MIB + 32));
    for (int i = 0; i < 4; i++) {
        if (blk[i] == NULL) continue;
        CHECK_OK(aclrtFree(blk[i]));
        nFree++;
    }

    /* A kernel launch each way: aclrtLaunchKernel (device argument block)
     * and aclrtLaunchKernelWithConfig (argument handle). */
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/echo.c", so, sizeof so) != 0) FAIL("cannot build the kernel");
    aclrtBinHandle bin;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryGetFunction(bin, "echo_args", &f));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    nStream++;
    void *out, *args;
    CHECK_OK(aclrtMalloc(&out, 2048, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_OK(aclrtMalloc(&args, 64, ACL_MEM_MALLOC_NORMAL_ONLY));
    nMalloc += 2;
    nMallocOK += 2;
    CHECK_OK(aclrtMemcpy(args, 64, &out, sizeof out, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtLaunchKernel(f, 1, args, sizeof out, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    uint64_t echoed = 0;
    CHECK_OK(aclrtMemcpy(&echoed, sizeof echoed, out, sizeof echoed, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(echoed, sizeof out); /* the kernel ran through the rt path */
    aclrtArgsHandle a;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(f, &a));
    CHECK_OK(aclrtKernelArgsAppend(a, &out, sizeof out, &p));
    CHECK_OK(aclrtKernelArgsFinalize(a));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtFree(out));
    CHECK_OK(aclrtFree(args));
    nFree += 2;

    /* What a limiter watches besides memory: device, events, waits. */
    int32_t dev = -1;
    CHECK_OK(aclrtGetDevice(&dev));
    CHECK_EQ(dev, 0);
    aclrtEvent e0, e1;
    CHECK_OK(aclrtCreateEvent(&e0));
    CHECK_OK(aclrtCreateEvent(&e1));
    CHECK_OK(aclrtRecordEvent(e0, s));
    CHECK_OK(aclrtRecordEvent(e1, s));
    CHECK_OK(aclrtStreamWaitEvent(s, e1));
    CHECK_OK(aclrtSynchronizeStream(s));
    float ms = -1;
    CHECK_OK(aclrtEventElapsedTime(&ms, e0, e1));
    CHECK(ms >= 0);
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_OK(aclrtDestroyEvent(e0));
    CHECK_OK(aclrtDestroyEvent(e1));

    /* Before the second library runs: the ACL program's own traffic. */
    long rtSeen = split ? 1 : 0;
    CHECK_EQ(count("rtMalloc"), rtSeen * nMalloc);
    CHECK_EQ(count("rtFree"), rtSeen * nFree);
    CHECK_EQ(count("rtMemGetInfoEx"), rtSeen * nInfo);
    CHECK_EQ(count("rtStreamCreate"), rtSeen * nStream);
    CHECK_EQ(count("rtLaunchKernelByFuncHandleV3"), rtSeen);
    CHECK_EQ(count("rtsLaunchKernelWithConfig"), rtSeen);
    CHECK_EQ(count("rtSetDevice"), rtSeen);
    CHECK_EQ(count("rtGetDevice"), rtSeen);
    CHECK_EQ(count("rtDeviceSynchronize"), rtSeen);
    CHECK_EQ(count("rtEventCreate"), rtSeen * 2);
    CHECK_EQ(count("rtEventRecord"), rtSeen * 2);
    CHECK_EQ(count("rtStreamWaitEvent"), rtSeen);
    CHECK_EQ(count("rtStreamSynchronize"), rtSeen * 3);
    CHECK_EQ(count("rtEventElapsedTime"), rtSeen);
    CHECK_EQ(count("rtMemcpy"), rtSeen * 2); /* the argument block in, the echo out */
    /* The runtime's driver calls cross in both layouts. A refusal at the
     * rt level never reaches the driver; one at the hal level does. */
    long halAllocs = strcmp(level, "hal") == 0 ? nMalloc : nMallocOK;
    CHECK_EQ(count("halMemAlloc"), halAllocs);
    CHECK_EQ(count("halMemFree"), nFree);
    CHECK_EQ(count("halMemGetInfo"), nInfo);

    /* A second library calling rt* directly is seen in both layouts. */
    void *lib = dlopen(getenv("RTCLIENT"), RTLD_NOW);
    if (lib == NULL) FAIL("dlopen rtclient: %s", dlerror());
    int (*run)(void) = (int (*)(void))dlsym(lib, "rtclient_run");
    CHECK(run != NULL);
    CHECK_EQ(run(), 0);
    CHECK_EQ(count("rtMalloc"), rtSeen * nMalloc + 1);
    CHECK_EQ(count("rtFree"), rtSeen * nFree + 1);
    CHECK_EQ(count("rtStreamCreate"), rtSeen * nStream + 1);
    CHECK_EQ(count("halMemAlloc"), halAllocs + 1);
    CHECK_EQ(count("halMemFree"), nFree + 1);

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("%s layout, %s-level quota: rt hooks %s the ACL program; hal hooks see it\n", layout, level,
           split ? "see" : "do not see");
    return 0;
}

/* runChild runs this program's ACL half under the interposer. */
static void runChild(const char *self, const char *preload, const char *client, const char *layout, const char *level) {
    char quota[32];
    snprintf(quota, sizeof quota, "%llu", QUOTA);
    setenv("NPUEMU_STACK", layout, 1);
    setenv("INTERPOSER_LEVEL", level, 1);
    setenv("INTERPOSER_QUOTA", quota, 1);
    setenv("RTCLIENT", client, 1);
    int st = stack_spawn(self, preload, "--child");
    if (!stack_ok(st)) FAIL("%s layout, %s-level quota: the ACL program failed (status %#x)", layout, level, st);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    char repo[4096], preload[4096], client[4096], self[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    stack_build(repo, "conformance/cases/stack/interposer.c", preload, sizeof preload);
    stack_build(repo, "conformance/cases/stack/rtclient.c", client, sizeof client);
    stack_self(self, sizeof self);
    runChild(self, preload, client, "split", "rt");
    runChild(self, preload, client, "merged", "rt");
    runChild(self, preload, client, "merged", "hal");
    runChild(self, preload, client, "split", "hal");
    unlink(preload);
    unlink(client);
    printf("interposition matches the split and merged layouts\n");
    return 0;
}
