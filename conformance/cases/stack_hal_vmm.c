/* stack_hal_vmm: the VMM queries, physical-memory sharing, managed-memory
 * and host-pointer calls cross into the driver as on the real stack
 * (rt-to-hal.tsv): aclrtMemSetAccess → rtMemSetAccess → halMemSetAccess,
 * aclrtMemGetAccess → halMemGetAccess, aclrtMemGetAllocationGranularity →
 * halMemGetAllocationGranularity, aclrtMemRetainAllocationHandle →
 * halMemRetainAllocationHandle, aclrtMemGetAddressRange →
 * halMemGetAddressRange, aclrtMemGetAllocationPropertiesFromHandle →
 * halMemGetAllocationPropertiesFromHandle, the shareable-handle calls →
 * halMem{Export,Import}*ShareableHandle(V2) and
 * halMemSetPidToShareableHandle, aclrtMemManagedAdvise →
 * halMemManagedAdvise, aclrtMemManagedGetAttr(s) →
 * halMemManagedRangeGetAttributes (one call for all attributes),
 * aclrtHostGetDevicePointer → halMemHostGetDevPointer. The rt → hal step
 * crosses into libascend_hal.so in both layouts (docs/stack.md), so an
 * LD_PRELOAD hook on the driver (stack/vmm_hook.c) sees each ACL call once
 * and each direct rt* call once, in merged and split alike. A hook that
 * refuses is what the program gets: its drvError_t converted
 * (DRV_ERROR_NOT_SUPPORT → ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
 * DRV_ERROR_OPER_NOT_PERMITTED → ACL_ERROR_RT_NO_PERMISSION), and its
 * changed answers (granularity, access flags) are the program's; what was
 * accepted before stays (the mapping still reads back what was written).
 *
 * link: -lruntime -lascendcl -lascend_hal
 * env: NPUEMU_SVM_HOST_FAULTS=explicit
 * needs: emulator
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "stack/harness.h"
#include "../../examples/kernels/build_kernel.h" /* npuemu_repo_of */
#include "acl/acl.h"
#include "driver/ascend_hal.h"
#include "runtime/rt.h"

#define MiB (1024ull * 1024ull)
#define CHECK_RT(call, code) CHECK_EQ((int)(call), (int)(code))

static long count(const char *name) {
    long (*f)(const char *) = (long (*)(const char *))dlsym(RTLD_DEFAULT, "vmm_hook_count");
    if (f == NULL) FAIL("the hook is not loaded (LD_PRELOAD)");
    return f(name);
}

static aclrtPhysicalMemProp devProp(void) {
    aclrtPhysicalMemProp p;
    memset(&p, 0, sizeof p);
    p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    p.memAttr = ACL_HBM_MEM_HUGE;
    p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    return p;
}

