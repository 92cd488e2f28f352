/* node_bench: figures of the shared node (docs/node.md, issue #12).
 *
 *   malloc_free_2mib_ns   median of aclrtMalloc + aclrtFree of 2 MiB
 *   ipc_import_1gib_ns    median of aclrtIpcMemImportByKey of a 1 GiB key
 *                         exported by another process (the close is not timed)
 *
 * Build and run (from the repository root, after `make lib`):
 *   cc -O2 -Iemu/include bench/c/node_bench.c -Lemu/lib -lascendcl -o /tmp/node_bench
 *   NPUEMU_NODE=bench LD_LIBRARY_PATH=emu/lib /tmp/node_bench [iterations]
 */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"

extern char **environ;

#define OK(call)                                                                 \
    do {                                                                         \
        aclError e_ = (call);                                                    \
        if (e_ != ACL_SUCCESS) {                                                 \
            fprintf(stderr, "%s: %d %s\n", #call, (int)e_, aclGetRecentErrMsg()); \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static long long median(long long *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

/* importer: imports key n times, prints the median import time. */
static int importer(const char *key, int n) {
    OK(aclInit(NULL));
    OK(aclrtSetDevice(0));
    long long *t = calloc((size_t)n, sizeof *t);
    for (int i = 0; i < n; i++) {
        void *p = NULL;
        long long t0 = now_ns();
        OK(aclrtIpcMemImportByKey(&p, key, 0));
        t[i] = now_ns() - t0;
        OK(aclrtIpcMemClose(key));
    }
    printf("ipc_import_1gib_ns %lld\n", median(t, n));
    OK(aclrtResetDevice(0));
    OK(aclFinalize());
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[1], "import") == 0) return importer(argv[2], atoi(argv[3]));
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    OK(aclInit(NULL));
    OK(aclrtSetDevice(0));
    long long *t = calloc((size_t)n, sizeof *t);
    for (int i = 0; i < 100; i++) { /* warm up */
        void *p = NULL;
        OK(aclrtMalloc(&p, 2 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtFree(p));
    }
    for (int i = 0; i < n; i++) {
        void *p = NULL;
        long long t0 = now_ns();
        OK(aclrtMalloc(&p, 2 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtFree(p));
        t[i] = now_ns() - t0;
    }
    printf("malloc_free_2mib_ns %lld\n", median(t, n));
    fflush(stdout);

    void *big = NULL;
    OK(aclrtMalloc(&big, 1ull << 30, ACL_MEM_MALLOC_HUGE_ONLY));
    char key[65];
    if (aclrtIpcMemGetExportKey(big, 1ull << 30, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) == ACL_SUCCESS) {
        char self[4096];
        ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
        self[k > 0 ? k : 0] = 0;
        char count[16];
        snprintf(count, sizeof count, "%d", n / 10 > 0 ? n / 10 : 1);
        char *av[] = {self, "import", key, count, NULL};
        pid_t pid;
        if (posix_spawn(&pid, self, NULL, NULL, av, environ) == 0) {
            int st;
            waitpid(pid, &st, 0);
        }
        OK(aclrtIpcMemClose(key));
    }
    OK(aclrtFree(big));
    OK(aclrtResetDevice(0));
    OK(aclFinalize());
    return 0;
}
