// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/tensor.h: LocalTensor (a view of a local memory of the core) and
 * GlobalTensor (a view of global memory). */
#ifndef NPUEMU_ASCENDC_TENSOR_H
#define NPUEMU_ASCENDC_TENSOR_H

#include "npuemu/ascendc_rt.h"

namespace npuemu {
namespace asc {
template <typename T>
inline T *elem_ptr(T *p, uint64_t off, const char *api) {
    if constexpr (is_int4<T>()) {
        if (off & 1) fault(api, "int4b_t offset %llu is odd: two int4b_t share a byte, a tensor starts at a whole byte (rule: int4b_t offsets even)",
                           (unsigned long long)off);
        return p + off / 2;
    } else {
        return p + off;
    }
}
} // namespace asc
} // namespace npuemu

namespace AscendC {

template <typename T>
class LocalTensor;

/* The element size in bytes (int4b_t: half a byte, counted as 1 here;
 * sizes of int4b_t tensors use npuemu::asc::bytes_of). */
template <typename T>
constexpr uint32_t elem_size() {
    return sizeof(T);
}

namespace detail {
/* The element i of an int4b_t array: its nibble. */
inline int4b_t int4_get(const int4b_t *p, uint64_t i) {
    uint8_t b = p[i / 2].bits_;
    return int4b_t{(uint8_t)((i & 1) ? b >> 4 : b & 15)};
}
template <typename V>
inline void int4_set(int4b_t *p, uint64_t i, V v) {
    uint8_t n;
    if constexpr (std::is_same<V, int4b_t>::value) {
        n = v.bits_ & 15;
    } else {
        n = (uint8_t)((int)v) & 15;
    }
    uint8_t &b = p[i / 2].bits_;
    b = (i & 1) ? (uint8_t)((b & 15) | (n << 4)) : (uint8_t)((b & 0xf0) | n);
}
} // namespace detail

struct ShapeInfo {
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[8] = {0};
    uint32_t originalShape[8] = {0};
    uint8_t dataFormat = 0;
    ShapeInfo() = default;
    ShapeInfo(uint8_t dim, const uint32_t s[]) : shapeDim(dim), originalShapeDim(dim) {
        for (uint8_t i = 0; i < dim && i < 8; i++) shape[i] = originalShape[i] = s[i];
    }
};

template <typename T>
class LocalTensor {
public:
    using PrimType = T;

    LocalTensor() = default;
    /* A tensor at byte address addr of the memory of pos, of tileSize
     * elements (static tensor programming). */
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize) { place(pos, addr, tileSize, "LocalTensor"); }

    T GetValue(uint32_t i) const {
        npuemu::asc::charge(PIPE_S, 1);
        check_index(i, "LocalTensor::GetValue");
        if constexpr (npuemu::asc::is_int4<T>()) {
            return detail::int4_get(ptr_, i);
        } else {
            return ptr_[i];
        }
    }
    template <typename V>
    void SetValue(uint32_t i, V v) const {
        npuemu::asc::charge(PIPE_S, 1);
        check_index(i, "LocalTensor::SetValue");
        if constexpr (npuemu::asc::is_int4<T>()) {
            detail::int4_set(ptr_, i, v);
        } else {
            ptr_[i] = static_cast<T>(v);
        }
    }
    T &operator()(uint32_t i) const {
        check_index(i, "LocalTensor::operator()");
        if constexpr (npuemu::asc::is_int4<T>()) {
            npuemu::asc::fault("LocalTensor::operator()", "an int4b_t element is half a byte and has no reference; use GetValue/SetValue");
        }
        return ptr_[i];
    }
    LocalTensor operator[](uint32_t off) const {
        LocalTensor t = *this;
        t.ptr_ = npuemu::asc::elem_ptr(ptr_, off, "LocalTensor::operator[]");
        t.size_ = off < size_ ? size_ - off : 0;
        uint64_t skip = npuemu::asc::bytes_of<T>(off);
        t.cap_ = skip < cap_ ? cap_ - (uint32_t)skip : 0;
        return t;
    }

    uint32_t GetSize() const { return size_; }
    void SetSize(uint32_t n) { size_ = n; }
    uint32_t GetLength() const { return (uint32_t)npuemu::asc::bytes_of<T>(size_); }
    void SetBufferLen(uint32_t bytes) { size_ = (uint32_t)npuemu::asc::elems_of<T>(bytes); }
    T *GetPhyAddr() const { return ptr_; }
    T *GetPhyAddr(uint32_t off) const { return npuemu::asc::elem_ptr(ptr_, off, "LocalTensor::GetPhyAddr"); }
    TPosition GetPosition() const { return pos_; }
    void SetUserTag(int32_t tag) { tag_ = tag; }
    int32_t GetUserTag() const { return tag_; }
    void SetShapeInfo(const ShapeInfo &s) { shape_ = s; }
    ShapeInfo GetShapeInfo() const { return shape_; }

    template <typename U>
    LocalTensor<U> ReinterpretCast() const {
        LocalTensor<U> t;
        t.ptr_ = reinterpret_cast<U *>(ptr_);
        t.pos_ = pos_;
        t.size_ = (uint32_t)npuemu::asc::elems_of<U>(npuemu::asc::bytes_of<T>(size_));
        t.cap_ = cap_;
        t.owner_ = owner_;
        t.buf_ = buf_;
        t.tag_ = tag_;
        return t;
    }
    template <typename U>
    void SetAddrWithOffset(LocalTensor<U> &src, uint32_t off) {
        ptr_ = reinterpret_cast<T *>(src.ptr_ + off);
        pos_ = src.pos_;
        cap_ = (uint64_t)off * sizeof(U) < src.cap_ ? src.cap_ - (uint32_t)(off * sizeof(U)) : 0;
        size_ = cap_ / (uint32_t)sizeof(T);
    }

