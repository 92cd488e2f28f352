/* callback.c: trampolines from Go to application function pointers. */
#include <pthread.h>
#include <string.h>

#include "callback.h"

void npu_call_hostfn(uintptr_t fn, uintptr_t arg) {
    ((void (*)(void *))fn)((void *)arg);
}

void npu_call_exccb(uintptr_t cb, const struct npu_exception_info *info) {
    struct npu_exception_info copy;
    memcpy(&copy, info, sizeof copy);
    ((aclrtExceptionInfoCallback)cb)((aclrtExceptionInfo *)&copy);
}

void npu_call_opexccb(uintptr_t cb, const struct npu_exception_info *info, uintptr_t userData) {
    struct npu_exception_info copy;
    memcpy(&copy, info, sizeof copy);
    ((aclrtOpExceptionCallback)cb)((aclrtExceptionInfo *)&copy, (void *)userData);
}

int32_t npu_call_abortcb(uintptr_t cb, int32_t deviceId, int32_t stage, uint32_t timeout, uintptr_t args) {
    return ((aclrtDeviceTaskAbortCallback)cb)(deviceId, (aclrtDeviceTaskAbortStage)stage, timeout, (void *)args);
}

uint64_t npu_pthread_self(void) { return (uint64_t)pthread_self(); }
