// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* ascendc/debug.h: AscendC::printf / PRINTF, DumpTensor, ASSERT / assert,
 * trap. Kernel output goes to the launch's output (npuemu_printf): written
 * to stdout when the launch ends, block by block. */
#ifndef NPUEMU_ASCENDC_DEBUG_H
#define NPUEMU_ASCENDC_DEBUG_H

#include <cstdarg>
#include <cstdio>

#include "ascendc/tensor.h"

namespace npuemu {
namespace asc {
/* printf into the launch's output; no format attribute: the format of
 * AscendC::printf is a parameter, not a literal. */
inline int vprint(const char *fmt, ...) {
    Block &b = blk();
    va_list ap;
    va_start(ap, fmt);
    int n = b.ctx->rt->vprintf(b.ctx, fmt, ap);
    va_end(ap);
    return n;
}
} // namespace asc
} // namespace npuemu

namespace AscendC {

template <typename... Args>
inline void printf(const char *fmt, Args... args) {
    npuemu::asc::vprint(fmt, args...);
}
template <typename... Args>
inline void PRINTF(const char *fmt, Args... args) {
    AscendC::printf(fmt, args...);
}

namespace detail {
template <typename T>
inline void dump_value(char *buf, size_t n, T v) {
    if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value || std::is_floating_point<T>::value) {
        std::snprintf(buf, n, "%g", (double)(float)v);
    } else if constexpr (std::is_signed<T>::value) {
        std::snprintf(buf, n, "%lld", (long long)v);
    } else {
        std::snprintf(buf, n, "%llu", (unsigned long long)v);
    }
}
template <typename T>
inline void dump(const char *where, const T *p, uint32_t desc, uint32_t count) {
    npuemu::asc::Block &b = npuemu::asc::blk();
    npuemu_printf(b.ctx, "DumpTensor: desc=%u, %s, %u elements:", desc, where, count);
    char v[64];
    for (uint32_t i = 0; i < count; i++) {
        dump_value(v, sizeof v, p[i]);
        npuemu_printf(b.ctx, "%s%s", i % 16 == 0 ? "\n  " : " ", v);
    }
    npuemu_printf(b.ctx, "\n");
}
} // namespace detail

template <typename T>
inline void DumpTensor(const LocalTensor<T> &t, uint32_t desc, uint32_t dumpSize) {
    char where[64];
    std::snprintf(where, sizeof where, "position %s", npuemu::asc::pos_name(t.pos_));
    if ((uint64_t)dumpSize * sizeof(T) > t.cap_) dumpSize = t.cap_ / (uint32_t)sizeof(T);
    detail::dump(where, t.ptr_, desc, dumpSize);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T> &t, uint32_t desc, uint32_t dumpSize) {
    npuemu::asc::gm_check(t.ptr_, (uint64_t)dumpSize * sizeof(T), "DumpTensor", npuemu::asc::kGmRead);
    detail::dump("GM", t.ptr_, desc, dumpSize);
}
template <typename T, typename S>
inline void DumpTensor(const LocalTensor<T> &t, uint32_t desc, uint32_t dumpSize, const S &) {
    DumpTensor(t, desc, dumpSize);
}
template <typename T>
inline void DumpAccChkPoint(const LocalTensor<T> &t, uint32_t index, uint32_t countOff, uint32_t dumpSize) {
    DumpTensor(t[countOff], index, dumpSize);
}

} // namespace AscendC

/* trap: ends the block with an AI Core exception (global, and reachable as
 * AscendC::trap). */
[[noreturn]] inline void trap() { npuemu::asc::fault("trap", "the kernel called trap()"); }
namespace AscendC {
using ::trap;
} // namespace AscendC

namespace npuemu {
namespace asc {
[[noreturn]] inline void assert_failed(const char *expr, const char *file, int line) {
    fault("ASSERT", "assertion \"%s\" failed at %s:%d", expr, file, line);
}
} // namespace asc
} // namespace npuemu

#define ASSERT(expr) ((expr) ? (void)0 : npuemu::asc::assert_failed(#expr, __FILE__, __LINE__))
#ifdef assert
#undef assert
#endif
#define assert(expr) ASSERT(expr)

#endif
