/* stack_host.c: the trampolines of stack.h for host memory registration and
 * IPC shared memory: each calls the interposed driver definition that
 * npu_stack_resolve recorded in npu_cross. */
#include "stack.h"

int32_t npu_x_halHostRegister(uintptr_t src, uint64_t size, uint32_t flag, uint32_t devid, uintptr_t *dst) {
    void *p = NULL;
    int32_t r = ((__typeof__(&halHostRegister))npu_cross[NPU_X_halHostRegister])((void *)src, size, flag, devid, &p);
    *dst = (uintptr_t)p;
    return r;
}

int32_t npu_x_halHostUnregisterEx(uintptr_t src, uint32_t devid, uint32_t flag) {
    return ((__typeof__(&halHostUnregisterEx))npu_cross[NPU_X_halHostUnregisterEx])((void *)src, devid, flag);
}

int32_t npu_x_halHostRegisterCapabilities(uint32_t devid, uint32_t acc, uint32_t *cap) {
    return ((__typeof__(&halHostRegisterCapabilities))npu_cross[NPU_X_halHostRegisterCapabilities])(devid, acc, cap);
}

int32_t npu_x_halShmemCreateHandle(uintptr_t vptr, size_t size, char *name, uint32_t name_len) {
    return ((__typeof__(&halShmemCreateHandle))npu_cross[NPU_X_halShmemCreateHandle])((DVdeviceptr)vptr, size, name,
                                                                                      name_len);
}

int32_t npu_x_halShmemSetAttribute(const char *name, uint32_t type, uint64_t attr) {
    return ((__typeof__(&halShmemSetAttribute))npu_cross[NPU_X_halShmemSetAttribute])(name, type, attr);
}

int32_t npu_x_halShmemSetPidHandle(const char *name, int32_t *pid, int num) {
    return ((__typeof__(&halShmemSetPidHandle))npu_cross[NPU_X_halShmemSetPidHandle])(name, (int *)pid, num);
}

int32_t npu_x_halShmemOpenHandle(const char *name, uintptr_t *vptr) {
    DVdeviceptr p = 0;
    int32_t r = ((__typeof__(&halShmemOpenHandle))npu_cross[NPU_X_halShmemOpenHandle])(name, &p);
    *vptr = (uintptr_t)p;
    return r;
}

int32_t npu_x_halShmemCloseHandle(uintptr_t vptr) {
    return ((__typeof__(&halShmemCloseHandle))npu_cross[NPU_X_halShmemCloseHandle])((DVdeviceptr)vptr);
}

int32_t npu_x_halShmemDestroyHandle(const char *name) {
    return ((__typeof__(&halShmemDestroyHandle))npu_cross[NPU_X_halShmemDestroyHandle])(name);
}
