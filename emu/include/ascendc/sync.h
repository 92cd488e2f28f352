// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/sync.h: synchronisation between pipes (SetFlag / WaitFlag,
 * PipeBarrier), between cores (SyncAll, CrossCoreSetFlag /
 * CrossCoreWaitFlag), and the block queries (GetBlockIdx, GetBlockNum,
 * GetSubBlockIdx, block_idx, block_num, GetSysWorkSpacePtr, InitSocState).
 *
 * A core's instructions run in program order on the host, so pipe flags
 * order nothing here; they carry time (the waiting pipe starts no earlier
 * than the setting pipe's clock at the SetFlag) and their rule is
 * checked: a WaitFlag needs an earlier SetFlag of the same event and id.
 * Cross-core waits really block (futex) until the setter runs, give up
 * when another core of the launch failed, and fail when every core still
 * running is waiting (deadlock). */
#ifndef NPUEMU_ASCENDC_SYNC_H
#define NPUEMU_ASCENDC_SYNC_H

#include "ascendc/pipe.h"

namespace npuemu {
namespace asc {

inline void event_pipes(AscendC::HardEvent e, pipe_t *src, pipe_t *dst) {
    using AscendC::HardEvent;
    static const pipe_t tab[][2] = {
        {PIPE_MTE2, PIPE_MTE1}, {PIPE_MTE1, PIPE_MTE2}, {PIPE_MTE1, PIPE_M},   {PIPE_M, PIPE_MTE1},    {PIPE_MTE2, PIPE_V},   {PIPE_V, PIPE_MTE2},
        {PIPE_MTE3, PIPE_V},    {PIPE_V, PIPE_MTE3},    {PIPE_M, PIPE_V},      {PIPE_V, PIPE_M},       {PIPE_V, PIPE_V},      {PIPE_MTE3, PIPE_MTE1},
        {PIPE_MTE1, PIPE_MTE3}, {PIPE_MTE1, PIPE_V},    {PIPE_MTE2, PIPE_M},   {PIPE_M, PIPE_MTE2},    {PIPE_V, PIPE_MTE1},   {PIPE_M, PIPE_FIX},
        {PIPE_FIX, PIPE_M},     {PIPE_MTE3, PIPE_MTE2}, {PIPE_MTE2, PIPE_MTE3}, {PIPE_S, PIPE_V},      {PIPE_V, PIPE_S},      {PIPE_S, PIPE_MTE2},
        {PIPE_MTE2, PIPE_S},    {PIPE_S, PIPE_MTE3},    {PIPE_MTE3, PIPE_S},   {PIPE_MTE2, PIPE_FIX},  {PIPE_FIX, PIPE_MTE2}, {PIPE_FIX, PIPE_S},
        {PIPE_M, PIPE_S},       {PIPE_FIX, PIPE_MTE3},  {PIPE_MTE1, PIPE_FIX}, {PIPE_FIX, PIPE_MTE1},  {PIPE_FIX, PIPE_FIX},
    };
    unsigned i = (unsigned)e;
    if (i >= sizeof tab / sizeof tab[0]) {
        *src = *dst = PIPE_S;
        return;
    }
    *src = tab[i][0];
    *dst = tab[i][1];
}

inline const char *event_name(AscendC::HardEvent e) {
    static const char *names[] = {"MTE2_MTE1", "MTE1_MTE2", "MTE1_M",   "M_MTE1",    "MTE2_V",   "V_MTE2",   "MTE3_V",    "V_MTE3",   "M_V",
                                  "V_M",       "V_V",       "MTE3_MTE1", "MTE1_MTE3", "MTE1_V",   "MTE2_M",   "M_MTE2",    "V_MTE1",   "M_FIX",
                                  "FIX_M",     "MTE3_MTE2", "MTE2_MTE3", "S_V",       "V_S",      "S_MTE2",   "MTE2_S",    "S_MTE3",   "MTE3_S",
                                  "MTE2_FIX",  "FIX_MTE2",  "FIX_S",    "M_S",       "FIX_MTE3", "MTE1_FIX", "FIX_MTE1", "FIX_FIX"};
    unsigned i = (unsigned)e;
    return i < sizeof names / sizeof names[0] ? names[i] : "?";
}

inline void set_flag(AscendC::HardEvent e, int32_t id) {
    Block &b = blk();
    if (id < 0 || id >= kEventIds) fault("SetFlag", "event id %d: want 0..%d (rule: event id range)", id, kEventIds - 1);
    pipe_t src, dst;
    event_pipes(e, &src, &dst);
    uint16_t &n = b.flags[(int)e][id];
    if (n >= 4) fault("SetFlag", "HardEvent::%s id %d set %u times without a WaitFlag (rule: SetFlag without WaitFlag)", event_name(e), id, n);
    b.flag_time[(int)e][id][n] = b.clock[src];
    n++;
}

inline void wait_flag(AscendC::HardEvent e, int32_t id) {
    Block &b = blk();
    if (id < 0 || id >= kEventIds) fault("WaitFlag", "event id %d: want 0..%d (rule: event id range)", id, kEventIds - 1);
    pipe_t src, dst;
    event_pipes(e, &src, &dst);
    uint16_t &n = b.flags[(int)e][id];
    if (n == 0) {
        fault("WaitFlag", "HardEvent::%s id %d waited for with no SetFlag pending: the core would hang (rule: WaitFlag without SetFlag)", event_name(e), id);
    }
    uint64_t t = b.flag_time[(int)e][id][0];
    for (uint16_t i = 1; i < n; i++) b.flag_time[(int)e][id][i - 1] = b.flag_time[(int)e][id][i];
    n--;
    wait_until(dst, t);
}

/* Whether core c of a MIX block (0 AIC, 1-2 AIV) could pass its wait for
 * flag id now: the AIC needs both AIVs' sets, an AIV its AIC's or the
 * other AIV's. */
inline bool mix_ready(MixState &m, uint32_t c, uint32_t id) {
    if (c == 0) {
        uint32_t v = m.flag[0][id][2].load();
        return (v & 0xffffu) > 0 && (v >> 16) > 0;
    }
    return m.flag[0][id][c - 1].load() > 0 || m.flag[1][id][c].load() > 0;
}

/* A deadlock: every core of the block still running waits, and none of
 * their waits can pass. */
inline bool mix_deadlocked(MixState &m) {
    if (m.waiting.load() < m.live.load()) return false;
    for (uint32_t c = 0; c < 3; c++) {
        uint32_t w = m.wait_on[c].load();
        if (w != 0 && mix_ready(m, c, w - 1)) return false;
    }
    return true;
}

/* Blocks core c of a MIX block until it can pass its wait for flag id,
 * watching the launch's abort word and the block for a deadlock. */
inline void mix_wait(const char *api, MixState &m, uint32_t c, uint32_t id, std::atomic<uint32_t> *word, const char *what) {
    if (mix_ready(m, c, id)) return;
    LaunchShared *ls = launch_shared();
    m.wait_on[c].store(id + 1);
    m.waiting.fetch_add(1);
    int stuck = 0;
    while (!mix_ready(m, c, id)) {
        if (ls && ls->aborted.load()) {
            m.waiting.fetch_sub(1);
            m.wait_on[c].store(0);
            fault(api, "abandoned: another core of the launch failed while this one waited for %s", what);
        }
        if (mix_deadlocked(m)) {
            if (++stuck >= 3) {
                m.waiting.fetch_sub(1);
                m.wait_on[c].store(0);
                fault(api, "deadlock: every core still running waits and none can set %s (rule: wait without a matching set)", what);
            }
        } else {
            stuck = 0;
        }
        uint32_t v = word->load();
        if (mix_ready(m, c, id)) break;
        futex_wait(word, v);
    }
    m.waiting.fetch_sub(1);
    m.wait_on[c].store(0);
}

} // namespace asc
} // namespace npuemu

namespace AscendC {

template <HardEvent event>
inline void SetFlag(int32_t eventID) {
    npuemu::asc::set_flag(event, eventID);
}
template <HardEvent event>
inline void WaitFlag(int32_t eventID) {
    npuemu::asc::wait_flag(event, eventID);
}
inline void SetFlag(HardEvent event, int32_t eventID) { npuemu::asc::set_flag(event, eventID); }
inline void WaitFlag(HardEvent event, int32_t eventID) { npuemu::asc::wait_flag(event, eventID); }

template <pipe_t pipe>
inline void PipeBarrier() {
    if (pipe == PIPE_ALL) npuemu::asc::barrier_all();
    npuemu::asc::charge(PIPE_S, 1);
}

/* Block queries. On an AIV of a MIX launch the block index counts vector
 * cores: blockIdx * 2 + subBlockIdx (as on the hardware). */
inline int64_t GetBlockIdx() { return npuemu::asc::blk().idx; }
inline int64_t GetBlockNum() { return npuemu::asc::blk().num; }
inline int64_t GetSubBlockIdx() { return npuemu::asc::blk().sub; }
inline int64_t GetSubBlockNum() { return npuemu::asc::blk().kind == NPUEMU_MIX && !npuemu::asc::blk().aic ? 2 : 1; }
inline int64_t GetTaskRation() { return npuemu::asc::blk().kind == NPUEMU_MIX ? 2 : 1; }
inline int64_t GetTaskRatio() { return GetTaskRation(); }
inline void InitSocState() {
    npuemu::asc::Block &b = npuemu::asc::blk();
    b.atomic_op = ATOMIC_NONE;
    b.mask[0] = b.mask[1] = ~0ull;
    b.mask_counter = false;
}
inline void SetSysWorkspace(GM_ADDR workspace) { npuemu::asc::blk().sys_workspace = workspace; }
inline GM_ADDR GetSysWorkSpacePtr() { return npuemu::asc::blk().sys_workspace; }
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) { return workspace; }
inline void SetKernelMode(KernelMode) {}
inline int64_t GetSystemCycle() {
    npuemu::asc::Block &b = npuemu::asc::blk();
    uint64_t m = 0;
    for (int p = 0; p < npuemu::asc::kPipes; p++) m = m > b.clock[p] ? m : b.clock[p];
    return (int64_t)m;
}

/* SyncAll: every core of the launch (AIV only by default) meets here. */
namespace detail {
inline void sync_all(bool aivOnly, uint32_t used) {
    using namespace npuemu::asc;
    const char *api = "SyncAll";
    Block &b = blk();
    LaunchShared *ls = launch_shared();
    if (ls == nullptr) fault(api, "the runtime gives no launch scratch");
    uint32_t group, n;
    bool mix = b.kind == NPUEMU_MIX;
    if (mix && !aivOnly) {
        group = 2;
        n = b.ctx->block_dim * 3;
    } else if (mix) {
        if (b.aic) return; /* SyncAll<true> syncs the vector cores */
        group = 0;
        n = b.ctx->block_dim * 2;
    } else {
        group = b.aic ? 1 : 0;
        n = b.ctx->block_dim;
    }
    if (used != 0 && used < n) n = used;
    LaunchShared::Barrier &s = ls->sync[group];
    uint32_t gen = s.gen.load();
    uint32_t arrived = s.count.fetch_add(1) + 1;
    barrier_all();
    charge(PIPE_S, 100);
    if (arrived >= n) {
        s.count.store(0);
        s.gen.fetch_add(1);
        futex_wake(&s.gen);
        return;
    }
    int stuck = 0;
    while (s.gen.load() == gen) {
        if (ls->aborted.load()) fault(api, "abandoned: another core of the launch failed while this one waited in SyncAll");
        uint32_t fin = group == 2 ? ls->finished[0].load() + ls->finished[1].load() : ls->finished[group].load();
        if (fin > 0 && s.count.load() + fin >= n && s.gen.load() == gen) {
            if (++stuck >= 3) {
                fault(api, "%u of %u cores ended without reaching SyncAll: the others would wait forever (rule: SyncAll reached by every core)", fin, n);
            }
        }
        futex_wait(&s.gen, gen);
    }
}
} // namespace detail

template <bool isAIVOnly = true>
inline void SyncAll() {
    detail::sync_all(isAIVOnly, 0);
}
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace, const int32_t usedCores = 0) {
    (void)ubWorkspace;
    npuemu::asc::gm_check(gmWorkspace.ptr_, 32, "SyncAll");
    detail::sync_all(isAIVOnly, (uint32_t)usedCores);
}

