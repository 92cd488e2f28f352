/* device_soc_gating_310p: the per-SoC support column of the documentation gates
 * every ACL call on the emulated SoC (acl-functions.tsv, 950/A3/A2/310B/
 * 310P/A1). On an Ascend 310P the calls listed for 950/A3/A2 only fail with
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT before their arguments are looked at,
 * with a message naming the SoC; calls listed for every SoC, and those the
 * 310P has, keep working.
 *
 * env: NPUEMU_SOC=Ascend310P3 NPUEMU_DEVICES=1
 * needs: emulator
 */
#include <string.h>

#include "check.h"

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));

    /* Y/Y/Y/N/N/N: refused on the 310P, whatever the arguments. */
    CHECK_EQ(aclrtStreamAbort(s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    const char *msg = aclGetRecentErrMsg();
    CHECK(msg != NULL && strstr(msg, "aclrtStreamAbort") != NULL && strstr(msg, "Ascend310P3") != NULL);
    CHECK_ERR(aclrtValueWrite(NULL, 1, 0, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_ERR(aclmdlRICondHandleCreate(NULL, 0, 0, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

    /* Y/Y/Y/N/Y/N: the 310P has capture; argument checks apply. */
    CHECK_ERR(aclmdlRICaptureGetInfo(s, NULL, NULL), ACL_ERROR_INVALID_PARAM);

    /* Y everywhere: unaffected. */
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_OK(aclrtFree(d));

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
