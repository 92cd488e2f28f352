/* npuemu/kernel.h: the ABI of npuemu kernels.
 *
 * Real Da Vinci binaries cannot run on the emulator. An npuemu kernel is
 * host C (or C++) code built into a shared object that the program loads
 * with aclrtBinaryLoadFromFile / aclrtBinaryLoadFromData, exactly where it
 * would load a device binary:
 *
 *     cc -shared -fPIC -O2 -I emu/include vadd.c -o vadd.so
 *
 * Each entry point runs once per block, with the block index, the block
 * count (numBlocks of the launch) and the launch's argument blob:
 *
 *     #include "npuemu/kernel.h"
 *
 *     static void vadd(const npuemu_kernel_ctx *ctx) {
 *         const float *a = NPUEMU_ARG(ctx, const float *, 0);
 *         ...
 *     }
 *     NPUEMU_KERNEL_TABLE(
 *         NPUEMU_KERNEL(vadd, NPUEMU_VECTOR, .ns_per_block = 500),
 *     )
 *
 * The exported symbol npuemu_kernel_table (magic, ABI version, entries)
 * marks the object as an npuemu kernel binary; the loader refuses anything
 * without it. docs/kernels.md is the full description.
 */
#ifndef NPUEMU_KERNEL_H
#define NPUEMU_KERNEL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "NPUK" read as a little-endian uint32, and the ABI version this header
 * describes. The loader accepts exactly this version. */
#define NPUEMU_KERNEL_MAGIC 0x4B55504Eu
#define NPUEMU_KERNEL_ABI_VERSION 1u

/* Kernel kinds: the values of aclrtKernelType, so that
 * aclrtGetFunctionAttribute(ACL_FUNC_ATTR_KERNEL_TYPE) reports them as is.
 * AICORE and CUBE blocks take a cube core; VECTOR blocks a vector core (a
 * cube core on SoCs without separate vector cores); MIX blocks one cube
 * core plus mix_vector vector cores. */
#define NPUEMU_AICORE 0u
#define NPUEMU_CUBE 1u
#define NPUEMU_VECTOR 2u
#define NPUEMU_MIX 3u

typedef struct npuemu_kernel_ctx npuemu_kernel_ctx;

/* One GM byte range of a launch's footprint: [lo, hi), read or written
 * by block block (npuemu_kernel_rt.footprint). */
typedef struct npuemu_gm_range {
    uint64_t lo, hi;
    uint32_t block;
    uint32_t mode; /* NPUEMU_GM_READ or NPUEMU_GM_WRITE, and the flags below */
} npuemu_gm_range;
#define NPUEMU_GM_READ 1u
#define NPUEMU_GM_WRITE 2u
/* With NPUEMU_GM_WRITE: an atomic store (SetAtomicAdd / SetAtomicMax /
 * SetAtomicMin, Matmul enAtomic). It reads the bytes and writes them;
 * two atomic stores of the same kind to the same bytes do not race. */
#define NPUEMU_GM_ATOMIC_ADD 4u
#define NPUEMU_GM_ATOMIC_MAX 8u
#define NPUEMU_GM_ATOMIC_MIN 16u
/* A strided range: [lo, hi) is its first burst, and the entry after it
 * (whose mode is NPUEMU_GM_STRIDED alone) holds in lo the bytes from one
 * burst's start to the next and in hi the number of bursts. */
#define NPUEMU_GM_STRIDED 32u

/* The runtime's services, reached through the context so that a kernel
 * object needs no symbol of the runtime library. */
