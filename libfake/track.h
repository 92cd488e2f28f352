/* track.h: the page footprint of a plain kernel launch for the sanitizer
 * (internal to libfake; docs/sanitizer.md "Kernel footprints").
 *
 * While one launch is tracked, the device pages of the allocations its
 * pointer arguments point into are PROT_NONE. The fault handler
 * (sigchain.c) asks npu_track_claim: a fault of one of the launch's own
 * blocks (its guarded threads, kernel_host.c) on a tracked page is noted
 * and the page opened — PROT_READ for a read; for a write, a copy of the
 * page is kept and it is opened read-write — and the instruction resumes.
 * A fault of any other thread (a copy that did not wait for the launch,
 * host code dereferencing a device pointer) opens the page read-write and
 * marks it spoiled: the launch then counts as reading and writing all of
 * it. npu_track_disarm reports what the launch
 * did: the bytes of each copied page that changed (written), the pages it
 * wrote to, the pages it only read, the pages spoiled. The pages it did
 * not touch stay closed (parked) until the next launch over the same
 * allocations (which then closes only what was opened), another launch,
 * a fault (the page is opened for whoever touches it) or a release.
 *
 * One launch is tracked at a time (the caller serialises them). The
 * handler only uses atomics, memcpy and mprotect(2); it never allocates,
 * locks a mutex or calls into Go.
 */
#ifndef NPUEMU_LIBFAKE_TRACK_H
#define NPUEMU_LIBFAKE_TRACK_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* The page the tracker works in. */
#define NPU_TRACK_PAGE 4096u

/* Kinds of npu_track_range. */
enum {
    NPU_TRACK_WRITTEN = 1, /* bytes the launch changed */
    NPU_TRACK_WPAGES = 2,  /* units it wrote to (bytes changed or not) */
    NPU_TRACK_RPAGES = 3,  /* a unit it read and did not write to (one range per unit) */
    NPU_TRACK_SPOILED = 4, /* units another thread opened while it ran */
};

typedef struct npu_track_range {
    uintptr_t lo, hi;
    uint32_t kind;
    uint32_t pad;
} npu_track_range;

/* npu_track_arm closes [lo[i], hi[i]) (page-aligned, sorted, disjoint;
 * at most 256 spans) for the launch whose state is owner; span i is
 * tracked in units of 1 << shift[i] bytes (12: a page; larger: fewer
 * faults, reads known more coarsely). 0 on success, else an errno value
 * (EBUSY: a launch is tracked already; E2BIG: too many spans or units;
 * others: mprotect's, every span opened again). */
int npu_track_arm(uintptr_t owner, const uintptr_t *lo, const uintptr_t *hi, const uint32_t *shift, uint32_t n);

/* npu_track_disarm ends the tracking: every span is accessible again
 * (opened, or parked: opened on first touch). It
 * returns the ranges (malloc'ed, the caller frees them) and their number
 * in *n; *overflow is set when the tracking broke down (too many
 * mappings, or more pages written than copies fit): the caller then
 * counts the launch as touching its allocations whole. */
npu_track_range *npu_track_disarm(uint32_t *n, int *overflow);

/* npu_track_release opens every page the tracker keeps closed between
 * launches (parked, see track.c) when one of them lies in [lo, hi): device
 * memory about to be freed or unmapped (emu.SetReleaseHook). */
void npu_track_release(uintptr_t lo, uintptr_t hi);

/* npu_track_claim is a step of the fault handler: 1 when the fault was on
 * a tracked page and is resolved (the instruction may resume), else 0. */
int npu_track_claim(int sig, siginfo_t *si, void *uc);

#endif
