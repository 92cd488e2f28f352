/* stack_routes: the aclrt* functions whose vendor implementation is one
 * rt* call (acl-to-rt.tsv) make that call across the libascendcl →
 * libruntime boundary in the split layout, so an LD_PRELOAD hook on the rt*
 * symbol (stack/route_hook.c) sees an unmodified ACL program's calls there,
 * and none of them in merged, where aclrt* → rt* binds inside
 * libruntime.so. A hook that refuses (rtMallocHost failing, rtGetDeviceCount
 * hiding a device) is what the ACL program gets in split; in merged the
 * program is unaffected, while a library calling rt* itself still meets it.
 * docs/stack.md lists the routed rows; all are checked here (the core-group
 * rows in a second child on a 310P with two groups), and a few of those
 * whose arguments ACL translates (stream flags, device limit, error
 * record) under a hook that changes their answers, and the rt* arguments
 * of others (limit type, reduce record, memory prop, pool properties,
 * the bytes of an aclrtBinary), and the user-data copies of an mbuf over
 * the area the hook reports.
 *
 * link: -lruntime -lascendcl
 * env: NPUEMU_DEVICES=2
 * needs: emulator devices=2
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "stack/harness.h"
#include "../../examples/kernels/build_kernel.h"
#include "acl/acl_rt_memory_soma.h"
#include "runtime/rt.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* aclrtQueryEvent */

#define N 4096
#define CHECK_RT(call, code) CHECK_EQ((int)(call), (int)(code))

static long count(const char *name) {
    long (*f)(const char *) = (long (*)(const char *))dlsym(RTLD_DEFAULT, "route_hook_count");
    if (f == NULL) FAIL("the hook is not loaded (LD_PRELOAD)");
    return f(name);
}

static int split;

/* The arguments of the last call of name the hook saw (route_hook.c). */
static const uint64_t *hookArgs(const char *name) {
    const uint64_t *(*f)(const char *) = (const uint64_t *(*)(const char *))dlsym(RTLD_DEFAULT, "route_hook_args");
    if (f == NULL) FAIL("the hook is not loaded (LD_PRELOAD)");
    const uint64_t *a = f(name);
    if (a == NULL) FAIL("the hook does not record %s", name);
    return a;
}

/* The RT_STREAM_* bits the hook's rtsStreamCreate last saw. */
static uint32_t hookCreateFlags(void) {
    uint32_t *p = (uint32_t *)dlsym(RTLD_DEFAULT, "route_hook_create_flags");
    if (p == NULL) FAIL("the hook is not loaded (LD_PRELOAD)");
    return *p;
}

/* SEEN: the hook on name saw n calls of the ACL program in split, none in
 * merged. */
#define SEEN(name, n) CHECK_EQ(count(name), split ? (long)(n) : 0L)

static int snapshots;

static uint32_t snapshot_cb(int32_t deviceId, void *args) {
    (void)deviceId;
    *(int *)args += 1;
    return 0;
}

