/* device_topo: aclrtGetDevicesTopo, aclrtSetTsDevice and
 * aclrtMallocForTaskScheduler. */
/* needs: devices=2 */
/* env: NPUEMU_SOC=Ascend910B3 NPUEMU_DEVICES=2 */
#include "rt_util.h"

static int is_topology(uint64_t v)
{
    switch (v) {
    case ACL_RT_DEVS_TOPOLOGY_HCCS:
    case ACL_RT_DEVS_TOPOLOGY_PIX:
    case ACL_RT_DEVS_TOPOLOGY_PIB:
    case ACL_RT_DEVS_TOPOLOGY_PHB:
    case ACL_RT_DEVS_TOPOLOGY_SYS:
    case ACL_RT_DEVS_TOPOLOGY_SIO:
    case ACL_RT_DEVS_TOPOLOGY_HCCS_SW:
        return 1;
    }
    return 0;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    rt_need_devices(2);
    uint32_t n = rt_device_count();

    /* One documented ACL_RT_DEVS_TOPOLOGY_* value per pair, symmetric. */
    uint64_t ab = 0, ba = 0;
    CHECK_OK(aclrtGetDevicesTopo(0, 1, &ab));
    CHECK_OK(aclrtGetDevicesTopo(1, 0, &ba));
    CHECK(is_topology(ab));
    CHECK_EQ(ab, ba);
    CHECK_FAILS(aclrtGetDevicesTopo(0, 1, NULL));
    CHECK_FAILS(aclrtGetDevicesTopo(0, n, &ab));
    CHECK_FAILS(aclrtGetDevicesTopo(0, 0, &ab));

    /* Task scheduler selection: AI Core or AI Vector. */
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtSetTsDevice(ACL_TS_ID_AICORE));
    CHECK_OK(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR));
    CHECK_FAILS(aclrtSetTsDevice(ACL_TS_ID_RESERVED));

    /* Task-scheduler memory is device memory, freed by aclrtFree. */
    void *p = NULL;
    CHECK_OK(aclrtMallocForTaskScheduler(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
    CHECK(p != NULL);
    CHECK_OK(aclrtMemset(p, 4096, 0x5a, 4096));
    unsigned char back[16];
    CHECK_OK(aclrtMemcpy(back, sizeof back, p, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_all_bytes(back, sizeof back, 0x5a));
    aclrtPtrAttributes attr;
    CHECK_OK(aclrtPointerGetAttributes(p, &attr));
    CHECK_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    CHECK_OK(aclrtFree(p));
    CHECK_ERR(aclrtMallocForTaskScheduler(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMallocForTaskScheduler(NULL, 4096, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
