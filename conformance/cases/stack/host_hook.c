/* host_hook.c: hooks on the driver's host memory registration and IPC shared
 * memory calls, for stack_hal_host.c. Loaded with LD_PRELOAD, it counts
 * halHostRegister, halHostUnregisterEx, halHostUnregister,
 * halHostRegisterCapabilities and the halShmem* calls the runtime makes,
 * records the last flag words it saw, and forwards to the next definition
 * (dlsym(RTLD_NEXT)). HOST_HOOK_REFUSE=1 makes it a sharing layer with
 * limits of its own:
 *   - halHostRegister of more than HOOK_PIN_QUOTA bytes: DRV_ERROR_OUT_OF_MEMORY
 *     (a pinned-memory quota), without reaching the driver;
 *   - the first halHostUnregisterEx: DRV_ERROR_OPER_NOT_PERMITTED (the range
 *     stays registered), later ones forward;
 *   - halHostRegisterCapabilities: forwards, then answers
 *     HOST_MEM_MAP_NOT_SUPPORTED;
 *   - halShmemCreateHandle of more than HOOK_SHARE_QUOTA bytes:
 *     DRV_ERROR_OPER_NOT_PERMITTED;
 *   - halShmemSetAttribute(SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER):
 *     DRV_ERROR_NOT_SUPPORT (every import must be whitelisted);
 *   - halShmemSetPidHandle: DRV_ERROR_OPER_NOT_PERMITTED (no process may
 *     be whitelisted).
 * The program reads the counts through host_hook_count(name) and the last
 * flags through host_hook_last(name).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/ascend_hal.h"

#define HOOK_PIN_QUOTA (64 * 1024)
#define HOOK_SHARE_QUOTA (2 * 1024 * 1024)

enum { C_reg, C_unregEx, C_unreg, C_caps, C_create, C_setAttr, C_setPid, C_open, C_close, C_destroy, C_N };
static const char *const names[C_N] = {"halHostRegister",      "halHostUnregisterEx",  "halHostUnregister",
                                       "halHostRegisterCapabilities", "halShmemCreateHandle", "halShmemSetAttribute",
                                       "halShmemSetPidHandle", "halShmemOpenHandle",   "halShmemCloseHandle",
                                       "halShmemDestroyHandle"};
#define HOOK_NAME "host_hook"
#include "hook.h"

static long last[C_N]; /* the last flag/type word of each call */

long host_hook_count(const char *name) { return hook_count(name); }

long host_hook_last(const char *name) {
    for (int i = 0; i < C_N; i++)
        if (strcmp(names[i], name) == 0) return __atomic_load_n(&last[i], __ATOMIC_SEQ_CST);
    return -1;
}

static void seen(int i, long flag) {
    count(i);
    __atomic_store_n(&last[i], flag, __ATOMIC_SEQ_CST);
}

static int refuse(void) {
    const char *v = getenv("HOST_HOOK_REFUSE");
    return v != NULL && strcmp(v, "1") == 0;
}

drvError_t halHostRegister(void *src_ptr, UINT64 size, UINT32 flag, UINT32 devid, void **dst_ptr) {
    seen(C_reg, (long)flag);
    if (refuse() && size > HOOK_PIN_QUOTA) return DRV_ERROR_OUT_OF_MEMORY;
    return ((__typeof__(&halHostRegister))next("halHostRegister"))(src_ptr, size, flag, devid, dst_ptr);
}

drvError_t halHostUnregisterEx(void *src_ptr, UINT32 devid, UINT32 flag) {
    static int refused;
    seen(C_unregEx, (long)flag);
    if (refuse() && !__atomic_exchange_n(&refused, 1, __ATOMIC_SEQ_CST)) return DRV_ERROR_OPER_NOT_PERMITTED;
    return ((__typeof__(&halHostUnregisterEx))next("halHostUnregisterEx"))(src_ptr, devid, flag);
}

drvError_t halHostUnregister(void *src_ptr, UINT32 devid) {
    seen(C_unreg, 0);
    return ((__typeof__(&halHostUnregister))next("halHostUnregister"))(src_ptr, devid);
}

drvError_t halHostRegisterCapabilities(uint32_t devid, uint32_t acc_module_type, uint32_t *mem_map_cap) {
    seen(C_caps, (long)acc_module_type);
    drvError_t r = ((__typeof__(&halHostRegisterCapabilities))next("halHostRegisterCapabilities"))(devid, acc_module_type,
                                                                                                 mem_map_cap);
    if (r == DRV_ERROR_NONE && refuse()) *mem_map_cap = HOST_MEM_MAP_NOT_SUPPORTED;
    return r;
}

DVresult halShmemCreateHandle(DVdeviceptr vptr, size_t byte_count, char *name, uint32_t name_len) {
    seen(C_create, (long)name_len);
    if (refuse() && byte_count > HOOK_SHARE_QUOTA) return DRV_ERROR_OPER_NOT_PERMITTED;
    return ((__typeof__(&halShmemCreateHandle))next("halShmemCreateHandle"))(vptr, byte_count, name, name_len);
}

DVresult halShmemSetAttribute(const char *name, uint32_t type, uint64_t attr) {
    seen(C_setAttr, (long)type);
    if (refuse() && type == SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER) return DRV_ERROR_NOT_SUPPORT;
    return ((__typeof__(&halShmemSetAttribute))next("halShmemSetAttribute"))(name, type, attr);
}

DVresult halShmemSetPidHandle(const char *name, int pid[], int num) {
    seen(C_setPid, (long)num);
    if (refuse()) return DRV_ERROR_OPER_NOT_PERMITTED;
    return ((__typeof__(&halShmemSetPidHandle))next("halShmemSetPidHandle"))(name, pid, num);
}

DVresult halShmemOpenHandle(const char *name, DVdeviceptr *vptr) {
    seen(C_open, 0);
    return ((__typeof__(&halShmemOpenHandle))next("halShmemOpenHandle"))(name, vptr);
}

DVresult halShmemCloseHandle(DVdeviceptr vptr) {
    seen(C_close, 0);
    return ((__typeof__(&halShmemCloseHandle))next("halShmemCloseHandle"))(vptr);
}

DVresult halShmemDestroyHandle(const char *name) {
    seen(C_destroy, 0);
    return ((__typeof__(&halShmemDestroyHandle))next("halShmemDestroyHandle"))(name);
}
