/* vector_add: launches the Ascend C kernel vadd_custom through the ACL
 * runtime with ACLRT_LAUNCH_KERNEL (the header ascendc_library generated)
 * and checks the result on the host. */
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_vadd_custom.h"

#define CHECK_ACL(x)                                                                      \
    do {                                                                                  \
        aclError err_ = (x);                                                              \
        if (err_ != ACL_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: %s failed: %d %s\n", __FILE__, __LINE__, #x, err_,   \
                    aclGetRecentErrMsg());                                                \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

int main()
{
    const uint32_t blockDim = 8;
    const uint32_t n = blockDim * 16 * 2048; // 16 tiles of 2048 floats per block
    const size_t bytes = n * sizeof(float);
    std::vector<float> x(n), y(n), z(n);
    for (uint32_t i = 0; i < n; i++) {
        x[i] = float(i % 1024);
        y[i] = 0.25f;
    }

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    void *xDev, *yDev, *zDev;
    CHECK_ACL(aclrtMalloc(&xDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&yDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&zDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(xDev, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(yDev, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK_ACL(ACLRT_LAUNCH_KERNEL(vadd_custom)(blockDim, stream, xDev, yDev, zDev, n));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(z.data(), bytes, zDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (z[i] != x[i] + y[i]) bad++;
    }
    printf("vector_add: %u floats in %u blocks through TPipe/TQue/DataCopy/Add: %s\n", n, blockDim,
           bad == 0 ? "OK" : "WRONG");

    CHECK_ACL(aclrtFree(xDev));
    CHECK_ACL(aclrtFree(yDev));
    CHECK_ACL(aclrtFree(zDev));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return bad == 0 ? 0 : 1;
}
