package main

import (
	"fmt"
	"strings"
)

// The C++ the driver adds around a kernel source. Everything lives in an
// anonymous namespace, so that any number of translation units link
// together; only aclrtlaunch_<kernel> (host pass) and the registration
// pointers in the npuemu_asc_kernels section (device pass) leave the unit.

// preludeCommon lays out kernel arguments as aclrtKernelArgsAppend does:
// each parameter at the next multiple of 8 after the previous one, a
// by-value structure taking sizeof(T) bytes.
const preludeCommon = `#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>
namespace {
namespace npuemu_asc_drv {
template <class... P> struct layout {
    static constexpr std::size_t align8(std::size_t x) { return (x + 7) & ~std::size_t(7); }
    // offsets()[i] is the byte offset of parameter i, offsets()[n] the blob size
    static constexpr std::array<std::size_t, sizeof...(P) + 1> offsets() {
        std::array<std::size_t, sizeof...(P) + 1> o{};
        std::size_t off = 0, i = 0;
        ((o[i++] = off, off = align8(off + sizeof(P))), ...);
        o[i] = off;
        return o;
    }
};
// conv turns an aclrtlaunch_<kernel> argument into the kernel's parameter
// type: pointers as they are, scalars by value, structures from the host
// copy the caller points at.
template <class T, class A> inline T conv(A a) {
    if constexpr (std::is_pointer<T>::value) {
        return (T)(a);
    } else if constexpr (!std::is_pointer<A>::value) {
        return static_cast<T>(a);
    } else {
        T v;
        std::memcpy((void *)&v, (const void *)a, sizeof(T));
        return v;
    }
}
uint32_t launch_blob(const char *name, uint32_t blockDim, void *stream, void *blob, std::size_t size);
template <class... P> struct launcher {
    const char *name;
    uint32_t blockDim;
    void *stream;
    uint32_t operator()(P... p) const {
        constexpr auto off = layout<P...>::offsets();
        constexpr std::size_t size = off[sizeof...(P)] ? off[sizeof...(P)] : 8;
        alignas(8) unsigned char blob[size] = {};
        std::size_t i = 0;
        (void)i;
        ((std::memcpy((void *)(blob + off[i++]), (const void *)&p, sizeof(P))), ...);
        return launch_blob(name, blockDim, stream, blob, size);
    }
    template <class... A> uint32_t from_launch_args(A... a) const {
        static_assert(sizeof...(A) == sizeof...(P), "argument count");
        return (*this)(conv<P, A>(a)...);
    }
};
// make_launcher is what kernel<<<blockDim, l2ctrl, stream>>>(args...) becomes:
// make_launcher(kernel, "kernel", blockDim, l2ctrl, stream)(args...).
template <class... P>
inline launcher<P...> make_launcher(void (*)(P...), const char *name, uint32_t blockDim, void *l2ctrl, void *stream) {
    (void)l2ctrl;
    return launcher<P...>{name, blockDim, stream};
}
} // namespace npuemu_asc_drv
} // namespace
`

