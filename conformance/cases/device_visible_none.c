/* device_visible_none: an ASCEND_RT_VISIBLE_DEVICES that leaves no device
 * visible makes aclInit fail with ACL_ERROR_RT_INVALID_DEVICEID and a
 * message naming the variable (npuemu's rule, docs/runtime.md). */
/* needs: emulator */
/* env: NPUEMU_DEVICES=2 ASCEND_RT_VISIBLE_DEVICES=2,0 */
#include "rt_util.h"

#include <string.h>

int main(void)
{
    aclError e = aclInit(NULL);
    CHECK_EQ(e, ACL_ERROR_RT_INVALID_DEVICEID);
    const char *m = aclGetRecentErrMsg();
    CHECK(m != NULL && strstr(m, "ASCEND_RT_VISIBLE_DEVICES") != NULL);
    uint32_t n = 0;
    CHECK_ERR(aclrtGetDeviceCount(&n), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ERR(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    return 0;
}
