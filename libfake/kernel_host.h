/* kernel_host.h: loading npuemu kernel binaries and running their blocks
 * under a fault guard (internal to libfake; the kernel ABI itself is
 * emu/include/npuemu/kernel.h). */
#ifndef NPUEMU_LIBFAKE_KERNEL_HOST_H
#define NPUEMU_LIBFAKE_KERNEL_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "npuemu/kernel.h"

/* npu_kopen dlopens path (RTLD_NOW | RTLD_LOCAL) and looks up its
 * npuemu_kernel_table. On failure it returns NULL and writes why into err. */
void *npu_kopen(const char *path, const npuemu_kernel_table_t **table, char *err, size_t errlen);

/* npu_kopen_data writes data to a memfd and opens /proc/self/fd/N. */
void *npu_kopen_data(const void *data, size_t n, const npuemu_kernel_table_t **table, char *err, size_t errlen);

void npu_kclose(void *lib);

/* The size of npuemu_kernel_entry in ABI version 1, before param_sizes. */
#define NPU_KENTRY_V1_SIZE offsetof(npuemu_kernel_entry, param_sizes)
/* The end of npuemu_kernel_entry.flags (added after param_sizes). */
#define NPU_KENTRY_FLAGS_END (offsetof(npuemu_kernel_entry, flags) + sizeof(uint32_t))

/* npu_kbase returns the load address of the object holding addr (0 if
 * none). */
uintptr_t npu_kbase(uintptr_t addr);

/* npu_kglobal looks up the exported variable name of lib: its address and
 * size. On failure it returns 0 and writes why into err. */
uintptr_t npu_kglobal(void *lib, const char *name, uint64_t *size, char *err, size_t errlen);

/* Results of npu_krun. */
#define NPU_KRUN_OK 0
#define NPU_KRUN_SIGNAL 1 /* detail: the signal number */
#define NPU_KRUN_TRAP 2   /* detail: the npuemu_trap code */
#define NPU_KRUN_FAULT 3  /* a rule violation: *msg holds its message */

/* The launch scratch (host memory per launch, zeroed before the first
 * block): the launch's print buffer, the last fault address, the shared
 * state of Ascend C kernels and the SoC name the kernel sees. */
typedef struct npu_kstate {
    uintptr_t print;      /* npu_kprint * (lazily created) */
    uintptr_t fault_addr; /* si_addr of the last fault */
    uintptr_t shared;     /* npu_kshared * (lazily created) */
    uintptr_t soc;        /* const char *: the device's SoC name (set by the launcher; may be 0) */
} npu_kstate;

/* Pipes counted in a launch's cycle record (Ascend C pipe_t values). */
#define NPU_KPIPES 16

/* npu_krun runs one block of fn. It returns NPU_KRUN_* << 32 | detail;
 * for NPU_KRUN_FAULT *msg is a malloc'ed message the caller frees. */
int64_t npu_krun(uintptr_t fn, uintptr_t args, uint64_t size, uint32_t block, uint32_t blocks, npu_kstate *st, char **msg);

/* npu_krun_r is npu_krun with the message returned by value, so that the Go
 * caller passes no pointer to its own memory (which would move the message
 * slot to the Go heap: an allocation per block). */
typedef struct npu_krun_ret {
    int64_t r;
    char *msg;
} npu_krun_ret;
static inline npu_krun_ret npu_krun_r(uintptr_t fn, uintptr_t args, uint64_t size, uint32_t block, uint32_t blocks, npu_kstate *st) {
    npu_krun_ret o;
    o.msg = NULL;
    o.r = npu_krun(fn, args, size, block, blocks, st, &o.msg);
    return o;
}

/* One one-block launch of npu_krun_n. */
typedef struct npu_kjob {
    uintptr_t fn, args;
    uint64_t size;
    uintptr_t st; /* npu_kstate *: the layout of Go's emu.KernelJob, which has no pointer */
} npu_kjob;

/* npu_krun_n runs block 0 of 1 of each of the n jobs in order, as
 * npu_krun, stopping after the first that does not succeed: n is how many
 * ran, r and msg the last one's npu_krun result, fault_addr its state's
 * (a chain of one-block kernels in one call from Go instead of one call
 * each). */
typedef struct npu_krun_n_ret {
    int n;
    int64_t r;
    char *msg;
    uintptr_t fault_addr;
} npu_krun_n_ret;
npu_krun_n_ret npu_krun_n(const npu_kjob *jobs, int n);

/* npu_kcycles copies the launch's per-pipe busy cycles (NPU_KPIPES,
 * summed over its blocks) and its length in cycles (the slowest block);
 * it returns the number of blocks that reported, 0 when none did. */
uint32_t npu_kcycles(npu_kstate *st, uint64_t *busy, uint64_t *cycles);

/* npu_ksanitize is non-zero when Ascend C kernels record their GM
 * footprint (set once when the library loads). */
extern int npu_ksanitize;

/* npu_kfootprint gives the launch's GM footprint: 1 and its ranges
 * (valid until npu_kflush), 0 when a core kept more than it could (the
 * footprint is not exact), -1 when no core reported one (not an Ascend C
 * launch, or the sanitizer is off). */
int npu_kfootprint(npu_kstate *st, const npuemu_gm_range **r, uint32_t *n);

/* npu_kflush writes the launch's npuemu_printf output to stdout in block
 * order and frees it and the shared state. */
void npu_kflush(npu_kstate *st);

/* npu_kcall_aicpu calls an AI CPU kernel, uint32_t fn(void *args), under a
 * fault guard: NPU_KRUN_OK with *ret its result, or NPU_KRUN_SIGNAL with
 * the signal in *sig and the faulting address in *addr. */
int npu_kcall_aicpu(uintptr_t fn, uintptr_t args, uint32_t *ret, int *sig, uintptr_t *addr);

/* npu_kcopy copies n bytes from src to dst under a fault guard, as a
 * kernel block runs: 0, or -1 when reading src (or writing dst) faults
 * (the front's deferred host-argument launches, launchq.c's npu_lq_copy). */
int npu_kcopy(void *dst, const void *src, size_t n);

#endif
