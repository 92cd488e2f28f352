/* tikicpulib.h — npuemu's CPU-debug interface for RUN_MODE=cpu programs
 * (find_package(tikicpulib), target tikicpulib::<SOC>). The vendor runs
 * such kernels in forked processes without its runtime; npuemu runs them on
 * the emulated device, through the ACL runtime, like RUN_MODE=npu, so the
 * rules of the local memories and the GM checks apply:
 *   AscendC::GmAlloc / GmFree   pinned host memory the kernels may address
 *                               (aclrtMallocHost; the first call initialises
 *                               ACL and device 0)
 *   AscendC::SetKernelMode(m)   MIX_MODE (the default), AIC_MODE, AIV_MODE
 *   ICPU_RUN_KF(kernel, blockDim, args...)
 *                               launches kernel on blockDim blocks (all at
 *                               once when the cores allow, for SyncAll) and
 *                               waits; a failure is printed with the
 *                               runtime's message.
 *   memcpy_s, memset_s          the securec calls CPU-debug programs use
 * The launch goes through emu/lib/libnpuemu_cpu_trampoline.so.
 * docs/ascendc-build.md. */
#ifndef NPUEMU_TIKICPULIB_H
#define NPUEMU_TIKICPULIB_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include "acl/acl.h"
#include "kernel_operator.h"

// memcpy_s / memset_s of the vendor's securec library, which its
// tikicpulib.h brings along: 0 on success, EINVAL (22) for a NULL
// pointer, ERANGE_AND_RESET (162: destination zeroed) when count exceeds
// destMax.
#ifndef NPUEMU_SECUREC_DEFINED
#define NPUEMU_SECUREC_DEFINED
inline int memcpy_s(void *dest, size_t destMax, const void *src, size_t count) {
    if (dest == nullptr || src == nullptr) return 22;
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return 162;
    }
    std::memmove(dest, src, count);
    return 0;
}
inline int memset_s(void *dest, size_t destMax, int c, size_t count) {
    if (dest == nullptr) return 22;
    if (count > destMax) {
        std::memset(dest, c, destMax);
        return 162;
    }
    std::memset(dest, c, count);
    return 0;
}
#endif

namespace npuemu_tik {

inline AscendC::KernelMode &mode() {
    static AscendC::KernelMode m = AscendC::KernelMode::MIX_MODE;
    return m;
}

struct state {
    std::mutex mu;
    bool ready = false;
    aclrtStream stream = nullptr;
    aclrtBinHandle bin = nullptr;
};

inline state &st() {
    static state s;
    return s;
}

inline void fail(const char *what, aclError e) {
    const char *msg = aclGetRecentErrMsg();
    std::fprintf(stderr, "[npuemu tikicpulib] %s: error %d%s%s\n", what, (int)e, msg ? ": " : "", msg ? msg : "");
}

inline const char *trampoline_path() {
    static std::string p;
#ifdef NPUEMU_TIKICPU_TRAMPOLINE
    p = NPUEMU_TIKICPU_TRAMPOLINE;
#else
    const char *home = std::getenv("ASCEND_HOME_PATH");
    p = std::string(home ? home : ".") + "/lib64/libnpuemu_cpu_trampoline.so";
#endif
    return p.c_str();
}

// ready initialises ACL, device 0, a stream and the trampoline once.
inline bool ready() {
    state &s = st();
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.ready) return true;
    aclError e = aclInit(nullptr);
    if (e != ACL_SUCCESS && e != ACL_ERROR_REPEAT_INITIALIZE) {
        fail("aclInit", e);
        return false;
    }
    if ((e = aclrtSetDevice(0)) != ACL_SUCCESS) {
        fail("aclrtSetDevice(0)", e);
        return false;
    }
    if ((e = aclrtCreateStream(&s.stream)) != ACL_SUCCESS) {
        fail("aclrtCreateStream", e);
        return false;
    }
    if ((e = aclrtBinaryLoadFromFile(trampoline_path(), nullptr, &s.bin)) != ACL_SUCCESS) {
        fail(trampoline_path(), e);
        return false;
    }
    s.ready = true;
    return true;
}

template <class... P> struct closure {
    void (*fn)(P...);
    const char *name;
    uint32_t kind;
    std::tuple<P...> args;
};

template <class... P> void call(const npuemu_kernel_ctx *ctx, void *c) {
    closure<P...> *cl = static_cast<closure<P...> *>(c);
    npuemu::asc::run_block(ctx, cl->name, cl->kind, [&] { std::apply(cl->fn, cl->args); });
}

template <class... P, class... A> void run_kf(void (*fn)(P...), const char *name, uint32_t blockDim, A &&...a) {
    static_assert(sizeof...(P) == sizeof...(A), "ICPU_RUN_KF: argument count differs from the kernel's parameters");
    if (!ready()) return;
    uint32_t kind = NPUEMU_VECTOR;
    const char *entry = "npuemu_tik_vector";
    switch (mode()) {
    case AscendC::KernelMode::AIC_MODE:
        kind = NPUEMU_CUBE;
        entry = "npuemu_tik_cube";
        break;
    case AscendC::KernelMode::AIV_MODE:
        break;
    default:
        kind = NPUEMU_MIX;
        entry = "npuemu_tik_mix";
        break;
    }
    closure<P...> cl{fn, name, kind, std::tuple<P...>(static_cast<P>(std::forward<A>(a))...)};
    void (*cb)(const npuemu_kernel_ctx *, void *) = &call<P...>;
    void *blob[2] = {(void *)cb, (void *)&cl};
    state &s = st();
    // every block at once (SyncAll), else in waves when blockDim exceeds the cores
    for (int coop = 1; coop >= 0; coop--) {
        std::string fname = std::string(entry) + (coop ? "_coop" : "");
        aclrtFuncHandle f = nullptr;
        aclError e = aclrtBinaryGetFunction(s.bin, fname.c_str(), &f);
        if (e == ACL_SUCCESS) e = aclrtLaunchKernelWithHostArgs(f, blockDim, s.stream, nullptr, blob, sizeof blob, nullptr, 0);
        if (e == ACL_SUCCESS) e = aclrtSynchronizeStream(s.stream);
        if (e == ACL_SUCCESS) return;
        if (coop && e == ACL_ERROR_RT_PARAM_INVALID) continue;
        fail((std::string("ICPU_RUN_KF(") + name + ")").c_str(), e);
        return;
    }
}

} // namespace npuemu_tik

namespace AscendC {
inline void *GmAlloc(size_t size) {
    void *p = nullptr;
    if (!npuemu_tik::ready()) return nullptr;
    aclError e = aclrtMallocHost(&p, size);
    if (e != ACL_SUCCESS) {
        npuemu_tik::fail("AscendC::GmAlloc", e);
        return nullptr;
    }
    return p;
}
inline void GmFree(void *p) {
    if (p != nullptr) aclrtFreeHost(p);
}
inline void npuemu_tik_set_kernel_mode(KernelMode m) { npuemu_tik::mode() = m; }
} // namespace AscendC
using AscendC::GmAlloc;
using AscendC::GmFree;
using AscendC::KernelMode;
// SetKernelMode records the mode ICPU_RUN_KF launches with.
#define SetKernelMode npuemu_tik_set_kernel_mode

#define ICPU_RUN_KF(func, blockDim, ...) npuemu_tik::run_kf(func, #func, (blockDim), __VA_ARGS__)

#endif
