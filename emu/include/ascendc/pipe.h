// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/pipe.h: the memory objects: TPipe, TQue / TQueBind, TBuf,
 * TBufPool, LocalMemAllocator.
 *
 * Rules enforced (each an AI Core exception, docs/ascendc.md):
 *  - InitBuffer beyond the capacity of the position's local memory;
 *  - AllocTensor when every buffer of the queue is allocated (beyond the
 *    queue depth);
 *  - DeQue of an empty queue; FreeTensor of a tensor the queue did not give.
 * Time: a queue passes its buffers between the pipe that fills them and
 * the pipe that reads them (VECIN: MTE2 -> V, VECOUT: V -> MTE3, A1/B1:
 * MTE2 -> MTE1, A2/B2: MTE1 -> M, CO1: M -> FIX, ...): DeQue waits for
 * the producer's EnQue, AllocTensor for the consumer's FreeTensor. */
#ifndef NPUEMU_ASCENDC_PIPE_H
#define NPUEMU_ASCENDC_PIPE_H

#include "ascendc/tensor.h"

namespace AscendC {

namespace detail {

/* The pipes that write and read a position's buffers. */
inline pipe_t producer_of(TPosition p) {
    switch (p) {
    case TPosition::VECIN:
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1: return PIPE_MTE2;
    case TPosition::A2:
    case TPosition::B2:
    case TPosition::C2: return PIPE_MTE1;
    case TPosition::CO1: return PIPE_M;
    case TPosition::CO2: return PIPE_FIX;
    default: return PIPE_V;
    }
}
inline pipe_t consumer_of(TPosition p) {
    switch (p) {
    case TPosition::VECIN: return PIPE_V;
    case TPosition::VECOUT: return PIPE_MTE3;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1: return PIPE_MTE1;
    case TPosition::A2:
    case TPosition::B2:
    case TPosition::C2: return PIPE_M;
    case TPosition::CO1: return PIPE_FIX;
    case TPosition::CO2: return PIPE_V;
    default: return PIPE_V;
    }
}

constexpr int kMaxBufs = 16;

/* A region of a local memory carved by InitBuffer. */
struct Region {
    TPosition pos = TPosition::VECCALC;
    uint32_t base = 0; /* byte offset in the memory */
    uint32_t len = 0;  /* bytes per buffer */
    uint32_t num = 0;  /* buffers */
    bool inited = false;
};

/* Carves [cursor, cursor+bytes) out of a memory, aligned; faults beyond
 * limit. */
inline uint32_t carve(uint32_t &cursor, uint32_t limit, uint32_t bytes, TPosition pos, const char *api, uint32_t num, uint32_t len) {
    using namespace npuemu::asc;
    Hardware h = hw_of(pos);
    uint32_t al = mem_align(h);
    uint64_t base = ((uint64_t)cursor + al - 1) / al * al;
    if (base + bytes > limit) {
        fault(api, "%u buffer(s) of %u bytes at %s offset %llu need %llu bytes, beyond the %u bytes of the %s (rule: InitBuffer beyond capacity)",
              num, len, pos_name(pos), (unsigned long long)base, (unsigned long long)(base + bytes), limit, mem_name(h));
    }
    cursor = (uint32_t)(base + bytes);
    return (uint32_t)base;
}

inline uint32_t round_len(uint32_t len, TPosition pos) {
    uint32_t al = npuemu::asc::mem_align(npuemu::asc::hw_of(pos));
    if (al < 32) al = 32;
    return (len + al - 1) / al * al;
}

} // namespace detail

/* The queue of buffers between two positions (TQue is TQueBind with equal
 * positions). */
template <TPosition src, TPosition dst, int32_t depth, auto... rest>
class TQueBind {
public:
    static constexpr TPosition srcPosition = src;
    static constexpr TPosition dstPosition = dst;

    TQueBind() = default;

