/* exception_faults_device: device-level faults of NPUEMU_FAULTS
 * (docs/faults.md). An HBM UCE injected at the 2nd task fails that task
 * with ACL_ERROR_RT_DEVICE_MEM_ERROR and is listed by aclrtGetMemUceInfo
 * until aclrtMemUceRepair; a device loss at the 4th task fails it and every
 * later call on the device with ACL_ERROR_RT_DEVICE_TASK_ABORT until
 * aclrtResetDevice.
 *
 * needs: emulator
 * env: NPUEMU_FAULTS=uce:nth=2,addr=0x123400,len=128;lost:nth=4
 */
#include <stdint.h>

#include "check.h"

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    if (soc == NULL || (strstr(soc, "910B") == NULL && strstr(soc, "910_93") == NULL && strstr(soc, "950") == NULL))
        SKIP("aclrtGetMemUceInfo is an Atlas A2/A3/950 API; SoC %s", soc ? soc : "?");
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    void *d;
    CHECK_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));

    aclrtMemUceInfo info[4];
    size_t n = 99;
    CHECK_OK(aclrtGetMemUceInfo(0, info, 4, &n));
    CHECK_EQ(n, 0);

    CHECK_OK(aclrtMemsetAsync(d, 4096, 0, 4096, s)); /* task 1 */
    CHECK_OK(aclrtMemsetAsync(d, 4096, 1, 4096, s)); /* task 2: UCE */
    CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_DEVICE_MEM_ERROR);
    CHECK_OK(aclrtGetMemUceInfo(0, info, 4, &n));
    CHECK_EQ(n, 1);
    CHECK(info[0].addr == (void *)0x123400);
    CHECK_EQ(info[0].len, 128);
    CHECK_OK(aclrtMemUceRepair(0, info, 1));
    CHECK_OK(aclrtGetMemUceInfo(0, info, 4, &n));
    CHECK_EQ(n, 0);

    CHECK_OK(aclrtMemsetAsync(d, 4096, 2, 4096, s)); /* task 3 */
    CHECK_OK(aclrtMemsetAsync(d, 4096, 3, 4096, s)); /* task 4: device lost */
    CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_DEVICE_TASK_ABORT);
    void *e;
    CHECK_ERR(aclrtMalloc(&e, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_DEVICE_TASK_ABORT);
    CHECK_ERR(aclrtMemsetAsync(d, 4096, 0, 4096, s), ACL_ERROR_RT_DEVICE_TASK_ABORT);
    aclrtStream s2;
    CHECK_ERR(aclrtCreateStream(&s2), ACL_ERROR_RT_DEVICE_TASK_ABORT);

    /* A reset recovers the device. */
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtMalloc(&e, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtFree(e));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("injected UCE and device loss reported and recovered\n");
    return 0;
}