// preludeHost loads the unit's embedded device object once per process
// and launches through the ACL runtime, as the vendor's generated code does.
const preludeHost = `#include <mutex>
#include "acl/acl_rt.h"
namespace {
namespace npuemu_asc_drv {
const void *tu_binary(std::size_t *size);
inline uint32_t report(const char *name, const char *call, aclError e) {
    const char *msg = aclGetRecentErrMsg();
    std::fprintf(stderr, "[npuemu] launch of kernel %s: %s returned %d%s%s\n", name, call, (int)e,
                 msg ? ": " : "", msg ? msg : "");
    return (uint32_t)e;
}
struct binary_state {
    std::mutex mu;
    aclrtBinHandle bin = nullptr;
    const char *names[64] = {};
    aclrtFuncHandle funcs[64] = {};
};
inline binary_state &state() {
    static binary_state s;
    return s;
}
inline uint32_t launch_blob(const char *name, uint32_t blockDim, void *stream, void *blob, std::size_t size) {
    binary_state &s = state();
    aclrtFuncHandle fh = nullptr;
    {
        std::lock_guard<std::mutex> lock(s.mu);
        if (s.bin == nullptr) {
            std::size_t n = 0;
            const void *data = tu_binary(&n);
            aclError e = aclrtBinaryLoadFromData(data, n, nullptr, &s.bin);
            if (e != ACL_SUCCESS) {
                s.bin = nullptr;
                return report(name, "aclrtBinaryLoadFromData", e);
            }
        }
        int slot = -1;
        for (int i = 0; i < 64; i++) {
            if (s.names[i] != nullptr && std::strcmp(s.names[i], name) == 0) {
                fh = s.funcs[i];
                break;
            }
            if (s.names[i] == nullptr && slot < 0) slot = i;
        }
        if (fh == nullptr) {
            aclError e = aclrtBinaryGetFunction(s.bin, name, &fh);
            if (e != ACL_SUCCESS) return report(name, "aclrtBinaryGetFunction", e);
            if (slot >= 0) {
                s.names[slot] = name;
                s.funcs[slot] = fh;
            }
        }
    }
    aclError e = aclrtLaunchKernelWithHostArgs(fh, blockDim, stream, nullptr, blob, size, nullptr, 0);
    if (e != ACL_SUCCESS) return report(name, "aclrtLaunchKernelWithHostArgs", e);
    return 0;
}
} // namespace npuemu_asc_drv
} // namespace
`

// preludeDevice: in the device object a launch written in host code is
// never executed (host code of the unit runs from the host object).
const preludeDevice = `namespace {
namespace npuemu_asc_drv {
inline uint32_t launch_blob(const char *, uint32_t, void *, void *, std::size_t) { return 507899u; }
} // namespace npuemu_asc_drv
} // namespace
`

// regDecl is the registration record of one kernel in a device object;
// tableCode turns the records of all units of a device object into the
// exported npuemu_kernel_table when the object is loaded.
const regDecl = `struct npuemu_asc_reg {
    const char *name;
    npuemu_kernel_fn fn;
    uint32_t kind;
    uint32_t flags;
    uint32_t num_params;
    const uint32_t *param_sizes;
};
`

const tableCode = `#include <cstdlib>
extern "C" {
extern npuemu_asc_reg *__start_npuemu_asc_kernels[] __attribute__((weak, visibility("hidden")));
extern npuemu_asc_reg *__stop_npuemu_asc_kernels[] __attribute__((weak, visibility("hidden")));
__attribute__((visibility("default"))) npuemu_kernel_table_t npuemu_kernel_table = {
    NPUEMU_KERNEL_MAGIC, NPUEMU_KERNEL_ABI_VERSION, 0, (uint32_t)sizeof(npuemu_kernel_entry), nullptr};
}
__attribute__((constructor)) static void npuemu_asc_build_table() {
    std::size_t n = (std::size_t)(__stop_npuemu_asc_kernels - __start_npuemu_asc_kernels);
    npuemu_kernel_entry *e = (npuemu_kernel_entry *)std::calloc(n ? n : 1, sizeof(npuemu_kernel_entry));
    if (e == nullptr) return;
    for (std::size_t i = 0; i < n; i++) {
        const npuemu_asc_reg *r = __start_npuemu_asc_kernels[i];
        e[i].name = r->name;
        e[i].fn = r->fn;
        e[i].kind = r->kind;
        e[i].num_params = r->num_params;
        e[i].param_sizes = r->param_sizes;
#ifdef NPUEMU_KERNEL_COOPERATIVE
        e[i].flags = r->flags;
#endif
    }
    npuemu_kernel_table.entries = e;
    npuemu_kernel_table.count = (uint32_t)n;
}
`