    template <typename T>
    LocalTensor<T> AllocTensor() {
        const char *api = "TQue::AllocTensor";
        need_init(api);
        for (uint32_t i = 0; i < r_.num; i++) {
            uint32_t b = (next_ + i) % r_.num;
            if (state_[b] == kFree) {
                next_ = (b + 1) % r_.num;
                state_[b] = kAllocated;
                npuemu::asc::wait_until(detail::producer_of(src), freed_[b]);
                return tensor<T>(b);
            }
        }
        npuemu::asc::fault(api, "all %u buffers of the %s queue are allocated and not freed (rule: AllocTensor beyond the queue depth)",
                           r_.num, npuemu::asc::pos_name(src));
    }
    template <typename T>
    void FreeTensor(LocalTensor<T> &t) {
        const char *api = "TQue::FreeTensor";
        int b = index_of(t, api);
        if (state_[b] == kFree) npuemu::asc::fault(api, "buffer %d of the queue is already free (rule: FreeTensor of a free buffer)", b);
        if (state_[b] == kQueued) npuemu::asc::fault(api, "buffer %d is still in the queue: DeQue it first (rule: FreeTensor of a queued buffer)", b);
        state_[b] = kFree;
        freed_[b] = npuemu::asc::blk().clock[detail::consumer_of(dst)];
    }
    template <typename T>
    bool EnQue(const LocalTensor<T> &t) {
        const char *api = "TQue::EnQue";
        int b = index_of(t, api);
        if (state_[b] != kAllocated) npuemu::asc::fault(api, "buffer %d was not allocated by AllocTensor (rule: EnQue of a buffer not allocated)", b);
        if (count_ >= (uint32_t)detail::kMaxBufs) npuemu::asc::fault(api, "queue overflow");
        state_[b] = kQueued;
        fifo_[(head_ + count_) % detail::kMaxBufs] = (uint8_t)b;
        count_++;
        ready_[b] = npuemu::asc::blk().clock[detail::producer_of(src)];
        return true;
    }
    template <TPosition srcUser, TPosition dstUser, typename T>
    bool EnQue(const LocalTensor<T> &t) {
        return EnQue(t);
    }
    template <typename T>
    LocalTensor<T> DeQue() {
        const char *api = "TQue::DeQue";
        need_init(api);
        if (count_ == 0) {
            npuemu::asc::fault(api, "the %s queue is empty: no tensor was EnQue'd (rule: DeQue of an empty queue)", npuemu::asc::pos_name(src));
        }
        int b = fifo_[head_];
        head_ = (head_ + 1) % detail::kMaxBufs;
        count_--;
        state_[b] = kAllocated;
        npuemu::asc::wait_until(detail::consumer_of(dst), ready_[b]);
        return tensor<T>(b);
    }
    template <TPosition srcUser, TPosition dstUser, typename T>
    LocalTensor<T> DeQue() {
        return DeQue<T>();
    }
    template <typename T>
    void DeQue(LocalTensor<T> &t) {
        t = DeQue<T>();
    }
    int32_t GetTensorCountInQue() const { return (int32_t)count_; }
    bool HasTensorInQue() const { return count_ > 0; }
    bool VacantInQue() const { return count_ < (uint32_t)(depth > 0 ? depth : 1); }
    bool HasIdleBuffer() const {
        for (uint32_t i = 0; i < r_.num; i++)
            if (state_[i] == kFree) return true;
        return false;
    }
    void FreeAllEvent() {}
    template <typename T>
    void InitStartBufHandle(T, uint8_t, uint32_t) {}

    /* npuemu: TPipe::InitBuffer and TBufPool::InitBuffer. */
    void npuemu_init(const detail::Region &r) {
        r_ = r;
        for (int i = 0; i < detail::kMaxBufs; i++) {
            state_[i] = kFree;
            ready_[i] = freed_[i] = 0;
        }
        head_ = count_ = next_ = 0;
    }
    static constexpr TPosition npuemu_pos = src;

private:
    enum : uint8_t { kFree, kAllocated, kQueued };
    detail::Region r_;
    uint8_t state_[detail::kMaxBufs] = {};
    uint8_t fifo_[detail::kMaxBufs] = {};
    uint64_t ready_[detail::kMaxBufs] = {};
    uint64_t freed_[detail::kMaxBufs] = {};
    uint32_t head_ = 0, count_ = 0, next_ = 0;

