/* build.h: helpers of the ascendc_cube_* cases: build an Ascend C kernel
 * source of this directory with the toolkit's bisheng driver into a device
 * binary (what ascendc_fatbin_library makes), and launch a kernel of it
 * with its parameters packed as aclrtKernelArgsAppend packs them. */
#ifndef NPUEMU_ASCENDC_CUBE_BUILD_H
#define NPUEMU_ASCENDC_CUBE_BUILD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"
#include "../../../examples/kernels/build_kernel.h"

/* asc_load builds <repo>/conformance/cases/ascendc_cube_kernels/<name>
 * and loads it; SKIPs when the toolkit's driver is not built. */
static inline aclrtBinHandle asc_load(const char *repo, const char *name) {
    char drv[4200], dir[] = "/tmp/npuemu-asc-cube-XXXXXX", cmd[32768], so[4200];
    snprintf(drv, sizeof drv, "%s/emu/compiler/ccec_compiler/bin/bisheng", repo);
    if (access(drv, X_OK) != 0) SKIP("the Ascend C driver %s is not built (make lib)", drv);
    if (mkdtemp(dir) == NULL) FAIL("mkdtemp");
    snprintf(cmd, sizeof cmd,
             "'%s' --npuemu-device-only -c '%s/conformance/cases/ascendc_cube_kernels/%s' -o '%s/k.o' && "
             "'%s' --npuemu-fatbin-link '%s/k.o' -o '%s/k.so'",
             drv, repo, name, dir, drv, dir, dir);
    if (system(cmd) != 0) FAIL("building %s failed: %s", name, cmd);
    snprintf(so, sizeof so, "%s/k.so", dir);
    aclrtBinHandle bin = NULL;
    if (aclrtBinaryLoadFromFile(so, NULL, &bin) != ACL_SUCCESS) FAIL("cannot load %s: %s", so, aclGetRecentErrMsg());
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", dir);
    return bin;
}

/* One kernel parameter: its bytes. */
typedef struct {
    const void *p;
    size_t n;
} asc_param;

/* asc_launch launches kernel f on blockDim blocks of stream s. */
static inline void asc_launch(aclrtFuncHandle f, uint32_t blockDim, aclrtStream s, const asc_param *ps, int np) {
    aclrtArgsHandle h;
    aclrtParamHandle ph;
    CHECK_OK(aclrtKernelArgsInit(f, &h));
    for (int i = 0; i < np; i++) CHECK_OK(aclrtKernelArgsAppend(h, (void *)ps[i].p, ps[i].n, &ph));
    CHECK_OK(aclrtKernelArgsFinalize(h));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, blockDim, s, NULL, h, NULL));
}

/* asc_expect_fault: the next synchronisation reports the AI Core exception
 * and the recent error message mentions every one of the words. */
static inline void asc_expect_fault(aclrtStream s, const char *w1, const char *w2) {
    aclError e = aclrtSynchronizeStream(s);
    const char *m = aclGetRecentErrMsg();
    if (e != ACL_ERROR_RT_AICORE_EXCEPTION) FAIL("synchronize: got %d, want %d (ACL_ERROR_RT_AICORE_EXCEPTION)", (int)e, ACL_ERROR_RT_AICORE_EXCEPTION);
    if (m == NULL || strstr(m, w1) == NULL || (w2 && strstr(m, w2) == NULL)) {
        FAIL("the exception's message \"%s\" does not name \"%s\"%s%s", m ? m : "(none)", w1, w2 ? " and " : "", w2 ? w2 : "");
    }
}

#endif