// deviceEpilogue: one entry per kernel, calling npuemu::asc::run_block
// with the arguments read from the blob (npuemu::asc::arg<T>), and its
// registration record; the table when the unit is the whole object.
func deviceEpilogue(ks []kernel, withTable bool) string {
	var b strings.Builder
	b.WriteString("\n#line 1 \"<npuemu-asc-device-entries>\"\n")
	b.WriteString("#include \"npuemu/kernel.h\"\n")
	b.WriteString(coopDefine)
	b.WriteString(regDecl)
	b.WriteString(`namespace {
namespace npuemu_asc_drv {
// HAVE_WORKSPACE (ascendc_compile_definitions): the system workspace
// GetSysWorkSpacePtr returns is the last parameter, or the one before the
// tiling with HAVE_TILING.
#if defined(HAVE_WORKSPACE) && defined(HAVE_TILING)
constexpr std::size_t workspace_from_end = 2;
#elif defined(HAVE_WORKSPACE)
constexpr std::size_t workspace_from_end = 1;
#else
constexpr std::size_t workspace_from_end = 0;
#endif
template <class... P, std::size_t... I>
inline void invoke(void (*f)(P...), const npuemu_kernel_ctx *ctx, std::index_sequence<I...>) {
    constexpr auto off = layout<P...>::offsets();
    (void)off;
    (void)ctx;
#if defined(HAVE_WORKSPACE)
    if constexpr (workspace_from_end > 0 && sizeof...(P) >= workspace_from_end) {
        AscendC::SetSysWorkspace(npuemu::asc::arg<GM_ADDR>(ctx, off[sizeof...(P) - workspace_from_end]));
    }
#endif
    f(npuemu::asc::arg<P>(ctx, off[I])...);
}
template <class... P> inline void invoke(void (*f)(P...), const npuemu_kernel_ctx *ctx) {
    invoke(f, ctx, std::index_sequence_for<P...>{});
}
// sig<decltype(&kernel)>: the parameter sizes and count as constants, so
// that the registration records below are initialised statically.
template <class F> struct sig;
template <class... P> struct sig<void (*)(P...)> {
    static constexpr uint32_t sizes[sizeof...(P) + 1] = {uint32_t(sizeof(P))..., 0};
    static constexpr uint32_t count = sizeof...(P);
};
} // namespace npuemu_asc_drv
} // namespace
`)
	for _, k := range ks {
		flags := "0u"
		if k.Coop {
			flags = "NPUEMU_ASC_COOP_FLAG"
		}
		fmt.Fprintf(&b, `static void npuemu_asc_entry_%[1]s(const npuemu_kernel_ctx *ctx) {
    npuemu::asc::run_block(ctx, "%[1]s", %[2]s, [&] { npuemu_asc_drv::invoke(%[1]s, ctx); });
}
static npuemu_asc_reg npuemu_asc_reg_%[1]s = {"%[1]s", npuemu_asc_entry_%[1]s, %[2]s, %[3]s,
    npuemu_asc_drv::sig<decltype(&%[1]s)>::count, npuemu_asc_drv::sig<decltype(&%[1]s)>::sizes};
__attribute__((used, section("npuemu_asc_kernels"))) static npuemu_asc_reg *npuemu_asc_regp_%[1]s = &npuemu_asc_reg_%[1]s;
`, k.Name, k.Kind, flags)
	}
	if withTable {
		b.WriteString(tableCode)
	}
	return b.String()
}

// coopDefine precedes the device epilogue's use of the flag, so that a
// header without NPUEMU_KERNEL_COOPERATIVE still compiles.
const coopDefine = `#ifdef NPUEMU_KERNEL_COOPERATIVE
#define NPUEMU_ASC_COOP_FLAG NPUEMU_KERNEL_COOPERATIVE
#else
#define NPUEMU_ASC_COOP_FLAG 1u
#endif
`

// tableUnit is the unit a fatbin link adds to the device objects.
func tableUnit() string {
	return "#include <cstddef>\n#include <cstdint>\n#include \"npuemu/kernel.h\"\n" + regDecl + tableCode
}

