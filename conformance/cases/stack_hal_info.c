/* stack_hal_info: the runtime's information calls cross into the driver
 * as on the real stack (rt-to-hal.tsv): the device count (drvGetDevNum,
 * under rtGetDeviceCount and every device-id check such as rtSetDevice's),
 * the id maps (drvDeviceGetPhyIdByIndex under rtGetDevicePhyIdByIndex and
 * rtsGetPhyDevIdByLogicDevId, drvDeviceGetIndexByPhyId under
 * rtsGetLogicDevIdByPhyDevId), the run mode (drvGetPlatformInfo under
 * rtGetRunMode), the SoC name (halGetSocVersion, asked once per process:
 * rtGetSocVersion and aclrtGetSocName report the kept answer), the free
 * stream and event ids (halResourceInfoQuery under rtsStreamGetAvailableNum
 * and rtsEventGetAvailNum) and the split mode (halGetDeviceSplitMode under
 * rtsDeviceGetInfo's RT_DEV_ATTR_IS_VIRTUAL). An LD_PRELOAD hook on those
 * driver symbols (stack/info_hook.c) sees an unmodified ACL program's calls
 * in merged and split alike, once per call, and what it answers is what the
 * rt* call and the aclrt* call above it give the program: a hidden device
 * is ACL_ERROR_RT_INVALID_DEVICEID, a refused map the driver's code
 * converted, the other answers as the hook changed them. Under a hook that
 * only forwards, everything behaves as without it. What was accepted
 * before (device 0, its memory) keeps working under the changing hook.
 *
 * link: -lruntime -lascendcl -lascend_hal
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
#include "../../examples/kernels/build_kernel.h" /* npuemu_repo_of */
#include "driver/ascend_hal.h"
#include "runtime/rt.h"

#define CHECK_RT(call, code) CHECK_EQ((int)(call), (int)(code))

static long count(const char *name) {
    long (*f)(const char *) = (long (*)(const char *))dlsym(RTLD_DEFAULT, "info_hook_count");
    if (f == NULL) FAIL("the hook is not loaded (LD_PRELOAD)");
    return f(name);
}