/* IBSet / IBWait: block-to-block events through GM. IBSet marks event
 * eventID of the calling block; IBWait(blockIdx, eventID) waits until
 * block blockIdx has marked it (and consumes the mark). The GM and UB
 * workspaces are checked but the marks live in the launch's scratch. */
namespace detail {
/* The cores IBSet/IBWait count: the AIVs of a MIX launch, else the blocks. */
inline uint32_t ib_cores() {
    npuemu::asc::Block &b = npuemu::asc::blk();
    return b.kind == NPUEMU_MIX && !b.aic ? 2 * b.ctx->block_dim : b.ctx->block_dim;
}
inline std::atomic<uint32_t> &ib_slot(const char *api, int32_t block, int32_t eventID) {
    using namespace npuemu::asc;
    LaunchShared *ls = launch_shared();
    if (ls == nullptr) fault(api, "the runtime gives no launch scratch");
    uint32_t n = ib_cores();
    if (block < 0 || block >= 1024 || (uint32_t)block >= n) fault(api, "block %d: want 0..%u (rule: block index range)", block, n - 1);
    if (eventID < 0 || eventID >= 8) fault(api, "event id %d: want 0..7 (rule: event id range)", eventID);
    return ls->ib[block][eventID];
}
} // namespace detail

template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace, int32_t blockIdx, int32_t eventID) {
    (void)ubWorkspace;
    npuemu::asc::gm_check(gmWorkspace.ptr_, 32, "IBSet");
    npuemu::asc::barrier_all();
    std::atomic<uint32_t> &w = detail::ib_slot("IBSet", blockIdx, eventID);
    w.fetch_add(1);
    npuemu::asc::futex_wake(&w);
}

