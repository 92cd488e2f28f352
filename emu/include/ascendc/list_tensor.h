// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/list_tensor.h: ListTensorDesc / TensorDesc, the GM descriptor of
 * a list of tensors (dynamic inputs). Layout read: uint64 word 0 = byte
 * offset of the table of data pointers; from word 1 on, per tensor, one
 * uint64 whose low 32 bits are its dimension count, then that many uint64
 * dimensions. GetDesc copies a tensor's descriptor word and dimensions into
 * the buffer given to TensorDesc::SetShapeAddr, as documented. */
#ifndef NPUEMU_ASCENDC_LIST_TENSOR_H
#define NPUEMU_ASCENDC_LIST_TENSOR_H

#include "ascendc/tensor.h"

namespace AscendC {

template <typename T>
class TensorDesc {
public:
    TensorDesc() = default;
    void SetShapeAddr(uint64_t *shapePtr) { shape_ = shapePtr; }
    uint64_t GetDim() const { return shape_ ? (shape_[0] & 0xffffffffull) : 0; }
    uint64_t GetIndex() const { return index_; }
    uint64_t GetShape(uint32_t offset) const {
        if (shape_ == nullptr || offset >= GetDim()) npuemu::asc::fault("TensorDesc::GetShape", "dimension %u of %llu", offset, (unsigned long long)GetDim());
        return shape_[1 + offset];
    }
    T *GetDataPtr() const { return data_; }
    GlobalTensor<T> GetDataObj() const {
        GlobalTensor<T> g;
        uint64_t n = 1;
        for (uint64_t i = 0; i < GetDim(); i++) n *= shape_[1 + i];
        g.SetGlobalBuffer(data_, n);
        return g;
    }
    uint64_t *shape_ = nullptr;
    T *data_ = nullptr;
    uint64_t index_ = 0;
};

class ListTensorDesc {
public:
    ListTensorDesc() = default;
    ListTensorDesc(__gm__ void *data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) { Init(data, length, shapeSize); }
    void Init(__gm__ void *data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
        (void)shapeSize;
        (void)length;
        base_ = static_cast<uint64_t *>(data);
        npuemu::asc::gm_check(base_, 8, "ListTensorDesc", npuemu::asc::kGmRead);
        uint64_t off = base_[0];
        if (off < 8 || off % 8 != 0 || off > (1u << 20)) {
            npuemu::asc::fault("ListTensorDesc", "word 0 is %llu: want the byte offset of the pointer table, a multiple of 8 (rule: ListTensorDesc layout)",
                               (unsigned long long)off);
        }
        npuemu::asc::gm_check(base_, off, "ListTensorDesc", npuemu::asc::kGmRead);
        ptrs_ = reinterpret_cast<uint64_t *>(reinterpret_cast<uint8_t *>(base_) + off);
        count_ = (uint32_t)((off - 8) / 8); /* upper bound; refined below */
        uint32_t n = 0;
        uint64_t w = 1;
        while (w * 8 < off) {
            uint64_t dim = base_[w] & 0xffffffffull;
            w += 1 + dim;
            n++;
        }
        count_ = n;
        if (n > 0) npuemu::asc::gm_check(ptrs_, (uint64_t)n * 8, "ListTensorDesc", npuemu::asc::kGmRead);
    }
    uint32_t GetSize() const { return count_; }
    template <typename T>
    T *GetDataPtr(uint32_t index) const {
        if (index >= count_) npuemu::asc::fault("ListTensorDesc::GetDataPtr", "tensor %u of %u", index, count_);
        return reinterpret_cast<T *>(ptrs_[index]);
    }
    template <typename T>
    void GetDesc(TensorDesc<T> &desc, uint32_t index) const {
        if (index >= count_) npuemu::asc::fault("ListTensorDesc::GetDesc", "tensor %u of %u", index, count_);
        if (desc.shape_ == nullptr) npuemu::asc::fault("ListTensorDesc::GetDesc", "call TensorDesc::SetShapeAddr first: GetDesc writes the shape there");
        uint64_t w = 1;
        for (uint32_t i = 0; i < index; i++) w += 1 + (base_[w] & 0xffffffffull);
        uint64_t dim = base_[w] & 0xffffffffull;
        /* the shape is copied into the caller's buffer (SetShapeAddr) */
        for (uint64_t k = 0; k <= dim; k++) desc.shape_[k] = base_[w + k];
        desc.data_ = reinterpret_cast<T *>(ptrs_[index]);
        desc.index_ = index;
    }

private:
    uint64_t *base_ = nullptr;
    uint64_t *ptrs_ = nullptr;
    uint32_t count_ = 0;
};

} // namespace AscendC

#endif
