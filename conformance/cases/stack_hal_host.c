/* stack_hal_host: host memory registration and IPC shared memory cross into
 * the driver as on the real stack (acl-to-rt.tsv, rt-to-hal.tsv):
 * aclrtHostRegister → rtsHostRegister and aclrtHostRegisterV2 →
 * rtHostRegisterV2 → halHostRegister (HOST_MEM_MAP_DEV when mapped,
 * HOST_MEM_MAP_DMA when only pinned), aclrtHostUnregister →
 * rtsHostUnregister → halHostUnregisterEx (with the map type registered),
 * aclrtHostMemMapCapabilities → rtHostMemMapCapabilities →
 * halHostRegisterCapabilities, aclrtIpcMemGetExportKey →
 * rtsIpcMemGetExportKey → halShmemCreateHandle (+ halShmemSetAttribute for
 * DISABLE_PID_VALIDATION), aclrtIpcMemSetImportPid → halShmemSetPidHandle,
 * aclrtIpcMemImportByKey → halShmemOpenHandle, aclrtIpcMemClose →
 * halShmemCloseHandle (an import) or halShmemDestroyHandle (the export),
 * aclrtIpcMemSetAttr → rtIpcSetMemoryAttr → halShmemSetAttribute. The
 * rt → hal step crosses into libascend_hal.so in both layouts, so an
 * LD_PRELOAD hook on the driver calls (stack/host_hook.c) sees the ACL
 * program's calls, and the runtime's own rt* calls, once each in merged and
 * split alike; a forwarding hook changes nothing, and a hook with limits of
 * its own is what the program gets: a refused registration or export is
 * the driver's code converted (rt-types.md §8.4), what was accepted before
 * stays, and an export refused half-way is withdrawn.
 *
 * link: -lruntime -lascendcl -lascend_hal
 * env: NPUEMU_SOC=Ascend910_9362
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
#include "driver/ascend_hal.h"
#include "runtime/rt.h"

#define CHECK_RT(call, code) CHECK_EQ((int)(call), (int)(code))
#define SMALL (16 * 1024)       /* within the hook's pinned-memory quota */
#define BIG (1024 * 1024)       /* beyond it */
#define SHARE (2 * 1024 * 1024) /* within the hook's sharing quota */

static long hook(const char *fn, const char *name) {
    long (*f)(const char *) = (long (*)(const char *))dlsym(RTLD_DEFAULT, fn);
    if (f == NULL) FAIL("the hook is not loaded (LD_PRELOAD)");
    return f(name);
}
static long count(const char *name) { return hook("host_hook_count", name); }
static long last(const char *name) { return hook("host_hook_last", name); }

/* registration: aclrtHostRegister(V2), the runtime's own calls, and
 * aclrtHostUnregister under the hook. */
