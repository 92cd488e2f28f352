// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* npuemu/ascendc_rt.h: the runtime side of Ascend C kernels on npuemu.
 *
 * A kernel source written in Ascend C is compiled with the host C++
 * compiler into an npuemu kernel object (npuemu/kernel.h). The compiler
 * driver appends one entry per kernel:
 *
 *     static void npuemu_entry_NAME(const npuemu_kernel_ctx *ctx) {
 *         npuemu::asc::run_block(ctx, "NAME", NPUEMU_VECTOR, [&] {
 *             NAME(npuemu::asc::arg<T1>(ctx, 0), npuemu::asc::arg<T2>(ctx, 8));
 *         });
 *     }
 *
 * run_block sets up the block's state (block index and count, core type,
 * the local memories with the SoC's sizes, flags, cycle counters), runs
 * the body once per core of the block (MIX: one AIC and two AIV sub-blocks
 * at the same time) and reports the per-pipe cycles. A rule violation
 * (npuemu::asc::fault) ends the block with an AI Core exception whose
 * message names the API and the rule; the runtime adds the kernel and the
 * block. docs/ascendc.md describes the rules and the cost table.
 */
#ifndef NPUEMU_ASCENDC_RT_H
#define NPUEMU_ASCENDC_RT_H

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ascendc/types.h"
#include "npuemu/kernel.h"

namespace AscendC {
class TPipe;
}

