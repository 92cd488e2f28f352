// svm_bench: managed memory through the real library (docs/svm.md).
//
//   svm_device_fault_rate  device faults serviced per second: one launch of
//                          bench_kernels.c's empty kernel whose argument
//                          points into PAGES managed pages on the host; the
//                          launch faults every page in on device 0 (the
//                          kernel footprint). Launch + synchronise, divided
//                          by the faults (target ≥ 100 k/s). The pages go
//                          back to the host between rounds, untimed.
//   svm_host_fault_rate    host faults per second with
//                          NPUEMU_SVM_HOST_FAULTS=mprotect (a child process):
//                          HPAGES populated pages on device 0, the host
//                          writes one byte of each — a SIGSEGV the handler
//                          resolves with one mprotect of the 2 MiB page —
//                          then npuemuSvmGetStats accounts them
//   svm_host_fault_rate_uffd  the same with NPUEMU_SVM_HOST_FAULTS=
//                          userfaultfd-wp (another child): each write blocks
//                          in the kernel until the runtime's userfaultfd
//                          handler has served it; not printed (a note on
//                          stderr) where the kernel refuses the mode
//   svm_host_fault_floor   the platform's bound for the row above, without
//                          npuemu (a forked child, its own SIGSEGV
//                          handler): the same HPAGES writes, each fault
//                          resolved by one mprotect of its 2 MiB page
//   svm_host_fault_floor_4KiB  the same when the handler opens only the
//                          4 KiB granule touched (what a smaller protection
//                          granule could reach at best)
//   svm_mprotect_2MiB_us   the platform's cost of protecting a 2 MiB page
//                          the CPU has just written (what every host fault
//                          pays once), for reading the line above
//   svm_migrate_GBps       wall-clock migration bandwidth of 2 MiB pages:
//                          MIG populated bytes prefetched to device 0 and
//                          back
//   svm_memcpy_GBps        memcpy of MIG bytes between two host buffers
//   svm_migrate_memcpy_ratio  the two above (target ≥ 0.8)
//
// Each figure is the median over the rounds.
//
//	cc -O2 -I emu/include bench/c/svm_bench.c -L emu/lib -lascendcl
//	LD_LIBRARY_PATH=emu/lib ./a.out [--quick]
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "npuemu/svm.h"

#define PAGE ((size_t)2 << 20)

#define CK(x)                                                                         \
    do {                                                                              \
        aclError e_ = (x);                                                            \
        if (e_ != ACL_SUCCESS) {                                                      \
            const char *m_ = aclGetRecentErrMsg();                                    \
            fprintf(stderr, "%s:%d %s = %d (%s)\n", __FILE__, __LINE__, #x, (int)e_, \
                    m_ ? m_ : "no message");                                          \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int rounds = 15, pages = 4096, hpages = 64;
static size_t mig = (size_t)128 << 20;

static const aclrtMemManagedLocation dev0 = {.type = ACL_MEM_LOCATIONTYPE_DEVICE, .id = 0};
static const aclrtMemManagedLocation host = {.type = ACL_MEM_LOCATIONTYPE_HOST, .id = 0};

// build_kernels compiles bench_kernels.c next to this file (the runner
// compiles this file by absolute path, so __FILE__ locates it).
static void build_kernels(char *so, size_t n) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", __FILE__);
    char *slash = strrchr(dir, '/');
    if (slash == NULL) {
        fprintf(stderr, "svm_bench: built from %s, not an absolute path: cannot find bench_kernels.c\n", __FILE__);
        exit(1);
    }
    *slash = 0;
    char tmp[] = "/tmp/npuemu-svm-bench-XXXXXX";
    if (mkdtemp(tmp) == NULL) {
        perror("mkdtemp");
        exit(1);
    }
    const char *cc = getenv("CC");
    if (cc == NULL || *cc == 0) cc = "cc";
    snprintf(so, n, "%s/bench_kernels.so", tmp);
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "%s -shared -fPIC -O2 -Wall -Werror -I '%s/../../emu/include' '%s/bench_kernels.c' -o '%s'", cc, dir, dir, so);
    if (system(cmd) != 0) {
        fprintf(stderr, "svm_bench: building the kernels failed: %s\n", cmd);
        exit(1);
    }
}