static void registration(int refused) {
    char *a = aligned_alloc(4096, SMALL), *b = aligned_alloc(4096, BIG);
    CHECK(a != NULL && b != NULL);
    void *dp = NULL;
    CHECK_OK(aclrtHostRegister(a, SMALL, ACL_HOST_REGISTER_MAPPED, &dp));
    CHECK(dp == a);
    CHECK_EQ(count("halHostRegister"), 1);
    CHECK_EQ(last("halHostRegister"), HOST_MEM_MAP_DEV);
    /* ACL's own argument checks answer before the driver is asked. */
    CHECK_ERR(aclrtHostRegister(NULL, SMALL, ACL_HOST_REGISTER_MAPPED, &dp), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtHostRegisterV2(b, BIG, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(count("halHostRegister"), 1);

    long unreg = 0;
    if (refused) {
        /* Beyond the hook's quota: the driver's DRV_ERROR_OUT_OF_MEMORY,
         * converted, from both ACL calls and the runtime's own. */
        CHECK_ERR(aclrtHostRegister(b, BIG, ACL_HOST_REGISTER_MAPPED, &dp), ACL_ERROR_RT_MEMORY_ALLOCATION);
        CHECK_ERR(aclrtHostRegisterV2(b, BIG, ACL_HOST_REG_PINNED), ACL_ERROR_RT_MEMORY_ALLOCATION);
        CHECK_EQ(last("halHostRegister"), HOST_MEM_MAP_DMA);
        CHECK_RT(rtsHostRegister(b, BIG, RT_HOST_REGISTER_MAPPED, &dp), ACL_ERROR_RT_MEMORY_ALLOCATION);
        CHECK_EQ(count("halHostRegister"), 4);
        CHECK_FAILS(aclrtHostGetDevicePointer(b, &dp, 0)); /* nothing was registered */
    } else {
        /* Pinned only: HOST_MEM_MAP_DMA, no device address. */
        CHECK_OK(aclrtHostRegisterV2(b, BIG, ACL_HOST_REG_PINNED));
        CHECK_EQ(count("halHostRegister"), 2);
        CHECK_EQ(last("halHostRegister"), HOST_MEM_MAP_DMA);
        CHECK_FAILS(aclrtHostGetDevicePointer(b, &dp, 0));
        CHECK_OK(aclrtHostUnregister(b));
        CHECK_EQ(count("halHostUnregisterEx"), ++unreg);
        CHECK_EQ(last("halHostUnregisterEx"), HOST_MEM_MAP_DMA);
        /* The runtime's own calls meet the same hooks. */
        void *dp1 = NULL;
        CHECK_RT(rtsHostRegister(b, BIG, RT_HOST_REGISTER_MAPPED, &dp1), ACL_RT_SUCCESS);
        CHECK(dp1 == b);
        CHECK_EQ(count("halHostRegister"), 3);
        CHECK_EQ(last("halHostRegister"), HOST_MEM_MAP_DEV);
        CHECK_RT(rtsHostUnregister(b), ACL_RT_SUCCESS);
        CHECK_EQ(count("halHostUnregisterEx"), ++unreg);
        CHECK_EQ(last("halHostUnregisterEx"), HOST_MEM_MAP_DEV);
    }
    /* What was accepted before stays. */
    dp = NULL;
    CHECK_OK(aclrtHostGetDevicePointer(a, &dp, 0));
    CHECK(dp == a);
    if (refused) {
        /* The hook refuses the first unregistration: the range stays
         * registered, and the next call ends it. */
        CHECK_ERR(aclrtHostUnregister(a), ACL_ERROR_RT_NO_PERMISSION);
        CHECK_EQ(count("halHostUnregisterEx"), ++unreg);
        CHECK_OK(aclrtHostGetDevicePointer(a, &dp, 0));
    }
    CHECK_OK(aclrtHostUnregister(a));
    CHECK_EQ(count("halHostUnregisterEx"), ++unreg);
    CHECK_EQ(last("halHostUnregisterEx"), HOST_MEM_MAP_DEV);
    /* The driver refuses what is not registered, through the hook. */
    CHECK_ERR(aclrtHostUnregister(a), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    CHECK_EQ(count("halHostUnregisterEx"), ++unreg);
    CHECK_ERR(aclrtHostUnregister(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(count("halHostUnregisterEx"), unreg);
    CHECK_EQ(count("halHostUnregister"), 0); /* the runtime names the map type */
    free(a);
    free(b);

    /* The driver answers the capability. */
    aclrtHostMemMapCapability cap = (aclrtHostMemMapCapability)7;
    CHECK_OK(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, &cap));
    CHECK_EQ(cap, refused ? ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED : ACL_RT_HOST_MEM_MAP_SUPPORTED);
    CHECK_EQ(count("halHostRegisterCapabilities"), 1);
    CHECK_EQ(last("halHostRegisterCapabilities"), DRV_ACC_MODULE_TYPE_AIC);
    rtHostMemMapCapability rcap = (rtHostMemMapCapability)7;
    CHECK_RT(rtHostMemMapCapabilities(0, RT_HAC_TYPE_SDMA, &rcap), ACL_RT_SUCCESS);
    CHECK_EQ(rcap, refused ? RT_HOST_MEM_MAP_NOT_SUPPORTED : RT_HOST_MEM_MAP_SUPPORTED);
    CHECK_EQ(count("halHostRegisterCapabilities"), 2);
    CHECK_ERR(aclrtHostMemMapCapabilities(0, (aclrtHacType)99, &cap), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(count("halHostRegisterCapabilities"), 2);
}

/* sharing: IPC keys under the hook. */
static void sharing(int refused) {
    static uint8_t src[4096], out[4096];
    for (int i = 0; i < (int)sizeof src; i++) src[i] = (uint8_t)(i * 7 + 3);
    void *d = NULL, *big = NULL;
    CHECK_OK(aclrtMalloc(&d, SHARE, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&big, 2 * SHARE, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(d, SHARE, src, sizeof src, ACL_MEMCPY_HOST_TO_DEVICE));
    int32_t self = (int32_t)getpid();
    char key[65], key2[65], key3[65];
    CHECK_ERR(aclrtIpcMemGetExportKey(NULL, SHARE, key, sizeof key, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(count("halShmemCreateHandle"), 0);
    CHECK_OK(aclrtIpcMemGetExportKey(d, SHARE, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT));
    CHECK(key[0] != 0);
    CHECK_EQ(count("halShmemCreateHandle"), 1);
    CHECK_EQ(last("halShmemCreateHandle"), 65);
    void *imp = NULL, *imp2 = NULL;
    if (refused) {
        /* Beyond the hook's sharing quota: DRV_ERROR_OPER_NOT_PERMITTED. */
        CHECK_ERR(aclrtIpcMemGetExportKey(big, 2 * SHARE, key2, sizeof key2, 0), ACL_ERROR_RT_NO_PERMISSION);
        CHECK_EQ(count("halShmemCreateHandle"), 2);
        /* No import without a whitelist: the handle made for it is
         * withdrawn again. */
        CHECK_ERR(aclrtIpcMemGetExportKey(d, SHARE, key3, sizeof key3, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION),
                  ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_EQ(count("halShmemCreateHandle"), 3);
        CHECK_EQ(count("halShmemSetAttribute"), 1);
        CHECK_EQ(last("halShmemSetAttribute"), SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER);
        CHECK_EQ(count("halShmemDestroyHandle"), 1);
        /* No process may be whitelisted, so the import is refused by the
         * driver's whitelist. */
        CHECK_ERR(aclrtIpcMemSetImportPid(key, &self, 1), ACL_ERROR_RT_NO_PERMISSION);
        CHECK_EQ(count("halShmemSetPidHandle"), 1);
        CHECK_ERR(aclrtIpcMemImportByKey(&imp, key, 0), ACL_ERROR_RT_NO_PERMISSION);
        CHECK_EQ(count("halShmemOpenHandle"), 1);
        /* The accepted export is withdrawn as usual. */
        CHECK_OK(aclrtIpcMemClose(key));
        CHECK_EQ(count("halShmemDestroyHandle"), 2);
        CHECK_EQ(count("halShmemCloseHandle"), 0);
    } else {
        CHECK_OK(aclrtIpcMemGetExportKey(big, 2 * SHARE, key2, sizeof key2, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
        CHECK_EQ(count("halShmemCreateHandle"), 2);
        CHECK_EQ(count("halShmemSetAttribute"), 1);
        CHECK_EQ(last("halShmemSetAttribute"), SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER);
        /* Atlas A3: the access link (rtIpcSetMemoryAttr). */
        CHECK_OK(aclrtIpcMemSetAttr(key2, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS));
        CHECK_EQ(count("halShmemSetAttribute"), 2);
        CHECK_EQ(last("halShmemSetAttribute"), SHMEM_ATTR_TYPE_MEM_MAP);
        CHECK_OK(aclrtIpcMemSetImportPid(key, &self, 1));
        CHECK_EQ(count("halShmemSetPidHandle"), 1);
        CHECK_OK(aclrtIpcMemImportByKey(&imp, key, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT));
        CHECK_OK(aclrtIpcMemImportByKey(&imp2, key2, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT));
        CHECK_EQ(count("halShmemOpenHandle"), 2);
        CHECK(imp != NULL && imp != d && imp2 != NULL && imp2 != big);
        CHECK_OK(aclrtMemcpy(out, sizeof out, imp, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(memcmp(out, src, sizeof out) == 0);
        /* Importers close first (halShmemCloseHandle), the exporter last
         * (halShmemDestroyHandle). */
        CHECK_OK(aclrtIpcMemClose(key));
        CHECK_EQ(count("halShmemCloseHandle"), 1);
        CHECK_OK(aclrtIpcMemClose(key));
        CHECK_EQ(count("halShmemDestroyHandle"), 1);
        CHECK_OK(aclrtIpcMemClose(key2));
        CHECK_OK(aclrtIpcMemClose(key2));
        CHECK_EQ(count("halShmemCloseHandle"), 2);
        CHECK_EQ(count("halShmemDestroyHandle"), 2);
        /* The runtime's own calls meet the same hooks. */
        CHECK_RT(rtsIpcMemGetExportKey(d, SHARE, key3, sizeof key3, 0), ACL_RT_SUCCESS);
        CHECK_EQ(count("halShmemCreateHandle"), 3);
        CHECK_RT(rtsIpcMemClose(key3), ACL_RT_SUCCESS);
        CHECK_EQ(count("halShmemDestroyHandle"), 3);
    }
    CHECK_OK(aclrtFree(big));
    CHECK_OK(aclrtFree(d));
}

/* The ACL program under the hook. */
static int child(void) {
    const char *v = getenv("HOST_HOOK_REFUSE");
    const char *layout = getenv("NPUEMU_STACK");
    int refused = v != NULL && strcmp(v, "1") == 0;
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    registration(refused);
    sharing(refused);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("%s layout, HOST_HOOK_REFUSE=%s: the driver hooks see and decide registration and sharing\n", layout, v);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    static const char *const runs[] = STACK_BOTH_LAYOUTS;
    stack_run_under(__FILE__, "conformance/cases/stack/host_hook.c", "HOST_HOOK_REFUSE", runs);
    printf("a hook on the driver's registration and sharing calls sees and decides them in both layouts\n");
    return 0;
}
