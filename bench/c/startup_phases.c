/* startup_phases.c: npuemu_bench's start_to_first_malloc_ms taken apart.
 * The program spawns itself N times (as npuemu_bench does); each child
 * stamps CLOCK_MONOTONIC at main, after aclInit, aclrtSetDevice(0) and
 * aclrtMalloc(4 KiB), and reports its thread count at that moment; then
 * it frees, resets and finalizes, stamps again and exits. The parent prints
 * the median and quartiles of each phase:
 *   exec_to_main  spawn to the child's main (loader, libc; our libraries
 *                 are linked but the Go runtime is loaded by aclInit)
 *   aclInit       the core library's load, the Go runtime's start, our init
 *   SetDevice, Malloc, total (spawn to the first allocation: npuemu_bench's
 *   start_to_first_malloc_ms), teardown (aclrtFree, aclrtResetDevice,
 *   aclFinalize), lifetime (spawn to the parent reaping the exited child),
 *   threads, and from the reaped child's resource usage: faults (page
 *   faults, minor and major) and cpu (user + system time, ms, all its
 *   threads: steadier than the wall-clock phases on a host whose load
 *   moves)
 *
 *   startup_phases N LABEL     one line per phase: "LABEL PHASE median M p25 A p75 B ms"
 * bench/startup.sh runs it on 2 CPUs and on all, with the kernel's TLB
 * shootdown and function-call interrupt counts around each batch.
 */
#include "acl/acl.h"
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { MAXN = 2000, PHASES = 10 };
static const char *names[PHASES] = {"exec_to_main", "aclInit",  "SetDevice", "Malloc", "total",
                                    "teardown",     "lifetime", "threads",   "faults", "cpu"};
static const char *units[PHASES] = {"ms", "ms", "ms", "ms", "ms", "ms", "ms", "threads", "faults", "ms"};

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int threads(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    int n = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "Threads:", 8) == 0) n = atoi(line + 8);
    if (f != NULL) fclose(f);
    return n;
}

static int child(void) {
    double t[5];
    void *p = NULL;
    t[0] = now_ns();
    if (aclInit(NULL) != ACL_SUCCESS) return 1;
    t[1] = now_ns();
    if (aclrtSetDevice(0) != ACL_SUCCESS) return 1;
    t[2] = now_ns();
    if (aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
    t[3] = now_ns();
    int th = threads();
    if (aclrtFree(p) != ACL_SUCCESS || aclrtResetDevice(0) != ACL_SUCCESS || aclFinalize() != ACL_SUCCESS) return 1;
    t[4] = now_ns();
    printf("%.0f %.0f %.0f %.0f %.0f %d\n", t[0], t[1], t[2], t[3], t[4], th);
    fflush(stdout);
    return 0;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    if (argc < 3) {
        fprintf(stderr, "usage: startup_phases N LABEL\n");
        return 2;
    }
    int n = atoi(argv[1]);
    if (n < 1 || n > MAXN) n = 100;
    static double v[PHASES][MAXN];
    for (int i = 0; i < n; i++) {
        int fd[2];
        if (pipe(fd) != 0) return 1;
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
        posix_spawn_file_actions_addclose(&fa, fd[0]);
        posix_spawn_file_actions_addclose(&fa, fd[1]);
        char *av[] = {"startup_phases", "--child", NULL};
        pid_t pid;
        double t0 = now_ns();
        int rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, av, environ);
        posix_spawn_file_actions_destroy(&fa);
        close(fd[1]);
        if (rc != 0) return 1;
        char buf[256] = {0};
        size_t got = 0;
        ssize_t r;
        while (got < sizeof buf - 1 && (r = read(fd[0], buf + got, sizeof buf - 1 - got)) > 0) got += r;
        close(fd[0]);
        int st = 0;
        double a[5];
        int th = 0;
        struct rusage ru;
        pid_t w = wait4(pid, &st, 0, &ru);
        double reaped = now_ns();
        if (w < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 ||
            sscanf(buf, "%lf %lf %lf %lf %lf %d", &a[0], &a[1], &a[2], &a[3], &a[4], &th) != 6) {
            fprintf(stderr, "startup_phases: child failed\n");
            return 1;
        }
        v[0][i] = (a[0] - t0) / 1e6;
        v[1][i] = (a[1] - a[0]) / 1e6;
        v[2][i] = (a[2] - a[1]) / 1e6;
        v[3][i] = (a[3] - a[2]) / 1e6;
        v[4][i] = (a[3] - t0) / 1e6;
        v[5][i] = (a[4] - a[3]) / 1e6;
        v[6][i] = (reaped - t0) / 1e6;
        v[7][i] = th;
        v[8][i] = (double)(ru.ru_minflt + ru.ru_majflt);
        v[9][i] = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    }
    for (int k = 0; k < PHASES; k++) {
        qsort(v[k], n, sizeof v[k][0], cmp);
        printf("%s %s median %.3f p25 %.3f p75 %.3f %s\n", argv[2], names[k], v[k][n / 2], v[k][n / 4],
               v[k][3 * n / 4], units[k]);
    }
    return 0;
}
