/* managed_p2pmap: aclrtMemP2PMap maps managed pages for a peer device, whose
 * accesses are then remote accesses instead of faults, and checks device
 * memory; it needs peer access. Also: in explicit mode a synchronize writes
 * back what the device left dirty (counted as bytes device→host). Bad input
 * with its codes.
 *
 * needs: emulator, devices=2
 * env: NPUEMU_SVM_HOST_FAULTS=explicit NPUEMU_DEVICES=2
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "npuemu/svm.h"

#define PAGE (2u << 20)

static struct npuemu_svm_stats stats(int32_t dev) {
    struct npuemu_svm_stats s;
    CHECK_OK(npuemuSvmGetStats(dev, &s));
    return s;
}

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s0, s1;
    CHECK_OK(aclrtCreateStream(&s0));
    char *m = NULL;
    CHECK_OK(aclrtMemAllocManaged((void **)&m, 2 * PAGE, ACL_RT_MEM_ATTACH_GLOBAL));
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    char *h = malloc(4096);
    CHECK(h != NULL);

    /* Peer access is required. */
    CHECK_ERR(aclrtMemP2PMap(m, PAGE, 1, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ERR(aclrtMemP2PMap(d, 4096, 1, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_OK(aclrtDeviceEnablePeerAccess(1, 0));

    CHECK_ERR(aclrtMemP2PMap(NULL, PAGE, 1, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemP2PMap(m, 0, 1, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemP2PMap(m, PAGE, 1, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemP2PMap(m, PAGE, 7, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ERR(aclrtMemP2PMap(m, PAGE, 0, 0), ACL_ERROR_RT_PARAM_INVALID);       /* its own device */
    CHECK_ERR(aclrtMemP2PMap(m, 3 * PAGE, 1, 0), ACL_ERROR_RT_PARAM_INVALID);   /* past the allocation */
    CHECK_ERR(aclrtMemP2PMap(h, 4096, 1, 0), ACL_ERROR_INVALID_PARAM);          /* host memory */
    CHECK_OK(aclrtMemP2PMap(d, 4096, 1, 0));

    /* Device 0 writes both pages; the stream synchronize writes them back. */
    CHECK_OK(aclrtMemsetAsync(m, 2 * PAGE, 1, 2 * PAGE, s0));
    struct npuemu_svm_stats a = stats(0);
    CHECK_OK(aclrtSynchronizeStream(s0));
    struct npuemu_svm_stats b = stats(0);
    CHECK_EQ(b.bytes_dtoh - a.bytes_dtoh, 2ull * PAGE);
    CHECK_EQ(b.resident_bytes, 2ull * PAGE); /* written back, not moved */
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_EQ(stats(0).bytes_dtoh, b.bytes_dtoh); /* nothing dirty left */

    /* Map the second page for device 1: its writes there are remote. */
    CHECK_OK(aclrtMemP2PMap(m + PAGE + 100, 10, 1, 0)); /* widened to the page */
    CHECK_OK(aclrtSetDevice(1));
    CHECK_OK(aclrtCreateStream(&s1));
    struct npuemu_svm_stats c = stats(1);
    CHECK_OK(aclrtMemsetAsync(m, 2 * PAGE, 2, 2 * PAGE, s1));
    CHECK_OK(aclrtSynchronizeStream(s1));
    struct npuemu_svm_stats e = stats(1);
    CHECK_EQ(e.faults - c.faults, 1);
    CHECK_EQ(e.remote_accesses - c.remote_accesses, 1);
    CHECK_EQ(e.resident_bytes, (uint64_t)PAGE);
    CHECK_EQ(stats(0).resident_bytes, (uint64_t)PAGE);

    CHECK_EQ(m[0], 2);
    CHECK_EQ(m[2 * PAGE - 1], 2);

    CHECK_OK(aclrtDestroyStream(s1));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtFree(m));
    CHECK_OK(aclrtFree(d));
    free(h);
    CHECK_OK(aclrtDestroyStream(s0));
    CHECK_OK(aclrtResetDevice(1));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
