/* cmo_unsupported_soc: the CMO functions exist on Atlas A2/A3 and Ascend
 * 950 only (11-06_CMO_memory_operation); on an Atlas inference part
 * (310P) they fail with the runtime's "feature not supported".
 *
 * env: NPUEMU_SOC=Ascend310P3
 * needs: emulator
 */
#include "check.h"

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_ERR(aclrtCmoAsync(d, 4096, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    size_t n = 0;
    CHECK_ERR(aclrtCmoGetDescSize(&n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_ERR(aclrtCmoSetDesc(d, d, 64), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