/* SEEN checks that call made driver call name exactly n times. */
#define SEEN(name, n, call)                                                  \
    do {                                                                     \
        long before_ = count(name);                                          \
        call;                                                                \
        long got_ = count(name) - before_;                                   \
        if (got_ != (n)) FAIL("%s: %s made %ld times, want %d", #call, name, got_, (int)(n)); \
    } while (0)

/* The ACL program under the hook. */
static int child(void) {
    const char *v = getenv("INFO_HOOK_CHANGE");
    const char *layout = getenv("NPUEMU_STACK");
    int changed = v != NULL && strcmp(v, "1") == 0;

    CHECK_OK(aclInit(NULL));

    /* The SoC name: asked once, whoever asks first; both report it. */
    const char *soc = NULL;
    SEEN("halGetSocVersion", 1, soc = aclrtGetSocName());
    CHECK(soc != NULL);
    char ver[128] = {0};
    SEEN("halGetSocVersion", 0, CHECK_RT(rtGetSocVersion(ver, sizeof ver), ACL_RT_SUCCESS));
    CHECK(strcmp(ver, soc) == 0);
    if (changed) CHECK(strcmp(soc, "HookedSoC") == 0);
    else CHECK(strncmp(soc, "Ascend", 6) == 0);

    /* The device count, and the checks that ask it. */
    uint32_t n = 0;
    SEEN("drvGetDevNum", 1, CHECK_OK(aclrtGetDeviceCount(&n)));
    CHECK_EQ(n, changed ? 1u : 2u);
    int32_t rn = 0;
    SEEN("drvGetDevNum", 1, CHECK_RT(rtGetDeviceCount(&rn), ACL_RT_SUCCESS));
    CHECK_EQ(rn, (int32_t)n);
    SEEN("drvGetDevNum", 1, CHECK_OK(aclrtSetDevice(0)));
    void *d0 = NULL;
    CHECK_OK(aclrtMalloc(&d0, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    if (changed) {
        SEEN("drvGetDevNum", 1, CHECK_ERR(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID));
        SEEN("drvGetDevNum", 1, CHECK_RT(rtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID));
        int64_t val = 0;
        SEEN("drvGetDevNum", 1, CHECK_RT(rtGetDeviceInfo(1, MODULE_TYPE_AICORE, INFO_TYPE_CORE_NUM, &val), ACL_ERROR_RT_INVALID_DEVICEID));
        int32_t logic = -1;
        SEEN("drvGetDevNum", 1, CHECK_ERR(aclrtGetLogicDevIdByUserDevId(1, &logic), ACL_ERROR_RT_INVALID_DEVICEID));
        SEEN("drvGetDevNum", 1, CHECK_RT(rtsGetLogicDevIdByUserDevId(1, &logic), ACL_ERROR_RT_INVALID_DEVICEID));
    } else {
        SEEN("drvGetDevNum", 1, CHECK_OK(aclrtSetDevice(1)));
        SEEN("drvGetDevNum", 1, CHECK_OK(aclrtResetDevice(1)));
        int32_t logic = -1;
        SEEN("drvGetDevNum", 1, CHECK_OK(aclrtGetLogicDevIdByUserDevId(1, &logic)));
        CHECK_EQ(logic, 1);
        CHECK_OK(aclrtSetDevice(0));
    }

    /* The id maps. */
    int32_t phy = -1;
    SEEN("drvDeviceGetPhyIdByIndex", 1, CHECK_OK(aclrtGetPhyDevIdByLogicDevId(0, &phy)));
    CHECK_EQ(phy, changed ? 4 : 0);
    phy = -1;
    SEEN("drvDeviceGetPhyIdByIndex", 1, CHECK_RT(rtsGetPhyDevIdByLogicDevId(0, &phy), ACL_RT_SUCCESS));
    CHECK_EQ(phy, changed ? 4 : 0);
    uint32_t uphy = 99;
    SEEN("drvDeviceGetPhyIdByIndex", 1, CHECK_RT(rtGetDevicePhyIdByIndex(0, &uphy), ACL_RT_SUCCESS));
    CHECK_EQ(uphy, changed ? 4u : 0u);
    int64_t chip = -1;
    SEEN("drvDeviceGetPhyIdByIndex", 1, CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_PHY_CHIP_ID, &chip)));
    CHECK_EQ(chip, changed ? 4 : 0);
    int32_t user = -1;
    if (changed) {
        SEEN("drvDeviceGetIndexByPhyId", 1, CHECK_ERR(aclrtGetLogicDevIdByPhyDevId(0, &user), ACL_ERROR_RT_FEATURE_NOT_SUPPORT));
        SEEN("drvDeviceGetIndexByPhyId", 1, CHECK_RT(rtsGetLogicDevIdByPhyDevId(0, &user), ACL_ERROR_RT_FEATURE_NOT_SUPPORT));
    } else {
        SEEN("drvDeviceGetIndexByPhyId", 1, CHECK_OK(aclrtGetLogicDevIdByPhyDevId(1, &user)));
        CHECK_EQ(user, 1);
        user = -1;
        SEEN("drvDeviceGetIndexByPhyId", 1, CHECK_RT(rtsGetLogicDevIdByPhyDevId(0, &user), ACL_RT_SUCCESS));
        CHECK_EQ(user, 0);
    }
    /* ACL's own argument check answers before the driver is asked. */
    SEEN("drvDeviceGetPhyIdByIndex", 0, CHECK_ERR(aclrtGetPhyDevIdByLogicDevId(0, NULL), ACL_ERROR_INVALID_PARAM));

    /* The run mode. */
    aclrtRunMode mode = (aclrtRunMode)-1;
    SEEN("drvGetPlatformInfo", 1, CHECK_OK(aclrtGetRunMode(&mode)));
    CHECK_EQ((int)mode, changed ? (int)ACL_DEVICE : (int)ACL_HOST);
    rtRunMode rmode = (rtRunMode)-1;
    SEEN("drvGetPlatformInfo", 1, CHECK_RT(rtGetRunMode(&rmode), ACL_RT_SUCCESS));
    CHECK_EQ((int)rmode, changed ? (int)RT_RUN_MODE_OFFLINE : (int)RT_RUN_MODE_ONLINE);

    /* Free stream and event ids. */
    uint32_t streams = 0, events = 0, again = 0;
    SEEN("halResourceInfoQuery", 1, CHECK_OK(aclrtGetStreamAvailableNum(&streams)));
    SEEN("halResourceInfoQuery", 1, CHECK_RT(rtsStreamGetAvailableNum(&again), ACL_RT_SUCCESS));
    CHECK_EQ(again, streams);
    if (changed) CHECK(streams > 0 && streams < 10);
    else CHECK(streams > 10);
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    SEEN("halResourceInfoQuery", 1, CHECK_OK(aclrtGetStreamAvailableNum(&again)));
    CHECK_EQ(again, streams - 1);
    CHECK_OK(aclrtDestroyStream(s));
    SEEN("halResourceInfoQuery", 1, CHECK_OK(aclrtGetEventAvailNum(&events)));
    SEEN("halResourceInfoQuery", 1, CHECK_RT(rtsEventGetAvailNum(&again), ACL_RT_SUCCESS));
    CHECK_EQ(again, events);
    if (changed) CHECK(events <= 7);
    else CHECK(events > 7);

    /* The split mode. */
    int64_t virt = -1;
    SEEN("halGetDeviceSplitMode", 1, CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_IS_VIRTUAL, &virt)));
    CHECK_EQ(virt, changed ? 1 : 0);
    virt = -1;
    SEEN("halGetDeviceSplitMode", 1, CHECK_RT(rtsDeviceGetInfo(0, RT_DEV_ATTR_IS_VIRTUAL, &virt), ACL_RT_SUCCESS));
    CHECK_EQ(virt, changed ? 1 : 0);

    /* Nothing accepted before is lost. */
    static uint8_t src[4096], out[4096];
    for (int i = 0; i < 4096; i++) src[i] = (uint8_t)(i * 3 + 1);
    CHECK_OK(aclrtMemcpy(d0, 4096, src, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(out, 4096, d0, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(out, src, 4096) == 0);
    CHECK_OK(aclrtFree(d0));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("%s layout, INFO_HOOK_CHANGE=%s: the driver hook sees and decides the information calls\n", layout, v);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    static const char *const runs[] = STACK_BOTH_LAYOUTS;
    stack_run_under(__FILE__, "conformance/cases/stack/info_hook.c", "INFO_HOOK_CHANGE", runs);
    printf("a hook on the driver's information calls sees and decides them in both layouts\n");
    return 0;
}
