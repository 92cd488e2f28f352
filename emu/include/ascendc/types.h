// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/types.h: the scalar types, qualifiers, enums and macros of Ascend C
 * (half, bfloat16_t, __aicore__, GM_ADDR, TPosition, HardEvent, pipe_t,
 * event_t, ...), for kernels compiled with the host C++ compiler.
 *
 * Written from the public Ascend C documentation (hiascend.com, "Ascend C
 * API reference"); the names and values are the documented ones. */
#ifndef NPUEMU_ASCENDC_TYPES_H
#define NPUEMU_ASCENDC_TYPES_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

/* Qualifiers: the device compiler's address spaces and function kinds mean
 * nothing on the host. */
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
#ifndef __inline__
#define __inline__ inline
#endif
#ifndef __sync_alloc__
#define __sync_alloc__
#endif

#define GM_ADDR uint8_t *

/* half: IEEE 754 binary16 with float arithmetic. Conversions are exact
 * (round to nearest even), in software for scalars; bulk conversions of the
 * vector API use F16C when the host has it (ascendc/vec_impl.h). */
namespace npuemu {
namespace asc {

inline uint16_t f32_to_f16(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) { /* inf or nan */
        return (uint16_t)(sign | 0x7c00u | (ax > 0x7f800000u ? (0x200u | ((ax >> 13) & 0x3ffu)) : 0u));
    }
    if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* overflow to inf */
    if (ax < 0x38800000u) {                                    /* subnormal or zero */
        if (ax < 0x33000000u) return (uint16_t)sign;
        uint32_t e = ax >> 23;
        uint32_t m = (ax & 0x7fffffu) | 0x800000u;
        uint32_t shift = 126 - e; /* 14..24 */
        uint32_t h = m >> (shift);
        uint32_t rem = m & ((1u << shift) - 1);
        uint32_t half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((ax - 0x38000000u) >> 13);
    uint32_t rem = ax & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

inline float f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu;
    uint32_t m = h & 0x3ffu;
    uint32_t x;
    if (e == 0) {
        if (m == 0) {
            x = sign;
        } else { /* subnormal */
            float f = (float)m * (1.0f / 16777216.0f);
            std::memcpy(&x, &f, 4);
            x |= sign;
        }
    } else if (e == 31) {
        x = sign | 0x7f800000u | (m << 13);
    } else {
        x = sign | ((e + 112) << 23) | (m << 13);
    }
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

inline uint16_t f32_to_bf16(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);
    uint32_t r = 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)((x + r) >> 16);
}

inline float bf16_to_f32(uint16_t h) {
    uint32_t x = (uint32_t)h << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

} // namespace asc
} // namespace npuemu

/* Mixed arithmetic with the built-in number types happens in float (and
 * compares in float): exact-match templates, so that `h > 0` or `h + 1.0f`
 * is not ambiguous between the two conversions. */
#define NPUEMU_ASC_MIXED(NAME, OP, R)                                                                  \
    template <typename U, typename std::enable_if<std::is_arithmetic<U>::value, int>::type = 0>          \
    inline R operator OP(NAME a, U b) {                                                                  \
        return (R)(float(a) OP(float) b);                                                                \
    }                                                                                                    \
    template <typename U, typename std::enable_if<std::is_arithmetic<U>::value, int>::type = 0>          \
    inline R operator OP(U a, NAME b) {                                                                  \
        return (R)((float)a OP float(b));                                                                \
    }

/* The 16-bit float types: storage plus float arithmetic. */
#define NPUEMU_ASC_FLOAT16_TYPE(NAME, TO, FROM)                                              \
    struct NAME {                                                                            \
        uint16_t bits_;                                                                      \
        NAME() = default;                                                                    \
        constexpr NAME(uint16_t b, bool) : bits_(b) {}                                       \
        NAME(float f) : bits_(npuemu::asc::FROM(f)) {}                                       \
        NAME(double f) : bits_(npuemu::asc::FROM((float)f)) {}                               \
        NAME(int v) : bits_(npuemu::asc::FROM((float)v)) {}                                  \
        NAME(unsigned v) : bits_(npuemu::asc::FROM((float)v)) {}                             \
        NAME(long v) : bits_(npuemu::asc::FROM((float)v)) {}                                 \
        NAME(unsigned long v) : bits_(npuemu::asc::FROM((float)v)) {}                        \
        NAME(long long v) : bits_(npuemu::asc::FROM((float)v)) {}                            \
        NAME(unsigned long long v) : bits_(npuemu::asc::FROM((float)v)) {}                   \
        NAME(short v) : bits_(npuemu::asc::FROM((float)v)) {}                                \
        NAME(unsigned short v) : bits_(npuemu::asc::FROM((float)v)) {}                       \
        NAME(signed char v) : bits_(npuemu::asc::FROM((float)v)) {}                          \
        NAME(unsigned char v) : bits_(npuemu::asc::FROM((float)v)) {}                        \
        NAME(bool v) : bits_(npuemu::asc::FROM(v ? 1.0f : 0.0f)) {}                          \
        operator float() const { return npuemu::asc::TO(bits_); }                            \
        float ToFloat() const { return npuemu::asc::TO(bits_); }                             \
        NAME &operator+=(NAME o) { return *this = NAME(float(*this) + float(o)); }           \
        NAME &operator-=(NAME o) { return *this = NAME(float(*this) - float(o)); }           \
        NAME &operator*=(NAME o) { return *this = NAME(float(*this) * float(o)); }           \
        NAME &operator/=(NAME o) { return *this = NAME(float(*this) / float(o)); }           \
        NAME operator-() const { return NAME((uint16_t)(bits_ ^ 0x8000u), true); }          \
        NAME &operator++() { return *this = NAME(float(*this) + 1.0f); }                     \
        NAME &operator--() { return *this = NAME(float(*this) - 1.0f); }                     \
    };                                                                                       \
    inline NAME operator+(NAME a, NAME b) { return NAME(float(a) + float(b)); }              \
    inline NAME operator-(NAME a, NAME b) { return NAME(float(a) - float(b)); }              \
    inline NAME operator*(NAME a, NAME b) { return NAME(float(a) * float(b)); }              \
    inline NAME operator/(NAME a, NAME b) { return NAME(float(a) / float(b)); }              \
    inline bool operator==(NAME a, NAME b) { return float(a) == float(b); }                  \
    inline bool operator!=(NAME a, NAME b) { return float(a) != float(b); }                  \
    inline bool operator<(NAME a, NAME b) { return float(a) < float(b); }                    \
    inline bool operator>(NAME a, NAME b) { return float(a) > float(b); }                    \
    inline bool operator<=(NAME a, NAME b) { return float(a) <= float(b); }                  \
    inline bool operator>=(NAME a, NAME b) { return float(a) >= float(b); }                \
    NPUEMU_ASC_MIXED(NAME, +, float) NPUEMU_ASC_MIXED(NAME, -, float)                        \
    NPUEMU_ASC_MIXED(NAME, *, float) NPUEMU_ASC_MIXED(NAME, /, float)                        \
    NPUEMU_ASC_MIXED(NAME, ==, bool) NPUEMU_ASC_MIXED(NAME, !=, bool)                        \
    NPUEMU_ASC_MIXED(NAME, <, bool) NPUEMU_ASC_MIXED(NAME, >, bool)                          \
    NPUEMU_ASC_MIXED(NAME, <=, bool) NPUEMU_ASC_MIXED(NAME, >=, bool)

NPUEMU_ASC_FLOAT16_TYPE(half, f16_to_f32, f32_to_f16)
NPUEMU_ASC_FLOAT16_TYPE(bfloat16_t, bf16_to_f32, f32_to_bf16)
#undef NPUEMU_ASC_FLOAT16_TYPE
#undef NPUEMU_ASC_MIXED

static_assert(sizeof(half) == 2 && std::is_trivially_copyable<half>::value, "half is 2 bytes");
static_assert(sizeof(bfloat16_t) == 2, "bfloat16_t is 2 bytes");

/* int4b_t: a 4-bit two's-complement integer, stored two per byte (the
 * documented packing: a LocalTensor/GlobalTensor of n int4b_t holds n/2
 * bytes). npuemu's decision for the order inside a byte: element 2k is
 * the low nibble of byte k, element 2k+1 the high nibble. A value of the
 * type (what GetValue returns) keeps the element in bits_ 0..3. */
struct int4b_t {
    uint8_t bits_;
    int value() const { return (int)(int8_t)(uint8_t)(bits_ << 4) >> 4; }
};

namespace npuemu {
namespace asc {
/* Bytes of n elements of T, and elements of T in n bytes (int4b_t: two
 * elements per byte). */
template <typename T>
constexpr bool is_int4() {
    return std::is_same<T, ::int4b_t>::value;
}
template <typename T>
constexpr uint64_t bytes_of(uint64_t n) {
    return is_int4<T>() ? (n + 1) / 2 : n * sizeof(T);
}
template <typename T>
constexpr uint64_t elems_of(uint64_t bytes) {
    return is_int4<T>() ? bytes * 2 : bytes / sizeof(T);
}
/* The element offset `off` of a T pointer as a pointer (int4b_t: off/2
 * bytes; an odd offset is not addressable). */
template <typename T>
inline T *elem_ptr(T *p, uint64_t off, const char *api);
} // namespace asc
} // namespace npuemu

/* Pipes (pipe_t) and events (event_t) of the AI Core, with the documented
 * names. */
enum pipe_t : uint8_t {
    PIPE_S = 0,
    PIPE_V,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_ALL,
    PIPE_MTE4,
    PIPE_MTE5,
    PIPE_V2,
    PIPE_FIX,
    PIPE_NUM,
};

enum event_t : uint8_t {
    EVENT_ID0 = 0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
};

/* Atomic-store modes of the copy engines (SetAtomicAdd and friends). */
enum atomic_op_t : uint8_t { ATOMIC_NONE = 0, ATOMIC_SUM, ATOMIC_MAX, ATOMIC_MIN };

/* Kernel task types: KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY) in a
 * kernel body names the cores it runs on. The driver reads the macro from
 * the source; at run time it has no effect. */
enum KernelMetaType : uint8_t {
    KERNEL_TYPE_AIV_ONLY = 0,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX,
};
#define KERNEL_TASK_TYPE_DEFAULT(t) ((void)(t))
#define KERNEL_TASK_TYPE(key, t) ((void)(key), (void)(t))

/* Tiling: GET_TILING_DATA(var, tiling) copies the kernel's tiling argument
 * (a GM pointer to the tiling struct the host filled) into a local
 * variable. The struct type is the one the host registered; with the
 * kernel-launch samples it is a plain struct named by the macro below or
 * TilingData. */
#ifndef NPUEMU_ASC_TILING_TYPE
#define NPUEMU_ASC_TILING_TYPE TilingData
#endif
#define GET_TILING_DATA(var, tiling)                                           \
    NPUEMU_ASC_TILING_TYPE var;                                                 \
    npuemu::asc::gm_check((const void *)(tiling), sizeof(var), "GET_TILING_DATA", npuemu::asc::kGmRead); \
    std::memcpy(&(var), (const void *)(tiling), sizeof(var))
#define GET_TILING_DATA_WITH_STRUCT(type, var, tiling)                                     \
    type var;                                                                               \
    npuemu::asc::gm_check((const void *)(tiling), sizeof(var), "GET_TILING_DATA_WITH_STRUCT", npuemu::asc::kGmRead); \
    std::memcpy(&(var), (const void *)(tiling), sizeof(var))
#define GET_TILING_DATA_PTR_WITH_STRUCT(type, ptr, tiling)                                         \
    npuemu::asc::gm_check((const void *)(tiling), sizeof(type), "GET_TILING_DATA_PTR_WITH_STRUCT", npuemu::asc::kGmRead); \
    const type *ptr = reinterpret_cast<const type *>(tiling)
#define REGISTER_TILING_DEFAULT(type) static_assert(true, "")
/* TILING_KEY_IS(k): the tiling key of the launch; kernel-launch programs
 * pass no key, so it is 0 unless NPUEMU_ASC_TILING_KEY is defined. */
#ifndef NPUEMU_ASC_TILING_KEY
#define NPUEMU_ASC_TILING_KEY 0
#endif
#define TILING_KEY_IS(k) ((uint64_t)(k) == (uint64_t)(NPUEMU_ASC_TILING_KEY))

namespace AscendC {

enum class TPosition : uint8_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX,
};
using QuePosition = TPosition;

/* The physical memories (LocalMemAllocator<Hardware::UB>). */
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

enum class HardEvent : uint8_t {
    MTE2_MTE1,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
    MAX,
};

enum class RoundMode : uint8_t {
    CAST_NONE = 0,
    CAST_RINT,
    CAST_FLOOR,
    CAST_CEIL,
    CAST_ROUND,
    CAST_TRUNC,
    CAST_ODD,
};

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class BlockMode : uint8_t { BLOCK_MODE_NORMAL = 0, BLOCK_MODE_MATRIX, BLOCK_MODE_VECTOR, BLOCK_MODE_SMALL_CHANNEL, BLOCK_MODE_DEPTHWISE };
enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };
enum class pad_t : uint8_t { PAD_NONE = 0, PAD_MODE1, PAD_MODE2, PAD_MODE3, PAD_MODE4, PAD_MODE5, PAD_MODE6, PAD_MODE7, PAD_MODE8 };
enum class TQueConfig : uint8_t {};
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
enum class AtomicDtype : uint8_t { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum class KernelMode : uint8_t { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1 };
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 };
enum class CacheMode : uint8_t { CACHE_MODE_NORMAL = 0, CACHE_MODE_DISABLE, CACHE_MODE_LAST, CACHE_MODE_PERSISTENT };

using TEventID = int8_t;

constexpr uint32_t ONE_BLK_SIZE = 32;           /* bytes of a datablock */
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;  /* bytes of one vector repeat */
constexpr uint32_t DEFAULT_BLK_NUM = 8;         /* datablocks per repeat */
constexpr uint32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint32_t DEFAULT_C0_SIZE = 32;
constexpr uint32_t BLOCK_CUBE = 16;
constexpr uint32_t CUBE_MAX_SIZE = 256;
constexpr uint32_t MAX_REPEAT_TIMES = 255;
constexpr uint32_t ONE_BLOCK_SIZE = 32;
constexpr int32_t QUE_MAX_EVENT = 8;
constexpr uint32_t ONE_FOURTH_DEFAULT_REPEAT_STRIDE = 2;
constexpr uint32_t HALF_DEFAULT_REPEAT_STRIDE = 4;
constexpr uint32_t TOTAL_VEC_LOCAL_SIZE = 192 * 1024;
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr uint32_t TOTAL_L1_SIZE = 512 * 1024;
constexpr uint32_t TOTAL_L0A_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0B_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0C_SIZE = 128 * 1024;

} // namespace AscendC

#endif