static int child(void) {
    const char *layout = getenv("NPUEMU_STACK");
    split = layout != NULL && strcmp(layout, "split") == 0;
    const char *v = getenv("ROUTE_HOOK_REFUSE");
    int refuse = v != NULL && strcmp(v, "1") == 0;

    CHECK_OK(aclInit(NULL));
    uint32_t n = 0;
    CHECK_OK(aclrtGetDeviceCount(&n));
    CHECK_EQ(n, (refuse && split) ? 1u : 2u);
    SEEN("rtGetDeviceCount", 1);
    /* ACL's own argument check answers first: no rt call. */
    CHECK_ERR(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
    SEEN("rtGetDeviceCount", 1);

    aclrtContext ctx = NULL, cur = NULL;
    CHECK_OK(aclrtCreateContext(&ctx, 0));
    SEEN("rtCtxCreateEx", 1);
    CHECK_OK(aclrtGetCurrentContext(&cur));
    CHECK(cur == ctx);
    SEEN("rtCtxGetCurrent", 1);
    CHECK_OK(aclrtSetCurrentContext(ctx));
    SEEN("rtCtxSetCurrent", 1);

    void *host = NULL;
    if (refuse && split) {
        CHECK_RT(aclrtMallocHost(&host, N), ACL_ERROR_RT_MEMORY_ALLOCATION);
        CHECK(host == NULL);
    } else {
        CHECK_OK(aclrtMallocHost(&host, N));
        memset(host, 0, N);
    }
    SEEN("rtMallocHost", 1);
    CHECK_ERR(aclrtMallocHost(&host, 0), ACL_ERROR_INVALID_PARAM);
    SEEN("rtMallocHost", 1);

    void *dev = NULL;
    CHECK_OK(aclrtMalloc(&dev, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(dev, N, 0x5a, N));
    SEEN("rtMemset", 1);
    CHECK_OK(aclrtMemset(dev, N, 0x5a, 0)); /* count 0: no rt call */
    SEEN("rtMemset", 1);

    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtMemsetAsync(dev, N, 0x33, N / 2, s));
    SEEN("rtMemsetAsync", 1);
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEvent(&e));
    CHECK_OK(aclrtRecordEventWithFlag(e, s, ACL_EVENT_RECORD_DEFAULT));
    SEEN("rtEventRecord", 1);
    CHECK_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
    SEEN("rtStreamSynchronizeWithTimeout", 1);
    aclrtStreamStatus ss = ACL_STREAM_STATUS_NOT_READY;
    CHECK_OK(aclrtStreamQuery(s, &ss));
    CHECK_EQ(ss, ACL_STREAM_STATUS_COMPLETE);
    SEEN("rtStreamQuery", 1);
    aclrtEventStatus es = ACL_EVENT_STATUS_NOT_READY;
    CHECK_OK(aclrtQueryEvent(e, &es));
    CHECK_EQ(es, ACL_EVENT_STATUS_COMPLETE);
    SEEN("rtEventQuery", 1);
    /* Routed or not, the answer is the same: an event never recorded is
     * complete for aclrtQueryEvent. */
    aclrtEvent fresh = NULL;
    CHECK_OK(aclrtCreateEvent(&fresh));
    es = ACL_EVENT_STATUS_NOT_READY;
    CHECK_OK(aclrtQueryEvent(fresh, &es));
    CHECK_EQ(es, ACL_EVENT_STATUS_COMPLETE);
    SEEN("rtEventQuery", 2);
    CHECK_OK(aclrtDestroyEvent(fresh));
    aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;
    CHECK_OK(aclrtQueryEventWaitStatus(e, &ws));
    CHECK(ws == ACL_EVENT_WAIT_STATUS_COMPLETE || ws == ACL_EVENT_WAIT_STATUS_NOT_READY);
    SEEN("rtEventQueryWaitStatus", 1);
    aclmdlRICaptureStatus cs = (aclmdlRICaptureStatus)-1;
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureGetInfo(s, &cs, &ri));
    CHECK_EQ(cs, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    SEEN("rtStreamGetCaptureInfo", 1);
    CHECK_OK(aclrtSynchronizeDeviceWithTimeout(-1));
    SEEN("rtDeviceSynchronizeWithTimeout", 1);

    /* Routes whose arguments ACL translates (libfake/stack_route.c): the
     * hook gets the rt* form, the program the ACL form of the hook's
     * answer. */
    aclrtStream fs = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&fs, 0, ACL_STREAM_FAST_LAUNCH));
    SEEN("rtsStreamCreate", 1);
    if (split) CHECK_EQ(hookCreateFlags(), RT_STREAM_FAST_LAUNCH);
    uint32_t sf = 0;
    CHECK_OK(aclrtStreamGetFlags(fs, &sf));
    CHECK_EQ(sf, (refuse && split) ? (ACL_STREAM_FAST_LAUNCH | ACL_STREAM_HUGE) : ACL_STREAM_FAST_LAUNCH);
    SEEN("rtStreamGetFlags", 1);
    CHECK_ERR(aclrtStreamGetFlags(fs, NULL), ACL_ERROR_INVALID_PARAM);
    SEEN("rtStreamGetFlags", 1);
    CHECK_OK(aclrtDestroyStream(fs));
    size_t lim = 0;
    CHECK_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &lim));
    CHECK_EQ(lim, (refuse && split) ? 65536u : 32768u);
    SEEN("rtDeviceGetLimit", 1);
    CHECK_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 40000));
    SEEN("rtDeviceSetLimit", 1);
    if (split) {
        const uint64_t *a = hookArgs("rtDeviceSetLimit");
        CHECK(a[0] == 0 && a[1] == RT_LIMIT_TYPE_STACK_SIZE && a[2] == 40000);
    }
    CHECK_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &lim));
    CHECK_EQ(lim, (refuse && split) ? 65536u : 49152u); /* rounded up to 16 KiB */
    SEEN("rtDeviceGetLimit", 2);
    CHECK_ERR(aclrtDeviceSetLimit((aclrtDeviceLimit)99, 40000), ACL_ERROR_INVALID_PARAM); /* no rt type: ACL refuses */
    SEEN("rtDeviceSetLimit", 1);

    /* The records and enums the hook gets: an rtReduceInfo_t with the
     * rtDataType of the ACL type, the rtDrvMemProp_t of a physical-memory
     * prop (module APP, 33), an rtMemPoolProps of the pool properties. */
    void *ra = NULL, *rb = NULL;
    CHECK_OK(aclrtMalloc(&ra, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&rb, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtReduceAsync(ra, rb, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, s, NULL));
    SEEN("rtsLaunchReduceAsyncTask", 1);
    if (split) {
        const uint64_t *a = hookArgs("rtsLaunchReduceAsyncTask");
        CHECK(a[0] == RT_MEMCPY_SDMA_AUTOMATIC_ADD && a[1] == RT_DATA_TYPE_INT32 && a[2] == 64);
    }
    CHECK_ERR(aclrtReduceAsync(ra, rb, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_UINT8, s, NULL), ACL_ERROR_INVALID_PARAM);
    SEEN("rtsLaunchReduceAsyncTask", 1);
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtFree(ra));
    CHECK_OK(aclrtFree(rb));
    aclrtPhysicalMemProp pp;
    memset(&pp, 0, sizeof pp);
    pp.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    pp.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    pp.memAttr = ACL_HBM_MEM_HUGE;
    pp.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    pp.location.id = 1;
    size_t g = 0;
    CHECK_OK(aclrtMemGetAllocationGranularity(&pp, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g));
    CHECK_EQ(g, (size_t)2 << 20);
    SEEN("rtMemGetAllocationGranularity", 1);
    if (split) {
        const uint64_t *a = hookArgs("rtMemGetAllocationGranularity");
        CHECK(a[0] == 1 /* MEM_DEV_SIDE */ && a[1] == 1 && a[2] == 33 && a[3] == RT_MEM_ALLOC_GRANULARITY_RECOMMENDED);
    }
    pp.allocationType = (aclrtMemAllocationType)7; /* ACL refuses the prop: no rt call */
    CHECK_ERR(aclrtMemGetAllocationGranularity(&pp, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g), ACL_ERROR_INVALID_PARAM);
    SEEN("rtMemGetAllocationGranularity", 1);
    aclrtMemPoolProps mp;
    memset(&mp, 0, sizeof mp);
    mp.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    mp.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    mp.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    mp.location.id = 1;
    mp.maxSize = 64u << 20;
    aclrtMemPool pool = NULL;
    CHECK_OK(aclrtMemPoolCreate(&pool, &mp));
    SEEN("rtMemPoolCreate", 1);
    if (split) {
        const uint64_t *a = hookArgs("rtMemPoolCreate");
        CHECK(a[0] == 1 /* MEM_DEV_SIDE */ && a[1] == 1 && a[2] == RT_MEM_HANDLE_TYPE_NONE && a[3] == (64u << 20));
    }
    CHECK_OK(aclrtMemPoolDestroy(pool));
    /* aclrtBinaryLoad hands the runtime the bytes its aclrtBinary holds
     * (here no kernel binary: the load fails, or the hook refuses it). */
    static const char junk[16] = "not a kernel";
    aclrtBinary bin = aclrtCreateBinary(junk, sizeof junk);
    CHECK(bin != NULL);
    aclrtBinHandle bh = NULL;
    if (refuse && split)
        CHECK_RT(aclrtBinaryLoad(bin, &bh), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    else
        CHECK_FAILS(aclrtBinaryLoad(bin, &bh));
    SEEN("rtBinaryLoadWithoutTilingKey", 1);
    if (split) {
        const uint64_t *a = hookArgs("rtBinaryLoadWithoutTilingKey");
        CHECK(a[0] == (uint64_t)(uintptr_t)junk && a[1] == sizeof junk);
    }
    CHECK_ERR(aclrtBinaryLoad(bin, NULL), ACL_ERROR_INVALID_PARAM);
    SEEN("rtBinaryLoadWithoutTilingKey", 1);
    CHECK_OK(aclrtDestroyBinary(bin));
    aclrtErrorInfo ei;
    memset(&ei, 0xff, sizeof ei);
    CHECK_OK(aclrtGetErrorVerbose(0, &ei));
    if (refuse && split) {
        CHECK_EQ(ei.errorType, ACL_RT_ERROR_MEMORY);
        CHECK(ei.tryRepair == 1 && ei.hasDetail == 1);
        CHECK_EQ(ei.detail.uceInfo.arraySize, 1u);
        CHECK(ei.detail.uceInfo.memUceInfoArray[0].addr == (void *)0x1000);
        CHECK_EQ(ei.detail.uceInfo.memUceInfoArray[0].len, 4096u);
    } else {
        CHECK_EQ(ei.errorType, ACL_RT_NO_ERROR);
    }
    SEEN("rtsGetErrorVerbose", 1);

    uint8_t out[N];
    CHECK_OK(aclrtMemcpy(out, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(out[0] == 0x33 && out[N / 2 - 1] == 0x33 && out[N / 2] == 0x5a && out[N - 1] == 0x5a);

    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFree(dev));
    if (host != NULL) {
        CHECK_OK(aclrtFreeHost(host));
        SEEN("rtFreeHost", 1);
    }
    CHECK_OK(aclrtDestroyContext(ctx));
    SEEN("rtCtxDestroyEx", 1);

    /* Shared buffers and the process snapshot are one rt* call each too. */
    CHECK_OK(aclrtSetDevice(0));
    aclrtMbuf h = NULL, m = NULL, ref = NULL, got = NULL;
    CHECK_OK(aclrtAllocBuf(&h, 64));
    CHECK_OK(aclrtAllocBuf(&m, 64));
    SEEN("rtMbufAlloc", 2);
    CHECK_ERR(aclrtAllocBuf(&got, 0), ACL_ERROR_INVALID_PARAM);
    SEEN("rtMbufAlloc", 2);
    CHECK_OK(aclrtSetBufDataLen(m, 10));
    SEEN("rtMbufSetDataLen", 1);
    size_t len = 0;
    CHECK_OK(aclrtGetBufDataLen(m, &len));
    CHECK_EQ(len, 10);
    SEEN("rtMbufGetDataLen", 1);
    /* The user-data copies are rtMbufGetPrivInfo and ACL's copy of the
     * area it reports: the refusing hook's own area in split. */
    char ud[8] = {0};
    CHECK_OK(aclrtSetBufUserData(m, "abcdefg", 8, 4));
    SEEN("rtMbufGetPrivInfo", 1);
    CHECK_OK(aclrtGetBufUserData(m, ud, sizeof ud, 4));
    SEEN("rtMbufGetPrivInfo", 2);
    CHECK(memcmp(ud, "abcdefg", 8) == 0);
    if (refuse && split) {
        const char *area = (const char *)dlsym(RTLD_DEFAULT, "route_hook_priv");
        CHECK(area != NULL && memcmp(area + 4, "abcdefg", 8) == 0);
        CHECK_ERR(aclrtGetBufUserData(m, ud, 8, 9), ACL_ERROR_INVALID_PARAM); /* past the hook's 16 bytes */
        SEEN("rtMbufGetPrivInfo", 3);
    }
    CHECK_ERR(aclrtGetBufUserData(m, ud, 0, 0), ACL_ERROR_INVALID_PARAM); /* ACL's own check: no rt call */
    SEEN("rtMbufGetPrivInfo", (refuse && split) ? 3 : 2);
    CHECK_OK(aclrtAppendBufChain(h, m));
    SEEN("rtMbufChainAppend", 1);
    uint32_t num = 0;
    CHECK_OK(aclrtGetBufChainNum(h, &num));
    CHECK_EQ(num, 2u);
    SEEN("rtMbufChainGetMbufNum", 1);
    CHECK_OK(aclrtGetBufFromChain(h, 1, &got));
    CHECK(got == m);
    SEEN("rtMbufChainGetMbuf", 1);
    CHECK_OK(aclrtCopyBufRef(h, &ref));
    CHECK(ref != NULL && ref != h);
    SEEN("rtMbufCopyBufRef", 1);
    CHECK_OK(aclrtFreeBuf(ref));
    CHECK_OK(aclrtFreeBuf(h)); /* the whole chain */
    SEEN("rtMbufFree", 2);

    int pid = (int)getpid();
    CHECK_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, snapshot_cb, &snapshots));
    SEEN("rtSnapShotCallbackRegister", 1);
    CHECK_OK(aclrtSnapShotProcessLock(pid, NULL));
    CHECK(snapshots >= 1);
    SEEN("rtSnapShotProcessLock", 1);
    CHECK_ERR(aclrtSnapShotProcessUnlock(pid + 100000, NULL), ACL_ERROR_INVALID_PARAM); /* ACL's own check */
    SEEN("rtSnapShotProcessUnlock", 0);
    CHECK_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    SEEN("rtSnapShotProcessUnlock", 1);
    CHECK_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, snapshot_cb));
    SEEN("rtSnapShotCallbackUnregister", 1);
    CHECK_OK(aclrtResetDevice(0));

    /* A library calling the runtime itself meets the hook in both layouts. */
    long before = count("rtMallocHost");
    void *h2 = NULL;
    CHECK_RT(rtMallocHost(&h2, N, 33), refuse ? ACL_ERROR_RT_MEMORY_ALLOCATION : ACL_RT_SUCCESS);
    CHECK_EQ(count("rtMallocHost"), before + 1);
    if (h2 != NULL) CHECK_RT(rtFreeHost(h2), ACL_RT_SUCCESS);
    CHECK_OK(aclFinalize());
    printf("%s layout, ROUTE_HOOK_REFUSE=%s: the rt hooks see %s\n", layout, v,
           split ? "every routed ACL call" : "none of the ACL calls");
    return 0;
}

