package main

import (
	"fmt"
	"sort"
	"strings"
)

// aclHeaderSpec fixes file names, guards and the include graph of
// acl-types.md §1.
var aclHeaderSpec = []struct {
	path, guard, comment string
	includes             []string
}{
	{"acl/acl.h", "INC_EXTERNAL_ACL_ACL_H_", "Umbrella header of the ACL runtime API.",
		[]string{`"acl_rt.h"`, `"acl_op.h"`, `"acl_mdl.h"`}},
	{"acl/acl_base.h", "INC_EXTERNAL_ACL_ACL_BASE_H_", "Umbrella header of the ACL base types and error codes.",
		[]string{`"acl/acl_base_rt.h"`, `"acl/acl_base_mdl.h"`, `"error_codes/rt_error_codes.h"`, `"error_codes/ge_error_codes.h"`}},
	{"acl/acl_base_rt.h", "INC_EXTERNAL_ACL_ACL_BASE_RT_H_", "Declaration macros, handle types, aclError codes, base enums, data buffers and float16 helpers.",
		[]string{"<stdint.h>", "<stddef.h>"}},
	{"acl/acl_rt.h", "INC_EXTERNAL_ACL_ACL_RT_H_", "The ACL runtime API: devices, contexts, streams, events, memory, kernels, model run instances.",
		[]string{"<stdint.h>", "<stddef.h>", "<stdbool.h>", `"acl_base.h"`, `"acl_rt_allocator.h"`}},
	{"acl/acl_rt_allocator.h", "INC_EXTERNAL_ACL_ACL_RT_ALLOCATOR_H_", "Registration of an external memory allocator.",
		[]string{`"acl_base.h"`}},
	{"acl/acl_rt_memory_soma.h", "INC_EXTERNAL_ACL_RT_MEMORY_H_", "Stream-ordered memory pools (not included by acl.h).",
		[]string{"<stddef.h>", `"acl_base.h"`, `"acl/acl_rt.h"`}},
	{"acl/error_codes/rt_error_codes.h", "__INC_EXTERNEL_RT_ERROR_CODES_H__", "Runtime error codes (ACL_ERROR_RT_*).",
		[]string{"<stddef.h>"}},
	{"acl/error_codes/ge_error_codes.h", "INC_EXTERNAL_GE_GE_ERROR_CODES_H_", "Graph-engine error codes (ACL_ERROR_GE_*).",
		[]string{"<stddef.h>", "<stdint.h>"}},
}

// The three model/op headers are empty placeholders in the runtime package.
var aclPlaceholders = []string{"acl/acl_base_mdl.h", "acl/acl_mdl.h", "acl/acl_op.h"}

const aclBaseRTPrelude = `
#ifndef ACL_FUNC_VISIBILITY
#ifdef FUNC_VISIBILITY
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#else
#define ACL_FUNC_VISIBILITY
#endif
#endif

#if defined(__GNUC__) && (__GNUC__ >= 6)
#define ACL_DEPRECATED __attribute__((deprecated))
#define ACL_DEPRECATED_MESSAGE(message) __attribute__((deprecated(message)))
#else
#define ACL_DEPRECATED
#define ACL_DEPRECATED_MESSAGE(message)
#endif

#define ACL_APP_LOG(level, fmt, ...) \
    aclAppLog(level, __FUNCTION__, __FILE__, __LINE__, fmt, ##__VA_ARGS__)
`

const geErrorPrelude = `
#ifndef GE_FUNC_VISIBILITY
#ifdef FUNC_VISIBILITY
#define GE_FUNC_VISIBILITY __attribute__((visibility("default")))
#else
#define GE_FUNC_VISIBILITY
#endif
#endif
`

// Values documented for aclmdlRIBindStream's flag (acl-types.md §9); the
// model package defines them, so define only if nobody did.
const aclRTModelFlags = `
#ifndef ACL_MODEL_STREAM_FLAG_HEAD
#define ACL_MODEL_STREAM_FLAG_HEAD 0x0U
#endif
#ifndef ACL_MODEL_STREAM_FLAG_DEFAULT
#define ACL_MODEL_STREAM_FLAG_DEFAULT 0x7FFFFFFFU
#endif
`

// funcDecl renders an ACL function declaration.
func aclFuncDecl(f function) string {
	ret := declHead(f.Return)
	s := fmt.Sprintf("ACL_FUNC_VISIBILITY %s%s(%s);", ret, f.Name, f.cParams())
	if f.Deprecated != "" {
		s = fmt.Sprintf("ACL_DEPRECATED_MESSAGE(%q) %s", f.Deprecated, s)
	}
	return s
}