static void device_faults(aclrtStream s) {
    char so[4096];
    build_kernels(so, sizeof so);
    aclrtBinHandle bin;
    aclrtFuncHandle empty;
    CK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    unlink(so);
    *strrchr(so, '/') = 0;
    rmdir(so);
    CK(aclrtBinaryGetFunction(bin, "empty", &empty));

    char *m = NULL;
    size_t bytes = (size_t)pages * PAGE;
    CK(aclrtMemAllocManaged((void **)&m, bytes, ACL_RT_MEM_ATTACH_GLOBAL));
    aclrtArgsHandle args;
    aclrtParamHandle p;
    CK(aclrtKernelArgsInit(empty, &args));
    CK(aclrtKernelArgsAppend(args, &m, sizeof m, &p));
    CK(aclrtKernelArgsFinalize(args));
    double *rate = calloc(rounds, sizeof(double));
    struct npuemu_svm_stats st;
    for (int r = 0; r < rounds; r++) {
        CK(npuemuSvmGetStats(0, &st));
        uint64_t before = st.faults;
        double t0 = now_ns();
        CK(aclrtLaunchKernelWithConfig(empty, 1, s, NULL, args, NULL));
        CK(aclrtSynchronizeStream(s));
        double t1 = now_ns();
        CK(npuemuSvmGetStats(0, &st));
        if (st.faults - before != (uint64_t)pages) {
            fprintf(stderr, "device faults: %llu, want %d\n", (unsigned long long)(st.faults - before), pages);
            exit(1);
        }
        rate[r] = pages / ((t1 - t0) / 1e9);
        CK(aclrtMemManagedPrefetchAsync(m, bytes, host, 0, s));
        CK(aclrtSynchronizeStream(s));
    }
    printf("svm_device_fault_rate %.6g faults/s\n", median(rate, rounds));
    free(rate);
    CK(aclrtFree(m));
    CK(aclrtBinaryUnLoad(bin));
}

static void migration(aclrtStream s) {
    char *m = NULL;
    CK(aclrtMemAllocManaged((void **)&m, mig, ACL_RT_MEM_ATTACH_GLOBAL));
    memset(m, 1, mig);
    char *a = malloc(mig), *b = malloc(mig);
    double *mg = calloc(rounds, sizeof(double)), *cg = calloc(rounds, sizeof(double));
    if (a == NULL || b == NULL || mg == NULL || cg == NULL) exit(1);
    memset(a, 2, mig);
    memset(b, 3, mig);
    for (int r = 0; r < rounds; r++) {
        double t0 = now_ns();
        CK(aclrtMemManagedPrefetchAsync(m, mig, dev0, 0, s));
        CK(aclrtSynchronizeStream(s));
        CK(aclrtMemManagedPrefetchAsync(m, mig, host, 0, s));
        CK(aclrtSynchronizeStream(s));
        double t1 = now_ns();
        mg[r] = 2.0 * mig / (t1 - t0);
        t0 = now_ns();
        memcpy(b, a, mig);
        t1 = now_ns();
        cg[r] = mig / (t1 - t0);
        a[r] = b[mig - 1 - r]; // keep the copy observable
    }
    double mgm = median(mg, rounds), cgm = median(cg, rounds);
    printf("svm_migrate_GBps %.6g GB/s\n", mgm);
    printf("svm_memcpy_GBps %.6g GB/s\n", cgm);
    printf("svm_migrate_memcpy_ratio %.6g ratio\n", mgm / cgm);
    CK(aclrtFree(m));
    free(a);
    free(b);
    free(mg);
    free(cg);
}

static void host_faults(aclrtStream s) {
    const char *want = getenv("NPUEMU_SVM_HOST_FAULTS"), *mode = npuemuSvmHostFaultMode();
    if (want == NULL) want = "explicit";
    int uffd = strcmp(want, "userfaultfd-wp") == 0;
    if (mode == NULL || strcmp(mode, want) != 0) {
        fprintf(stderr, "svm_bench: host fault mode %s refused here (in use: %s): no %s row\n", want,
                mode ? mode : "?", uffd ? "svm_host_fault_rate_uffd" : "svm_host_fault_rate");
        return;
    }
    char *m = NULL;
    size_t bytes = (size_t)hpages * PAGE;
    CK(aclrtMemAllocManaged((void **)&m, bytes, ACL_RT_MEM_ATTACH_GLOBAL));
    for (int i = 0; i < hpages; i++) m[(size_t)i * PAGE] = 1; // populate: faults move, not allocate
    double *rate = calloc(rounds, sizeof(double)), *mp = calloc(rounds, sizeof(double));
    struct npuemu_svm_stats st;
    for (int r = 0; r < rounds; r++) {
        CK(aclrtMemManagedPrefetchAsync(m, bytes, dev0, 0, s));
        CK(aclrtSynchronizeStream(s));
        CK(npuemuSvmGetStats(NPUEMU_SVM_HOST, &st));
        uint64_t before = st.faults;
        double t0 = now_ns();
        for (int i = 0; i < hpages; i++) m[(size_t)i * PAGE] = (char)r;
        CK(npuemuSvmGetStats(NPUEMU_SVM_HOST, &st));
        double t1 = now_ns();
        if (st.faults - before != (uint64_t)hpages) {
            fprintf(stderr, "host faults: %llu, want %d\n", (unsigned long long)(st.faults - before), hpages);
            exit(1);
        }
        rate[r] = hpages / ((t1 - t0) / 1e9);
    }
    CK(aclrtFree(m));
    if (uffd) {
        printf("svm_host_fault_rate_uffd %.6g faults/s\n", median(rate, rounds));
        free(rate);
        free(mp);
        return;
    }
    // The platform's price of one protection change of a populated,
    // huge-page-backed 2 MiB page, outside npuemu.
    char *raw = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *pg = (char *)(((uintptr_t)raw + PAGE - 1) & ~(uintptr_t)(PAGE - 1));
    madvise(pg, PAGE, MADV_HUGEPAGE);
    memset(pg, 1, PAGE);
    for (int r = 0; r < rounds; r++) {
        // Written just before, as a faulting page is: the change must
        // flush the translation the write left behind.
        double t = 0;
        for (int k = 0; k < 8; k++) {
            pg[k] = (char)r;
            double t0 = now_ns();
            mprotect(pg, PAGE, PROT_NONE);
            t += now_ns() - t0;
            mprotect(pg, PAGE, PROT_READ | PROT_WRITE);
        }
        mp[r] = t / 8e3;
    }
    munmap(raw, 2 * PAGE);
    printf("svm_host_fault_rate %.6g faults/s\n", median(rate, rounds));
    printf("svm_mprotect_2MiB_us %.6g us\n", median(mp, rounds));
    free(rate);
    free(mp);
}