    void need_init(const char *api) const {
        if (r_.num == 0) npuemu::asc::fault(api, "the queue has no buffers: call TPipe::InitBuffer first (rule: queue not initialised)");
    }
    template <typename T>
    LocalTensor<T> tensor(uint32_t b) {
        LocalTensor<T> t;
        npuemu::asc::Hardware h = npuemu::asc::hw_of(src);
        t.ptr_ = reinterpret_cast<T *>(npuemu::asc::mem_base(h) + r_.base + b * r_.len);
        t.pos_ = src == dst ? src : dst;
        t.size_ = (uint32_t)npuemu::asc::elems_of<T>(r_.len);
        t.cap_ = r_.len;
        t.owner_ = this;
        t.buf_ = (int32_t)b;
        return t;
    }
    template <typename T>
    int index_of(const LocalTensor<T> &t, const char *api) {
        need_init(api);
        if (t.owner_ != this || t.buf_ < 0 || (uint32_t)t.buf_ >= r_.num) {
            npuemu::asc::fault(api, "the tensor was not allocated from this queue (rule: tensor of another queue)");
        }
        return t.buf_;
    }
};

template <TPosition pos, int32_t depth = 1, auto... rest>
class TQue : public TQueBind<pos, pos, depth, rest...> {};

/* A buffer for temporaries (VECCALC and others). */
template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
    static constexpr TPosition npuemu_pos = pos;
    template <typename T>
    LocalTensor<T> Get() {
        return Get<T>((uint32_t)npuemu::asc::elems_of<T>(r_.len));
    }
    template <typename T>
    LocalTensor<T> Get(uint32_t len) {
        const char *api = "TBuf::Get";
        if (r_.num == 0) npuemu::asc::fault(api, "the buffer was not initialised: call TPipe::InitBuffer first (rule: queue not initialised)");
        if (npuemu::asc::bytes_of<T>(len) > r_.len) {
            npuemu::asc::fault(api, "%u elements of %u bytes exceed the buffer's %u bytes (rule: local memory capacity)", len, (unsigned)sizeof(T), r_.len);
        }
        LocalTensor<T> t;
        t.ptr_ = reinterpret_cast<T *>(npuemu::asc::mem_base(npuemu::asc::hw_of(pos)) + r_.base);
        t.pos_ = pos;
        t.size_ = len;
        t.cap_ = r_.len;
        return t;
    }
    template <typename T>
    LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
        const char *api = "TBuf::GetWithOffset";
        if ((uint64_t)bufOffset + npuemu::asc::bytes_of<T>(size) > r_.len) {
            npuemu::asc::fault(api, "%u elements at byte offset %u exceed the buffer's %u bytes (rule: local memory capacity)", size, bufOffset, r_.len);
        }
        if (bufOffset % 32 != 0) npuemu::asc::fault(api, "byte offset %u is not 32-byte aligned (rule: local address alignment)", bufOffset);
        LocalTensor<T> t = Get<T>();
        t.ptr_ = reinterpret_cast<T *>(reinterpret_cast<uint8_t *>(t.ptr_) + bufOffset);
        t.size_ = size;
        t.cap_ = r_.len - bufOffset;
        return t;
    }
    template <typename T>
    LocalTensor<T> AllocTensor() {
        return Get<T>();
    }
    template <typename T>
    void FreeTensor(LocalTensor<T> &) {}
    template <typename T>
    bool EnQue(const LocalTensor<T> &) {
        return true;
    }
    template <typename T>
    LocalTensor<T> DeQue() {
        return Get<T>();
    }
    void npuemu_init(const detail::Region &r) { r_ = r; }