template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace, int32_t blockIdx, int32_t eventID) {
    using namespace npuemu::asc;
    const char *api = "IBWait";
    (void)ubWorkspace;
    gm_check(gmWorkspace.ptr_, 32, api);
    std::atomic<uint32_t> &w = detail::ib_slot(api, blockIdx, eventID);
    LaunchShared *ls = launch_shared();
    int stuck = 0;
    for (;;) {
        uint32_t v = w.load();
        if (v > 0 && w.compare_exchange_strong(v, v - 1)) break;
        if (v > 0) continue;
        if (ls->aborted.load()) fault(api, "abandoned: another core of the launch failed while this one waited for block %d", blockIdx);
        uint32_t fin = ls->finished[blk().aic ? 1 : 0].load();
        if (fin + 1 >= detail::ib_cores()) {
            if (++stuck >= 3) fault(api, "block %d ended without IBSet of event %d (rule: wait without a matching set)", blockIdx, eventID);
        }
        futex_wait(&w, 0);
    }
    barrier_all();
}

/* Cross-core flags of a MIX block. modeId 0: all cores of the launch meet
 * (like SyncAll over every core); 1: the two AIVs of a block; 2: the AIC
 * and the AIVs of a block (AIC sets: each AIV may wait once; AIV: the AIC
 * waits until both AIVs set). */