/* The VMM queries over one mapped physical allocation. */
static void vmmQueries(int refused) {
    aclrtPhysicalMemProp prop = devProp();
    size_t g = 0;
    CHECK_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    CHECK_EQ(g, refused ? 64 * MiB : 2 * MiB);
    CHECK_EQ(count("halMemGetAllocationGranularity"), 1);
    /* ACL's own argument check answers before the driver is asked. */
    CHECK_ERR(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(count("halMemGetAllocationGranularity"), 1);
    rtDrvMemProp_t rp;
    memset(&rp, 0, sizeof rp);
    rp.side = 1;    /* MEM_DEV_SIDE */
    rp.pg_type = 1; /* MEM_HUGE_PAGE_TYPE */
    g = 0;
    CHECK_RT(rtMemGetAllocationGranularity(&rp, RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_RT_SUCCESS);
    CHECK_EQ(g, refused ? 64 * MiB : 2 * MiB);
    CHECK_EQ(count("halMemGetAllocationGranularity"), 2);

    void *va = NULL;
    aclrtDrvMemHandle h = NULL;
    CHECK_OK(aclrtReserveMemAddress(&va, 2 * MiB, 0, NULL, 0));
    CHECK_OK(aclrtMallocPhysical(&h, 2 * MiB, &prop, 0));
    CHECK_OK(aclrtMapMem(va, 2 * MiB, 0, h, 0));
    static uint8_t in[4096], out[4096];
    for (int i = 0; i < 4096; i++) in[i] = (uint8_t)(i * 7 + 3);
    CHECK_OK(aclrtMemcpy(va, sizeof in, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE));

    aclrtMemAccessDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    desc.location.id = 0;
    aclrtMemLocation loc = desc.location;
    uint64_t flags = 0;
    rtMemAccessDesc rdesc;
    memset(&rdesc, 0, sizeof rdesc);
    rdesc.flags = RT_MEM_ACCESS_FLAGS_READWRITE;
    rdesc.location.type = RT_MEMORY_LOC_DEVICE;
    rtMemLocation rloc = rdesc.location;
    if (refused) {
        CHECK_ERR(aclrtMemSetAccess(va, 2 * MiB, &desc, 1), ACL_ERROR_RT_NO_PERMISSION);
        CHECK_RT(rtMemSetAccess(va, 2 * MiB, &rdesc, 1), ACL_ERROR_RT_NO_PERMISSION);
    } else {
        CHECK_OK(aclrtMemSetAccess(va, 2 * MiB, &desc, 1));
        CHECK_RT(rtMemSetAccess(va, 2 * MiB, &rdesc, 1), ACL_RT_SUCCESS);
    }
    CHECK_EQ(count("halMemSetAccess"), 2);
    CHECK_OK(aclrtMemGetAccess(va, &loc, &flags));
    CHECK_EQ(flags, refused ? (uint64_t)ACL_RT_MEM_ACCESS_FLAGS_READ : (uint64_t)ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    flags = 0;
    CHECK_RT(rtMemGetAccess(va, &rloc, &flags), ACL_RT_SUCCESS);
    CHECK_EQ(flags, refused ? (uint64_t)RT_MEM_ACCESS_FLAGS_READ : (uint64_t)RT_MEM_ACCESS_FLAGS_READWRITE);
    CHECK_EQ(count("halMemGetAccess"), 2);

    aclrtDrvMemHandle r = NULL;
    void *base = NULL;
    size_t size = 0;
    aclrtPhysicalMemProp back;
    rtDrvMemProp_t rback;
    if (refused) {
        CHECK_ERR(aclrtMemRetainAllocationHandle(va, &r), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_RT(rtMemRetainAllocationHandle(va, &r), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_ERR(aclrtMemGetAddressRange((char *)va + 100, &base, &size), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_RT(rtMemGetAddressRange((char *)va + 100, &base, &size), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_ERR(aclrtMemGetAllocationPropertiesFromHandle(h, &back), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_RT(rtMemGetAllocationPropertiesFromHandle(h, &rback), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    } else {
        CHECK_OK(aclrtMemRetainAllocationHandle(va, &r));
        CHECK(r == h);
        CHECK_OK(aclrtFreePhysical(r));
        r = NULL;
        CHECK_RT(rtMemRetainAllocationHandle(va, &r), ACL_RT_SUCCESS);
        CHECK(r == h);
        CHECK_OK(aclrtFreePhysical(r));
        CHECK_OK(aclrtMemGetAddressRange((char *)va + 100, &base, &size));
        CHECK(base == va && size == 2 * MiB);
        base = NULL;
        CHECK_RT(rtMemGetAddressRange((char *)va + 100, &base, NULL), ACL_RT_SUCCESS);
        CHECK(base == va);
        CHECK_OK(aclrtMemGetAllocationPropertiesFromHandle(h, &back));
        CHECK_EQ(back.memAttr, ACL_HBM_MEM_HUGE);
        CHECK_EQ(back.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
        CHECK_RT(rtMemGetAllocationPropertiesFromHandle(h, &rback), ACL_RT_SUCCESS);
        CHECK_EQ(rback.side, 1);
        CHECK_EQ(rback.pg_type, 1);
    }
    CHECK_EQ(count("halMemRetainAllocationHandle"), 2);
    CHECK_EQ(count("halMemGetAddressRange"), 2);
    CHECK_EQ(count("halMemGetAllocationPropertiesFromHandle"), 2);

    /* Nothing accepted before is lost: the mapping reads back. */
    memset(out, 0, sizeof out);
    CHECK_OK(aclrtMemcpy(out, sizeof out, va, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(in, out, sizeof in) == 0);
    CHECK_OK(aclrtUnmapMem(va));
    CHECK_OK(aclrtFreePhysical(h));
    CHECK_OK(aclrtReleaseMemAddress(va));
}

/* Sharing: export, whitelist, import, V1 and V2 (this process imports
 * what it exported, whitelisting itself). */
static void sharing(int refused) {
    aclrtPhysicalMemProp prop = devProp();
    aclrtDrvMemHandle h1 = NULL, h2 = NULL, i1 = NULL, i2 = NULL;
    CHECK_OK(aclrtMallocPhysical(&h1, 2 * MiB, &prop, 0));
    CHECK_OK(aclrtMallocPhysical(&h2, 2 * MiB, &prop, 0));
    int32_t pid = (int32_t)getpid();
    uint64_t s1 = 0, s2 = 0;
    if (refused) {
        CHECK_ERR(aclrtMemExportToShareableHandle(h1, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &s1),
                  ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_ERR(aclrtMemExportToShareableHandleV2(h2, ACL_RT_VMM_EXPORT_FLAG_DEFAULT, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &s2),
                  ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        /* Handles of the node are made up of a tag and an id; these were
         * never exported, the hook refuses before the driver looks. */
        s1 = s2 = 1;
        CHECK_ERR(aclrtMemSetPidToShareableHandle(s1, &pid, 1), ACL_ERROR_RT_NO_PERMISSION);
        CHECK_ERR(aclrtMemSetPidToShareableHandleV2(&s2, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &pid, 1), ACL_ERROR_RT_NO_PERMISSION);
        CHECK_ERR(aclrtMemImportFromShareableHandle(s1, 0, &i1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_ERR(aclrtMemImportFromShareableHandleV2(&s2, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &i2),
                  ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK(i1 == NULL && i2 == NULL);
    } else {
        CHECK_OK(aclrtMemExportToShareableHandle(h1, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &s1));
        CHECK_OK(aclrtMemExportToShareableHandleV2(h2, ACL_RT_VMM_EXPORT_FLAG_DEFAULT, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &s2));
        CHECK(s1 != 0 && s2 != 0 && s1 != s2);
        CHECK_OK(aclrtMemSetPidToShareableHandle(s1, &pid, 1));
        CHECK_OK(aclrtMemSetPidToShareableHandleV2(&s2, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &pid, 1));
        CHECK_OK(aclrtMemImportFromShareableHandle(s1, 0, &i1));
        CHECK_OK(aclrtMemImportFromShareableHandleV2(&s2, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &i2));
        CHECK(i1 != NULL && i2 != NULL);
        /* An import maps to the exporter's memory. */
        void *va = NULL, *vb = NULL;
        CHECK_OK(aclrtReserveMemAddress(&va, 2 * MiB, 0, NULL, 0));
        CHECK_OK(aclrtReserveMemAddress(&vb, 2 * MiB, 0, NULL, 0));
        CHECK_OK(aclrtMapMem(va, 2 * MiB, 0, h1, 0));
        CHECK_OK(aclrtMapMem(vb, 2 * MiB, 0, i1, 0));
        static uint8_t in[256], out[256];
        for (int i = 0; i < 256; i++) in[i] = (uint8_t)(i ^ 0x5a);
        CHECK_OK(aclrtMemcpy(va, sizeof in, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_OK(aclrtMemcpy(out, sizeof out, vb, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(memcmp(in, out, sizeof in) == 0);
        CHECK_OK(aclrtUnmapMem(va));
        CHECK_OK(aclrtUnmapMem(vb));
        CHECK_OK(aclrtReleaseMemAddress(va));
        CHECK_OK(aclrtReleaseMemAddress(vb));
        CHECK_OK(aclrtFreePhysical(i1));
        CHECK_OK(aclrtFreePhysical(i2));
    }
    CHECK_EQ(count("halMemExportToShareableHandle"), 1);
    CHECK_EQ(count("halMemExportToShareableHandleV2"), 1);
    CHECK_EQ(count("halMemSetPidToShareableHandle"), 2);
    CHECK_EQ(count("halMemImportFromShareableHandle"), 1);
    CHECK_EQ(count("halMemImportFromShareableHandleV2"), 1);
    /* The physical memory outlives a refused export. */
    CHECK_OK(aclrtFreePhysical(h1));
    CHECK_OK(aclrtFreePhysical(h2));
}

/* Managed memory: one advice, attributes one and two at a time. */
static void managed(int refused) {
    void *m = NULL;
    CHECK_OK(aclrtMemAllocManaged(&m, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL));
    aclrtMemManagedLocation dev0 = {.type = ACL_MEM_LOCATIONTYPE_DEVICE, .id = 0};
    int32_t mostly = -1, pref = -7;
    void *data[2] = {&mostly, &pref};
    size_t sizes[2] = {4, 4};
    aclrtMemManagedRangeAttribute attrs[2] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                              ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION};
    if (refused) {
        CHECK_ERR(aclrtMemManagedAdvise(m, 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, dev0),
                  ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 2 * MiB, &mostly, 4),
                  ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_ERR(aclrtMemManagedGetAttrs(attrs, 2, m, 2 * MiB, data, sizes), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_RT(rtMemManagedGetAttr(rtMemRangeAttributeReadMostly, m, 2 * MiB, &mostly, 4), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_EQ(mostly, -1);
    } else {
        CHECK_OK(aclrtMemManagedAdvise(m, 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, dev0));
        CHECK_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 2 * MiB, &mostly, 4));
        CHECK_EQ(mostly, 0);
        mostly = -1;
        CHECK_OK(aclrtMemManagedGetAttrs(attrs, 2, m, 2 * MiB, data, sizes));
        CHECK_EQ(mostly, 0);
        CHECK_EQ(pref, 0);
        mostly = -1;
        CHECK_RT(rtMemManagedGetAttr(rtMemRangeAttributeReadMostly, m, 2 * MiB, &mostly, 4), ACL_RT_SUCCESS);
        CHECK_EQ(mostly, 0);
    }
    CHECK_EQ(count("halMemManagedAdvise"), 1);
    CHECK_EQ(count("halMemManagedRangeGetAttributes"), 3);
    /* The reserved attributes are ACL's to refuse, before the driver. */
    CHECK_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 2 * MiB, &mostly, 4),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_EQ(count("halMemManagedRangeGetAttributes"), 3);
    CHECK_OK(aclrtFree(m));
}

/* Mapped host memory: the device pointer of a registration. */
static void hostPointer(int refused) {
    void *p = NULL, *dp = NULL, *q = NULL;
    CHECK(posix_memalign(&p, 4096, 8192) == 0);
    CHECK_OK(aclrtHostRegister(p, 8192, ACL_HOST_REGISTER_MAPPED, &dp));
    if (refused) {
        CHECK_ERR(aclrtHostGetDevicePointer(p, &q, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_RT(rtHostGetDevicePointer(p, &q, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK(q == NULL);
    } else {
        CHECK_OK(aclrtHostGetDevicePointer(p, &q, 0));
        CHECK(q == dp);
        q = NULL;
        CHECK_RT(rtHostGetDevicePointer(p, &q, 0), ACL_RT_SUCCESS);
        CHECK(q == dp);
    }
    CHECK_EQ(count("halMemHostGetDevPointer"), 2);
    CHECK_OK(aclrtHostUnregister(p));
    free(p);
}

static int child(void) {
    const char *v = getenv("VMM_HOOK_REFUSE");
    const char *layout = getenv("NPUEMU_STACK");
    int refused = v != NULL && strcmp(v, "1") == 0;
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    vmmQueries(refused);
    sharing(refused);
    managed(refused);
    hostPointer(refused);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("%s layout, VMM_HOOK_REFUSE=%s: the hook sees and decides the VMM, sharing, managed and host-pointer calls\n",
           layout, v);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    static const char *const runs[] = STACK_BOTH_LAYOUTS;
    stack_run_under(__FILE__, "conformance/cases/stack/vmm_hook.c", "VMM_HOOK_REFUSE", runs);
    printf("a hook on the driver's VMM, sharing, managed and host-pointer calls sees and decides them in both layouts\n");
    return 0;
}
