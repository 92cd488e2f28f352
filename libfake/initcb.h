/* initcb.h: calling aclInitCallbackFunc / aclFinalizeCallbackFunc from Go
 * (internal to libfake). */
#ifndef NPUEMU_LIBFAKE_INITCB_H
#define NPUEMU_LIBFAKE_INITCB_H

#include <stddef.h>
#include <stdint.h>

void npu_call_initcb(uintptr_t fn, const char *config, size_t len, uintptr_t userData);
void npu_call_fincb(uintptr_t fn, uintptr_t userData);

#endif
