/* app.c: the program the stand-in test runs through npuemu in passthrough
 * mode. It is linked against npuemu's libascendcl.so and libascend_hal.so
 * (emu/lib) like any application; every call must reach the stand-in
 * vendor library unchanged and every result must be the stand-in's.
 *
 *   app          the scripted calls, then THREADS threads calling at once;
 *                prints "ok"
 *   app probe    prints what aclInit, aclrtGetDeviceCount, drvGetDevNum
 *                and aclGetRecentErrMsg answer (e.g. when no vendor
 *                library is found, or in the emulator)
 */
#include <pthread.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_rt.h"
#include "ascend_hal.h"

#define THREADS 8
#define PER_THREAD 50

#define CHECK(cond)                                                         \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "app.c:%d: check failed: %s\n", __LINE__, #cond); \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

static void callback(void *userData) { ++*(int *)userData; }

static void *worker(void *arg) {
    uintptr_t t = (uintptr_t)arg;
    for (uintptr_t i = 0; i < PER_THREAD; i++) {
        void *p = NULL;
        size_t size = (t << 16) | i;
        CHECK(aclrtMalloc(&p, size, (aclrtMemMallocPolicy)(t % 3)) == ACL_SUCCESS);
        CHECK((uintptr_t)p == 0x5eed00000000ULL + size);
        uint32_t n = 0;
        CHECK(aclrtGetDeviceCount(&n) == ACL_SUCCESS && n == 3);
    }
    return NULL;
}

static int probe(void) {
    aclError e = aclInit(NULL);
    const char *m = aclGetRecentErrMsg();
    printf("aclInit=%d\nmsg=%s\n", (int)e, m ? m : "(null)");
    uint32_t n = 77;
    printf("aclrtGetDeviceCount=%d n=%u\n", (int)aclrtGetDeviceCount(&n), n);
    printf("drvGetDevNum=%d\n", (int)drvGetDevNum(&n));
    printf("aclrtGetSocName=%s\n", aclrtGetSocName() ? "non-NULL" : "NULL");
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "probe") == 0) return probe();

    CHECK(aclInit("/cfg/standin.json") == ACL_SUCCESS);
    uint32_t n = 0;
    CHECK(aclrtGetDeviceCount(&n) == ACL_SUCCESS);
    CHECK(n == 3);

    /* An error code and its message come from the vendor. */
    CHECK(aclrtSetDevice(7) == ACL_ERROR_RT_INVALID_DEVICEID);
    const char *m = aclGetRecentErrMsg();
    CHECK(m != NULL && strcmp(m, "standin: device 7 does not exist") == 0);
    CHECK(aclrtSetDevice(1) == ACL_SUCCESS);

    /* Out-parameters, 64-bit values, enums. */
    void *p = NULL;
    CHECK(aclrtMalloc(&p, 0x1234567, ACL_MEM_MALLOC_HUGE_ONLY) == ACL_SUCCESS);
    CHECK((uintptr_t)p == 0x5eed00000000ULL + 0x1234567);
    CHECK(aclrtMemcpy((void *)0xdeadbeef000ULL, (size_t)0xfedcba9876543210ULL, (const void *)0x1000,
                      (size_t)0x123456789abcdef0ULL, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    aclrtStream s = NULL;
    CHECK(aclrtCreateStream(&s) == ACL_SUCCESS);
    CHECK((uintptr_t)s == 0x57ae0001UL);
    int64_t v = 0;
    CHECK(aclrtGetDeviceInfo(2, ACL_DEV_ATTR_AICORE_CORE_NUM, &v) == ACL_SUCCESS);
    CHECK(v == -0x123456789LL);

    /* Callbacks and their user data are handed through. */
    int calls = 0, hostCalls = 0;
    CHECK(aclrtLaunchCallback(callback, &calls, ACL_CALLBACK_BLOCK, s) == ACL_SUCCESS);
    CHECK(calls == 1);
    CHECK(aclrtLaunchHostFunc(s, callback, &hostCalls) == ACL_SUCCESS);
    CHECK(hostCalls == 1);
    CHECK(aclrtSubscribeReport(0xaabbccddeeff0011ULL, s) == ACL_SUCCESS);

    /* Floats in both directions. */
    CHECK(aclFloatToFloat16(3.14159f) == 0x3c00);
    CHECK(aclFloat16ToFloat(10) == 2.5f);

    /* Structs by value. */
    aclrtMemManagedLocation loc = {ACL_MEM_LOCATIONTYPE_DEVICE, 2};
    CHECK(aclrtMemManagedPrefetchAsync((const void *)0xabc000, 4096, loc, 5, s) == ACL_SUCCESS);
    dim3 grid = {1, 2, 3}, block = {4, 5, 6};
    CHECK(aclrtLaunchSIMTKernelWithArgsArray((void *)0xf00, grid, block, 77, s, NULL, NULL) == ACL_SUCCESS);

    /* Strings both ways, and the variadic aclAppLog. */
    m = aclrtGetSocName();
    CHECK(m != NULL && strcmp(m, "StandinSoC") == 0);
    aclAppLog(ACL_INFO, "fn", "app.c", 42, "value %d and %s", 7, "text");

    /* A function the vendor library lacks fails; it does not crash. */
    CHECK(aclrtSynchronizeDevice() == ACL_ERROR_API_NOT_SUPPORT);

    /* The driver library. */
    CHECK(drvGetDevNum(&n) == DRV_ERROR_NONE && n == 3);
    CHECK(halGetDeviceInfo(1, 2, 3, &v) == DRV_ERROR_NONE);
    CHECK(v == 0x1122334455667789LL);
    struct drv_uvm_location hl = {DRV_UVM_LOCATION_TYPE_HOST, -4};
    CHECK(halMemManagedPrefetch(0x123456789abcULL, 8192, hl, 9) == DRV_ERROR_NONE);

    /* Many threads at once. */
    pthread_t th[THREADS];
    for (uintptr_t t = 0; t < THREADS; t++) CHECK(pthread_create(&th[t], NULL, worker, (void *)t) == 0);
    for (int t = 0; t < THREADS; t++) CHECK(pthread_join(th[t], NULL) == 0);

    CHECK(aclrtDestroyStream(s) == ACL_SUCCESS);
    CHECK(aclrtFree(p) == ACL_SUCCESS);
    CHECK(aclrtResetDevice(1) == ACL_SUCCESS);
    CHECK(aclFinalize() == ACL_SUCCESS);
    printf("ok\n");
    return 0;
}