namespace detail {
inline npuemu::asc::MixState &mix_of(const char *api) {
    npuemu::asc::Block &b = npuemu::asc::blk();
    if (b.mix == nullptr) npuemu::asc::fault(api, "cross-core flags need a MIX kernel (KERNEL_TYPE_MIX_*) (rule: cross-core flag outside a MIX kernel)");
    return *b.mix;
}
inline void check_flag_id(const char *api, uint16_t id) {
    if (id >= 16) npuemu::asc::fault(api, "flag id %u: want 0..15 (rule: event id range)", id);
}
} // namespace detail

template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId) {
    using namespace npuemu::asc;
    const char *api = "CrossCoreSetFlag";
    detail::check_flag_id(api, flagId);
    if (modeId == 0) {
        detail::sync_all(false, 0);
        blk().xflag0[flagId]++;
        return;
    }
    MixState &m = detail::mix_of(api);
    Block &b = blk();
    if (modeId == 1) {
        if (b.aic) fault(api, "mode 1 synchronises the two AIVs of a block; the AIC cannot set it");
        m.flag[1][flagId][2 - b.sub].fetch_add(1); /* slot 2: for AIV 1, slot 1: for AIV 0 */
        futex_wake(&m.flag[0][flagId][1 - b.sub]);  /* the other AIV waits on its dir-0 word */
    } else if (b.aic) {
        m.flag[0][flagId][0].fetch_add(1);
        m.flag[0][flagId][1].fetch_add(1);
        futex_wake(&m.flag[0][flagId][0]);
        futex_wake(&m.flag[0][flagId][1]);
    } else {
        m.flag[0][flagId][2].fetch_add(b.sub == 0 ? 1u : 0x10000u);
        futex_wake(&m.flag[0][flagId][2]);
    }
    charge(pipe, 1);
}