/* groupChild: the core-group rows, on a 310P with two groups. */
static int groupChild(void) {
    const char *layout = getenv("NPUEMU_STACK");
    split = layout != NULL && strcmp(layout, "split") == 0;
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    uint32_t n = 0;
    CHECK_OK(aclrtGetGroupCount(&n));
    CHECK_EQ(n, 2u);
    SEEN("rtGetGroupCount", 1);
    CHECK_ERR(aclrtGetGroupCount(NULL), ACL_ERROR_INVALID_PARAM);
    SEEN("rtGetGroupCount", 1);
    /* aclrtGetGroupInfoDetail checks the index against rtGetGroupCount's
     * answer, then reads ACL's object: a hook showing one group hides the
     * second in split. */
    aclrtGroupInfo *gi = aclrtCreateGroupInfo();
    CHECK(gi != NULL);
    CHECK_OK(aclrtGetAllGroupInfo(gi));
    int32_t gid = -1;
    size_t gsz = 0;
    CHECK_OK(aclrtGetGroupInfoDetail(gi, 1, ACL_GROUP_GROUPID_INT, &gid, sizeof gid, &gsz));
    CHECK(gid == 1 && gsz == sizeof gid);
    SEEN("rtGetGroupCount", 2);
    setenv("ROUTE_HOOK_GROUP_COUNT", "1", 1);
    if (split)
        CHECK_ERR(aclrtGetGroupInfoDetail(gi, 1, ACL_GROUP_GROUPID_INT, &gid, sizeof gid, &gsz), ACL_ERROR_INVALID_PARAM);
    else
        CHECK_OK(aclrtGetGroupInfoDetail(gi, 1, ACL_GROUP_GROUPID_INT, &gid, sizeof gid, &gsz));
    SEEN("rtGetGroupCount", 3);
    CHECK_OK(aclrtGetGroupInfoDetail(gi, 0, ACL_GROUP_GROUPID_INT, &gid, sizeof gid, &gsz));
    CHECK_EQ(gid, 0);
    SEEN("rtGetGroupCount", 4);
    unsetenv("ROUTE_HOOK_GROUP_COUNT");
    CHECK_OK(aclrtDestroyGroupInfo(gi));
    CHECK_OK(aclrtSetGroup(1));
    SEEN("rtSetGroup", 1);
    CHECK_ERR(aclrtSetGroup(2), ACL_ERROR_RT_GROUP_NOT_CREATE);
    SEEN("rtSetGroup", 2);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("%s layout, 310P: the rt hooks see %s\n", layout, split ? "the group calls" : "none of them");
    return 0;
}

