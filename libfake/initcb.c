/* initcb.c: trampolines to the aclInit/aclFinalize hooks. Their aclError
 * results are dropped: the runtime gives them no meaning. */
#include "acl/acl.h"
#include "initcb.h"

void npu_call_initcb(uintptr_t fn, const char *config, size_t len, uintptr_t userData) {
    (void)((aclInitCallbackFunc)fn)(config, len, (void *)userData);
}

void npu_call_fincb(uintptr_t fn, uintptr_t userData) {
    (void)((aclFinalizeCallbackFunc)fn)((void *)userData);
}
