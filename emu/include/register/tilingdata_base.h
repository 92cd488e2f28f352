// npuemu-cxx17: this header is C++ only (C++11 or later; see docs/ascendc-cube.md).
/* register/tilingdata_base.h: host-side tiling data classes of Ascend C
 * (BEGIN_TILING_DATA_DEF / TILING_DATA_FIELD_DEF / END_TILING_DATA_DEF /
 * REGISTER_TILING_DATA_CLASS) on npuemu. C++11 or later.
 *
 *     BEGIN_TILING_DATA_DEF(AddTiling)
 *       TILING_DATA_FIELD_DEF(uint32_t, totalLength);
 *       TILING_DATA_FIELD_DEF_ARR(uint16_t, 4, shape);
 *       TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
 *     END_TILING_DATA_DEF;
 *     REGISTER_TILING_DATA_CLASS(AddCustom, AddTiling)
 *
 * Each field gets set_<name>(v) and get_<name>(); SaveToBuffer writes the
 * fields in declaration order at the offsets a C struct with the same
 * members in the same order has (each field aligned to its element size,
 * a nested tiling struct to its largest field), and GetDataSize is that
 * struct's sizeof; so the kernel reads the bytes through the plain struct.
 * The registry (CTilingDataClassFactory) lives in libregister.so.
 */
#ifndef NPUEMU_REGISTER_TILINGDATA_BASE_H
#define NPUEMU_REGISTER_TILINGDATA_BASE_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace optiling {

class TilingDef;

/* One field as GetFieldInfo reports it. */
struct FieldInfo {
    std::string dtype;     /* declared type, as written */
    std::string name;      /* field name */
    size_t offset;         /* byte offset in the serialised data */
    size_t size;           /* bytes (whole array for _ARR fields) */
    size_t arrSize;        /* elements of an _ARR field, 0 otherwise */
    bool isStruct;         /* a TILING_DATA_FIELD_DEF_STRUCT field */
};

class TilingDef {
public:
    TilingDef() = default;
    TilingDef(const TilingDef &) = default;
    TilingDef &operator=(const TilingDef &) = default;
    virtual ~TilingDef() = default;

    /* Writes GetDataSize() bytes to pdata; does nothing when capacity is
     * smaller (the vendor's rule: never overrun the caller's buffer). */
    void SaveToBuffer(void *pdata, size_t capacity) const {
        if (pdata == nullptr || capacity < GetDataSize()) {
            return;
        }
        memset(pdata, 0, GetDataSize());
        SaveTo_(static_cast<uint8_t *>(pdata));
    }
    size_t GetDataSize() const {
        size_t align = 1;
        size_t end = Layout_(nullptr, &align);
        return (end + align - 1) / align * align;
    }
    std::vector<FieldInfo> GetFieldInfo() const {
        std::vector<FieldInfo> out;
        size_t align = 1;
        Layout_(&out, &align);
        return out;
    }
    const char *GetTilingClassName() const { return className_; }
    /* Largest element alignment of the fields (for nesting). */
    size_t GetAlign_() const {
        size_t align = 1;
        Layout_(nullptr, &align);
        return align;
    }
    void InitData() {}

protected:
    struct Field_ {
        const char *dtype;
        const char *name;
        ptrdiff_t member;      /* byte offset of the member in the object */
        size_t elemSize;       /* bytes of one element (scalar fields: of the field) */
        size_t count;          /* elements (1 for scalars) */
        bool isStruct;
    };
    void AddField_(const Field_ &f) { fields_.push_back(f); }
    void SetClassName_(const char *n) { className_ = n; }

private:
    size_t Layout_(std::vector<FieldInfo> *out, size_t *maxAlign) const {
        size_t off = 0;
        for (const Field_ &f : fields_) {
            size_t align = f.elemSize;
            size_t size = f.elemSize * f.count;
            if (f.isStruct) {
                const TilingDef *sub = Sub_(f);
                align = sub->GetAlign_();
                size = sub->GetDataSize();
            }
            if (align == 0) {
                align = 1;
            }
            off = (off + align - 1) / align * align;
            if (out != nullptr) {
                out->push_back(FieldInfo{f.dtype, f.name, off, size, f.count > 1 ? f.count : 0, f.isStruct});
            }
            if (align > *maxAlign) {
                *maxAlign = align;
            }
            off += size;
        }
        return off;
    }
    void SaveTo_(uint8_t *dst) const {
        std::vector<FieldInfo> info = GetFieldInfo();
        for (size_t i = 0; i < fields_.size(); i++) {
            const Field_ &f = fields_[i];
            if (f.isStruct) {
                Sub_(f)->SaveTo_(dst + info[i].offset);
            } else {
                memcpy(dst + info[i].offset, reinterpret_cast<const uint8_t *>(this) + f.member, info[i].size);
            }
        }
    }
    const TilingDef *Sub_(const Field_ &f) const {
        return reinterpret_cast<const TilingDef *>(reinterpret_cast<const uint8_t *>(this) + f.member);
    }