/* runChild runs the ACL half under the hook; refuse "group" runs the
 * core-group half instead, on a 310P with two groups. */
static void runChild(const char *self, const char *preload, const char *layout, const char *refuse) {
    setenv("NPUEMU_STACK", layout, 1);
    setenv("ROUTE_HOOK_REFUSE", refuse, 1);
    int group = strcmp(refuse, "group") == 0;
    if (group) {
        setenv("NPUEMU_SOC", "Ascend310P3", 1);
        setenv("NPUEMU_CORE_GROUPS", "2", 1);
    }
    int st = stack_spawn(self, preload, group ? "--group" : "--child");
    if (group) {
        unsetenv("NPUEMU_SOC");
        unsetenv("NPUEMU_CORE_GROUPS");
    }
    if (!stack_ok(st))
        FAIL("%s layout, ROUTE_HOOK_REFUSE=%s: the ACL program failed (status %#x)", layout, refuse, st);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    if (argc > 1 && strcmp(argv[1], "--group") == 0) return groupChild();
    char repo[4096], preload[4096], self[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    stack_build(repo, "conformance/cases/stack/route_hook.c", preload, sizeof preload);
    stack_self(self, sizeof self);
    runChild(self, preload, "merged", "0");
    runChild(self, preload, "merged", "1");
    runChild(self, preload, "split", "0");
    runChild(self, preload, "split", "1");
    runChild(self, preload, "merged", "group");
    runChild(self, preload, "split", "group");
    unlink(preload);
    printf("the one-call aclrt* rows cross into libruntime.so in split, bind inside in merged\n");
    return 0;
}