// genACLHeaders builds every header of emu/include/acl.
func genACLHeaders(fns []function, consts []constant, types *aclTypes) (map[string]string, error) {
	hs := map[string]*cheader{}
	for _, s := range aclHeaderSpec {
		hs[s.path] = &cheader{Path: s.path, Guard: s.guard, Comment: s.comment, Includes: s.includes}
	}
	hs["acl/acl_base_rt.h"].Prelude = aclBaseRTPrelude
	hs["acl/error_codes/ge_error_codes.h"].Prelude = geErrorPrelude
	get := func(path string) (*cheader, error) {
		h, ok := hs[path]
		if !ok {
			return nil, fmt.Errorf("spec names unknown header %q", path)
		}
		return h, nil
	}
	for _, c := range consts {
		h, err := get(c.Header)
		if err != nil {
			return nil, err
		}
		switch c.Kind {
		case "#define":
			h.Defines = append(h.Defines, fmt.Sprintf("#define %s %s", c.Name, c.AsWritten))
		case "static const int", "static const uint32_t":
			h.Consts = append(h.Consts, fmt.Sprintf("%s %s = %s;", c.Kind, c.Name, c.AsWritten))
		}
	}
	hs["acl/acl_rt.h"].Prelude = aclRTModelFlags
	keys, members, _ := groupEnums(consts)
	for _, k := range keys {
		e, ok := types.Enums[k]
		if !ok {
			return nil, fmt.Errorf("enum %q has no entry in acl-types.md §6", k)
		}
		h, err := get(e.Header)
		if err != nil {
			return nil, err
		}
		h.Types = append(h.Types, cdecl{Provides: nonEmpty(e.Typedef, e.Tag), Text: enumDecl(e.Typedef, e.Tag, members[k])})
	}
	for _, t := range types.Typedefs {
		h, err := get(t.Header)
		if err != nil {
			return nil, err
		}
		h.Types = append(h.Types, cdecl{Provides: []string{t.Name}, Text: t.Decl})
	}
	for _, l := range types.Layouts {
		h, err := get(l.Header)
		if err != nil {
			return nil, err
		}
		text := l.Decl()
		if l.Typedef == "dim3" {
			// The device compiler brings its own dim3.
			text = "#ifndef __BISHENG_CCEC__\n" + text + "\n#endif"
		}
		h.Types = append(h.Types, cdecl{Provides: nonEmpty(l.Typedef, l.Tag), Text: text})
	}
	for _, f := range fns {
		h, err := get(f.Header)
		if err != nil {
			return nil, err
		}
		h.Funcs = append(h.Funcs, aclFuncDecl(f))
	}
	out := map[string]string{}
	for path, h := range hs {
		s, err := h.render()
		if err != nil {
			return nil, err
		}
		out[path] = s
	}
	for _, p := range aclPlaceholders {
		h := &cheader{Path: p, Comment: "Empty placeholder kept for source compatibility: the model and\noperator APIs come from other CANN packages. The aclmdlRI* functions\nare declared in acl_rt.h.", Raw: "\n"}
		s, _ := h.render()
		out[p] = s
	}
	api := &cheader{Path: "acl/acl_rt_api.h", Comment: "C++-only inline overloads that forward to exported C functions\n(acl-types.md §8). It declares no exported symbol; C sees nothing.",
		Raw: "#ifndef INC_EXTERNAL_ACL_ACL_RT_API_H_\n#define INC_EXTERNAL_ACL_ACL_RT_API_H_\n\n#include \"acl_rt.h\"\n\n#ifdef __cplusplus\n" +
			strings.TrimLeft(aclRTAPI, "\n") + "#endif /* __cplusplus */\n\n#endif /* INC_EXTERNAL_ACL_ACL_RT_API_H_ */\n"}
	s, _ := api.render()
	out[api.Path] = s
	return out, nil
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// aclRTAPI is the body of acl_rt_api.h: the overloads of acl-types.md §8.
// C-style casts are used on purpose: the vendor overloads accept pointers
// to any (possibly const) element type.
const aclRTAPI = `
static inline aclError aclrtSynchronizeDevice(int32_t timeout)
{
    return ::aclrtSynchronizeDeviceWithTimeout(timeout);
}

static inline aclError aclrtSynchronizeStream(aclrtStream stream, int32_t timeout)
{
    return ::aclrtSynchronizeStreamWithTimeout(stream, timeout);
}

static inline aclError aclrtSynchronizeEvent(aclrtEvent event, int32_t timeout)
{
    return ::aclrtSynchronizeEventWithTimeout(event, timeout);
}

static inline aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event, int32_t timeout)
{
    return ::aclrtStreamWaitEventWithTimeout(stream, event, timeout);
}

static inline aclError aclrtCreateStream(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
    return ::aclrtCreateStreamWithConfig(stream, priority, flag);
}

static inline aclError aclrtSetOpExecuteTimeOut(uint64_t timeout, uint64_t *actualTimeout)
{
    return ::aclrtSetOpExecuteTimeOutV2(timeout, actualTimeout);
}

static inline aclError aclrtCreateEvent(aclrtEvent *event, uint32_t flag)
{
    return ::aclrtCreateEventExWithFlag(event, flag);
}

template <typename T>
static inline aclError aclrtMalloc(T **devPtr, size_t size, aclrtMallocConfig *cfg = nullptr)
{
    return ::aclrtMallocWithCfg((void **)devPtr, size, ACL_MEM_MALLOC_HUGE_FIRST, cfg);
}

template <typename T>
static inline aclError aclrtMalloc(T **devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg = nullptr)
{
    return ::aclrtMallocWithCfg((void **)devPtr, size, policy, cfg);
}

template <typename T>
static inline aclError aclrtMallocHost(T **hostPtr, size_t size, aclrtMallocConfig *cfg = nullptr)
{
    return ::aclrtMallocHostWithCfg((void **)hostPtr, (uint64_t)size, cfg);
}

template <typename T, typename U>
static inline aclError aclrtMemcpy(T *dst, size_t destMax, const U *src, size_t count, aclrtMemcpyKind kind)
{
    return ::aclrtMemcpy((void *)dst, destMax, (const void *)src, count, kind);
}

template <typename T, typename U>
static inline aclError aclrtMemcpyAsync(T *dst, size_t destMax, const U *src, size_t count, aclrtMemcpyKind kind,
                                        aclrtStream stream)
{
    return ::aclrtMemcpyAsync((void *)dst, destMax, (const void *)src, count, kind, stream);
}

template <typename T, typename U>
static inline aclError aclrtMemcpy2d(T *dst, size_t dpitch, const U *src, size_t spitch, size_t width, size_t height,
                                     aclrtMemcpyKind kind)
{
    return ::aclrtMemcpy2d((void *)dst, dpitch, (const void *)src, spitch, width, height, kind);
}

template <typename T, typename U>
static inline aclError aclrtMemcpy2dAsync(T *dst, size_t dpitch, const U *src, size_t spitch, size_t width,
                                          size_t height, aclrtMemcpyKind kind, aclrtStream stream)
{
    return ::aclrtMemcpy2dAsync((void *)dst, dpitch, (const void *)src, spitch, width, height, kind, stream);
}

template <typename T, typename U>
static inline aclError aclrtMemcpyBatch(T **dsts, size_t *destMaxs, U **srcs, size_t *sizes, size_t numBatches,
                                        aclrtMemcpyBatchAttr attr, size_t *failIndex = nullptr)
{
    (void)failIndex;
    size_t attrsIndex = 0U;
    return ::aclrtMemcpyBatchV2((void **)dsts, destMaxs, (void **)srcs, sizes, numBatches, &attr, &attrsIndex, 1U);
}

template <typename T, typename U>
static inline aclError aclrtMemcpyBatch(T **dsts, size_t *destMaxs, U **srcs, size_t *sizes, size_t numBatches,
                                        aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs,
                                        size_t *failIndex = nullptr)
{
    (void)failIndex;
    return ::aclrtMemcpyBatchV2((void **)dsts, destMaxs, (void **)srcs, sizes, numBatches, attrs, attrsIndexes,
                                numAttrs);
}

template <typename T, typename U>
static inline aclError aclrtMemcpyBatchAsync(T **dsts, size_t *destMaxs, U **srcs, size_t *sizes, size_t numBatches,
                                             aclrtMemcpyBatchAttr attr, aclrtStream stream)
{
    size_t attrsIndex = 0U;
    return ::aclrtMemcpyBatchAsyncV2((void **)dsts, destMaxs, (void **)srcs, sizes, numBatches, &attr, &attrsIndex,
                                     1U, stream);
}

template <typename T, typename U>
static inline aclError aclrtMemcpyBatchAsync(T **dsts, size_t *destMaxs, U **srcs, size_t *sizes, size_t numBatches,
                                             aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs,
                                             aclrtStream stream)
{
    return ::aclrtMemcpyBatchAsyncV2((void **)dsts, destMaxs, (void **)srcs, sizes, numBatches, attrs, attrsIndexes,
                                     numAttrs, stream);
}

template <typename T, typename U>
static inline aclError aclrtMemcpyBatchAsync(T **dsts, size_t *destMaxs, U **srcs, size_t *sizes, size_t numBatches,
                                             aclrtMemcpyBatchAttr attr, size_t *failIndex, aclrtStream stream)
{
    size_t attrsIndex = 0U;
    return ::aclrtMemcpyBatchAsync((void **)dsts, destMaxs, (void **)srcs, sizes, numBatches, &attr, &attrsIndex, 1U,
                                   failIndex, stream);
}

template <typename T, typename U>
static inline aclError aclrtMemcpyBatchAsync(T **dsts, size_t *destMaxs, U **srcs, size_t *sizes, size_t numBatches,
                                             aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs,
                                             size_t *failIndex, aclrtStream stream)
{
    return ::aclrtMemcpyBatchAsync((void **)dsts, destMaxs, (void **)srcs, sizes, numBatches, attrs, attrsIndexes,
                                   numAttrs, failIndex, stream);
}

template <typename T>
static inline aclError aclrtPointerGetAttributes(const T *ptr, aclrtPtrAttributes *attributes)
{
    return ::aclrtPointerGetAttributes((const void *)ptr, attributes);
}

template <typename T>
static inline aclError aclrtHostRegister(T *ptr, uint64_t size, aclrtHostRegisterType type, T **devPtr)
{
    return ::aclrtHostRegister((void *)ptr, size, type, (void **)devPtr);
}

template <typename T>
static inline aclError aclrtHostRegister(T *ptr, uint64_t size, uint32_t flag)
{
    return ::aclrtHostRegisterV2((void *)ptr, size, flag);
}

template <typename T>
static inline aclError aclrtHostGetDevicePointer(T *pHost, T **pDevice, uint32_t flag)
{
    return ::aclrtHostGetDevicePointer((void *)pHost, (void **)pDevice, flag);
}

template <typename T>
static inline aclError aclrtHostUnregister(T *ptr)
{
    return ::aclrtHostUnregister((void *)ptr);
}

template <typename T>
static inline aclError aclrtMemAllocManaged(T **devPtr, size_t size, uint32_t flags = ACL_RT_MEM_ATTACH_GLOBAL)
{
    return ::aclrtMemAllocManaged((void **)devPtr, (uint64_t)size, flags);
}

template <typename T>
static inline aclError aclrtMemManagedPrefetchAsync(const T *ptr, size_t size, aclrtMemManagedLocation location,
                                                    uint32_t flags, aclrtStream stream)
{
    return ::aclrtMemManagedPrefetchAsync((const void *)ptr, size, location, flags, stream);
}

template <typename T>
static inline aclError aclrtMemManagedPrefetchBatchAsync(const T **ptrs, size_t *sizes, size_t count,
                                                         aclrtMemManagedLocation prefetchLoc, uint64_t flags,
                                                         aclrtStream stream)
{
    size_t prefetchLocIdx = 0U;
    return ::aclrtMemManagedPrefetchBatchAsync((const void **)ptrs, sizes, count, &prefetchLoc, &prefetchLocIdx, 1U,
                                               flags, stream);
}

template <typename T>
static inline aclError aclrtMemManagedPrefetchBatchAsync(const T **ptrs, size_t *sizes, size_t count,
                                                         aclrtMemManagedLocation *prefetchLocs,
                                                         size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                         uint64_t flags, aclrtStream stream)
{
    return ::aclrtMemManagedPrefetchBatchAsync((const void **)ptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                                               numPrefetchLocs, flags, stream);
}

template <typename T>
static inline aclError aclrtGetSymbolAddress(const T &symbol, void **devPtr)
{
    return ::aclrtGetSymbolAddress((const void *)&symbol, devPtr);
}

template <typename T>
static inline aclError aclrtGetSymbolSize(const T &symbol, size_t *size)
{
    return ::aclrtGetSymbolSize((const void *)&symbol, size);
}

template <typename T>
static inline aclError aclrtMemcpyFromSymbol(void *dst, size_t dstMax, const T &symbol, size_t count, size_t offset,
                                             aclrtMemcpyKind kind)
{
    return ::aclrtMemcpyFromSymbol(dst, dstMax, (const void *)&symbol, count, offset, kind);
}

template <typename T>
static inline aclError aclrtMemcpyFromSymbolAsync(void *dst, size_t dstMax, const T &symbol, size_t count,
                                                  size_t offset, aclrtMemcpyKind kind, aclrtStream stream)
{
    return ::aclrtMemcpyFromSymbolAsync(dst, dstMax, (const void *)&symbol, count, offset, kind, stream);
}

template <typename T>
static inline aclError aclrtMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset,
                                           aclrtMemcpyKind kind)
{
    return ::aclrtMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}

template <typename T>
static inline aclError aclrtMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset,
                                                aclrtMemcpyKind kind, aclrtStream stream)
{
    return ::aclrtMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
`
