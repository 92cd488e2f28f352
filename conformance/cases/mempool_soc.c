/* mempool_soc: outside Atlas A2 the memory-pool API is refused. */
/* env: NPUEMU_SOC=Ascend910_9362 */
#include "rt_util.h"

#include <string.h>

#include "acl/acl_rt_memory_soma.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    if (strncmp(soc, "Ascend910B", 10) == 0 && strlen(soc) > 10)
        SKIP("%s is an Atlas A2 SoC, which has memory pools", soc);
    aclrtMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.maxSize = 1 << 20;
    aclrtMemPool pool = NULL;
    /* doc: acl-functions.tsv — support N outside A2. */
    CHECK_FAILS(aclrtMemPoolCreate(&pool, &props));
    CHECK(pool == NULL);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
