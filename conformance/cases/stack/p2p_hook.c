/* p2p_hook.c: hooks on the peer-to-peer calls, for stack_p2p.c.
 * Loaded with LD_PRELOAD, it counts the driver's halDeviceCanAccessPeer,
 * halDeviceEnableP2P and halDeviceDisableP2P and the runtime's
 * rtGetDevice, rtGetDevicePhyIdByIndex, rtDeviceCanAccessPeer,
 * rtEnableP2P, rtDisableP2P and rtsGetP2PStatus, and forwards them to the
 * next definition (dlsym(RTLD_NEXT)). P2P_HOOK_REFUSE makes it a sharing
 * layer that forbids peer access: at the driver (=1: halDeviceCanAccessPeer
 * reports 0, halDeviceEnableP2P fails with DRV_ERROR_NOT_SUPPORT) or at
 * the runtime (=rt: rtDeviceCanAccessPeer reports 0, rtEnableP2P fails with
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT), without reaching the next definition.
 * The program reads the counts through p2p_hook_count(name).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/ascend_hal.h"
#include "runtime/rt.h"

enum { C_can, C_enable, C_disable, C_rtGetDevice, C_rtPhy, C_rtCan, C_rtEnable, C_rtDisable, C_rtStatus, C_N };
static const char *const names[C_N] = {"halDeviceCanAccessPeer", "halDeviceEnableP2P", "halDeviceDisableP2P",
                                       "rtGetDevice", "rtGetDevicePhyIdByIndex", "rtDeviceCanAccessPeer",
                                       "rtEnableP2P", "rtDisableP2P", "rtsGetP2PStatus"};
#define HOOK_NAME "p2p_hook"
#include "hook.h"

long p2p_hook_count(const char *name) { return hook_count(name); }

/* refuseAt reports whether P2P_HOOK_REFUSE names this level ("1": the
 * driver, "rt": the runtime). */
static int refuseAt(const char *level) {
    const char *v = getenv("P2P_HOOK_REFUSE");
    return v != NULL && strcmp(v, level) == 0;
}
static int refuse(void) { return refuseAt("1"); }

drvError_t halDeviceCanAccessPeer(int *canAccessPeer, uint32_t dev, uint32_t peer_dev) {
    count(C_can);
    drvError_t r = ((__typeof__(&halDeviceCanAccessPeer))next("halDeviceCanAccessPeer"))(canAccessPeer, dev, peer_dev);
    if (r == DRV_ERROR_NONE && refuse()) *canAccessPeer = 0;
    return r;
}

drvError_t halDeviceEnableP2P(uint32_t dev, uint32_t peer_dev, uint32_t flag) {
    count(C_enable);
    if (refuse()) return DRV_ERROR_NOT_SUPPORT;
    return ((__typeof__(&halDeviceEnableP2P))next("halDeviceEnableP2P"))(dev, peer_dev, flag);
}

drvError_t halDeviceDisableP2P(uint32_t dev, uint32_t peer_dev, uint32_t flag) {
    count(C_disable);
    return ((__typeof__(&halDeviceDisableP2P))next("halDeviceDisableP2P"))(dev, peer_dev, flag);
}

rtError_t rtGetDevice(int32_t *devId) {
    count(C_rtGetDevice);
    return ((__typeof__(&rtGetDevice))next("rtGetDevice"))(devId);
}

rtError_t rtGetDevicePhyIdByIndex(uint32_t devIndex, uint32_t *phyId) {
    count(C_rtPhy);
    return ((__typeof__(&rtGetDevicePhyIdByIndex))next("rtGetDevicePhyIdByIndex"))(devIndex, phyId);
}

rtError_t rtDeviceCanAccessPeer(int32_t *canAccessPeer, uint32_t devId, uint32_t peerDevice) {
    count(C_rtCan);
    rtError_t r = ((__typeof__(&rtDeviceCanAccessPeer))next("rtDeviceCanAccessPeer"))(canAccessPeer, devId, peerDevice);
    if (r == ACL_RT_SUCCESS && refuseAt("rt")) *canAccessPeer = 0;
    return r;
}

rtError_t rtEnableP2P(uint32_t devIdDes, uint32_t phyIdSrc, uint32_t flag) {
    count(C_rtEnable);
    if (refuseAt("rt")) return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    return ((__typeof__(&rtEnableP2P))next("rtEnableP2P"))(devIdDes, phyIdSrc, flag);
}

rtError_t rtDisableP2P(uint32_t devIdDes, uint32_t phyIdSrc) {
    count(C_rtDisable);
    return ((__typeof__(&rtDisableP2P))next("rtDisableP2P"))(devIdDes, phyIdSrc);
}

rtError_t rtsGetP2PStatus(uint32_t devIdDes, uint32_t phyIdSrc, uint32_t *status) {
    count(C_rtStatus);
    return ((__typeof__(&rtsGetP2PStatus))next("rtsGetP2PStatus"))(devIdDes, phyIdSrc, status);
}
