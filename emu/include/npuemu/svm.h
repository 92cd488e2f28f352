/* npuemu/svm.h: managed-memory counters of the npuemu emulator.
 *
 * npuemu-specific: these functions exist in libnpuemu.so (every soname of
 * emu/lib), not in the vendor's libraries. A program that should also run
 * on real hardware looks them up with dlsym(RTLD_DEFAULT, ...) instead of
 * linking them. See docs/svm.md.
 */
#ifndef NPUEMU_SVM_H
#define NPUEMU_SVM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The location of npuemuSvmGetStats that means the host. */
#define NPUEMU_SVM_HOST (-1)

/* Counters of one location (a device, or the host). Every counter only
 * grows except resident_bytes. */
struct npuemu_svm_stats {
    uint64_t faults;           /* accesses that had to change residency */
    uint64_t thrash;           /* faults on a page this location evicted shortly before */
    uint64_t evictions;        /* pages this device dropped to make room */
    uint64_t invalidations;    /* copies lost to another location's write */
    uint64_t remote_accesses;  /* accesses served over the bus, no migration */
    uint64_t bytes_htod;       /* bytes migrated or duplicated to this device */
    uint64_t bytes_dtoh;       /* dirty bytes this device wrote back to the host */
    uint64_t prefetched_bytes; /* the part moved by prefetches (host: of the write-backs) */
    uint64_t resident_bytes;   /* managed bytes resident on this device now */
    uint64_t host_signals;     /* process-wide: SIGSEGVs the mprotect handler resolved */
};

/* npuemuSvmGetStats fills *out with the counters of device dev (a logical
 * device id) or of the host (NPUEMU_SVM_HOST). Host faults resolved by the
 * signal handler are accounted before the counters are read. Returns 0
 * (ACL_SUCCESS), ACL_ERROR_INVALID_PARAM (100000) for a NULL out, or
 * ACL_ERROR_RT_INVALID_DEVICEID (107001) for an unknown device. Before any
 * managed allocation every counter is 0. */
int npuemuSvmGetStats(int32_t dev, struct npuemu_svm_stats *out);

/* npuemuSvmHostFaultMode returns the host fault detection mode in use, as
 * chosen by NPUEMU_SVM_HOST_FAULTS: "explicit" (default), "mprotect" or
 * "userfaultfd-wp" (which reads as its fallback, "mprotect", where the
 * kernel refuses it); NULL when the variable holds something else. */
const char *npuemuSvmHostFaultMode(void);

#ifdef __cplusplus
}
#endif

#endif
