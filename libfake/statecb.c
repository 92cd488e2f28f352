/* statecb.c: calls aclrtStreamStateCallback / aclrtDeviceStateCallback. */
#include "acl/acl.h"
#include "statecb.h"

void npu_call_streamstate(uintptr_t cb, uintptr_t stream, int32_t state, uintptr_t args) {
    ((aclrtStreamStateCallback)cb)((aclrtStream)stream, (aclrtStreamState)state, (void *)args);
}

void npu_call_devicestate(uintptr_t cb, int32_t dev, int32_t state, uintptr_t args) {
    ((aclrtDeviceStateCallback)cb)(dev, (aclrtDeviceState)state, (void *)args);
}
