/* fork_work.h: the work of the fork_* cases' processes: a whole session
 * (aclInit, a device, memory, a kernel launch, a synchronisation, the
 * result checked, aclFinalize). */
#ifndef NPUEMU_CONFORMANCE_FORK_WORK_H
#define NPUEMU_CONFORMANCE_FORK_WORK_H

#include <stdint.h>

#include "node_proc.h"
#include "../../examples/kernels/build_kernel.h"

#define FORK_N 4099u

/* fork_vadd_build builds the vadd kernel into so (before any fork: the
 * build runs a compiler, nothing of the runtime). */
static inline void fork_vadd_build(const char *file, char *so, size_t len) {
    char repo[4096];
    npuemu_repo_of(file, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, len) != 0) FAIL("cannot build the kernel");
}

/* fork_session runs the session with the values a[i] = i + seed,
 * b[i] = 2i and checks c = a + b on the host; 0 when everything passed. */
static inline int fork_session(const char *so, int seed) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = NULL;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f));
    static float ha[FORK_N], hb[FORK_N], hc[FORK_N];
    for (uint32_t i = 0; i < FORK_N; i++) {
        ha[i] = (float)(i + (uint32_t)seed);
        hb[i] = (float)(2 * i);
        hc[i] = -1;
    }
    size_t bytes = sizeof ha;
    void *da, *db, *dc;
    CHECK_OK(aclrtMalloc(&da, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&db, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dc, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(da, bytes, ha, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(db, bytes, hb, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    uint64_t n = FORK_N;
    aclrtArgsHandle args;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(f, &args));
    CHECK_OK(aclrtKernelArgsAppend(args, &da, sizeof da, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &db, sizeof db, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &dc, sizeof dc, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &n, sizeof n, &p));
    CHECK_OK(aclrtKernelArgsFinalize(args));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 4, s, NULL, args, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(hc, bytes, dc, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < FORK_N; i++)
        if (hc[i] != ha[i] + hb[i]) FAIL("pid %d: c[%u] = %g, want %g", (int)getpid(), i, hc[i], ha[i] + hb[i]);
    CHECK_OK(aclrtFree(da));
    CHECK_OK(aclrtFree(db));
    CHECK_OK(aclrtFree(dc));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}

/* fork_wait waits for pid and returns its exit status (-signal if killed). */
static inline int fork_wait(pid_t pid) {
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) CHECK(errno == EINTR);
    if (WIFSIGNALED(st)) return -WTERMSIG(st);
    return WEXITSTATUS(st);
}

#endif
