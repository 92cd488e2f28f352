/* info_hook.c: hooks on the driver's information calls, for
 * stack_hal_info.c. Loaded with LD_PRELOAD, it counts drvGetDevNum,
 * drvDeviceGetPhyIdByIndex, drvDeviceGetIndexByPhyId, drvGetPlatformInfo,
 * halGetSocVersion, halResourceInfoQuery and halGetDeviceSplitMode and
 * forwards them to the next definition (dlsym(RTLD_NEXT)). With
 * INFO_HOOK_CHANGE=1 it is a sharing layer that changes the answers:
 * drvGetDevNum hides every device but the first, drvDeviceGetPhyIdByIndex
 * renumbers physical ids (+4), drvDeviceGetIndexByPhyId refuses with
 * DRV_ERROR_NOT_SUPPORT, drvGetPlatformInfo says "device side" (0),
 * halGetSocVersion names the SoC "HookedSoC", halResourceInfoQuery caps
 * the capacity (10 streams, 7 events) and halGetDeviceSplitMode reports a
 * virtual split. The program reads the counts through
 * info_hook_count(name).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/ascend_hal.h"

enum { C_num, C_phy, C_index, C_platform, C_soc, C_res, C_split, C_N };
static const char *const names[C_N] = {"drvGetDevNum",       "drvDeviceGetPhyIdByIndex", "drvDeviceGetIndexByPhyId",
                                       "drvGetPlatformInfo", "halGetSocVersion",         "halResourceInfoQuery",
                                       "halGetDeviceSplitMode"};
#define HOOK_NAME "info_hook"
#include "hook.h"

long info_hook_count(const char *name) { return hook_count(name); }

/* change reports whether INFO_HOOK_CHANGE=1. */
static int change(void) {
    const char *v = getenv("INFO_HOOK_CHANGE");
    return v != NULL && strcmp(v, "1") == 0;
}

drvError_t drvGetDevNum(uint32_t *num_dev) {
    count(C_num);
    drvError_t r = ((__typeof__(&drvGetDevNum))next("drvGetDevNum"))(num_dev);
    if (r == DRV_ERROR_NONE && change() && *num_dev > 1) *num_dev = 1;
    return r;
}

drvError_t drvDeviceGetPhyIdByIndex(uint32_t devIndex, uint32_t *phyId) {
    count(C_phy);
    drvError_t r = ((__typeof__(&drvDeviceGetPhyIdByIndex))next("drvDeviceGetPhyIdByIndex"))(devIndex, phyId);
    if (r == DRV_ERROR_NONE && change()) *phyId += 4;
    return r;
}

drvError_t drvDeviceGetIndexByPhyId(uint32_t phyId, uint32_t *devIndex) {
    count(C_index);
    if (change()) return DRV_ERROR_NOT_SUPPORT;
    return ((__typeof__(&drvDeviceGetIndexByPhyId))next("drvDeviceGetIndexByPhyId"))(phyId, devIndex);
}

drvError_t drvGetPlatformInfo(uint32_t *info) {
    count(C_platform);
    drvError_t r = ((__typeof__(&drvGetPlatformInfo))next("drvGetPlatformInfo"))(info);
    if (r == DRV_ERROR_NONE && change()) *info = 0;
    return r;
}

drvError_t halGetSocVersion(uint32_t devId, char *socVersion, uint32_t len) {
    count(C_soc);
    drvError_t r = ((__typeof__(&halGetSocVersion))next("halGetSocVersion"))(devId, socVersion, len);
    if (r == DRV_ERROR_NONE && change()) snprintf(socVersion, len, "HookedSoC");
    return r;
}

drvError_t halResourceInfoQuery(uint32_t devId, uint32_t tsId, drvResourceType_t type, struct halResourceInfo *info) {
    count(C_res);
    drvError_t r = ((__typeof__(&halResourceInfoQuery))next("halResourceInfoQuery"))(devId, tsId, type, info);
    if (r == DRV_ERROR_NONE && change()) info->capacity = type == DRV_RESOURCE_STREAM_ID ? 10 : 7;
    return r;
}

drvError_t halGetDeviceSplitMode(unsigned int dev_id, unsigned int *mode) {
    count(C_split);
    drvError_t r = ((__typeof__(&halGetDeviceSplitMode))next("halGetDeviceSplitMode"))(dev_id, mode);
    if (r == DRV_ERROR_NONE && change()) *mode = VMNG_VIRTUAL_SPLIT_MODE;
    return r;
}