// hostEpilogue: the embedded device object and aclrtlaunch_<kernel>.
func hostEpilogue(ks []kernel, blobSym string) string {
	var b strings.Builder
	b.WriteString("\n#line 1 \"<npuemu-asc-host-stubs>\"\n")
	fmt.Fprintf(&b, `extern "C" const unsigned char %[1]s[] __attribute__((visibility("hidden")));
extern "C" const unsigned char %[1]s_end[] __attribute__((visibility("hidden")));
namespace {
namespace npuemu_asc_drv {
const void *tu_binary(std::size_t *size) {
    *size = (std::size_t)(%[1]s_end - %[1]s);
    return %[1]s;
}
} // namespace npuemu_asc_drv
} // namespace
`, blobSym)
	for _, k := range ks {
		fmt.Fprintf(&b, "extern \"C\" uint32_t %s {\n", launchProto(k))
		var names []string
		for _, p := range k.Params {
			names = append(names, p.Name)
		}
		fmt.Fprintf(&b, "    return npuemu_asc_drv::make_launcher(%s, \"%s\", blockDim, nullptr, stream).from_launch_args(%s);\n}\n",
			k.Name, k.Name, strings.Join(names, ", "))
	}
	return b.String()
}

// launchProto is the prototype of aclrtlaunch_<kernel> without its return
// type: blockDim, stream, then each kernel parameter (launchType).
func launchProto(k kernel) string {
	parts := []string{"uint32_t blockDim", "aclrtStream stream"}
	for _, p := range k.Params {
		parts = append(parts, launchType(p.Type)+" "+p.Name)
	}
	return fmt.Sprintf("aclrtlaunch_%s(%s)", k.Name, strings.Join(parts, ", "))
}

// launchHeader is aclrtlaunch_<kernel>.h as ascendc_library generates it
// for ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...).
func launchHeader(k kernel, src string) string {
	guard := "HEADER_ACLRTLAUNCH_" + strings.ToUpper(k.Name) + "_H"
	var b strings.Builder
	fmt.Fprintf(&b, `/* aclrtlaunch_%[1]s.h: generated by npuemu's bisheng driver from
 * %[2]s.
 * ACLRT_LAUNCH_KERNEL(%[1]s)(blockDim, stream, args...) launches the kernel
 * through the ACL runtime and returns 0 or the ACL error code. Pointer and
 * GM_ADDR parameters take device addresses; a structure parameter taken by
 * value in the kernel takes the address of a host copy here. */
#ifndef %[3]s
#define %[3]s
#include <stdint.h>
#include "acl/acl_base_rt.h"
#ifndef ACLRT_LAUNCH_KERNEL
#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func
#endif
#ifdef __cplusplus
extern "C" {
#endif
uint32_t %[4]s;
#ifdef __cplusplus
}
#endif
#endif
`, k.Name, src, guard, launchProto(k))
	return b.String()
}

// rewriteLaunches turns every name<<<a, b, c>>>(args) into
// npuemu_asc_drv::make_launcher(name, "name", a, b, c)(args), keeping the
// line structure.
func rewriteLaunches(src string, ls []launch) string {
	var b strings.Builder
	last := 0
	for _, l := range ls {
		b.WriteString(src[last:l.Start])
		fmt.Fprintf(&b, "npuemu_asc_drv::make_launcher(%s, \"%s\", ", l.Name, l.Name)
		b.WriteString(src[l.OpenEnd:l.CloseStart])
		b.WriteString(")")
		last = l.CloseE
	}
	b.WriteString(src[last:])
	return b.String()
}

// blobAsm embeds a file as sym .. sym_end (hidden) in read-only data.
func blobAsm(sym, path string) string {
	return fmt.Sprintf(`	.section .rodata.npuemu_asc,"a",@progbits
	.balign 16
	.globl %[1]s
	.hidden %[1]s
%[1]s:
	.incbin "%[2]s"
	.globl %[1]s_end
	.hidden %[1]s_end
%[1]s_end:
	.section .note.GNU-stack,"",@progbits
`, sym, path)
}