    /* npuemu: the byte offset of element 0 inside its local memory, and
     * the bytes from element 0 to the end of its buffer. */
    uint32_t npuemu_offset() const {
        uint32_t off = 0;
        npuemu::asc::mem_of(ptr_, &off);
        return off;
    }
    uint32_t npuemu_avail() const { return cap_; }
    npuemu::asc::Hardware npuemu_hw() const { return npuemu::asc::hw_of(pos_); }

    /* State; public so that the queues and the other LocalTensor types can
     * build tensors. */
    T *ptr_ = nullptr;
    TPosition pos_ = TPosition::VECCALC;
    uint32_t size_ = 0;  /* elements */
    uint32_t cap_ = 0;   /* bytes from ptr_ to the end of the buffer */
    void *owner_ = nullptr;
    int32_t buf_ = -1;
    int32_t tag_ = 0;
    ShapeInfo shape_;

    void place(TPosition pos, uint32_t addr, uint32_t n, const char *api) {
        npuemu::asc::Hardware h = npuemu::asc::hw_of(pos);
        uint32_t cap = npuemu::asc::mem_size(h);
        uint64_t end = (uint64_t)addr + npuemu::asc::bytes_of<T>(n);
        if (end > cap) {
            npuemu::asc::fault(api, "tensor [%u, %llu) lies past the end of the %u-byte %s (rule: local memory capacity)", addr,
                               (unsigned long long)end, cap, npuemu::asc::mem_name(h));
        }
        if (addr % npuemu::asc::mem_align(h) != 0) {
            npuemu::asc::fault(api, "address %u in the %s is not %u-byte aligned (rule: local address alignment)", addr,
                               npuemu::asc::mem_name(h), npuemu::asc::mem_align(h));
        }
        ptr_ = reinterpret_cast<T *>(npuemu::asc::mem_base(h) + addr);
        pos_ = pos;
        size_ = n;
        cap_ = cap - addr;
    }

private:
    /* An element past the tensor's buffer but inside the same memory is
     * legal (hardware reads the neighbouring buffer); past the memory it
     * is not. */
    void check_index(uint32_t i, const char *api) const {
        if (npuemu::asc::bytes_of<T>((uint64_t)i + 1) <= cap_) return;
        uint32_t off = 0;
        int h = npuemu::asc::mem_of(ptr_, &off);
        if (h < 0 || (uint64_t)off + npuemu::asc::bytes_of<T>((uint64_t)i + 1) > npuemu::asc::blk().mem_size[h]) {
            npuemu::asc::fault(api, "element %u lies past the end of the tensor's local memory (rule: local memory capacity)", i);
        }
    }
};

template <typename T>
class GlobalTensor {
public:
    using PrimType = T;

    GlobalTensor() = default;
    void SetGlobalBuffer(__gm__ T *buf, uint64_t size) {
        ptr_ = buf;
        size_ = size;
    }
    void SetGlobalBuffer(__gm__ T *buf) {
        ptr_ = buf;
        size_ = 0;
    }
    T GetValue(uint64_t i) const {
        npuemu::asc::charge(PIPE_S, 1);
        if constexpr (npuemu::asc::is_int4<T>()) {
            npuemu::asc::gm_check(ptr_ + i / 2, 1, "GlobalTensor::GetValue", npuemu::asc::kGmRead);
            return detail::int4_get(ptr_, i);
        } else {
            npuemu::asc::gm_check(ptr_ + i, sizeof(T), "GlobalTensor::GetValue", npuemu::asc::kGmRead);
            return ptr_[i];
        }
    }
    template <typename V>
    void SetValue(uint64_t i, V v) const {
        npuemu::asc::charge(PIPE_S, 1);
        if constexpr (npuemu::asc::is_int4<T>()) {
            npuemu::asc::gm_check(ptr_ + i / 2, 1, "GlobalTensor::SetValue");
            detail::int4_set(ptr_, i, v);
        } else {
            npuemu::asc::gm_check(ptr_ + i, sizeof(T), "GlobalTensor::SetValue");
            ptr_[i] = static_cast<T>(v);
        }
    }
    T &operator()(uint64_t i) const {
        if constexpr (npuemu::asc::is_int4<T>()) {
            npuemu::asc::fault("GlobalTensor::operator()", "an int4b_t element is half a byte and has no reference; use GetValue/SetValue");
        }
        npuemu::asc::gm_check(ptr_ + i, sizeof(T), "GlobalTensor::operator()");
        return ptr_[i];
    }
    GlobalTensor operator[](uint64_t off) const {
        GlobalTensor t = *this;
        t.ptr_ = npuemu::asc::elem_ptr(ptr_, off, "GlobalTensor::operator[]");
        t.size_ = off < size_ ? size_ - off : 0;
        return t;
    }
    __gm__ T *GetPhyAddr() const { return ptr_; }
    __gm__ T *GetPhyAddr(uint64_t off) const { return npuemu::asc::elem_ptr(ptr_, off, "GlobalTensor::GetPhyAddr"); }
    uint64_t GetSize() const { return size_; }
    void SetShapeInfo(const ShapeInfo &s) { shape_ = s; }
    ShapeInfo GetShapeInfo() const { return shape_; }
    template <typename M>
    void SetL2CacheHint(M) {}

    T *ptr_ = nullptr;
    uint64_t size_ = 0;
    ShapeInfo shape_;
};

} // namespace AscendC

#endif
