/* callback.c: trampolines from Go to application function pointers. */
#include <pthread.h>
#include <string.h>

#include "callback.h"

void npu_call_hostfn(uintptr_t fn, uintptr_t arg) {
    ((void (*)(void *))fn)((void *)arg);
}

void npu_call_exccb(uintptr_t cb, const struct rtExceptionInfo *info) {
    struct rtExceptionInfo copy;
    memcpy(&copy, info, sizeof copy);
    ((aclrtExceptionInfoCallback)cb)(&copy);
}

uint64_t npu_pthread_self(void) { return (uint64_t)pthread_self(); }