private:
    detail::Region r_;
};

template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool;

class TPipe {
public:
    TPipe() {
        if (npuemu::asc::in_kernel()) npuemu::asc::blk().pipe = this;
    }
    ~TPipe() {
        if (npuemu::asc::in_kernel() && npuemu::asc::blk().pipe == this) npuemu::asc::blk().pipe = nullptr;
    }
    TPipe(const TPipe &) = delete;
    TPipe &operator=(const TPipe &) = delete;

    void Init() { Reset(); }
    void Reset() {
        for (auto &c : cursor_) c = 0;
    }
    void Destroy() { Reset(); }

    template <class Q>
    bool InitBuffer(Q &que, uint8_t num, uint32_t len) {
        constexpr TPosition pos = Q::npuemu_pos;
        init(que, pos, num, len, "TPipe::InitBuffer");
        return true;
    }
    template <TPosition pos>
    bool InitBuffer(TBuf<pos> &buf, uint32_t len) {
        init(buf, pos, 1, len, "TPipe::InitBuffer");
        return true;
    }
    template <class P>
    bool InitBufPool(P &pool, uint32_t len) {
        constexpr TPosition pos = P::npuemu_pos;
        npuemu::asc::Hardware h = npuemu::asc::hw_of(pos);
        uint32_t bytes = detail::round_len(len, pos);
        uint32_t base = detail::carve(cursor_[(int)h], npuemu::asc::mem_size(h), bytes, pos, "TPipe::InitBufPool", 1, len);
        pool.npuemu_init(base, bytes);
        return true;
    }
    template <class P, class S>
    bool InitBufPool(P &pool, uint32_t len, S &shared) {
        pool.npuemu_init(shared.npuemu_base(), len);
        return true;
    }

    template <HardEvent evt>
    TEventID AllocEventID() {
        return FetchEventID(evt);
    }
    template <HardEvent evt>
    void ReleaseEventID(TEventID) {}
    template <HardEvent evt>
    TEventID FetchEventID() {
        return FetchEventID(evt);
    }
    TEventID FetchEventID(HardEvent evt) {
        npuemu::asc::Block &b = npuemu::asc::blk();
        for (int i = 0; i < npuemu::asc::kEventIds; i++)
            if (b.flags[(int)evt][i] == 0) return (TEventID)i;
        return 0;
    }
    template <TPosition pos, typename T>
    LocalTensor<T> GetAbsAddr(int32_t offset, int32_t size) const {
        LocalTensor<T> t;
        t.place(pos, (uint32_t)offset, (uint32_t)size, "TPipe::GetAbsAddr");
        return t;
    }

    uint32_t cursor_[npuemu::asc::kMems] = {};

private:
    template <class Q>
    void init(Q &q, TPosition pos, uint32_t num, uint32_t len, const char *api) {
        using namespace npuemu::asc;
        if (num == 0 || num > (uint32_t)detail::kMaxBufs) fault(api, "buffer count %u: want 1..%d (rule: InitBuffer beyond capacity)", num, detail::kMaxBufs);
        Hardware h = hw_of(pos);
        uint32_t l = detail::round_len(len, pos);
        uint64_t bytes = (uint64_t)l * num;
        if (bytes > 0xffffffffull) fault(api, "%u buffers of %u bytes (rule: InitBuffer beyond capacity)", num, len);
        detail::Region r;
        r.pos = pos;
        r.len = l;
        r.num = num;
        r.base = detail::carve(cursor_[(int)h], mem_size(h), (uint32_t)bytes, pos, api, num, len);
        r.inited = true;
        q.npuemu_init(r);
    }
};

