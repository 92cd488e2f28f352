/* stack_info.c: the trampolines of the driver's information calls
 * (stack.h): each calls the interposed definition npu_stack_resolve
 * recorded. */
#include "stack.h"

int32_t npu_x_drvGetDevNum(uint32_t *num) {
    return ((__typeof__(&drvGetDevNum))npu_cross[NPU_X_drvGetDevNum])(num);
}

int32_t npu_x_drvDeviceGetPhyIdByIndex(uint32_t index, uint32_t *phy) {
    return ((__typeof__(&drvDeviceGetPhyIdByIndex))npu_cross[NPU_X_drvDeviceGetPhyIdByIndex])(index, phy);
}

int32_t npu_x_drvDeviceGetIndexByPhyId(uint32_t phy, uint32_t *index) {
    return ((__typeof__(&drvDeviceGetIndexByPhyId))npu_cross[NPU_X_drvDeviceGetIndexByPhyId])(phy, index);
}

int32_t npu_x_drvGetPlatformInfo(uint32_t *info) {
    return ((__typeof__(&drvGetPlatformInfo))npu_cross[NPU_X_drvGetPlatformInfo])(info);
}

int32_t npu_x_halGetSocVersion(uint32_t dev, char *buf, uint32_t len) {
    return ((__typeof__(&halGetSocVersion))npu_cross[NPU_X_halGetSocVersion])(dev, buf, len);
}

int32_t npu_x_halResourceInfoQuery(uint32_t dev, uint32_t ts, int32_t type, void *info) {
    return ((__typeof__(&halResourceInfoQuery))npu_cross[NPU_X_halResourceInfoQuery])(dev, ts, (drvResourceType_t)type,
                                                                                      (struct halResourceInfo *)info);
}

int32_t npu_x_halGetDeviceSplitMode(uint32_t dev, uint32_t *mode) {
    return ((__typeof__(&halGetDeviceSplitMode))npu_cross[NPU_X_halGetDeviceSplitMode])(dev, (unsigned int *)mode);
}
