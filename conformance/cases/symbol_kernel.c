/* symbol_kernel: device variables of a loaded kernel binary. The symbol of a
 * variable is its address (here from aclrtBinaryGetGlobal);
 * aclrtGetSymbolAddress and aclrtGetSymbolSize report it, and
 * aclrtMemcpy{To,From}Symbol[Async] read and write it at an offset, host or
 * device side, in stream order for the async forms — the kernels see the
 * values written (semantics.md §15; acl-functions.tsv "symbol" area).
 *
 * needs: emulator
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

int main(void) {
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    if (npuemu_build_kernel(repo, "examples/kernels/globals.c", so, sizeof so) != 0) FAIL("cannot build globals.c");
    aclrtBinHandle bin;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    aclrtFuncHandle apply, bump;
    CHECK_OK(aclrtBinaryGetFunction(bin, "apply", &apply));
    CHECK_OK(aclrtBinaryGetFunction(bin, "bump", &bump));

    void *sym;
    size_t size = 0;
    CHECK_OK(aclrtBinaryGetGlobal(bin, "scale", &sym, &size));
    CHECK_EQ(size, 16);

    void *dev = NULL;
    CHECK_OK(aclrtGetSymbolAddress(sym, &dev));
    CHECK(dev == sym);
    size_t n = 0;
    CHECK_OK(aclrtGetSymbolSize(sym, &n));
    CHECK_EQ(n, 16);

    /* The initial values, then a host write at offset 4. */
    uint32_t h[4];
    CHECK_OK(aclrtMemcpyFromSymbol(h, sizeof h, sym, sizeof h, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(h[0] == 1 && h[1] == 2 && h[2] == 3 && h[3] == 4);
    uint32_t v[2] = {10, 20};
    CHECK_OK(aclrtMemcpyToSymbol(sym, v, sizeof v, 4, ACL_MEMCPY_HOST_TO_DEVICE));

    /* A kernel reads what was written. */
    uint32_t *out;
    CHECK_OK(aclrtMalloc((void **)&out, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtArgsHandle a;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(apply, &a));
    CHECK_OK(aclrtKernelArgsAppend(a, &out, sizeof out, &p));
    CHECK_OK(aclrtKernelArgsFinalize(a));
    CHECK_OK(aclrtLaunchKernelWithConfig(apply, 4, s, NULL, a, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    uint32_t r[4];
    CHECK_OK(aclrtMemcpy(r, sizeof r, out, sizeof r, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(r[0] == 1 && r[1] == 20 && r[2] == 60 && r[3] == 16);

    /* Async, in stream order: a kernel bumps the variable, the copy after
     * it sees the bump; device memory to and from the variable. */
    aclrtArgsHandle b;
    CHECK_OK(aclrtKernelArgsInit(bump, &b));
    CHECK_OK(aclrtKernelArgsFinalize(b));
    uint32_t *dcopy;
    CHECK_OK(aclrtMalloc((void **)&dcopy, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtLaunchKernelWithConfig(bump, 1, s, NULL, b, NULL));
    CHECK_OK(aclrtMemcpyFromSymbolAsync(dcopy, 64, sym, 16, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyToSymbolAsync(sym, dcopy, 4, 12, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    void *pinned;
    CHECK_OK(aclrtMallocHost(&pinned, 16));
    CHECK_OK(aclrtMemcpyFromSymbolAsync(pinned, 16, sym, 16, 0, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    uint32_t *q = pinned;
    CHECK(q[0] == 2 && q[1] == 11 && q[2] == 21 && q[3] == 2);
    CHECK_OK(aclrtMemcpyToSymbolAsync(sym, v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, s)); /* pageable: waits */
    CHECK_OK(aclrtMemcpyFromSymbol(h, sizeof h, sym, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(h[0], 10);

    /* Bad input. */
    uint32_t local = 0;
    CHECK_ERR(aclrtGetSymbolAddress(NULL, &dev), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetSymbolSize(sym, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetSymbolSize((char *)sym + 4, &n), ACL_ERROR_RT_INVALID_SYMBOL);
    CHECK_ERR(aclrtGetSymbolSize(&local, &n), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
    CHECK_ERR(aclrtMemcpyToSymbol(sym, v, sizeof v, 12, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ERR(aclrtMemcpyToSymbol(sym, v, sizeof v, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemcpyFromSymbol(h, 4, sym, 8, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_OK(aclrtMemcpyToSymbol(sym, v, 0, 0, ACL_MEMCPY_HOST_TO_DEVICE)); /* zero bytes */

    /* Once the binary is unloaded its variables are no symbols. */
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_ERR(aclrtGetSymbolSize(sym, &n), ACL_ERROR_RT_SYMBOL_NOT_FOUND);

    CHECK_OK(aclrtFreeHost(pinned));
    CHECK_OK(aclrtFree(dcopy));
    CHECK_OK(aclrtFree(out));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
