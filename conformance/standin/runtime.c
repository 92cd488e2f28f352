/* runtime.c: the stand-in's libruntime.so. npuemu ships a library of the
 * same name (a link to libnpuemu.so) that has none of these symbols: when
 * the stand-in's libascendcl.so is bound to this copy in passthrough, the
 * vendor's namespace is isolated from ours. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

int standin_hal_devices(void);

/* standin_rt_device_count is what the stand-in's aclrtGetDeviceCount
 * reports; it asks the stand-in HAL, one level deeper. */
int standin_rt_device_count(void) { return standin_hal_devices(); }

/* standin_rt_where returns the file this function was loaded from. */
const char *standin_rt_where(void) {
    Dl_info info;
    if (dladdr((void *)standin_rt_where, &info) == 0 || info.dli_fname == NULL) return "?";
    return info.dli_fname;
}
