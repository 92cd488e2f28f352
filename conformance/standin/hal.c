/* hal.c: the stand-in's libascend_hal.so (a few driver functions). */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "ascend_hal.h"
#include "standin.h"

/* STANDIN_DEVICES is the device count every stand-in function reports. */
#define STANDIN_DEVICES 3

int standin_hal_devices(void) { return STANDIN_DEVICES; }

const char *standin_hal_where(void) {
    Dl_info info;
    if (dladdr((void *)standin_hal_where, &info) == 0 || info.dli_fname == NULL) return "?";
    return info.dli_fname;
}

drvError_t drvGetDevNum(uint32_t *num_dev) {
    standin_record("drvGetDevNum num_dev=%p", (void *)num_dev);
    if (num_dev == NULL) return DRV_ERROR_INVALID_VALUE;
    *num_dev = STANDIN_DEVICES;
    return DRV_ERROR_NONE;
}

drvError_t halGetDeviceInfo(uint32_t devId, int32_t moduleType, int32_t infoType, int64_t *value) {
    standin_record("halGetDeviceInfo devId=%u moduleType=%d infoType=%d value=%p", devId, moduleType, infoType,
                   (void *)value);
    if (devId >= STANDIN_DEVICES) return DRV_ERROR_INVALID_DEVICE;
    *value = (int64_t)0x1122334455667788LL + devId;
    return DRV_ERROR_NONE;
}

DVresult halMemManagedPrefetch(DVdeviceptr ptr, size_t size, struct drv_uvm_location location, unsigned int flags) {
    standin_record("halMemManagedPrefetch ptr=%llx size=%zu type=%d id=%d flags=%u", (unsigned long long)ptr, size,
                   (int)location.type, location.id, flags);
    return DRV_ERROR_NONE;
}
