//go:build ignore

/* prof_collect.c: profile a kernel with the AscendCL profiling API and
 * mstx, then print the op summary msprof would have exported.
 *
 *   cc -O2 -I emu/include examples/prof_collect.c -L emu/lib -lascendcl -lmsprofiler -o prof_collect
 *   LD_LIBRARY_PATH=emu/lib ./prof_collect [vadd.so [RESULT_DIR]]
 *
 * aclprofInit names the result directory; each aclprofStart makes a new
 * PROF_... directory in it and aclprofStop fills its
 * mindstudio_profiler_output/ (docs/profiling.md). mstx ranges mark the
 * phases of the program on the timeline and in msprof_tx.
 *
 * link: -lmsprofiler
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#include "kernels/build_kernel.h"

#define CHECK(call)                                                                     \
    do {                                                                                \
        aclError e_ = (call);                                                           \
        if (e_ != ACL_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: %s = %d (%s)\n", __FILE__, __LINE__, #call, (int)e_, \
                    aclGetRecentErrMsg());                                              \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

/* print_op_summary prints <dir>/PROF_*\/mindstudio_profiler_output/op_summary_*.csv. */
static int print_op_summary(const char *dir) {
    char out[8192] = "";
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "PROF_", 5) == 0)
            snprintf(out, sizeof out, "%s/%s/mindstudio_profiler_output", dir, e->d_name);
    if (d) closedir(d);
    d = out[0] ? opendir(out) : NULL;
    char path[16384] = "";
    while (d && (e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "op_summary_", 11) == 0) snprintf(path, sizeof path, "%s/%s", out, e->d_name);
    if (d) closedir(d);
    FILE *f = path[0] ? fopen(path, "r") : NULL;
    if (f == NULL) {
        fprintf(stderr, "no op summary under %s\n", dir);
        return 1;
    }
    printf("%s:\n", path);
    char line[4096];
    while (fgets(line, sizeof line, f)) fputs(line, stdout);
    fclose(f);
    return 0;
}

int main(int argc, char **argv) {
    uint64_t n = 1u << 20;
    const size_t bytes = n * sizeof(float);
    char so[4096], dir[4096];
    if (argc > 1) {
        snprintf(so, sizeof so, "%s", argv[1]);
    } else {
        char repo[4096];
        npuemu_repo_of(__FILE__, 1, repo, sizeof repo);
        if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) return 1;
    }
    if (argc > 2) {
        snprintf(dir, sizeof dir, "%s", argv[2]);
    } else {
        snprintf(dir, sizeof dir, "/tmp/prof_collect-XXXXXX");
        if (mkdtemp(dir) == NULL) return 1;
    }

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));
    aclrtBinHandle bin;
    aclrtFuncHandle fn;
    CHECK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "vadd_f32", &fn));
    if (argc <= 1) npuemu_remove_kernel(so);

    /* Profile everything from here to aclprofStop. */
    CHECK(aclprofInit(dir, strlen(dir)));
    uint32_t devices[] = {0};
    aclprofConfig *config = aclprofCreateConfig(devices, 1, ACL_AICORE_PIPE_UTILIZATION, NULL,
                                                ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS |
                                                    ACL_PROF_MSPROFTX);
    if (config == NULL) {
        fprintf(stderr, "aclprofCreateConfig: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    CHECK(aclprofStart(config));

    mstxRangeId setup = mstxRangeStartA("setup", NULL);
    float *h;
    void *d[3];
    CHECK(aclrtMallocHost((void **)&h, bytes));
    for (uint64_t i = 0; i < n; i++) h[i] = (float)i;
    for (int i = 0; i < 3; i++) CHECK(aclrtMalloc(&d[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtArgsHandle args;
    aclrtParamHandle param;
    CHECK(aclrtKernelArgsInit(fn, &args));
    for (int i = 0; i < 3; i++) CHECK(aclrtKernelArgsAppend(args, &d[i], sizeof d[i], &param));
    CHECK(aclrtKernelArgsAppend(args, &n, sizeof n, &param));
    CHECK(aclrtKernelArgsFinalize(args));
    mstxRangeEnd(setup);

    mstxRangeId work = mstxRangeStartA("copy in, add, copy out", stream);
    CHECK(aclrtMemcpyAsync(d[0], bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK(aclrtMemcpyAsync(d[1], bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    for (int i = 0; i < 4; i++) CHECK(aclrtLaunchKernelWithConfig(fn, 16, stream, NULL, args, NULL));
    CHECK(aclrtMemcpyAsync(h, bytes, d[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    CHECK(aclrtSynchronizeStream(stream));
    mstxRangeEnd(work);
    if (h[n - 1] != 2.0f * (float)(n - 1)) {
        fprintf(stderr, "wrong result %f\n", h[n - 1]);
        return 1;
    }

    CHECK(aclprofStop(config));
    CHECK(aclprofDestroyConfig(config));
    CHECK(aclprofFinalize());

    for (int i = 0; i < 3; i++) CHECK(aclrtFree(d[i]));
    CHECK(aclrtFreeHost(h));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return print_op_summary(dir);
}