// The platform floor of a host fault: SIGSEGV delivery, one mprotect in
// the handler, sigreturn — nothing of npuemu. floor_gran is the protection
// granule the handler opens.
static size_t floor_gran;

static void floor_segv(int sig, siginfo_t *si, void *uc) {
    (void)sig;
    (void)uc;
    uintptr_t a = (uintptr_t)si->si_addr & ~(uintptr_t)(floor_gran - 1);
    if (mprotect((void *)a, floor_gran, PROT_READ | PROT_WRITE) != 0) _exit(3);
}

static double floor_rate(size_t gran) {
    floor_gran = gran;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = floor_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, &old);
    char *raw = mmap(NULL, (size_t)(hpages + 1) * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) exit(1);
    char *m = (char *)(((uintptr_t)raw + PAGE - 1) & ~(uintptr_t)(PAGE - 1));
    madvise(m, (size_t)hpages * PAGE, MADV_HUGEPAGE); // as the managed window
    for (int i = 0; i < hpages; i++) m[(size_t)i * PAGE] = 1;
    double *rate = calloc(rounds, sizeof(double));
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < hpages; i++) mprotect(m + (size_t)i * PAGE, PAGE, PROT_NONE);
        double t0 = now_ns();
        for (int i = 0; i < hpages; i++) m[(size_t)i * PAGE] = (char)r;
        double t1 = now_ns();
        rate[r] = hpages / ((t1 - t0) / 1e9);
    }
    double v = median(rate, rounds);
    free(rate);
    munmap(raw, (size_t)(hpages + 1) * PAGE);
    sigaction(SIGSEGV, &old, NULL);
    return v;
}

// host_fault_floor prints the two floor rows from a child of its own, so
// that its SIGSEGV handler never meets the library's.
static void host_fault_floor(void) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        printf("svm_host_fault_floor %.6g faults/s\n", floor_rate(PAGE));
        printf("svm_host_fault_floor_4KiB %.6g faults/s\n", floor_rate(4096));
        fflush(stdout);
        _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "svm_bench: the host-fault floor child failed\n");
        exit(1);
    }
}

int main(int argc, char **argv) {
    int quick = 0, hostpart = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--host-faults") == 0) {
            hostpart = 1;
        } else {
            fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
            return 2;
        }
    }
    if (quick) rounds = 3, pages = 16, hpages = 4, mig = (size_t)8 << 20;

    if (!hostpart) host_fault_floor();

    // The host-fault parts need a fault mode, which the library reads from
    // the environment when it loads: a child of their own each.
    static const char *const modes[] = {"mprotect", "userfaultfd-wp"};
    for (int k = 0; !hostpart && k < 2; k++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            setenv("NPUEMU_SVM_HOST_FAULTS", modes[k], 1);
            char *args[] = {argv[0], "--host-faults", quick ? "--quick" : NULL, NULL};
            execv("/proc/self/exe", args);
            perror("execv");
            _exit(1);
        }
        int status = 0;
        if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "svm_bench: the %s host-fault child failed\n", modes[k]);
            return 1;
        }
    }
    CK(aclInit(NULL));
    CK(aclrtSetDevice(0));
    aclrtStream s;
    CK(aclrtCreateStream(&s));
    if (hostpart) {
        host_faults(s);
    } else {
        device_faults(s);
        migration(s);
    }
    CK(aclrtDestroyStream(s));
    CK(aclrtResetDevice(0));
    CK(aclFinalize());
    return 0;
}
