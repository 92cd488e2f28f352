/* cmo_cache: cache maintenance (11-06_CMO_memory_operation). aclrtCmoAsync
 * and the descriptor form aclrtCmoGetDescSize / aclrtCmoSetDesc /
 * aclrtCmoAsyncWithDesc act on the current device's memory, only
 * ACL_RT_CMO_TYPE_PREFETCH is supported, and the task is ordered with the
 * rest of the stream without changing the data.
 *
 * env: NPUEMU_SOC=Ascend910B3
 */
#include <stdint.h>

#include "check.h"

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    enum { N = 4096 };
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    unsigned char in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = (unsigned char)(i * 7);

    /* A prefetch between a copy in and a copy out leaves the data alone. */
    CHECK_OK(aclrtMemcpyAsync(d, N, in, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtCmoAsync(d, N, ACL_RT_CMO_TYPE_PREFETCH, s));
    CHECK_OK(aclrtMemcpyAsync(out, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK(memcmp(in, out, N) == 0);
    CHECK_OK(aclrtCmoAsync((char *)d + 1024, 1024, ACL_RT_CMO_TYPE_PREFETCH, NULL)); /* default stream */
    CHECK_OK(aclrtSynchronizeStream(NULL));

    /* Only PREFETCH; other types are defined but not supported. */
    CHECK_ERR(aclrtCmoAsync(d, N, ACL_RT_CMO_TYPE_WRITEBACK, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_ERR(aclrtCmoAsync(d, N, ACL_RT_CMO_TYPE_FLUSH, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_FAILS(aclrtCmoAsync(d, N, (aclrtCmoType)42, s));
    /* Device memory of this device, inside an allocation. */
    CHECK_FAILS(aclrtCmoAsync(NULL, N, ACL_RT_CMO_TYPE_PREFETCH, s));
    CHECK_FAILS(aclrtCmoAsync(d, 0, ACL_RT_CMO_TYPE_PREFETCH, s));
    CHECK_FAILS(aclrtCmoAsync(in, N, ACL_RT_CMO_TYPE_PREFETCH, s));
    CHECK_FAILS(aclrtCmoAsync(d, 2 * N, ACL_RT_CMO_TYPE_PREFETCH, s));

    /* The descriptor form: the descriptor lives in device memory. */
    size_t descSize = 0;
    CHECK_OK(aclrtCmoGetDescSize(&descSize));
    CHECK(descSize > 0);
    CHECK_ERR(aclrtCmoGetDescSize(NULL), ACL_ERROR_INVALID_PARAM);
    void *desc = NULL;
    CHECK_OK(aclrtMalloc(&desc, descSize, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_OK(aclrtCmoSetDesc(desc, d, N));
    CHECK_OK(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, s, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_FAILS(aclrtCmoSetDesc(in, d, N));           /* host memory as descriptor */
    CHECK_FAILS(aclrtCmoSetDesc(desc, in, N));        /* host memory as source */
    CHECK_FAILS(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, s, desc)); /* reserve must be NULL */
    CHECK_ERR(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_INVALID, s, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_OK(aclrtMemcpy(out, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(in, out, N) == 0);

    CHECK_OK(aclrtFree(desc));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