    std::vector<Field_> fields_;
    const char *className_ = "";
};

/* Registers a field at construction; copying the owner copies the field
 * list through TilingDef, so the registrar's copy does nothing. */
template <typename Owner>
struct FieldRegistrar_ {
    FieldRegistrar_(Owner *o, const char *dtype, const char *name, const void *member, size_t elemSize, size_t count,
                    bool isStruct) {
        o->AddFieldFromMacro_(dtype, name, member, elemSize, count, isStruct);
    }
    FieldRegistrar_(const FieldRegistrar_ &) {}
    FieldRegistrar_ &operator=(const FieldRegistrar_ &) { return *this; }
};

using TilingDataConstructor = std::function<std::shared_ptr<TilingDef>()>;

/* The registry of tiling data classes by operator type (libregister). */
class CTilingDataClassFactory {
public:
    static CTilingDataClassFactory &GetInstance();
    void RegisterTilingData(const char *opType, const TilingDataConstructor &constructor);
    /* nullptr when opType has no registered class. */
    std::shared_ptr<TilingDef> CreateTilingDataInstance(const char *opType);

private:
    CTilingDataClassFactory() = default;
    struct Impl_; /* libregister's map: one layout whatever the caller's string ABI */
    Impl_ *impl_ = nullptr;
};

} // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                                                          \
    class class_name : public ::optiling::TilingDef {                                              \
        using Self_ = class_name;                                                                  \
        friend struct ::optiling::FieldRegistrar_<class_name>;                                     \
        void AddFieldFromMacro_(const char *dtype, const char *name, const void *member, size_t es, \
                                size_t count, bool isStruct) {                                     \
            AddField_(Field_{dtype, name,                                                          \
                             static_cast<const uint8_t *>(member) - reinterpret_cast<const uint8_t *>(this), \
                             es, count, isStruct});                                                \
        }                                                                                          \
                                                                                                   \
    public:                                                                                        \
        class_name() { SetClassName_(#class_name); }                                               \
        explicit class_name(void *) : class_name() {}

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                               \
public:                                                                                            \
    void set_##field_name(data_type v) { field_name##_ = v; }                                      \
    data_type get_##field_name() const { return field_name##_; }                                   \
                                                                                                   \
private:                                                                                           \
    data_type field_name##_ = data_type();                                                         \
    ::optiling::FieldRegistrar_<Self_> field_name##_reg_{this, #data_type, #field_name, &field_name##_, \
                                                         sizeof(data_type), 1, false}

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                  \
public:                                                                                            \
    void set_##field_name(const arr_type *v) { memcpy(field_name##_, v, sizeof(field_name##_)); }  \
    arr_type *get_##field_name() { return field_name##_; }                                         \
                                                                                                   \
private:                                                                                           \
    arr_type field_name##_[arr_size] = {};                                                         \
    ::optiling::FieldRegistrar_<Self_> field_name##_reg_{this, #arr_type, #field_name, field_name##_, \
                                                         sizeof(arr_type), (arr_size), false}

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                      \
public:                                                                                            \
    struct_type field_name;                                                                        \
                                                                                                   \
private:                                                                                           \
    ::optiling::FieldRegistrar_<Self_> field_name##_reg_{this, #struct_type, #field_name, &field_name, \
                                                         sizeof(struct_type), 1, true}

#define END_TILING_DATA_DEF }

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                            \
    static struct RegisterTilingData_##op_type##_##class_name {                                    \
        RegisterTilingData_##op_type##_##class_name() {                                            \
            ::optiling::CTilingDataClassFactory::GetInstance().RegisterTilingData(                 \
                #op_type, []() { return std::shared_ptr<::optiling::TilingDef>(new class_name()); }); \
        }                                                                                          \
    } g_registerTilingData_##op_type##_##class_name;

#endif /* NPUEMU_REGISTER_TILINGDATA_BASE_H */