typedef struct npuemu_kernel_rt {
    /* Ends the calling block with an AI Core exception; never returns. */
    void (*trap)(const npuemu_kernel_ctx *ctx, int code);
    /* printf into the launch's output (see npuemu_printf). */
    int (*vprintf)(const npuemu_kernel_ctx *ctx, const char *fmt, va_list ap);

    /* The services below were appended for Ascend C kernels
     * (npuemu/ascendc_rt.h); ABI version 1 is unchanged for kernels that
     * do not use them. */

    /* Ends the calling block with an AI Core exception whose message is
     * msg (the runtime adds the kernel name and the block); never
     * returns. */
    void (*fault)(const npuemu_kernel_ctx *ctx, const char *msg);
    /* Adds the block's per-pipe busy cycles (npipes counters, indexed by
     * Ascend C pipe_t) and its end time in cycles to the launch's record:
     * busy cycles are summed over blocks, the launch lasts as long as its
     * slowest block. */
    void (*report)(const npuemu_kernel_ctx *ctx, const uint64_t *busy, uint32_t npipes, uint64_t cycles);
    /* Finds the device allocation holding addr: 1 and its start and size,
     * or 0 when no allocation (device memory, pinned host memory, managed
     * memory) holds it. */
    int (*gm_find)(const npuemu_kernel_ctx *ctx, uint64_t addr, uint64_t *base, uint64_t *size);
    /* The launch's shared scratch: NPUEMU_LAUNCH_SHARED_SIZE zeroed bytes,
     * the same for every block of one launch, for SyncAll and cross-core
     * flags; its first word (uint32) becomes non-zero once a block of the
     * launch has failed, so that waiters give up. */
    void *(*shared)(const npuemu_kernel_ctx *ctx);
    /* Runs fn(sub, arg, i) for i in 0..n-1 at the same time, each on its
     * own thread under its own fault guard (i = 0 on the calling thread),
     * and returns once all have returned. sub is a context like ctx. If
     * one of them faulted, the calling block fails with that fault after
     * all have returned (the call does not return). n <= 8. */
    void (*run_sub)(const npuemu_kernel_ctx *ctx, uint32_t n,
                    void (*fn)(const npuemu_kernel_ctx *sub, void *arg, uint32_t i), void *arg);
    /* The SoC of the device running the launch ("Ascend910B3"). */
    const char *(*soc)(const npuemu_kernel_ctx *ctx);
    /* Non-zero when the sanitizer (NPUEMU_SANITIZE) wants the launch's
     * GM footprint (docs/sanitizer.md); the answer is fixed for the
     * process. */
    int (*sanitizing)(const npuemu_kernel_ctx *ctx);
    /* Adds n GM byte ranges the calling core read or wrote to the
     * launch's footprint; overflow says the core touched more than it
     * could keep (the launch then counts as touching the whole of every
     * allocation its pointer arguments point into). */
    void (*footprint)(const npuemu_kernel_ctx *ctx, const npuemu_gm_range *r, uint32_t n, int overflow);
} npuemu_kernel_rt;


/* Bytes of the launch's shared scratch (npuemu_kernel_rt.shared). */
#define NPUEMU_LAUNCH_SHARED_SIZE 65536u

/* What one block sees. Valid only during the call. */
struct npuemu_kernel_ctx {
    uint32_t block_idx;          /* 0 .. block_dim-1 */
    uint32_t block_dim;          /* numBlocks of the launch */
    const void *args;            /* the argument blob */
    uint64_t args_size;          /* its size in bytes */
    const npuemu_kernel_rt *rt;  /* runtime services */
    void *priv;                  /* runtime-private */
};

/* The entry signature. */
typedef void (*npuemu_kernel_fn)(const npuemu_kernel_ctx *ctx);

/* One kernel of the table. Only name, fn and kind are required.
 *
 * Cost (virtual time on the device clock; wall time is not modelled):
 * one block costs ns_per_block + ns_per_unit * ceil(units / block_dim)
 * nanoseconds, where units is the uint64 argument at byte offset
 * size_offset of the blob (read only when ns_per_unit > 0), e.g. the
 * element count of a vector add. A launch lasts waves * (block cost),
 * waves = ceil(block_dim / cores the kernel can use at once). */
typedef struct npuemu_kernel_entry {
    const char *name;      /* the kernelName of aclrtBinaryGetFunction */
    npuemu_kernel_fn fn;
    uint32_t kind;         /* NPUEMU_AICORE / CUBE / VECTOR / MIX */
    uint16_t mix_cube;     /* MIX: cube part of the ratio (0: 1) */
    uint16_t mix_vector;   /* MIX: vector cores per cube core (0: 2) */
    uint64_t ns_per_block; /* fixed cost of one block */
    double ns_per_unit;    /* cost of one unit of the size argument */
    uint32_t size_offset;  /* blob offset of the uint64 unit count */
    uint32_t num_params;   /* parameter count for aclrtFunctionGetParamCount (0: unknown) */
    /* Byte size of each of the num_params parameters, for
     * aclrtFunctionGetParamInfo and aclrtLaunchKernelWithArgsArray (NULL:
     * 8 bytes each: pointers and 64-bit scalars). Parameters lie at the
     * next multiple of 8 bytes in order, as aclrtKernelArgsAppend puts
     * them. Added after ABI version 1 shipped: the loader reads it only
     * from tables whose entry_size includes it. */
    const uint32_t *param_sizes;
    /* NPUEMU_KERNEL_* flags. Added after param_sizes: read only from
     * tables whose entry_size includes it. */
    uint32_t flags;
} npuemu_kernel_entry;

