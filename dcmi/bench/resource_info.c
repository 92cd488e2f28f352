/*
 * Benchmark of dcmi_get_device_resource_info (issue #12: <= 50 us median)
 * on a node where PROCS processes hold memory on device 0. Each holder is
 * this program re-executed with the runtime preloaded; the measuring
 * process links only libdcmi.so. Prints the median and the 99th
 * percentile of single calls.
 *
 *   make bench-dcmi [BENCH_DCMI_PROCS=4]
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "dcmi_interface_api.h"

#define CALLS 20000
#define MAXP 32

static int holder(int ready_fd) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    void *acl = dlopen("libascendcl.so", RTLD_NOW | RTLD_GLOBAL);
    if (acl == NULL) return 2;
    aclError (*init)(const char *) = (aclError(*)(const char *))dlsym(acl, "aclInit");
    aclError (*set)(int32_t) = (aclError(*)(int32_t))dlsym(acl, "aclrtSetDevice");
    aclError (*alloc)(void **, size_t, aclrtMemMallocPolicy) =
        (aclError(*)(void **, size_t, aclrtMemMallocPolicy))dlsym(acl, "aclrtMalloc");
    void *p;
    if (init(NULL) != 0 || set(0) != 0 || alloc(&p, 64 << 20, ACL_MEM_MALLOC_HUGE_FIRST) != 0) return 3;
    char c = 'r';
    if (write(ready_fd, &c, 1) != 1) return 4;
    pause();
    return 0;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "holder") == 0) return holder(atoi(argv[2]));
    int procs = getenv("BENCH_DCMI_PROCS") ? atoi(getenv("BENCH_DCMI_PROCS")) : 4;
    if (procs < 0 || procs > MAXP) procs = 4;
    char node[64];
    if (getenv("NPUEMU_NODE") == NULL) {
        snprintf(node, sizeof node, "/tmp/npuemu-bench-dcmi-%d", (int)getpid());
        setenv("NPUEMU_NODE", node, 1);
    }
    pid_t kids[MAXP];
    for (int i = 0; i < procs; i++) {
        int fd[2];
        if (pipe(fd) != 0) return 1;
        kids[i] = fork();
        if (kids[i] == 0) {
            char a[16];
            snprintf(a, sizeof a, "%d", fd[1]);
            setenv("LD_PRELOAD", "libascendcl.so", 1);
            execl("/proc/self/exe", argv[0], "holder", a, (char *)NULL);
            _exit(5);
        }
        close(fd[1]);
        char c;
        if (read(fd[0], &c, 1) != 1) {
            fprintf(stderr, "holder %d failed to allocate\n", i);
            return 1;
        }
        close(fd[0]);
    }
    if (dcmi_init() != DCMI_OK) return 1;
    struct dcmi_proc_mem_info info[32];
    int n = 0;
    static double t[CALLS];
    for (int i = 0; i < CALLS; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        int rc = dcmi_get_device_resource_info(0, 0, info, &n);
        clock_gettime(CLOCK_MONOTONIC, &b);
        if (rc != DCMI_OK || n != procs) {
            fprintf(stderr, "resource_info: rc %d, %d processes, want %d\n", rc, n, procs);
            return 1;
        }
        t[i] = (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
    }
    qsort(t, CALLS, sizeof t[0], cmp);
    printf("dcmi_get_device_resource_info, %d processes on the device: median %.2f us, p99 %.2f us (%d calls)\n",
           procs, t[CALLS / 2], t[CALLS * 99 / 100], CALLS);
    for (int i = 0; i < procs; i++) {
        kill(kids[i], SIGKILL);
        waitpid(kids[i], NULL, 0);
    }
    if (strncmp(getenv("NPUEMU_NODE"), "/tmp/npuemu-bench-dcmi-", 23) == 0) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", getenv("NPUEMU_NODE"));
        if (system(cmd) != 0) return 1;
    }
    return 0;
}