/* A pool carved out of the pipe's memory, itself carved by InitBuffer. */
template <TPosition pos, uint32_t bufIDSize>
class TBufPool {
public:
    static constexpr TPosition npuemu_pos = pos;
    void npuemu_init(uint32_t base, uint32_t len) {
        base_ = base;
        len_ = len;
        cursor_ = base;
    }
    uint32_t npuemu_base() const { return base_; }
    void Reset() { cursor_ = base_; }
    template <class Q>
    bool InitBuffer(Q &que, uint8_t num, uint32_t len) {
        init(que, num, len);
        return true;
    }
    template <TPosition p>
    bool InitBuffer(TBuf<p> &buf, uint32_t len) {
        init(buf, 1, len);
        return true;
    }
    template <class P>
    bool InitBufPool(P &pool, uint32_t len) {
        uint32_t bytes = detail::round_len(len, pos);
        uint32_t base = detail::carve(cursor_, base_ + len_, bytes, pos, "TBufPool::InitBufPool", 1, len);
        pool.npuemu_init(base, bytes);
        return true;
    }
    template <class P, class S>
    bool InitBufPool(P &pool, uint32_t len, S &shared) {
        pool.npuemu_init(shared.npuemu_base(), len);
        return true;
    }

private:
    uint32_t base_ = 0, len_ = 0, cursor_ = 0;
    template <class Q>
    void init(Q &q, uint32_t num, uint32_t len) {
        const char *api = "TBufPool::InitBuffer";
        if (num == 0 || num > (uint32_t)detail::kMaxBufs) npuemu::asc::fault(api, "buffer count %u: want 1..%d (rule: InitBuffer beyond capacity)", num, detail::kMaxBufs);
        detail::Region r;
        r.pos = pos;
        r.len = detail::round_len(len, pos);
        r.num = num;
        r.base = detail::carve(cursor_, base_ + len_, r.len * num, pos, api, num, len);
        r.inited = true;
        q.npuemu_init(r);
    }
};

/* Static allocation from one local memory (static tensor programming). */
template <Hardware hw = Hardware::UB>
class LocalMemAllocator {
public:
    template <typename T, uint32_t N>
    LocalTensor<T> Alloc() {
        return Alloc<T>(N);
    }
    template <TPosition pos, typename T, uint32_t N>
    LocalTensor<T> Alloc() {
        return Alloc<T>(N);
    }
    template <typename T>
    LocalTensor<T> Alloc(uint32_t n) {
        using namespace npuemu::asc;
        uint32_t al = mem_align(hw) < 32 ? 32 : mem_align(hw);
        uint64_t base = ((uint64_t)cursor_ + al - 1) / al * al;
        uint64_t end = base + bytes_of<T>(n);
        if (end > mem_size(hw)) {
            fault("LocalMemAllocator::Alloc", "%u elements of %u bytes at offset %llu exceed the %u-byte %s (rule: InitBuffer beyond capacity)", n,
                  (unsigned)sizeof(T), (unsigned long long)base, mem_size(hw), mem_name(hw));
        }
        cursor_ = (uint32_t)end;
        LocalTensor<T> t;
        t.ptr_ = reinterpret_cast<T *>(mem_base(hw) + base);
        t.pos_ = pos_of();
        t.size_ = n;
        t.cap_ = (uint32_t)(end - base);
        return t;
    }
    uint32_t GetCurAddr() const { return cursor_; }

private:
    uint32_t cursor_ = 0;
    static constexpr TPosition pos_of() {
        switch (hw) {
        case Hardware::L1: return TPosition::A1;
        case Hardware::L0A: return TPosition::A2;
        case Hardware::L0B: return TPosition::B2;
        case Hardware::L0C: return TPosition::CO1;
        case Hardware::BIAS: return TPosition::C2;
        case Hardware::FIXBUF: return TPosition::C2PIPE2GM;
        default: return TPosition::VECCALC;
        }
    }
};

inline TPipe *GetTPipePtr() { return npuemu::asc::blk().pipe; }

} // namespace AscendC

/* The vendor also exposes GetTPipePtr unqualified (samples call it without
 * AscendC::). */
using AscendC::GetTPipePtr;

#endif
