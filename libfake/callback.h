/* callback.h: calling application function pointers from Go (internal to
 * libfake), and npuemu's layout of the opaque aclrtExceptionInfo. */
#ifndef NPUEMU_LIBFAKE_CALLBACK_H
#define NPUEMU_LIBFAKE_CALLBACK_H

#include <stdint.h>

#include "acl/acl.h"

/* aclrtExceptionInfo is struct rtExceptionInfo, whose layout runtime/rt.h
 * gives (2112 bytes); applications read it through the
 * aclrtGet*FromExceptionInfo accessors. npuemu's record starts with the
 * vendor's five uint32 and is as large as the vendor's; the fields after
 * them are npuemu's own and describe a failing kernel (zero for other
 * tasks): the expandInfo of the vendor layout is not filled. */
struct npu_exception_info {
    uint32_t taskid;
    uint32_t streamid;
    uint32_t tid;
    uint32_t deviceid;
    uint32_t retcode;
    uint32_t args_len; /* bytes of the kernel's argument block */
    uint64_t args;     /* device address of the kernel's argument block */
    uint64_t func_handle; /* aclrtFuncHandle of the kernel */
    uint8_t rest[2112 - 40]; /* to sizeof(struct rtExceptionInfo) */
};

/* npu_call_hostfn calls an aclrtHostFunc or aclrtCallback: fn(arg). */
void npu_call_hostfn(uintptr_t fn, uintptr_t arg);

/* npu_call_exccb calls an aclrtExceptionInfoCallback with a pointer to a
 * copy of *info that lives on this C stack frame: valid only during the
 * call, as documented. */
void npu_call_exccb(uintptr_t cb, const struct npu_exception_info *info);

/* npu_call_opexccb calls an aclrtOpExceptionCallback (a binary's
 * callback, aclrtBinarySetExceptionCallback) like npu_call_exccb, with its
 * userData. */
void npu_call_opexccb(uintptr_t cb, const struct npu_exception_info *info, uintptr_t userData);

/* npu_exc_live reports whether p is the info of a running exception
 * callback (callback.c). */
int npu_exc_live(const void *p);

/* npu_call_abortcb calls an aclrtDeviceTaskAbortCallback. */
int32_t npu_call_abortcb(uintptr_t cb, int32_t deviceId, int32_t stage, uint32_t timeout, uintptr_t args);

/* npu_pthread_self returns pthread_self() as the uint64_t that
 * aclrtSubscribeReport takes. */
uint64_t npu_pthread_self(void);

#endif
