/* callback.c: trampolines from Go to application function pointers. */
#include <pthread.h>
#include <string.h>

#include "callback.h"

void npu_call_hostfn(uintptr_t fn, uintptr_t arg) {
    ((void (*)(void *))fn)((void *)arg);
}

/* The exception infos handed to running callbacks: the accessors read only
 * these (npu_exc_live), so a garbage or stale info pointer is never
 * dereferenced. A small set under a mutex: exceptions are rare. */
#define NPU_EXC_LIVE_MAX 64
static pthread_mutex_t npu_exc_mu = PTHREAD_MUTEX_INITIALIZER;
static const void *npu_exc_live_set[NPU_EXC_LIVE_MAX];

static int npu_exc_enter(const void *p) {
    int slot = -1;
    pthread_mutex_lock(&npu_exc_mu);
    for (int i = 0; i < NPU_EXC_LIVE_MAX; i++)
        if (npu_exc_live_set[i] == NULL) {
            npu_exc_live_set[i] = p;
            slot = i;
            break;
        }
    pthread_mutex_unlock(&npu_exc_mu);
    return slot;
}

static void npu_exc_leave(int slot) {
    if (slot < 0)
        return;
    pthread_mutex_lock(&npu_exc_mu);
    npu_exc_live_set[slot] = NULL;
    pthread_mutex_unlock(&npu_exc_mu);
}

int npu_exc_live(const void *p) {
    int live = 0;
    pthread_mutex_lock(&npu_exc_mu);
    for (int i = 0; i < NPU_EXC_LIVE_MAX && !live; i++)
        live = npu_exc_live_set[i] == p;
    pthread_mutex_unlock(&npu_exc_mu);
    return live;
}

void npu_call_exccb(uintptr_t cb, const struct npu_exception_info *info) {
    struct npu_exception_info copy;
    memcpy(&copy, info, sizeof copy);
    int slot = npu_exc_enter(&copy);
    ((aclrtExceptionInfoCallback)cb)((aclrtExceptionInfo *)&copy);
    npu_exc_leave(slot);
}

void npu_call_opexccb(uintptr_t cb, const struct npu_exception_info *info, uintptr_t userData) {
    struct npu_exception_info copy;
    memcpy(&copy, info, sizeof copy);
    int slot = npu_exc_enter(&copy);
    ((aclrtOpExceptionCallback)cb)((aclrtExceptionInfo *)&copy, (void *)userData);
    npu_exc_leave(slot);
}

int32_t npu_call_abortcb(uintptr_t cb, int32_t deviceId, int32_t stage, uint32_t timeout, uintptr_t args) {
    return ((aclrtDeviceTaskAbortCallback)cb)(deviceId, (aclrtDeviceTaskAbortStage)stage, timeout, (void *)args);
}

uint64_t npu_pthread_self(void) { return (uint64_t)pthread_self(); }