/* The wait takes whatever set reaches this core: on the AIC, both AIVs of
 * its block (mode 2); on an AIV, its AIC (mode 2) or the other AIV (mode
 * 1); a mode 0 set of this core (already met every core). */
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId) {
    using namespace npuemu::asc;
    const char *api = "CrossCoreWaitFlag";
    detail::check_flag_id(api, flagId);
    Block &b = blk();
    if (b.xflag0[flagId] > 0) {
        b.xflag0[flagId]--;
        return;
    }
    MixState &m = detail::mix_of(api);
    char what[64];
    std::snprintf(what, sizeof what, "cross-core flag %u", flagId);
    if (b.aic) {
        /* both AIVs must have set: the low and high halves of slot 2 */
        std::atomic<uint32_t> &w = m.flag[0][flagId][2];
        mix_wait(api, m, 0, flagId, &w, what);
        w.fetch_sub(0x10001u);
        return;
    }
    std::atomic<uint32_t> &fromAic = m.flag[0][flagId][b.sub];
    std::atomic<uint32_t> &fromAiv = m.flag[1][flagId][1 + b.sub];
    std::atomic<uint32_t> &word = m.flag[0][flagId][b.sub];
    for (;;) {
        mix_wait(api, m, 1 + b.sub, flagId, &word, what);
        uint32_t v = fromAic.load();
        if (v > 0 && fromAic.compare_exchange_strong(v, v - 1)) return;
        v = fromAiv.load();
        if (v > 0 && fromAiv.compare_exchange_strong(v, v - 1)) return;
    }
}

} // namespace AscendC

/* block_idx / block_num: the vendor's block-local variables, readable as
 * integers (they convert to int64_t). */
struct npuemu_asc_block_var {
    int which;
    operator int64_t() const { return which == 0 ? AscendC::GetBlockIdx() : AscendC::GetBlockNum(); }
};
static const npuemu_asc_block_var block_idx{0};
static const npuemu_asc_block_var block_num{1};

namespace npuemu {
namespace asc {
inline void end_of_core() {}
} // namespace asc
} // namespace npuemu

/* Which core runs: `if ASCEND_IS_AIV { ... }` or `if (ASCEND_IS_AIC)`. */
#define ASCEND_IS_AIC (npuemu::asc::is_aic())
#define ASCEND_IS_AIV (!npuemu::asc::is_aic())

/* Lower-case intrinsics some kernels call directly. */
inline void pipe_barrier(pipe_t p) {
    if (p == PIPE_ALL) npuemu::asc::barrier_all();
}

#endif
