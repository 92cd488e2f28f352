/* p2p_hook.c: a hook on the driver's peer-to-peer calls, for stack_p2p.c.
 * Loaded with LD_PRELOAD, it counts halDeviceCanAccessPeer,
 * halDeviceEnableP2P and halDeviceDisableP2P and forwards them to the next
 * definition (dlsym(RTLD_NEXT)). With P2P_HOOK_REFUSE=1 it is a sharing
 * layer that forbids peer access: halDeviceCanAccessPeer reports 0 and
 * halDeviceEnableP2P fails with DRV_ERROR_NOT_SUPPORT, without reaching
 * the driver. The program reads the counts through p2p_hook_count(name).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/ascend_hal.h"

enum { C_can, C_enable, C_disable, C_N };
static const char *const names[C_N] = {"halDeviceCanAccessPeer", "halDeviceEnableP2P", "halDeviceDisableP2P"};
static long counts[C_N];

long p2p_hook_count(const char *name) {
    for (int i = 0; i < C_N; i++)
        if (strcmp(names[i], name) == 0) return __atomic_load_n(&counts[i], __ATOMIC_SEQ_CST);
    return -1;
}

static void *next(const char *name) {
    void *p = dlsym(RTLD_NEXT, name);
    if (p == NULL) {
        fprintf(stderr, "p2p_hook: no next definition of %s\n", name);
        abort();
    }
    return p;
}

static int refuse(void) {
    const char *v = getenv("P2P_HOOK_REFUSE");
    return v != NULL && strcmp(v, "1") == 0;
}

drvError_t halDeviceCanAccessPeer(int *canAccessPeer, uint32_t dev, uint32_t peer_dev) {
    __atomic_add_fetch(&counts[C_can], 1, __ATOMIC_SEQ_CST);
    drvError_t r = ((__typeof__(&halDeviceCanAccessPeer))next("halDeviceCanAccessPeer"))(canAccessPeer, dev, peer_dev);
    if (r == DRV_ERROR_NONE && refuse()) *canAccessPeer = 0;
    return r;
}

drvError_t halDeviceEnableP2P(uint32_t dev, uint32_t peer_dev, uint32_t flag) {
    __atomic_add_fetch(&counts[C_enable], 1, __ATOMIC_SEQ_CST);
    if (refuse()) return DRV_ERROR_NOT_SUPPORT;
    return ((__typeof__(&halDeviceEnableP2P))next("halDeviceEnableP2P"))(dev, peer_dev, flag);
}

drvError_t halDeviceDisableP2P(uint32_t dev, uint32_t peer_dev, uint32_t flag) {
    __atomic_add_fetch(&counts[C_disable], 1, __ATOMIC_SEQ_CST);
    return ((__typeof__(&halDeviceDisableP2P))next("halDeviceDisableP2P"))(dev, peer_dev, flag);
}
