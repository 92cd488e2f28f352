/* ascendc_build.h: builds an Ascend C kernel of ascendc_kernels/ into an
 * npuemu kernel object with the host C++ compiler, as the driver would:
 *   $CXX -std=c++17 -shared -fPIC -O2 -I <repo>/emu/include <src> -o <tmp>.so
 * and loads it. */
#ifndef ASCENDC_CASES_BUILD_H
#define ASCENDC_CASES_BUILD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

static inline aclrtBinHandle asc_load(const char *file, const char *src) {
    char repo[3000], dir[] = "/tmp/npuemu-asc-XXXXXX", so[64], cmd[16384];
    npuemu_repo_of(file, 2, repo, sizeof repo);
    if (mkdtemp(dir) == NULL) FAIL("mkdtemp");
    const char *cxx = getenv("CXX");
    if (cxx == NULL || *cxx == 0) cxx = "g++";
    snprintf(so, sizeof so, "%s/kernel.so", dir);
    snprintf(cmd, sizeof cmd, "%s -std=c++17 -shared -fPIC -O2 -Wall -Werror -I '%s/emu/include' '%s/conformance/cases/ascendc_kernels/%s' -o '%s'", cxx,
             repo, repo, src, so);
    if (system(cmd) != 0) FAIL("building the kernel failed: %s", cmd);
    aclrtBinHandle bin = NULL;
    if (aclrtBinaryLoadFromFile(so, NULL, &bin) != ACL_SUCCESS) FAIL("cannot load %s: %s", src, aclGetRecentErrMsg());
    npuemu_remove_kernel(so);
    return bin;
}

static inline aclrtFuncHandle asc_fn(aclrtBinHandle bin, const char *name) {
    aclrtFuncHandle f = NULL;
    if (aclrtBinaryGetFunction(bin, name, &f) != ACL_SUCCESS) FAIL("no kernel %s: %s", name, aclGetRecentErrMsg());
    return f;
}

/* asc_run launches f over blocks with the host argument blob args and
 * synchronises; it returns the synchronisation's result. */
static inline aclError asc_run(aclrtFuncHandle f, uint32_t blocks, aclrtStream s, void *args, size_t n) {
    aclError e = aclrtLaunchKernelWithHostArgs(f, blocks, s, NULL, args, n, NULL, 0);
    if (e != ACL_SUCCESS) return e;
    return aclrtSynchronizeStream(s);
}

static inline void *asc_dev(size_t n) {
    void *p = NULL;
    CHECK_OK(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(p, n, 0, n));
    return p;
}

#endif
