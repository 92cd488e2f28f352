/* stack_p2p: peer access crosses into the driver as on the real stack
 * (acl-to-rt.tsv, rt-to-hal.tsv): aclrtDeviceCanAccessPeer →
 * rtDeviceCanAccessPeer → halDeviceCanAccessPeer, aclrtDeviceEnablePeerAccess
 * → rtEnableP2P → halDeviceEnableP2P, aclrtDeviceDisablePeerAccess →
 * rtDisableP2P → halDeviceDisableP2P. The rt → hal step crosses into
 * libascend_hal.so in both layouts (docs/stack.md), so an LD_PRELOAD hook on
 * the hal calls (stack/p2p_hook.c) sees an unmodified ACL program's peer
 * traffic, and the runtime's own rtEnableP2P, in merged and split alike;
 * the aclrt* → rt* step (with rtGetDevice and rtGetDevicePhyIdByIndex, and
 * aclrtDevicePeerAccessStatus → rtsGetP2PStatus) crosses into libruntime.so
 * only in split, so hooks on those rt calls see the ACL program there and
 * not in merged (where they still see a library calling rt* itself).
 * A hook that refuses peer access is what the program gets: CanAccessPeer
 * reports 0, EnablePeerAccess fails with ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (the driver's DRV_ERROR_NOT_SUPPORT converted), and a copy between the two
 * devices stays refused.
 *
 * link: -lruntime -lascendcl -lascend_hal
 * env: NPUEMU_DEVICES=2
 * needs: emulator devices=2
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "stack/harness.h"
#include "../../examples/kernels/build_kernel.h"
#include "driver/ascend_hal.h"
#include "runtime/rt.h"

#define N 4096
#define CHECK_RT(call, code) CHECK_EQ((int)(call), (int)(code))

static long count(const char *name) {
    long (*f)(const char *) = (long (*)(const char *))dlsym(RTLD_DEFAULT, "p2p_hook_count");
    if (f == NULL) FAIL("the hook is not loaded (LD_PRELOAD)");
    return f(name);
}

/* The ACL program: peer access between devices 0 and 1 under the hook. */
static int child(void) {
    const char *v = getenv("P2P_HOOK_REFUSE");
    const char *layout = getenv("NPUEMU_STACK");
    int split = layout != NULL && strcmp(layout, "split") == 0;
    int halRefuses = v != NULL && strcmp(v, "1") == 0;
    int rtRefuses = v != NULL && strcmp(v, "rt") == 0;
    /* The driver's hook decides in both layouts; the runtime's hook
     * decides the ACL calls only where aclrt* → rt* crosses (split). */
    int refused = halRefuses || (rtRefuses && split);
    long acl = split ? 1 : 0; /* rt calls per ACL call that reach the rt hooks */

    CHECK_OK(aclInit(NULL));
    int32_t can = -1;
    CHECK_OK(aclrtDeviceCanAccessPeer(&can, 0, 1));
    CHECK_EQ(can, refused ? 0 : 1);
    CHECK_EQ(count("halDeviceCanAccessPeer"), 1);
    CHECK_EQ(count("rtGetDevicePhyIdByIndex"), acl);
    CHECK_EQ(count("rtDeviceCanAccessPeer"), acl);
    /* ACL's own argument check answers before the runtime is asked. */
    CHECK_ERR(aclrtDeviceCanAccessPeer(NULL, 0, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(count("halDeviceCanAccessPeer"), 1);
    CHECK_EQ(count("rtDeviceCanAccessPeer"), acl);

    static uint8_t src[N], out[N];
    for (int i = 0; i < N; i++) src[i] = (uint8_t)(i * 5 + 1);
    CHECK_OK(aclrtSetDevice(1));
    void *d1 = NULL;
    CHECK_OK(aclrtMalloc(&d1, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtSetDevice(0));
    void *d0 = NULL;
    CHECK_OK(aclrtMalloc(&d0, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(d0, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE));

    int32_t status = -1;
    if (refused) {
        CHECK_ERR(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        /* A refusal at the runtime never reaches the driver. */
        CHECK_EQ(count("halDeviceEnableP2P"), halRefuses ? 1 : 0);
        CHECK_EQ(count("rtGetDevice"), acl);
        CHECK_EQ(count("rtGetDevicePhyIdByIndex"), 2 * acl);
        CHECK_EQ(count("rtEnableP2P"), acl);
        CHECK_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
        CHECK_EQ(status, 0);
        CHECK_EQ(count("rtsGetP2PStatus"), acl);
        CHECK_FAILS(aclrtMemcpy(d1, N, d0, N, ACL_MEMCPY_DEVICE_TO_DEVICE));
        /* Nothing was enabled: the driver says so, through the hooks. */
        CHECK_ERR(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_RT_PARAM_INVALID);
        CHECK_EQ(count("halDeviceDisableP2P"), 1);
        CHECK_EQ(count("rtDisableP2P"), acl);
        /* The runtime's own call meets the same hooks. */
        CHECK_RT(rtEnableP2P(0, 1, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_EQ(count("rtEnableP2P"), acl + 1);
        CHECK_EQ(count("halDeviceEnableP2P"), halRefuses ? 2 : 0);
    } else {
        CHECK_OK(aclrtDeviceEnablePeerAccess(1, 0));
        CHECK_EQ(count("halDeviceEnableP2P"), 1);
        CHECK_EQ(count("rtGetDevice"), acl);
        CHECK_EQ(count("rtGetDevicePhyIdByIndex"), 2 * acl);
        CHECK_EQ(count("rtEnableP2P"), acl);
        CHECK_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
        CHECK_EQ(status, 1);
        CHECK_EQ(count("rtsGetP2PStatus"), acl);
        CHECK_OK(aclrtMemcpy(d1, N, d0, N, ACL_MEMCPY_DEVICE_TO_DEVICE));
        CHECK_OK(aclrtMemcpy(out, N, d1, N, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(memcmp(out, src, N) == 0);
        CHECK_OK(aclrtDeviceDisablePeerAccess(1));
        CHECK_EQ(count("halDeviceDisableP2P"), 1);
        CHECK_EQ(count("rtDisableP2P"), acl);
        CHECK_FAILS(aclrtMemcpy(d1, N, d0, N, ACL_MEMCPY_DEVICE_TO_DEVICE));
        if (rtRefuses) {
            /* merged: the ACL calls bound inside, but a library calling
             * rtEnableP2P itself meets the hook. */
            CHECK_RT(rtEnableP2P(0, 1, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
            CHECK_EQ(count("rtEnableP2P"), 1);
            CHECK_EQ(count("halDeviceEnableP2P"), 1);
        } else {
            CHECK_RT(rtEnableP2P(0, 1, 0), ACL_RT_SUCCESS);
            CHECK_EQ(count("rtEnableP2P"), acl + 1);
            CHECK_EQ(count("halDeviceEnableP2P"), 2);
            CHECK_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
            CHECK_EQ(status, 1);
            CHECK_RT(rtDisableP2P(0, 1), ACL_RT_SUCCESS);
            CHECK_EQ(count("halDeviceDisableP2P"), 2);
            CHECK_EQ(count("rtDisableP2P"), acl + 1);
        }
    }
    CHECK_OK(aclrtFree(d0));
    CHECK_OK(aclrtSetDevice(1));
    CHECK_OK(aclrtFree(d1));
    CHECK_OK(aclFinalize());
    printf("%s layout, P2P_HOOK_REFUSE=%s: the hooks see and decide the ACL program's peer access\n", layout, v);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    static const char *const runs[] = {"merged", "0", "merged", "1", "split", "0", "split", "1", "merged", "rt", "split", "rt", NULL};
    stack_run_under(__FILE__, "conformance/cases/stack/p2p_hook.c", "P2P_HOOK_REFUSE", runs);
    printf("a hook on the driver's P2P calls sees and decides ACL peer access in both layouts, a hook on the rt calls in split\n");
    return 0;
}