/* npuemu_kernel_entry.flags: the blocks of a launch must all run at the
 * same time (Ascend C SyncAll, cross-core flags): the runtime starts the
 * launch only when it can hold every block at once, and fails it with
 * ACL_ERROR_RT_PARAM_INVALID when blockDim exceeds the cores. */
#define NPUEMU_KERNEL_COOPERATIVE 1u

/* NPUEMU_PARAMS(8, 8, 4) is a param_sizes array (C only; in C++ point
 * .param_sizes at a static array). */
#define NPUEMU_PARAMS(...) ((const uint32_t[]){__VA_ARGS__})

/* The marker: exported as npuemu_kernel_table. entry_size lets a newer
 * runtime read an older table. */
typedef struct npuemu_kernel_table_t {
    uint32_t magic;        /* NPUEMU_KERNEL_MAGIC */
    uint32_t abi_version;  /* NPUEMU_KERNEL_ABI_VERSION */
    uint32_t count;        /* entries */
    uint32_t entry_size;   /* sizeof(npuemu_kernel_entry) */
    const npuemu_kernel_entry *entries;
} npuemu_kernel_table_t;

/* NPUEMU_KERNEL(fn, kind, ...) is one table entry named after fn; the
 * optional rest are designated initializers of npuemu_kernel_entry
 * (.ns_per_block = 1000, .ns_per_unit = 0.25, .size_offset = 24, ...). */
#define NPUEMU_KERNEL(fn_, kind_, ...) \
    { .name = #fn_, .fn = (fn_), .kind = (kind_), __VA_ARGS__ }

#ifdef __cplusplus
#define NPUEMU_EXTERN_C_ extern "C"
#else
#define NPUEMU_EXTERN_C_
#endif

/* NPUEMU_KERNEL_TABLE(entries...) defines and exports the table. Use it
 * once per shared object. */
#define NPUEMU_KERNEL_TABLE(...)                                             \
    static const npuemu_kernel_entry npuemu_kernel_entries_[] = {__VA_ARGS__}; \
    NPUEMU_EXTERN_C_ __attribute__((visibility("default")))                   \
    const npuemu_kernel_table_t                                                \
        npuemu_kernel_table = {                                               \
            NPUEMU_KERNEL_MAGIC, NPUEMU_KERNEL_ABI_VERSION,                   \
            (uint32_t)(sizeof(npuemu_kernel_entries_) /                       \
                       sizeof(npuemu_kernel_entries_[0])),                    \
            (uint32_t)sizeof(npuemu_kernel_entry), npuemu_kernel_entries_};

/* NPUEMU_ARG(ctx, type, offset) reads the argument of the given type at a
 * byte offset of the blob (aclrtKernelArgsAppend places each parameter at
 * the next multiple of 8). It copies, so any alignment works. */
#define NPUEMU_ARG(ctx, type, offset) \
    (*(type const *)npuemu_arg_((ctx), (offset), sizeof(type)))

static inline const void *npuemu_arg_(const npuemu_kernel_ctx *ctx, size_t off, size_t size) {
    static const uint64_t zero[8] = {0};
    /* Reading past the blob is a kernel bug: trap rather than read junk. */
    if (off + size > ctx->args_size || size > sizeof(zero)) {
        ctx->rt->trap(ctx, -1);
        return zero;
    }
    return (const char *)ctx->args + off;
}

/* npuemu_trap ends the calling block with an AI Core exception: the
 * launch fails and the next synchronisation of its stream returns
 * ACL_ERROR_RT_AICORE_EXCEPTION (507015) with the code in the message. */
static inline void npuemu_trap(const npuemu_kernel_ctx *ctx, int code) {
    ctx->rt->trap(ctx, code);
    __builtin_unreachable();
}

/* npuemu_printf formats like printf. The text of a launch is written to
 * the process's stdout when the launch ends, block by block in block
 * order, before the launch counts as complete: it precedes whatever the
 * host prints after synchronising. Plain printf also works but is written
 * at once, interleaved between blocks. */
__attribute__((format(printf, 2, 3)))
static inline int npuemu_printf(const npuemu_kernel_ctx *ctx, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = ctx->rt->vprintf(ctx, fmt, ap);
    va_end(ap);
    return n;
}

#ifdef __cplusplus
}
#endif

#endif /* NPUEMU_KERNEL_H */