namespace npuemu {
namespace asc {

using AscendC::Hardware;
using AscendC::TPosition;

constexpr int kMems = (int)Hardware::MAX;
constexpr int kPipes = (int)PIPE_NUM;
constexpr int kEvents = (int)AscendC::HardEvent::MAX;
constexpr int kEventIds = 8;

/* The local memories of one SoC family, in bytes (Hardware order: GM, UB,
 * L1, L0A, L0B, L0C, BIAS, FIXBUF) and its cost table (docs/ascendc.md). */
struct SocTable {
    const char *prefix; /* SoC names starting with this */
    uint32_t mem[kMems];
    uint32_t mte2_bytes;  /* GM -> local bytes per cycle */
    uint32_t mte3_bytes;  /* local -> GM bytes per cycle */
    uint32_t mte1_bytes;  /* L1 -> L0 bytes per cycle */
    uint32_t vec_bytes;   /* vector unit: bytes per cycle (one 256-byte repeat in 1 cycle) */
    uint32_t cube_macs;   /* fp16 MACs per cycle (16x16x16 fractal) */
    uint32_t issue;       /* fixed cycles per instruction */
    uint32_t mhz;         /* clock, for the conversion to time */
};

inline const SocTable &soc_table(const char *soc) {
    static const SocTable tables[] = {
        /* Atlas A2 (Ascend910B*, dav-2201) and A3 (Ascend910_93*). */
        {"Ascend910B", {0, 192u << 10, 512u << 10, 64u << 10, 64u << 10, 128u << 10, 1u << 10, 7u << 10}, 64, 64, 256, 256, 4096, 14, 1800},
        {"Ascend910_93", {0, 192u << 10, 512u << 10, 64u << 10, 64u << 10, 128u << 10, 1u << 10, 7u << 10}, 64, 64, 256, 256, 4096, 14, 1800},
        /* Atlas inference (Ascend310P*, dav-m200): 256 KiB UB, 1 MiB L1,
         * 256 KiB L0C, no BT/FB buffer. */
        {"Ascend310P", {0, 256u << 10, 1024u << 10, 64u << 10, 64u << 10, 256u << 10, 0, 0}, 32, 32, 128, 256, 4096, 14, 1000},
        /* Atlas training (Ascend910, dav-c100). */
        {"Ascend910", {0, 256u << 10, 1024u << 10, 64u << 10, 64u << 10, 256u << 10, 0, 0}, 64, 64, 256, 256, 4096, 14, 1000},
    };
    if (soc != nullptr) {
        for (const SocTable &t : tables) {
            if (std::strncmp(soc, t.prefix, std::strlen(t.prefix)) == 0) return t;
        }
    }
    return tables[0];
}

inline const char *mem_name(Hardware h) {
    switch (h) {
    case Hardware::GM: return "Global Memory";
    case Hardware::UB: return "Unified Buffer";
    case Hardware::L1: return "L1 Buffer";
    case Hardware::L0A: return "L0A Buffer";
    case Hardware::L0B: return "L0B Buffer";
    case Hardware::L0C: return "L0C Buffer";
    case Hardware::BIAS: return "BT (bias table) Buffer";
    case Hardware::FIXBUF: return "Fixpipe Buffer";
    default: return "?";
    }
}

/* The physical memory of a logical position on the A2 family. */
inline Hardware hw_of(TPosition p) {
    switch (p) {
    case TPosition::GM: return Hardware::GM;
    case TPosition::VECIN:
    case TPosition::VECOUT:
    case TPosition::VECCALC: return Hardware::UB;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
    case TPosition::TSCM: return Hardware::L1;
    case TPosition::A2: return Hardware::L0A;
    case TPosition::B2: return Hardware::L0B;
    case TPosition::CO1: return Hardware::L0C;
    case TPosition::C2: return Hardware::BIAS;
    case TPosition::C2PIPE2GM: return Hardware::FIXBUF;
    case TPosition::CO2: return Hardware::UB; /* the UB output of a matmul on the AIV side */
    case TPosition::SPM: return Hardware::UB;
    default: return Hardware::UB;
    }
}

/* Address alignment of each memory (Ascend C general constraints). */
inline uint32_t mem_align(Hardware h) {
    switch (h) {
    case Hardware::L0A:
    case Hardware::L0B: return 512;
    case Hardware::L0C:
    case Hardware::BIAS: return 64;
    case Hardware::GM: return 1;
    default: return 32;
    }
}

inline const char *pos_name(TPosition p) {
    static const char *names[] = {"GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC", "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL"};
    unsigned i = (unsigned)p;
    return i < sizeof names / sizeof names[0] ? names[i] : "?";
}

inline const char *pipe_name(int p) {
    static const char *names[] = {"PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL", "PIPE_MTE4", "PIPE_MTE5", "PIPE_V2", "PIPE_FIX"};
    return p >= 0 && p < kPipes ? names[p] : "?";
}

/* Cross-core state of one MIX block: one AIC and two AIV sub-blocks. */
struct MixState {
    std::atomic<uint32_t> flag[2][16][3]; /* [direction: 0 AIC->AIV, 1 AIV->AIC][flag id][AIV index] */
    std::atomic<uint32_t> live;           /* sub-blocks still running */
    std::atomic<uint32_t> waiting;        /* sub-blocks blocked in a wait */
    std::atomic<uint32_t> wait_on[3];     /* per core (0 AIC, 1-2 AIV): flag id + 1 it waits for, 0: none */
};

/* One record of a core's GM footprint: count bursts of burst bytes, the
 * first at lo, each stride bytes after the one before (count 1: the one
 * range [lo, lo + burst), stride 0). mode: kGmRead, kGmWrite and the
 * atomic flags. */
struct FpRec {
    uint64_t lo, burst, stride;
    uint32_t count, mode;
};

/* The state of the running block (one per core: AIC or AIV). */
struct Block {
    const npuemu_kernel_ctx *ctx;
    const char *kernel;
    uint32_t kind;      /* NPUEMU_VECTOR / CUBE / MIX / AICORE */
    bool aic;           /* the cube core of the block */
    uint32_t sub;       /* sub-block index: AIV 0/1 of a MIX block, else 0 */
    uint32_t idx, num;  /* what GetBlockIdx / GetBlockNum return */
    const SocTable *soc;
    uint8_t *mem[kMems];
    uint32_t mem_size[kMems];
    /* Time: each pipe's clock (cycles) and the cycles it was busy. */
    uint64_t clock[kPipes];
    uint64_t busy[kPipes];
    /* SetFlag/WaitFlag: pending sets per event and id, and the time of
     * the oldest pending set. */
    uint16_t flags[kEvents][kEventIds];
    uint64_t flag_time[kEvents][kEventIds][4];
    /* Atomic mode of the copy engines into GM. */
    uint8_t atomic_op;
    /* GM ranges already found to be allocations. */
    uintptr_t gm_lo[8], gm_hi[8];
    uint32_t gm_n;
    uint8_t *sys_workspace;
    AscendC::TPipe *pipe;
    MixState *mix;
    /* Cross-core flags set in mode 0 by this core, not yet waited for. */
    uint16_t xflag0[16];
    /* The CmpMask register: Compare's register form writes it,
     * Select(VSEL_CMPMASK_SPR) reads it, GetCmpMask/SetCmpMask move it. */
    uint8_t cmpmask[16];
    /* Vector mask state (SetVectorMask / SetMaskCount). */
    uint64_t mask[2];
    bool mask_counter;
    /* The GM footprint (sanitizer only; fp is null otherwise). */
    FpRec *fp;
    uint32_t fp_n;
    bool fp_over;
};

/* Records one core keeps of its GM footprint before it gives up (the
 * launch then counts as touching its arguments' allocations whole). A
 * strided copy is one record however many bursts it has, and records
 * that continue each other are coalesced (footprint_note). */
constexpr uint32_t kFootprintMax = 1024;

/* Direction of a GM access (gm_check). An access of unknown direction
 * counts as a write: it is checked for races, not by initcheck. An atomic
 * store is a write with its atomic flag (gm_store_mode). */
constexpr uint32_t kGmRead = NPUEMU_GM_READ;
constexpr uint32_t kGmWrite = NPUEMU_GM_WRITE;
constexpr uint32_t kGmAtomicAdd = NPUEMU_GM_ATOMIC_ADD;
constexpr uint32_t kGmAtomicMax = NPUEMU_GM_ATOMIC_MAX;
constexpr uint32_t kGmAtomicMin = NPUEMU_GM_ATOMIC_MIN;

inline Block *&current_slot() {
    static thread_local Block *b = nullptr;
    return b;
}

/* The running block; a kernel body can only run inside run_block. */
inline Block &blk() {
    Block *b = current_slot();
    if (b == nullptr) {
        std::fprintf(stderr, "npuemu: an Ascend C API was called outside a kernel launch\n");
        std::abort();
    }
    return *b;
}

inline bool in_kernel() { return current_slot() != nullptr; }

/* fault ends the block with an AI Core exception: "<core>: <api>: <text>".
 * The runtime prefixes the kernel name and the block. */
[[noreturn]] inline void vfault(const char *api, const char *fmt, va_list ap) {
    Block &b = blk();
    char text[768];
    std::vsnprintf(text, sizeof text, fmt, ap);
    char msg[1024];
    if (b.kind == NPUEMU_MIX) {
        if (b.aic) {
            std::snprintf(msg, sizeof msg, "AIC: %s: %s", api, text);
        } else {
            std::snprintf(msg, sizeof msg, "AIV %u: %s: %s", b.sub, api, text);
        }
    } else {
        std::snprintf(msg, sizeof msg, "%s: %s", api, text);
    }
    b.ctx->rt->fault(b.ctx, msg);
    __builtin_unreachable();
}

[[noreturn]] __attribute__((format(printf, 2, 3))) inline void fault(const char *api, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfault(api, fmt, ap);
}

/* Time. charge(pipe, cycles): the instruction starts when its pipe is free
 * and takes cycles (plus the issue overhead). */
inline void charge(pipe_t pipe, uint64_t cycles) {
    Block &b = blk();
    uint64_t c = cycles + b.soc->issue;
    b.clock[pipe] += c;
    b.busy[pipe] += c;
}

/* Cycles of moving bytes on a copy pipe. */
inline uint64_t copy_cycles(pipe_t pipe, uint64_t bytes) {
    const SocTable &t = *blk().soc;
    uint32_t per = pipe == PIPE_MTE2 ? t.mte2_bytes : pipe == PIPE_MTE3 ? t.mte3_bytes : pipe == PIPE_V ? t.vec_bytes : t.mte1_bytes;
    return (bytes + per - 1) / per;
}

/* Cycles of a vector instruction over bytes of operand (one 256-byte
 * repeat per cycle; wider work types, e.g. float math of half data, cost
 * as their bytes). */
inline uint64_t vec_cycles(uint64_t bytes) { return (bytes + blk().soc->vec_bytes - 1) / blk().soc->vec_bytes; }

/* One pipe waits for another up to a point in time (flags, queues). */
inline void wait_until(pipe_t pipe, uint64_t t) {
    Block &b = blk();
    if (b.clock[pipe] < t) b.clock[pipe] = t;
}

inline void barrier_all() {
    Block &b = blk();
    uint64_t m = 0;
    for (int p = 0; p < kPipes; p++) m = m > b.clock[p] ? m : b.clock[p];
    for (int p = 0; p < kPipes; p++) b.clock[p] = m;
}

/* Local memories. */
inline uint32_t mem_size(Hardware h) { return blk().mem_size[(int)h]; }
inline uint32_t mem_size(TPosition p) { return mem_size(hw_of(p)); }
inline uint8_t *mem_base(Hardware h) { return blk().mem[(int)h]; }

/* The footprint (sanitizer only). A core keeps records of the GM bytes it
 * read and wrote: a contiguous range, or count bursts stride bytes apart
 * (a strided copy: DataCopyParams, DataCopyPad, the ND/NZ cube copies,
 * Fixpipe, Matmul tiles), so that the gaps between a strided copy's
 * bursts are not in it (docs/sanitizer.md, Kernel footprints). */

/* fp_end is the end of r's last burst. */
inline uint64_t fp_end(const FpRec &r) { return r.lo + (uint64_t)(r.count - 1) * r.stride + r.burst; }

/* fp_next_row extends strided s by the one range c when c is the row
 * after s's last or before its first. */
inline bool fp_next_row(FpRec &s, const FpRec &c) {
    if (c.burst != s.burst) return false;
    if (c.lo == s.lo + (uint64_t)s.count * s.stride) {
        s.count++;
        return true;
    }
    if (c.lo + s.stride == s.lo) {
        s.lo = c.lo;
        s.count++;
        return true;
    }
    return false;
}

/* fp_merge merges n into r when r and n are of one mode and together are
 * one record: contiguous ranges that overlap or touch; strided records of
 * one stride and burst where one continues the other (the next bursts,
 * or the same bursts again), or a range that is the next (previous) row
 * of a strided record; strided records of one stride and count side by
 * side (the next columns of the same rows); a record inside a contiguous
 * one. It says whether it merged. */
inline bool fp_merge(FpRec &r, const FpRec &n) {
    if (r.mode != n.mode) return false;
    uint64_t rend = fp_end(r), nend = fp_end(n);
    if (r.count == 1 && n.count == 1) {
        if (n.lo > rend || nend < r.lo) return false;
        uint64_t lo = n.lo < r.lo ? n.lo : r.lo, hi = nend > rend ? nend : rend;
        r.lo = lo;
        r.burst = hi - lo;
        return true;
    }
    if (r.count == 1) {
        if (n.lo >= r.lo && nend <= rend) return true; /* inside r */
        FpRec t = n;
        if (!fp_next_row(t, r)) return false;
        r = t;
        return true;
    }
    if (n.count == 1) {
        if (n.lo <= r.lo && nend >= rend) { /* covers r */
            r = n;
            return true;
        }
        return fp_next_row(r, n);
    }
    if (r.stride != n.stride) return false;
    if (r.burst == n.burst) {
        if (n.lo >= r.lo && (n.lo - r.lo) % r.stride == 0) {
            uint64_t first = (n.lo - r.lo) / r.stride; /* n's first burst is r's burst first */
            if (first > r.count) return false;
            if (first + n.count > r.count) r.count = (uint32_t)(first + n.count);
            return true;
        }
        if (n.lo < r.lo && (r.lo - n.lo) % r.stride == 0) {
            uint64_t first = (r.lo - n.lo) / r.stride; /* r's first burst is n's burst first */
            if (first > n.count) return false;
            uint64_t count = first + r.count > n.count ? first + r.count : n.count;
            r.lo = n.lo;
            r.count = (uint32_t)count;
            return true;
        }
        return false;
    }
    if (r.count != n.count) return false;
    if (n.lo == r.lo + r.burst || n.lo + n.burst == r.lo) { /* side by side */
        if (n.lo < r.lo) r.lo = n.lo;
        r.burst += n.burst;
        if (r.burst >= r.stride) { /* the gaps are gone */
            r.burst = fp_end(r) - r.lo;
            r.count = 1;
            r.stride = 0;
        }
        return true;
    }
    return false;
}

/* footprint_compact makes the core's records fewer when they are many:
 * sorted by mode, burst and address, ranges of one length evenly spaced
 * become one strided record (the rows of a matrix copied one row at a
 * time, in any order, interleaved with other buffers' rows), and records
 * that continue each other merge. */
inline void footprint_compact(Block &b) {
    std::sort(b.fp, b.fp + b.fp_n, [](const FpRec &x, const FpRec &y) {
        if (x.mode != y.mode) return x.mode < y.mode;
        if (x.burst != y.burst) return x.burst < y.burst;
        if (x.count != y.count) return x.count < y.count;
        return x.lo < y.lo;
    });
    uint32_t n = 0;
    for (uint32_t i = 0; i < b.fp_n; i++) {
        const FpRec &x = b.fp[i];
        if (n > 0) {
            FpRec &last = b.fp[n - 1];
            if (last.mode == x.mode && last.burst == x.burst && x.count == 1) {
                if (last.count == 1 && x.lo > last.lo + last.burst) { /* two rows: a stride */
                    last.stride = x.lo - last.lo;
                    last.count = 2;
                    continue;
                }
                if (last.count > 1 && x.lo == last.lo + (uint64_t)last.count * last.stride) { /* the next row */
                    last.count++;
                    continue;
                }
            }
            if (fp_merge(last, x)) continue;
        }
        b.fp[n++] = x;
    }
    b.fp_n = n;
}

/* footprint_note adds count bursts of burst bytes, stride bytes apart from
 * lo, to the core's footprint, merged with the records it continues. */
inline void footprint_note(Block &b, uint64_t lo, uint64_t burst, uint64_t stride, uint64_t count, uint32_t mode) {
    if (burst == 0 || count == 0) return;
    FpRec n{lo, burst, stride, 1, mode};
    if (count > 1 && stride > burst && count <= 0xffffffffu) {
        n.count = (uint32_t)count;
    } else if (count > 1) { /* bursts that touch or overlap: one range */
        n.burst = (count - 1) * stride + burst;
    }
    /* Merge until nothing merges any more: a merged record may now touch
     * another. */
    for (bool merged = true; merged;) {
        merged = false;
        for (uint32_t i = b.fp_n; i-- > 0;) {
            FpRec r = b.fp[i];
            if (fp_merge(r, n)) { /* fp_merge is symmetric: one call */
                n = r;
                b.fp[i] = b.fp[--b.fp_n];
                merged = true;
            }
        }
    }
    if (b.fp_n == kFootprintMax) {
        footprint_compact(b);
        if (b.fp_n > kFootprintMax - kFootprintMax / 8) { /* compacting gained little: give up */
            b.fp_over = true;
            return;
        }
    }
    b.fp[b.fp_n++] = n;
}

/* gm_bounds: [p, p+bytes) must lie in one allocation. Ranges found are
 * cached per block, so the runtime is asked once per buffer. */
inline void gm_bounds(Block &b, uintptr_t lo, uint64_t bytes, const char *api) {
    uintptr_t hi = lo + bytes;
    for (uint32_t i = 0; i < b.gm_n; i++) {
        if (lo >= b.gm_lo[i] && hi <= b.gm_hi[i]) return;
    }
    uint64_t base = 0, size = 0;
    if (b.ctx->rt->gm_find == nullptr) return;
    if (!b.ctx->rt->gm_find(b.ctx, (uint64_t)lo, &base, &size)) {
        fault(api, "GM address %#lx (%llu bytes) lies outside every device allocation (rule: GM access outside every allocation)",
              (unsigned long)lo, (unsigned long long)bytes);
    }
    if (hi > base + size) {
        fault(api, "GM range [%#lx, %#lx) runs %llu bytes past the end of the allocation [%#llx, %#llx) (rule: GM access outside every allocation)",
              (unsigned long)lo, (unsigned long)hi, (unsigned long long)(hi - (base + size)), (unsigned long long)base,
              (unsigned long long)(base + size));
    }
    uint32_t slot = b.gm_n < 8 ? b.gm_n++ : (uint32_t)(lo >> 6) % 8;
    b.gm_lo[slot] = (uintptr_t)base;
    b.gm_hi[slot] = (uintptr_t)(base + size);
}

/* GM: [p, p+bytes) must lie in one allocation. mode (kGmRead, kGmWrite,
 * gm_store_mode) is what the sanitizer records of the access. */
inline void gm_check(const void *p, uint64_t bytes, const char *api, uint32_t mode = kGmWrite) {
    Block &b = blk();
    if (bytes == 0) return;
    if (__builtin_expect(b.fp != nullptr, 0)) footprint_note(b, (uintptr_t)p, bytes, 0, 1, mode);
    gm_bounds(b, (uintptr_t)p, bytes, api);
}

/* gm_check_rows is gm_check of a strided access: count bursts of burst
 * bytes, each stride bytes after the one before, from p. Their span must
 * lie in one allocation; the footprint holds the bursts, not the gaps. */
inline void gm_check_rows(const void *p, uint64_t burst, uint64_t stride, uint64_t count, const char *api, uint32_t mode = kGmWrite) {
    Block &b = blk();
    if (burst == 0 || count == 0) return;
    if (__builtin_expect(b.fp != nullptr, 0)) footprint_note(b, (uintptr_t)p, burst, stride, count, mode);
    gm_bounds(b, (uintptr_t)p, (count - 1) * stride + burst, api);
}

/* gm_check_mats is gm_check of mats matrices mat_stride bytes apart, each
 * rows bursts of burst bytes, row_stride bytes apart (the ND/NZ cube
 * copies, Fixpipe). */
inline void gm_check_mats(const void *p, uint64_t mats, uint64_t mat_stride, uint64_t rows, uint64_t row_stride, uint64_t burst, const char *api,
                          uint32_t mode = kGmWrite) {
    Block &b = blk();
    if (mats == 0 || rows == 0 || burst == 0) return;
    if (__builtin_expect(b.fp != nullptr, 0)) {
        if (mats == 1 || mat_stride == rows * row_stride) {
            footprint_note(b, (uintptr_t)p, burst, row_stride, mats * rows, mode);
        } else {
            for (uint64_t i = 0; i < mats; i++) footprint_note(b, (uintptr_t)p + i * mat_stride, burst, row_stride, rows, mode);
        }
    }
    gm_bounds(b, (uintptr_t)p, (mats - 1) * mat_stride + (rows - 1) * row_stride + burst, api);
}

/* gm_store_mode is the footprint mode of a store into GM by the copy
 * engines: a write, atomic when SetAtomicAdd/Max/Min is in force
 * (Block::atomic_op, atomic_op_t: 1 sum, 2 max, 3 min). */
inline uint32_t gm_store_mode(uint8_t atomic_op) {
    switch (atomic_op) {
    case 1: return kGmWrite | kGmAtomicAdd;
    case 2: return kGmWrite | kGmAtomicMax;
    case 3: return kGmWrite | kGmAtomicMin;
    default: return kGmWrite;
    }
}
inline uint32_t gm_store_mode() { return gm_store_mode(blk().atomic_op); }

/* Which memory holds a host pointer, and its offset there (-1: none). */
inline int mem_of(const void *p, uint32_t *off) {
    Block &b = blk();
    uintptr_t a = (uintptr_t)p;
    for (int h = 1; h < kMems; h++) {
        uintptr_t base = (uintptr_t)b.mem[h];
        if (base != 0 && a >= base && a < base + b.mem_size[h]) {
            if (off) *off = (uint32_t)(a - base);
            return h;
        }
    }
    return -1;
}

/* Core identity for the cube helpers. */
inline bool is_aic() { return blk().aic; }
inline bool is_mix() { return blk().kind == NPUEMU_MIX; }
inline uint32_t sub_block_idx() { return blk().sub; }

/* Wait helpers: futex on a 32-bit word, woken by the setter, with a
 * 10 ms timeout to look at the launch's abort word. */
inline void futex_wait(std::atomic<uint32_t> *w, uint32_t val) {
    struct timespec ts = {0, 10 * 1000 * 1000};
    syscall(SYS_futex, reinterpret_cast<uint32_t *>(w), FUTEX_WAIT, val, &ts, nullptr, 0);
}
inline void futex_wake(std::atomic<uint32_t> *w) {
    syscall(SYS_futex, reinterpret_cast<uint32_t *>(w), FUTEX_WAKE, 0x7fffffff, nullptr, nullptr, 0);
}

/* The launch's shared scratch: abort word, SyncAll barriers, finished
 * blocks. */
struct LaunchShared {
    std::atomic<uint32_t> aborted;     /* set by the runtime when a block failed */
    std::atomic<uint32_t> finished[2]; /* cores that returned: [0] vector cores, [1] cube cores */
    struct Barrier {
        std::atomic<uint32_t> count;
        std::atomic<uint32_t> gen;
    } sync[3]; /* SyncAll: AIV only, AIC only, all cores */
    /* IBSet / IBWait: sets per (block, event id), for 1024 blocks x 8 ids */
    std::atomic<uint32_t> ib[1024][8];
};
static_assert(sizeof(LaunchShared) <= NPUEMU_LAUNCH_SHARED_SIZE, "shared scratch");

inline LaunchShared *launch_shared() {
    Block &b = blk();
    if (b.ctx->rt->shared == nullptr) return nullptr;
    return static_cast<LaunchShared *>(b.ctx->rt->shared(b.ctx));
}

/* arg<T>(ctx, off): the parameter of type T at byte offset off of the
 * argument blob (copied: any size, any alignment). */
template <typename T>
inline T arg(const npuemu_kernel_ctx *ctx, size_t off) {
    static_assert(std::is_trivially_copyable<T>::value, "kernel parameters are trivially copyable");
    T v;
    if (off > ctx->args_size || sizeof(T) > ctx->args_size - off) {
        char msg[256];
        std::snprintf(msg, sizeof msg, "kernel argument of %zu bytes at offset %zu lies past the %llu-byte argument blob", sizeof(T), off,
                      (unsigned long long)ctx->args_size);
        if (ctx->rt->fault != nullptr) ctx->rt->fault(ctx, msg);
        ctx->rt->trap(ctx, -1);
    }
    std::memcpy(&v, static_cast<const char *>(ctx->args) + off, sizeof(T));
    return v;
}

/* Local memory of one core, kept per host thread and reused; freed when
 * the thread ends (the sub-block threads of MIX blocks end with their
 * block). */
struct ThreadMem {
    uint8_t *bufs[kMems] = {};
    uint32_t sizes[kMems] = {};
    ~ThreadMem() {
        for (uint8_t *b : bufs) std::free(b);
    }
};
inline uint8_t *thread_mem(int h, uint32_t size) {
    static thread_local ThreadMem m;
    if (size == 0) return nullptr;
    if (m.sizes[h] < size) {
        std::free(m.bufs[h]);
        m.bufs[h] = static_cast<uint8_t *>(std::aligned_alloc(4096, (size + 4095) & ~4095u));
        m.sizes[h] = m.bufs[h] ? size : 0;
        if (m.bufs[h] == nullptr) {
            npuemu_kernel_ctx const *ctx = current_slot() ? current_slot()->ctx : nullptr;
            if (ctx && ctx->rt->fault) ctx->rt->fault(ctx, "out of host memory for the core's local memories");
        }
    }
    return m.bufs[h];
}

inline void end_of_core(); /* ascendc/sync.h: checks at the end of a core's body */

/* The footprint buffer of the calling thread (one core runs per thread). */
inline FpRec *footprint_buf() {
    static thread_local FpRec buf[kFootprintMax];
    return buf;
}

/* footprint_report hands the core's footprint to the runtime in the ABI's
 * form (npuemu_gm_range; a strided record takes two entries). */
inline void footprint_report(const Block &b) {
    static thread_local npuemu_gm_range out[2 * kFootprintMax];
    uint32_t n = 0;
    for (uint32_t i = 0; i < b.fp_n; i++) {
        const FpRec &r = b.fp[i];
        if (r.count > 1) {
            out[n++] = npuemu_gm_range{r.lo, r.lo + r.burst, b.ctx->block_idx, r.mode | NPUEMU_GM_STRIDED};
            out[n++] = npuemu_gm_range{r.stride, r.count, b.ctx->block_idx, NPUEMU_GM_STRIDED};
        } else {
            out[n++] = npuemu_gm_range{r.lo, r.lo + r.burst, b.ctx->block_idx, r.mode};
        }
    }
    b.ctx->rt->footprint(b.ctx, out, n, b.fp_over);
}

template <typename F>
struct CoreRun {
    const char *name;
    uint32_t kind;
    F *body;
    MixState *mix;
};

template <typename F>
inline void run_core(const npuemu_kernel_ctx *ctx, const char *name, uint32_t kind, bool aic, uint32_t sub, MixState *mix, F &body) {
    Block b;
    std::memset(&b, 0, sizeof b);
    b.ctx = ctx;
    b.kernel = name;
    b.kind = kind;
    b.aic = aic;
    b.sub = sub;
    b.mix = mix;
    b.soc = &soc_table(ctx->rt->soc ? ctx->rt->soc(ctx) : nullptr);
    if (kind == NPUEMU_MIX && !aic) {
        b.idx = ctx->block_idx * 2 + sub;
        b.num = ctx->block_dim;
    } else {
        b.idx = ctx->block_idx;
        b.num = ctx->block_dim;
    }
    for (int h = 1; h < kMems; h++) {
        b.mem_size[h] = b.soc->mem[h];
        b.mem[h] = thread_mem(h, b.mem_size[h]);
    }
    b.mask[0] = b.mask[1] = ~0ull;
    if (ctx->rt->sanitizing && ctx->rt->sanitizing(ctx) && ctx->rt->footprint) b.fp = footprint_buf();
    Block *saved = current_slot();
    /* The slot holds a local's address only while the body runs: it is put
     * back below. A newer GCC's -Wdangling-pointer (the device machine's)
     * cannot see that, and under the samples' -Wall -Werror the kernel
     * would not build. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
    current_slot() = &b;
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic pop
#endif
    body();
    end_of_core();
    uint64_t end = 0;
    for (int p = 0; p < kPipes; p++) end = end > b.clock[p] ? end : b.clock[p];
    if (ctx->rt->report) ctx->rt->report(ctx, b.busy, (uint32_t)kPipes, end);
    if (b.fp) footprint_report(b);
    if (LaunchShared *ls = (ctx->rt->shared ? launch_shared() : nullptr)) {
        ls->finished[b.aic ? 1 : 0].fetch_add(1);
        for (auto &s : ls->sync) futex_wake(&s.gen);
    }
    if (mix) {
        mix->live.fetch_sub(1);
        for (auto &d : mix->flag)
            for (auto &f : d)
                for (auto &w : f) futex_wake(&w);
    }
    current_slot() = saved;
}

/* run_block runs one block of a kernel: the body once on its core, or for
 * MIX on one AIC and two AIV sub-blocks at the same time. */
template <typename F>
inline void run_block(const npuemu_kernel_ctx *ctx, const char *name, uint32_t kind, F &&body) {
    if (kind != NPUEMU_MIX) {
        run_core(ctx, name, kind, kind == NPUEMU_CUBE || kind == NPUEMU_AICORE, 0, nullptr, body);
        return;
    }
    MixState mix;
    std::memset((void *)&mix, 0, sizeof mix);
    mix.live.store(3);
    CoreRun<typename std::remove_reference<F>::type> run{name, kind, &body, &mix};
    using R = decltype(run);
    ctx->rt->run_sub(ctx, 3,
                     [](const npuemu_kernel_ctx *sub, void *arg, uint32_t i) {
                         R *r = static_cast<R *>(arg);
                         run_core(sub, r->name, r->kind, i == 0, i == 0 ? 0 : i - 1, r->mix, *r->body);
                     },
                     &run);
}

} // namespace asc
} // namespace npuemu

#endif
