/* group_unsupported_soc: core groups exist on Ascend 310P only
 * (acl-functions.tsv support column N/N/N/N/Y/N): on an A2 device every
 * group call is refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
 *
 * needs: emulator
 * env: NPUEMU_SOC=Ascend910B3 NPUEMU_DEVICES=1
 */
#include <stdint.h>

#include "check.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    uint32_t count = 0;
    CHECK_ERR(aclrtGetGroupCount(&count), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK(aclrtCreateGroupInfo() == NULL);
    CHECK_ERR(aclrtSetGroup(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
