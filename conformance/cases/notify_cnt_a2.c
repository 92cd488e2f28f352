/* notify_cnt_a2: counting notifies are Ascend 950 only (acl-functions.tsv
 * support columns): an Atlas A2 refuses them. */
/* needs: emulator */
/* env: NPUEMU_SOC=Ascend910B3 NPUEMU_DEVICES=1 */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtCntNotify c = NULL;
    CHECK_ERR(aclrtCntNotifyCreate(&c, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
